#include "table/scenario.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "table/table.hpp"

namespace cardtable::table {
using namespace cardtable::bridge;

namespace {

// The last moment a scenario runs to: its 'end', else 10 s after its last step.
Millis end_of(const Scenario& sc) { return sc.end >= 0 ? sc.end : (sc.steps.empty() ? 0 : sc.steps.back().time) + 10000; }

std::vector<std::string> words_of(std::string_view line) {
  std::vector<std::string> out;
  std::istringstream in{std::string(line)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Seconds from 0 to a day: a scenario is one session at one table.
std::optional<Millis> seconds_to_ms(const std::string& s) {
  try {
    std::size_t used = 0;
    double v = std::stod(s, &used);
    if (used != s.size() || v < 0 || !std::isfinite(v) || v > 86400) return std::nullopt;
    return static_cast<Millis>(std::llround(v * 1000.0));
  } catch (...) {
    return std::nullopt;
  }
}

struct Timing {
  Millis scan_card_ms = 400;  // a card lies over the scan slot this long ...
  Millis scan_gap_ms = 200;   // ... and the slot is empty this long before the next
  Millis play_step_ms = 1000; // between the cards of a trick
  Millis trick_ms = 5000;     // between the leads of two tricks (play all)
};

// The steps a scenario may hold (flicker writes one a read): what a few hours of a whole table's readings take.
constexpr Millis kMostSteps = 100000;
// The read periods a scenario runs (each a reading of every zone, made up front): 2 h 46 min at 100 ms.
constexpr Millis kMostPeriods = 100000;

class Parser {
 public:
  Parser(const std::filesystem::path& folder,
         const std::function<const MasterRecord&(const std::vector<std::filesystem::path>&)>& load,
         std::vector<ScenarioError>& errors)
      : folder_(folder), load_(load), errors_(errors) {}

  std::optional<Scenario> parse(std::string_view text);

 private:
  bool fail(const std::string& msg) {
    errors_.push_back({line_, msg});
    return false;
  }
  // The master record: the scenario's 'master' lines, or whatever the caller loads instead (a --master
  // given on the command line). Null when there is none at all.
  const MasterRecord* master() {
    if (!master_) master_ = &load_(scenario_.masters);
    return master_->size() > 0 ? master_ : nullptr;
  }
  bool action(Millis t, std::vector<std::string> w);
  using Packs = std::map<Card, std::set<int>>;  // ScenarioStep::packs
  bool read(Millis t, const Zone& z, Hand cards, int unknown = 0, double confidence = 1.0, bool complete = true,
            Packs packs = {});
  bool command(Millis t, Command::Kind kind, std::string text, Seat seat = Seat::North);
  // "as master [SEAT] [board LABEL] [-CARD|+CARD]...", starting at w[i] == "as".
  // Cards written CARD@PACK (a 'tags' scenario) put their pack in `packs`.
  std::optional<Hand> master_hand(const std::vector<std::string>& w, std::size_t i, Seat default_seat, Packs* packs = nullptr);
  std::optional<Hand> card_list(const std::vector<std::string>& w, std::size_t from, Packs& packs);
  // A card word, "SA" or "SA@2", put into `h` (and its pack into `packs`).
  bool tagged_card(const std::string& word, Hand& h, Packs& packs);
  void play_card(Millis t, Seat s, Card c);

  std::filesystem::path folder_;
  const std::function<const MasterRecord&(const std::vector<std::filesystem::path>&)>& load_;
  std::vector<ScenarioError>& errors_;
  const MasterRecord* master_ = nullptr;
  Scenario scenario_;
  Timing timing_;
  int line_ = 0;
  int end_line_ = 0;  // the 'end' line, for the error of a scenario too long (parse)
  std::optional<std::uint32_t> board_;             // the board "as master" means
  std::array<std::vector<std::pair<Millis, Card>>, 4> played_{};  // what the script has each seat play
};

bool Parser::read(Millis t, const Zone& z, Hand cards, int unknown, double confidence, bool complete, Packs packs) {
  ScenarioStep s;
  s.kind = ScenarioStep::Kind::Read;
  s.time = t;
  s.zone = z;
  s.cards = cards;
  s.unknown = unknown;
  s.confidence = confidence;
  s.complete = complete;
  s.packs = std::move(packs);
  s.line = line_;
  scenario_.steps.push_back(s);
  return true;
}

bool Parser::command(Millis t, Command::Kind kind, std::string text, Seat seat) {
  ScenarioStep s;
  s.kind = ScenarioStep::Kind::Command;
  s.time = t;
  s.command = Command{kind, std::move(text), seat, t};
  s.line = line_;
  scenario_.steps.push_back(s);
  return true;
}

void Parser::play_card(Millis t, Seat s, Card c) {
  read(t, Zone{ZoneKind::Play, s}, Hand::from_bits(std::uint64_t{1} << c.id()));
  played_[static_cast<std::size_t>(index(s))].emplace_back(t, c);
}

// "SA" or, in a scenario with a 'tags' line, "SA@2": the ace of spades of a second pack, whose tag has
// another UID (Law 13C's card of another pack, told from one card heard by two readers). Put where the
// face already is, a card of another pack is a second card of that face (two tags: ♠A and ♠A@2); the
// same card again is the same tag, one card.
bool Parser::tagged_card(const std::string& word, Hand& h, Packs& packs) {
  const auto at = word.find('@');
  auto c = Card::parse(word.substr(0, at));
  if (!c) return fail("'" + word + "' is not a card");
  int pack = 1;
  if (at != std::string::npos) {
    const std::string digit = word.substr(at + 1);
    if (digit.size() != 1 || digit[0] < '1' || digit[0] > '9') return fail("'" + word + "': expected a pack number 1..9 after '@' (e.g. SA@2)");
    if (!scenario_.tags) return fail("'" + word + "': a card's pack needs a 'tags' line before it (the zones then read tag UIDs)");
    pack = digit[0] - '0';
  }
  std::set<int> from = !h.contains(*c) ? std::set<int>{} : packs.count(*c) ? packs[*c] : std::set<int>{1};
  from.insert(pack);
  h.add(*c);
  if (from != std::set<int>{1}) packs[*c] = from;
  return true;
}

std::optional<Hand> Parser::card_list(const std::vector<std::string>& w, std::size_t from, Packs& packs) {
  Hand h;
  for (std::size_t i = from; i < w.size(); ++i)
    if (w[i] != "-" && !tagged_card(w[i], h, packs)) return std::nullopt;
  return h;
}

std::optional<Hand> Parser::master_hand(const std::vector<std::string>& w, std::size_t i, Seat seat, Packs* packs) {
  if (i + 1 >= w.size() || w[i] != "as" || w[i + 1] != "master") {
    fail("expected 'as master'");
    return std::nullopt;
  }
  const MasterRecord* m = master();
  if (!m) {
    fail("'as master' needs a master record: a 'master' line (or --master)");
    return std::nullopt;
  }
  std::optional<std::uint32_t> board = board_;
  std::vector<std::string> mods;
  for (std::size_t k = i + 2; k < w.size(); ++k) {
    if (w[k] == "board" && k + 1 < w.size()) {  // "board LABEL" with the label in one word: "1/7", "Autumn_Teams/1/2"
      std::string label = w[k + 1];
      std::replace(label.begin(), label.end(), '_', ' ');
      auto named = boards_named_by_label(*m, label, board_ ? std::optional(m->board(*board_).session) : std::nullopt);
      if (named.size() != 1) {
        fail(board_label_problem(*m, label, named));
        return std::nullopt;
      }
      board = named.front();
      ++k;
    } else if (auto s = parse_seat(w[k]); s && w[k].size() == 1) {
      seat = *s;
    } else {
      mods.push_back(w[k]);
    }
  }
  if (!board) {
    fail("'as master' needs a board: a 'board' command before it, or 'board LABEL' here");
    return std::nullopt;
  }
  Hand h = m->board(*board).deal.hand(seat);
  Packs none;
  Packs& into = packs ? *packs : none;
  for (const std::string& mod : mods) {
    if (mod.size() < 2 || (mod[0] != '-' && mod[0] != '+')) {
      fail("'" + mod + "': expected a seat, 'board LABEL', -CARD or +CARD");
      return std::nullopt;
    }
    if (mod[0] == '+') {
      if (!tagged_card(mod.substr(1), h, into)) return std::nullopt;
      continue;
    }
    Hand taken;
    if (!tagged_card(mod.substr(1), taken, none)) return std::nullopt;
    h = h - taken;  // every card of that face goes
    taken.for_each_descending([&](Card c) { into.erase(c); });
  }
  return h;
}

bool Parser::action(Millis t, std::vector<std::string> w) {
  if (w.empty()) return fail("nothing to do after the time");
  const std::string& verb = w[0];
  auto zone_arg = [&](std::size_t i) -> std::optional<Zone> {
    if (i >= w.size()) return std::nullopt;
    auto z = Zone::parse(w[i]);
    if (!z) fail("'" + w[i] + "' is not a zone (pocket:N, play:N, hand:N, dummy, scan)");
    return z;
  };
  auto seat_arg = [&](std::size_t i) -> std::optional<Seat> {
    if (i >= w.size()) {
      fail("expected a seat (N, E, S or W)");
      return std::nullopt;
    }
    auto s = parse_seat(w[i]);
    if (!s) fail("'" + w[i] + "' is not a seat (N, E, S or W)");
    return s;
  };

  if (verb == "board") {  // the label is the rest of the line: "board Spring Pairs/1/7"
    if (w.size() < 2) return fail("board: expected a label, e.g. 'board 7', 'board 1/7' or 'board Spring Pairs/1/7'");
    std::string label;
    for (std::size_t i = 1; i < w.size(); ++i) label += (i > 1 ? " " : "") + w[i];
    // An unknown label is the table's to reject (table.command_rejected); "as master" then has no board.
    if (const MasterRecord* m = master())
      board_ = resolve_board_label(*m, label, board_ ? std::optional(m->board(*board_).session) : std::nullopt);
    return command(t, Command::Kind::Board, label);
  }
  if (verb == "contract") {
    std::string text;
    for (std::size_t i = 1; i < w.size(); ++i) text += (i > 1 ? " " : "") + w[i];
    return command(t, Command::Kind::Contract, text);
  }
  if (verb == "check") return command(t, Command::Kind::Check, "");
  if (verb == "pocket" && w.size() == 2) {
    auto s = seat_arg(1);
    return s && command(t, Command::Kind::Pocket, w[1], *s);
  }
  if (verb == "pocket" || verb == "hand") {
    auto s = seat_arg(1);
    if (!s) return false;
    Zone z{verb == "pocket" ? ZoneKind::Pocket : ZoneKind::Hand, *s};
    if (w.size() >= 3 && w[2] == "full") return read(t, z, {}, 1);  // presence: some tag, not identified
    if (w.size() >= 3 && (w[2] == "empty" || w[2] == "-")) return read(t, z, {});
    Packs packs;
    if (w.size() >= 3 && w[2] == "as") {
      auto h = master_hand(w, 2, *s, &packs);
      return h && read(t, z, *h, 0, 1.0, true, packs);
    }
    auto h = card_list(w, 2, packs);
    return h && read(t, z, *h, 0, 1.0, true, packs);
  }
  if (verb == "pockets") {
    if (w.size() != 2 || (w[1] != "full" && w[1] != "empty" && w[1] != "as"))
      return fail("pockets: expected 'full', 'empty' or 'as master'");
    for (Seat s : kAllSeats) {
      Zone z{ZoneKind::Pocket, s};
      if (w[1] == "full") read(t, z, {}, 1);
      else if (w[1] == "empty") read(t, z, {});
    }
    return true;
  }
  if (verb == "scan") {
    auto pass = [&](Millis at, Hand cards, int unknown, Packs packs = {}) {
      read(at, Zone{ZoneKind::Scan, Seat::North}, cards, unknown, 1.0, true, std::move(packs));
      read(at + timing_.scan_card_ms, Zone{ZoneKind::Scan, Seat::North}, {});
    };
    if (w.size() >= 2 && w[1] == "pocket") {  // scan pocket N as master ...
      auto s = seat_arg(2);
      if (!s) return false;
      Packs packs;
      auto h = master_hand(w, 3, *s, &packs);
      if (!h) return false;
      Millis at = t;
      h->for_each_descending([&](Card c) {  // a card of two packs (+SA@2 to a hand with ♠A) passes twice
        auto of = packs.find(c);
        for (int pack : of == packs.end() ? std::set<int>{1} : of->second) {
          pass(at, Hand::from_bits(std::uint64_t{1} << c.id()), 0, pack == 1 ? Packs{} : Packs{{c, {pack}}});
          at += timing_.scan_card_ms + timing_.scan_gap_ms;
        }
      });
      return true;
    }
    if (w.size() >= 2 && w[1] == "unknown") {
      pass(t, {}, 1);
      return true;
    }
    // One card a pass: "scan SQ SQ" passes the same card (the same tag) twice, "scan SQ SQ@2" a second ♠Q.
    Millis at = t;
    for (std::size_t i = 1; i < w.size(); ++i) {
      Hand card;
      Packs packs;
      if (!tagged_card(w[i], card, packs)) return false;
      pass(at, card, 0, std::move(packs));
      at += timing_.scan_card_ms + timing_.scan_gap_ms;
    }
    return true;
  }
  if (verb == "play" && w.size() >= 2 && w[1] == "all") {  // play all as master [board LABEL] [turned N] [swap XY] [contract TEXT...]
    const MasterRecord* m = master();
    std::optional<std::uint32_t> board = board_;
    for (std::size_t i = 2; m && i + 1 < w.size(); ++i)
      if (w[i] == "board") {
        std::string label = w[i + 1];
        std::replace(label.begin(), label.end(), '_', ' ');
        auto named = boards_named_by_label(*m, label, board_ ? std::optional(m->board(*board_).session) : std::nullopt);
        if (named.size() != 1) return fail(board_label_problem(*m, label, named));
        board = named.front();
      }
    if (!m || !board) return fail("play all: needs a master record and a board ('board' command, or 'board LABEL' here)");
    std::string text;
    for (std::size_t i = 2; i < w.size(); ++i)
      if (w[i] == "contract") {
        for (std::size_t k = i + 1; k < w.size(); ++k) text += (text.empty() ? "" : " ") + w[k];
        break;
      }
    auto cc = parse_contract_command(text.empty() ? "3NT S" : text);
    if (!cc || cc->passed_out) return fail("play all: '" + text + "' is not a contract to play");
    // "turned N": the hands as they are after the board was turned N seats clockwise (Law 87A tests);
    // "swap NE": North's and East's hands exchanged.
    Deal deal = m->board(*board).deal;
    for (std::size_t i = 2; i + 1 < w.size(); ++i) {
      if (w[i] == "contract") break;
      if (w[i] == "turned") {
        if (w[i + 1].size() != 1 || w[i + 1][0] < '1' || w[i + 1][0] > '3') return fail("play all: 'turned' takes 1, 2 or 3 seats");
        deal = deal.rotated(w[i + 1][0] - '0');
      } else if (w[i] == "swap") {
        auto a = w[i + 1].size() == 2 ? parse_seat(w[i + 1].substr(0, 1)) : std::nullopt;
        auto b = w[i + 1].size() == 2 ? parse_seat(w[i + 1].substr(1, 1)) : std::nullopt;
        if (!a || !b) return fail("play all: 'swap' takes two seat letters, e.g. 'swap NE'");
        std::swap(deal.hand(*a), deal.hand(*b));
      }
    }
    auto play = legal_play(deal, cc->contract);
    Seat dummy = partner(cc->contract.declarer);
    Hand dummy_hand = deal.hand(dummy);
    bool with_dummy = scenario_.config.has(Zone{ZoneKind::Dummy, Seat::North});
    for (std::size_t i = 0; i < play.size(); ++i) {
      Millis at = t + static_cast<Millis>(i / 4) * timing_.trick_ms + static_cast<Millis>(i % 4) * timing_.play_step_ms;
      play_card(at, play[i].first, play[i].second);
      if (with_dummy && i == 0) read(at + timing_.play_step_ms / 2, Zone{ZoneKind::Dummy, Seat::North}, dummy_hand);
      if (with_dummy && play[i].first == dummy) {
        dummy_hand.remove(play[i].second);
        read(at + timing_.play_step_ms / 2, Zone{ZoneKind::Dummy, Seat::North}, dummy_hand);
      }
      if (i % 4 == 3)
        for (Seat s : kAllSeats) read(at + timing_.play_step_ms, Zone{ZoneKind::Play, s}, {});
    }
    return true;
  }
  if (verb == "play") {
    auto s = seat_arg(1);
    if (!s) return false;
    if (w.size() != 3) return fail("play: expected a seat and a card, e.g. 'play W SQ' ('-' for none)");
    if (w[2] == "-") return read(t, Zone{ZoneKind::Play, *s}, {});
    auto c = Card::parse(w[2]);
    if (!c) return fail("'" + w[2] + "' is not a card");
    play_card(t, *s, *c);
    return true;
  }
  if (verb == "trick") {  // trick LEADER C1 C2 C3 C4
    auto s = seat_arg(1);
    if (!s) return false;
    if (w.size() != 6) return fail("trick: expected the leader and four cards");
    for (int i = 0; i < 4; ++i) {
      auto c = Card::parse(w[static_cast<std::size_t>(2 + i)]);
      if (!c) return fail("'" + w[static_cast<std::size_t>(2 + i)] + "' is not a card");
      play_card(t + i * timing_.play_step_ms, rotate(*s, i), *c);
    }
    for (Seat x : kAllSeats) read(t + 4 * timing_.play_step_ms, Zone{ZoneKind::Play, x}, {});
    return true;
  }
  if (verb == "dummy") {
    Zone z{ZoneKind::Dummy, Seat::North};
    if (w.size() >= 2 && w[1] == "as") {
      Seat seat = Seat::North;
      for (std::size_t i = 3; i < w.size(); ++i)
        if (auto s = parse_seat(w[i]); s && w[i].size() == 1) seat = *s;
      auto h = master_hand(w, 1, seat);
      if (!h) return false;
      for (const auto& [at, c] : played_[static_cast<std::size_t>(index(seat))])
        if (at <= t) h->remove(c);
      return read(t, z, *h);
    }
    Packs packs;
    auto h = card_list(w, 1, packs);
    return h && read(t, z, *h, 0, 1.0, true, packs);
  }
  if (verb == "clear") {
    auto z = zone_arg(1);
    return z && read(t, *z, {});
  }
  if (verb == "reload") {  // reload [master PATH...]
    ScenarioStep s;
    s.kind = ScenarioStep::Kind::Reload;
    s.time = t;
    s.line = line_;
    if (w.size() >= 2 && w[1] != "master") return fail("reload: expected nothing, or 'master PATH'");
    if (w.size() == 2) return fail("reload master: expected a file or folder");
    for (std::size_t i = 2; i < w.size(); ++i) {
      std::filesystem::path p(w[i]);
      s.masters.push_back(p.is_absolute() ? p : folder_ / p);
    }
    scenario_.steps.push_back(s);
    return true;
  }
  if (verb == "silent") {
    auto z = zone_arg(1);
    if (!z) return false;
    ScenarioStep s;
    s.kind = ScenarioStep::Kind::Silent;
    s.time = t;
    s.zone = *z;
    s.line = line_;
    scenario_.steps.push_back(s);
    return true;
  }
  if (verb == "read") {  // read ZONE CARDS... [unknown N] [confidence X] [incomplete]
    auto z = zone_arg(1);
    if (!z) return false;
    Hand h;
    int unknown = 0;
    double confidence = 1.0;
    bool complete = true;
    Packs packs;
    for (std::size_t i = 2; i < w.size(); ++i) {
      if (w[i] == "incomplete") {
        complete = false;
        continue;
      }
      if ((w[i] == "unknown" || w[i] == "confidence") && i + 1 < w.size()) {
        try {
          if (w[i] == "unknown") unknown = std::stoi(w[i + 1]);
          else confidence = std::stod(w[i + 1]);
        } catch (...) {
          return fail("'" + w[i + 1] + "' is not a number");
        }
        ++i;
        continue;
      }
      if (w[i] == "-") continue;
      if (!tagged_card(w[i], h, packs)) return false;
    }
    return read(t, *z, h, unknown, confidence, complete, packs);
  }
  if (verb == "flicker") {  // flicker ZONE C1 C2 SECONDS
    if (w.size() != 5) return fail("flicker: expected a zone, two cards ('-' for none) and a duration in seconds");
    auto z = zone_arg(1);
    auto a = w[2] == "-" ? std::optional<Card>() : Card::parse(w[2]);
    auto b = w[3] == "-" ? std::optional<Card>() : Card::parse(w[3]);
    auto d = seconds_to_ms(w[4]);
    if (!z || !d || (w[2] != "-" && !a) || (w[3] != "-" && !b)) return fail("flicker: expected a zone, two cards and seconds");
    // One step a read: a day's flicker at a read every 10 ms is 8.6 million steps, gigabytes before the
    // scenario has even started. A scenario is a script of minutes; longer flicker says nothing more.
    if (const Millis reads = *d / scenario_.read_period; static_cast<Millis>(scenario_.steps.size()) + reads > kMostSteps)
      return fail("flicker: " + w[4] + " s at a read every " + std::to_string(scenario_.read_period) + " ms is " + std::to_string(reads) +
                  " readings; a scenario holds at most " + std::to_string(kMostSteps) + " steps");
    bool first = true;
    for (Millis at = t; at < t + *d; at += scenario_.read_period) {
      const auto& c = first ? a : b;
      read(at, *z, c ? Hand::from_bits(std::uint64_t{1} << c->id()) : Hand{});
      first = !first;
    }
    return read(t + *d, *z, {});  // then the zone reads empty
  }
  return fail("unknown action '" + verb + "'");
}

std::optional<Scenario> Parser::parse(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string raw;
  bool zones_given = false;
  while (std::getline(in, raw)) {
    ++line_;
    if (auto hash = raw.find('#'); hash != std::string::npos) raw.erase(hash);
    auto w = words_of(raw);
    if (w.empty()) continue;
    if (w[0] == "master") {
      std::string rest = raw.substr(raw.find("master") + 6);
      while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) rest.erase(0, 1);
      while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.back()))) rest.pop_back();
      if (rest.empty()) { fail("master: expected a file or folder"); continue; }
      if (master_) { fail("'master' lines must all come before the first use of the master record"); continue; }
      std::filesystem::path p(rest);
      scenario_.masters.push_back(p.is_absolute() ? p : folder_ / p);
    } else if (w[0] == "zones") {
      zones_given = true;
      Millis keep_period = scenario_.read_period;
      TableConfig base = scenario_.config;
      if (w.size() == 2 && w[1] == "station-scan") scenario_.config.zones = TableConfig::station_scan().zones;
      else if (w.size() == 2 && w[1] == "station-hands") scenario_.config.zones = TableConfig::station_hands().zones;
      else if (w.size() == 2 && w[1] == "playing-table") scenario_.config.zones = TableConfig::playing_table().zones;
      else {
        scenario_.config.zones.clear();
        for (std::size_t i = 1; i < w.size(); ++i) {
          auto z = Zone::parse(w[i]);
          if (!z) fail("'" + w[i] + "' is not a zone");
          else scenario_.config.zones.push_back(*z);
        }
      }
      scenario_.read_period = keep_period;
      (void)base;
    } else if (w[0] == "set") {
      if (w.size() != 3) { fail("set: expected a name and a value"); continue; }
      double v = 0;
      try {
        v = std::stod(w[2]);
      } catch (...) {
        fail("set " + w[1] + ": '" + w[2] + "' is not a number");
        continue;
      }
      // Every setting is a count, a fraction or milliseconds: 0 to a day. (The fuzzer found 6e69.)
      if (!std::isfinite(v) || v < 0 || v > 86400000) {
        fail("set " + w[1] + ": " + w[2] + " is out of range (0 to 86400000)");
        continue;
      }
      auto ms = static_cast<Millis>(v);
      TableConfig& c = scenario_.config;
      if (w[1] == "stable_reads") c.stable_reads = static_cast<int>(v);
      else if (w[1] == "stable_ms") c.stable_ms = ms;
      else if (w[1] == "min_confidence") c.min_confidence = v;
      else if (w[1] == "flicker_window_ms") c.flicker_window_ms = ms;
      else if (w[1] == "flicker_changes") c.flicker_changes = static_cast<int>(v);
      else if (w[1] == "noisy_absent_reads") c.noisy_absent_reads = std::max(1, static_cast<int>(v));
      else if (w[1] == "noise_memory_ms") c.noise_memory_ms = ms;
      else if (w[1] == "steady_after_reads") c.steady_after_reads = static_cast<int>(v);
      else if (w[1] == "silence_ms") c.silence_ms = ms;
      else if (w[1] == "pocket_gap_ms") c.pocket_gap_ms = ms;
      else if (w[1] == "return_settle_ms") c.return_settle_ms = ms;
      else if (w[1] == "lead_wait_ms") c.lead_wait_ms = ms;
      else if (w[1] == "board_lift_ms") c.board_lift_ms = ms;
      else if (w[1] == "board_lift_noisy_ms") c.board_lift_noisy_ms = ms;
      else if (w[1] == "board_laid_noisy_ms") c.board_laid_noisy_ms = ms;
      else if (w[1] == "board_relaid_noisy_ms") c.board_relaid_noisy_ms = ms;
      else if (w[1] == "board_allowance_ms") c.board_allowance_ms = ms;
      else if (w[1] == "read_period") scenario_.read_period = std::clamp<Millis>(ms, 10, 10000);
      else if (w[1] == "scan_card_ms") timing_.scan_card_ms = ms;
      else if (w[1] == "scan_gap_ms") timing_.scan_gap_ms = ms;
      else if (w[1] == "play_step_ms") timing_.play_step_ms = ms;
      else if (w[1] == "trick_ms") timing_.trick_ms = ms;
      else fail("set: unknown setting '" + w[1] + "'");
    } else if (w[0] == "tags") {
      if (w.size() != 1) fail("tags: expected nothing after it (every card read then carries its tag's UID)");
      else scenario_.tags = true;
    } else if (w[0] == "end") {
      auto t = w.size() == 2 ? seconds_to_ms(w[1]) : std::nullopt;
      if (!t) fail("end: expected a time in seconds");
      else {
        scenario_.end = *t;
        end_line_ = line_;
      }
    } else if (w[0] == "at") {
      auto t = w.size() >= 2 ? seconds_to_ms(w[1]) : std::nullopt;
      if (!t) { fail("at: expected a time in seconds (0 to 86400), e.g. 'at 12.5 play W SQ'"); continue; }
      action(*t, std::vector<std::string>(w.begin() + 2, w.end()));
    } else {
      fail("unknown line '" + w[0] + "' (expected master, zones, set, tags, at or end)");
    }
  }
  if (!zones_given) fail("no 'zones' line: say which zones the table has");
  if (!errors_.empty()) return std::nullopt;
  std::stable_sort(scenario_.steps.begin(), scenario_.steps.end(), [](const ScenarioStep& a, const ScenarioStep& b) { return a.time < b.time; });
  // Every read period is a reading of each zone: a day at a read every 10 ms was gigabytes when they were
  // all made before the table started, and is still 8.6 million periods of the table's work (ScenarioInputs
  // now makes them as it goes). Said at the 'end' line, or at the last step's when it is implied.
  const Millis end = end_of(scenario_);
  if (const Millis periods = end / scenario_.read_period; periods > kMostPeriods) {
    line_ = scenario_.end >= 0 ? end_line_ : scenario_.steps.back().line;
    fail("the scenario runs " + std::to_string(periods) + " read periods (" + std::to_string(end / 1000) + " s at a read every " +
         std::to_string(scenario_.read_period) + " ms); at most " + std::to_string(kMostPeriods) + ": an earlier end, or a longer read_period");
    return std::nullopt;
  }
  return std::move(scenario_);
}

}  // namespace

std::optional<Scenario> parse_scenario(std::string_view text, const std::filesystem::path& folder,
                                       const std::function<const MasterRecord&(const std::vector<std::filesystem::path>&)>& load_master,
                                       std::vector<ScenarioError>& errors) {
  return Parser(folder, load_master, errors).parse(text);
}

std::string scenario_tag_uid(Card card, int pack) {
  static const char* const hex = "0123456789ABCDEF";
  std::string uid = "04CA7D";
  for (int byte : {pack, 0, 0, card.id()}) {
    uid += hex[(byte >> 4) & 0xF];
    uid += hex[byte & 0xF];
  }
  return uid;
}

namespace {
// What the simulated device reads for a step: with 'tags', each card with its tag's UID -- one for each
// pack it is read from (a second ♠A of another pack is a second tag).
Observation observation_of(const Scenario& sc, const ScenarioStep& s, Millis time) {
  Observation o{s.zone, s.cards, s.unknown, s.complete, s.confidence, "sim", time, {}, {}, {}};
  if (sc.tags)
    s.cards.for_each_descending([&](Card c) {
      auto packs = s.packs.find(c);
      for (int pack : packs == s.packs.end() ? std::set<int>{1} : packs->second) o.card_ids.emplace(c, scenario_tag_uid(c, pack));
    });
  o.count_tags();
  return o;
}
}  // namespace

ScenarioInputs::ScenarioInputs(const Scenario& sc, Millis offset, bool first_pass) : scenario_(&sc), offset_(offset) {
  end_ = end_of(sc);
  if (first_pass) return;
  // What the scenario leaves on the table at its end reads on at the start of the next pass.
  for (const ScenarioStep& s : sc.steps) {
    if (s.kind != ScenarioStep::Kind::Read && s.kind != ScenarioStep::Kind::Silent) continue;
    take_step(s);
    zones_[static_cast<std::size_t>(s.zone.index())].obs.time = 0;
  }
}

void ScenarioInputs::take_step(const ScenarioStep& s) {
  Live& z = zones_[static_cast<std::size_t>(s.zone.index())];
  if (std::find(order_.begin(), order_.end(), s.zone) == order_.end()) order_.push_back(s.zone);
  z.active = s.kind == ScenarioStep::Kind::Read;
  z.obs = observation_of(*scenario_, s, s.time);
}

std::optional<TableInput> ScenarioInputs::next() {
  const Scenario& sc = *scenario_;
  while (t_ <= end_) {
    switch (stage_) {
      case Stage::Steps:
        // The steps of this period, in order: a command is an input at its time; a reading changes what
        // its zone reads from now on.
        while (next_step_ < sc.steps.size() && sc.steps[next_step_].time <= t_) {
          const ScenarioStep& s = sc.steps[next_step_++];
          if (s.kind == ScenarioStep::Kind::Reload) continue;
          if (s.kind != ScenarioStep::Kind::Command) {
            take_step(s);
            continue;
          }
          TableInput in;
          in.kind = TableInput::Kind::Command;
          in.command = s.command;
          in.command.time += offset_;
          in.time = s.time + offset_;
          return in;
        }
        stage_ = Stage::Readings;
        next_reading_ = 0;
        break;
      case Stage::Readings:
        // Each active zone read once in the period.
        while (next_reading_ < order_.size()) {
          const Live& z = zones_[static_cast<std::size_t>(order_[next_reading_++].index())];
          if (!z.active) continue;
          TableInput in;
          in.kind = TableInput::Kind::Observe;
          in.observation = z.obs;
          in.observation.time = t_ + offset_;
          in.time = t_ + offset_;
          return in;
        }
        stage_ = Stage::Tick;
        break;
      case Stage::Tick: {
        TableInput tick;
        tick.time = t_ + offset_;
        t_ += sc.read_period;
        stage_ = Stage::Steps;
        return tick;
      }
    }
  }
  return std::nullopt;
}

namespace {
std::vector<TableInput> all_of(ScenarioInputs inputs) {
  std::vector<TableInput> out;
  while (auto in = inputs.next()) out.push_back(*std::move(in));
  return out;
}
}  // namespace

std::vector<TableInput> scenario_inputs(const Scenario& sc) { return all_of(ScenarioInputs(sc)); }

std::vector<TableInput> scenario_pass_inputs(const Scenario& sc, Millis offset, bool first_pass) {
  return all_of(ScenarioInputs(sc, offset, first_pass));
}

std::vector<Zone> scenario_read_zones(const Scenario& sc) {
  // ScenarioInputs::next without the readings: the steps up to a period are taken at its start, then each
  // zone reading is read, in the order the steps first named them.
  const Millis end = end_of(sc);
  std::vector<Zone> named, read;
  std::array<bool, kZoneCount> reading{};
  for (std::size_t i = 0; i < sc.steps.size();) {
    const Millis period = (sc.steps[i].time + sc.read_period - 1) / sc.read_period * sc.read_period;  // the first to take it
    if (period > end) break;
    for (; i < sc.steps.size() && sc.steps[i].time <= period; ++i) {
      const ScenarioStep& s = sc.steps[i];
      if (s.kind != ScenarioStep::Kind::Read && s.kind != ScenarioStep::Kind::Silent) continue;
      if (std::find(named.begin(), named.end(), s.zone) == named.end()) named.push_back(s.zone);
      reading[static_cast<std::size_t>(s.zone.index())] = s.kind == ScenarioStep::Kind::Read;
    }
    for (const Zone& z : named)
      if (reading[static_cast<std::size_t>(z.index())] && std::find(read.begin(), read.end(), z) == read.end()) read.push_back(z);
  }
  return read;
}

void apply(Table& table, const TableInput& in) {
  switch (in.kind) {
    case TableInput::Kind::Observe: table.observe(in.observation); break;
    case TableInput::Kind::Command: table.command(in.command); break;
    case TableInput::Kind::Tick: table.tick(in.time); break;
  }
}

void run_scenario(const Scenario& sc, const MasterRecord& master, const MasterLoader& reload, const std::function<void(Event&&)>& each) {
  Table table(master, sc.config);
  for (Event& e : table.take_events()) each(std::move(e));
  std::vector<const ScenarioStep*> reloads;
  for (const ScenarioStep& s : sc.steps)
    if (s.kind == ScenarioStep::Kind::Reload) reloads.push_back(&s);
  std::size_t r = 0;
  ScenarioInputs inputs(sc);
  while (const auto in = inputs.next()) {
    // A reload comes before the inputs of its moment, as a SIGHUP between two reads would.
    for (; r < reloads.size() && reloads[r]->time <= in->time; ++r) {
      table.tick(reloads[r]->time);
      table.reload_master(reload ? reload(reloads[r]->masters.empty() ? sc.masters : reloads[r]->masters) : master);
    }
    apply(table, *in);
    for (Event& e : table.take_events()) each(std::move(e));
  }
}

std::vector<Event> run_scenario(const Scenario& sc, const MasterRecord& master, const MasterLoader& reload) {
  std::vector<Event> out;
  run_scenario(sc, master, reload, [&out](Event&& e) { out.push_back(std::move(e)); });
  return out;
}

std::vector<std::pair<Seat, Card>> legal_play(const Deal& deal, const Contract& contract, const PlayFaults& faults) {
  std::vector<std::pair<Seat, Card>> out;
  std::array<Hand, 4> hands = deal.hands();
  std::optional<Suit> trump = trump_of(contract.strain);
  Seat leader = faults.opening_leader.value_or(left_hand_opponent(contract.declarer));
  bool revoked = false;
  auto lowest = [](const Hand& h, Suit s) {
    std::uint32_t b = h.suit_bits(s);
    return Card(s, static_cast<Rank>(std::countr_zero(b)));
  };
  for (int trick = 0; trick < 13; ++trick) {
    if (faults.accepted_lead_at_trick && *faults.accepted_lead_at_trick == trick + 1) leader = left_hand_opponent(leader);
    std::array<std::optional<Card>, 4> cards{};
    Hand& lh = hands[static_cast<std::size_t>(index(leader))];
    Suit longest = Suit::Clubs;
    for (Suit s : kDisplaySuits)
      if (lh.length(s) > lh.length(longest)) longest = s;
    std::uint32_t b = lh.suit_bits(longest);
    Card lead(longest, static_cast<Rank>(31 - std::countl_zero(b)));
    cards[static_cast<std::size_t>(index(leader))] = lead;
    lh.remove(lead);
    out.emplace_back(leader, lead);
    for (int k = 1; k < 4; ++k) {
      Seat s = rotate(leader, k);
      Hand& h = hands[static_cast<std::size_t>(index(s))];
      Card c;
      bool could_revoke = h.length(lead.suit()) > 0 && h.length(lead.suit()) < h.size();
      if (!revoked && faults.revoke_at_trick && *faults.revoke_at_trick == trick + 1 && could_revoke) {
        revoked = true;  // discard from another suit while holding the suit led
        Suit from = lead.suit();
        for (Suit x : kDisplaySuits)
          if (x != lead.suit() && h.length(x) > 0 && (from == lead.suit() || h.length(x) > h.length(from))) from = x;
        c = lowest(h, from);
      } else if (h.length(lead.suit()) > 0) c = lowest(h, lead.suit());
      else if (trump && h.length(*trump) > 0) c = lowest(h, *trump);
      else {
        Suit from = Suit::Clubs;
        for (Suit x : kDisplaySuits)
          if (h.length(x) > h.length(from)) from = x;
        c = lowest(h, from);
      }
      cards[static_cast<std::size_t>(index(s))] = c;
      h.remove(c);
      out.emplace_back(s, c);
    }
    leader = trick_winner(cards, leader, trump);
  }
  return out;
}

}  // namespace cardtable::table
