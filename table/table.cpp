#include "table/table.hpp"

#include "table/four_pockets.hpp"
#include "table/hand_moves.hpp"
#include "table/heard_twice.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace cardtable::table {
using namespace cardtable::bridge;

namespace {
std::string seat_word(Seat s) { return std::string(seat_name(s)); }
std::string side_word(Side s) { return s == Side::NorthSouth ? "North-South" : "East-West"; }
bool trump_known(const std::optional<ContractCommand>& c) { return c && !c->passed_out; }
// Law 62D1: a revoke on trick twelve (index 11) is corrected even once established, as long as the four
// hands are not back in the board; Law 64B6: no trick adjustment for it.
constexpr std::size_t kTwelfthTrick = 11;
const std::string kTwelfthTrickWords =
    "; a revoke on trick 12 is still to be corrected before all four hands are back in the board, with no trick adjustment";
// A deal of another session or event played at this table is Law 6D2's as well as 87A's (the station
// reports the same deal as irregularity.foreign_session, 6D2).
const std::string kForeignSession = "foreign session";
std::vector<std::string> cause_laws(const std::string& kind) {
  return kind == kForeignSession ? std::vector<std::string>{"87A", "6D2"} : std::vector<std::string>{"87A"};
}
std::string cause_laws_words(const std::string& kind) { return kind == kForeignSession ? " (Laws 87A, 6D2)" : " (Law 87A)"; }
std::string seconds(Millis ms) { return std::to_string(ms / 1000) + "." + std::to_string((ms % 1000) / 100) + " s"; }
}  // namespace

Table::Table(const MasterRecord& master, TableConfig config) : master_(&master), config_(std::move(config)) {
  emit_capabilities();
}

void Table::reload_master(const MasterRecord& master) {
  master_ = &master;
  // Session and board are indexes into the old record: find them again by name and by deal.
  std::optional<std::uint32_t> session;
  if (info_) {
    for (std::uint32_t i = 0; i < master_->session_count(); ++i)
      if (master_->session(i).event == info_->event_name && master_->session(i).session == info_->session) session = i;
  } else if (session_) {
    session.reset();  // no board in progress: the next board command or deal says which session
  }
  session_ = session;
  if (!info_) {
    board_.reset();
    return;
  }
  bool lost_before = !info_->entry;  // a reload before this one already said the deal is gone
  // The same deal as dealt, preferably under the same name.
  std::optional<std::uint32_t> found;
  for (const DealMatch& m : master_->lookup(info_->deal)) {
    if (!m.exact()) continue;
    const MasterBoard& b = master_->board(m.entry);
    bool same_name = b.board == info_->number && master_->session(b.session).event == info_->event_name &&
                     master_->session(b.session).session == info_->session;
    if (!found || same_name) found = m.entry;
    if (same_name) break;
  }
  board_ = found;
  info_->entry = found;
  if (found) {
    const MasterBoard& b = master_->board(*found);
    session_ = b.session;
    if (b.board != info_->number || master_->session(b.session).event != info_->event_name ||
        master_->session(b.session).session != info_->session) {
      info_->number = b.board;
      info_->event_name = master_->session(b.session).event;
      info_->session = master_->session(b.session).session;
      info_->description = master_->describe(*found);
      Event e = make("board.identified", Severity::Info, {}, "Identified as " + info_->description + " in the reloaded master record (same deal)");
      e.evidence = {{"board", info_->description}, {"how", "deal found in the reloaded record"}, {"certainty", "certain"}};
      emit(std::move(e));
    }
    return;
  }
  // The deal is gone: say so once; the board goes on, checked against the deal it had.
  if (lost_before) return;
  Event e = make("reading.uncertain", Severity::Warning, {},
                 board_text() + ": its deal is not in the reloaded master record; the board goes on, checked against the deal it had");
  e.evidence = {{"cause", "board not in the reloaded record"}, {"board", info_->description}};
  emit(std::move(e));
}

std::vector<Event> Table::take_events() {
  std::vector<Event> out;
  out.swap(out_);
  return out;
}

std::vector<Observation> Table::stable_readings() const {
  std::vector<Observation> held;
  for (const Zone& z : config_.zones)
    if (const auto& r = readings_[static_cast<std::size_t>(z.index())].stable()) held.push_back(*r);
  return held;
}

void Table::assume_readings(const std::vector<Observation>& readings, Millis heard) {
  now_ = std::max(now_, heard);
  for (const Observation& o : readings) {
    if (!std::any_of(config_.zones.begin(), config_.zones.end(), [&](const Zone& z) { return z == o.zone; })) continue;
    readings_[static_cast<std::size_t>(o.zone.index())].assume(o, heard);
    // The pockets as they were: taken out after the restart they start a period (Law 17A), where a run
    // that did not know them full saw none go.
    if (o.zone.kind == ZoneKind::Pocket) present_[static_cast<std::size_t>(index(o.zone.seat))] = !o.cards.empty() || o.unknown > 0;
  }
  // Four pockets full and no board in play: the board the last run saw returned still lies here, or the
  // next one laid there. Between boards, as that run was (judge_pockets_out).
  if (phase_ == Phase::Waiting && std::all_of(present_.begin(), present_.end(), [](const std::optional<bool>& p) { return p && *p; }))
    between_boards_ = true;
}

std::string Table::phase_name() const {
  switch (phase_) {
    case Phase::Waiting: return "waiting";
    case Phase::Auction: return "auction";
    case Phase::Play: return "play";
    case Phase::Over: return "over";
  }
  return "?";
}

Event Table::make(std::string type, Severity sev, std::vector<std::string> laws, std::string message) const {
  Event e;
  e.type = std::move(type);
  e.severity = sev;
  e.laws = std::move(laws);
  e.message = std::move(message);
  e.time = now_;
  return e;
}

void Table::emit(Event e) {
  if (e.board == 0 && info_) {
    e.board = info_->number;
    e.event_name = info_->event_name;
    e.session = info_->session;
  }
  out_.push_back(std::move(e));
}

std::string Table::board_text() const {
  return info_ ? "Board " + std::to_string(info_->number) : std::string("The board");
}

void Table::emit_capabilities() {
  std::string zones, unavailable;
  // Lists are built by appends: gcc 12 at -O3 warns a false -Wrestrict on "" + std::string (the const char* +
  // string&& operator), which a Release -DCARDTABLE_WERROR=ON build refuses.
  for (const Zone& z : config_.zones) zones.append(zones.empty() ? "" : " ").append(z.str());
  std::string short_list;
  auto missing = [&](bool ok, const char* what) {
    if (ok) return;
    unavailable += std::string(unavailable.empty() ? "" : "; ") + what;
    std::string name(what);
    short_list.append(short_list.empty() ? "" : ",").append(name, 0, name.find(':'));
  };
  bool station = config_.has(Zone{ZoneKind::Scan, Seat::North}) || config_.has_all(ZoneKind::Hand);
  missing(station, "station: board check, counts, missing and surplus cards, deal against the master (13, 14, 6, 87A; needs scan or hand:N/E/S/W)");
  missing(config_.has_all(ZoneKind::Pocket), "pockets: auction period, passed-out and returned boards, board timing (17, 7; needs pocket:N/E/S/W)");
  missing(config_.has_all(ZoneKind::Play), "play: tricks, leads out of turn, revokes, cards from another hand, count after play (54, 55, 61-64, 87A, 13D; needs play:N/E/S/W)");
  missing(config_.has(Zone{ZoneKind::Dummy, Seat::North}), "dummy: dummy's hand and dummy exchanged with declarer (43A2a; needs dummy)");
  Event e = make("table.capabilities", Severity::Info, {},
                 unavailable.empty() ? "Every check is available" : "Checks not available with these zones: " + unavailable);
  e.evidence = {{"zones", zones}, {"unavailable", short_list.empty() ? "none" : short_list}};
  emit(std::move(e));
}

void Table::set_board(std::uint32_t entry, const std::string& how, const std::string& certainty) {
  board_ = entry;
  const MasterBoard& b = master_->board(entry);
  session_ = b.session;
  info_ = BoardInfo{entry, b.board, master_->session(b.session).event, master_->session(b.session).session, master_->describe(entry),
                    b.dealer, b.deal};
  if (!cause_.empty() || !foreign_.empty()) held_.reset();
  else held_ = b.deal;
  Event e = make("board.identified", Severity::Info, {}, "Identified as " + master_->describe(entry) + " (" + how + ")");
  e.evidence = {{"board", master_->describe(entry)}, {"how", how}, {"certainty", certainty}};
  emit(std::move(e));
}

// ---------------------------------------------------------------------------------------------------
// Readings

void Table::observe(const Observation& o) {
  now_ = std::max(now_, o.time);
  int zi = o.zone.index();
  if (!config_.has(o.zone)) {
    if (!stray_reported_[static_cast<std::size_t>(zi)]) {
      Event e = make("reading.uncertain", Severity::Warning, {}, "A reading from " + o.zone.str() + ", which this table does not have, is ignored");
      e.evidence = {{"zone", o.zone.str()}, {"source", o.source}};
      emit(std::move(e));
      stray_reported_[static_cast<std::size_t>(zi)] = true;
    }
    return;
  }
  StableReading& r = readings_[static_cast<std::size_t>(zi)];
  if (silent_[static_cast<std::size_t>(zi)]) {
    silent_[static_cast<std::size_t>(zi)] = false;
    Event e = make("reading.resumed", Severity::Info, {}, "Readings from " + o.zone.str() + " again");
    e.evidence = {{"zone", o.zone.str()}, {"source", o.source}};
    emit(std::move(e));
  }
  // A reader that has lately missed replies of tags that were there (one-poll dropouts) needs a longer
  // run of reads without a tag before the tag counts as gone (table_config.hpp, noisy_absent_reads). So
  // does one that has not yet heard tags steady_after_reads times: a reader just started has had no
  // chance to show that it drops replies, and its first three missed polls running would otherwise empty
  // a full pocket (a false auction period and the board back twice, Laws 17 and 7).
  auto noise = missed_replies_.find(o.source);
  int& heard = reads_heard_[o.source];
  bool noisy = (noise != missed_replies_.end() && o.time - noise->second <= config_.noise_memory_ms) || heard < config_.steady_after_reads;
  if (heard < config_.steady_after_reads && o.confidence >= config_.min_confidence && (!o.cards.empty() || o.unknown > 0)) ++heard;
  noisy_[static_cast<std::size_t>(zi)] = noisy;
  const auto& stable = r.feed(o, config_, noisy);  // r.stable(): nothing below feeds or forgets r before on_stable
  // A pocket read empty: its first tag heard since (at the confidence tag_heard counts) is when it came
  // back, before its reading steadies (back_spread).
  if (o.zone.kind == ZoneKind::Pocket && (!o.cards.empty() || o.unknown > 0) && o.confidence >= config_.min_confidence) {
    auto si = static_cast<std::size_t>(index(o.zone.seat));
    if (present_[si] == false && !back_heard_[si]) back_heard_[si] = o.time;
  }
  ReaderReads& counted = reader_reads_[o.source];
  ++counted.reads;
  if (o.confidence >= config_.min_confidence && (!o.cards.empty() || o.unknown > 0)) ++counted.heard;
  if (r.missed_replies()) {
    missed_replies_[o.source] = o.time;
    ++counted.missed_replies;
  }
  if (r.flicker_started(o.time, config_)) {
    Event e = make("reading.uncertain", Severity::Warning, {},
                   "The reading of " + o.zone.str() + " keeps changing; nothing is concluded from it until it settles");
    e.evidence = {{"zone", o.zone.str()}, {"cause", "flicker"}, {"source", o.source}};
    if (o.zone.has_seat()) e.seats = {o.zone.seat};
    emit(std::move(e));
  }
  if (r.low_confidence_started(config_)) {
    Event e = make("reading.uncertain", Severity::Warning, {},
                   "Readings of " + o.zone.str() + " come below the confidence floor; they are ignored until they improve");
    e.evidence = {{"zone", o.zone.str()}, {"cause", "low confidence"}, {"source", o.source}};
    if (o.zone.has_seat()) e.seats = {o.zone.seat};
    emit(std::move(e));
  }
  if (stable) on_stable(*stable);
  tick(o.time);
}

void Table::tick(Millis now) {
  now_ = std::max(now_, now);
  for (const Zone& z : config_.zones) {
    auto i = static_cast<std::size_t>(z.index());
    StableReading& r = readings_[i];
    if (!r.heard() || silent_[i] || now_ - r.last_heard() < config_.silence_ms) continue;
    silent_[i] = true;
    r.forget();
    Event e = make("reading.uncertain", Severity::Warning, {},
                   "No reading from " + z.str() + " for " + seconds(now_ - r.last_heard()) + ": the zone is unknown until it reads again");
    e.evidence = {{"zone", z.str()}, {"cause", "silent"}, {"last_heard", seconds(r.last_heard())}};
    if (z.has_seat()) e.seats = {z.seat};
    emit(std::move(e));
  }
  judge_pockets_out();  // the pockets still full, heard again: were the pockets out taken one by one?
  // The wait for the leader's card (card_played) ends when its area settles without a card, falls silent,
  // or after lead_wait_ms: the lead out of turn stands.
  if (pending_lead_ && (now_ - pending_lead_->since >= config_.lead_wait_ms ||
                        play_reading(pending_lead_->want).card_came() < 0))
    settle_pending_lead();
  // The board back with a pocket short, steady for return_settle_ms (on_pocket): judge it now.
  if (return_pending_ && (phase_ == Phase::Auction || phase_ == Phase::Play || phase_ == Phase::Over) &&
      now_ - *return_pending_ >= config_.return_settle_ms) {
    Millis back = *return_pending_;
    return_pending_.reset();
    board_returned(back);
  }
  // Station: the pause after the fourth pocket ends the board.
  if (pocket_ == 3 && !pockets_[3].cards.empty() && now_ - last_card_ >= config_.pocket_gap_ms) station_evaluate(now_);
  if ((phase_ == Phase::Auction || phase_ == Phase::Play) && !slow_reported_ && now_ - board_start_ > config_.board_allowance_ms) {
    slow_reported_ = true;
    Event e = make("timing.slow_board", Severity::Warning, {},
                   board_text() + " has been in play for " + std::to_string((now_ - board_start_) / 60000) + " min " +
                       std::to_string((now_ - board_start_) / 1000 % 60) + " s, over the allowance of " +
                       seconds(config_.board_allowance_ms));
    e.evidence = {{"allowance", seconds(config_.board_allowance_ms)}, {"elapsed", seconds(now_ - board_start_)}};
    emit(std::move(e));
  }
}

void Table::on_stable(const Observation& o) {
  // A reading that contradicts another zone is uncertain: nothing is concluded from it.
  if (check_two_zones(o)) return;
  switch (o.zone.kind) {
    case ZoneKind::Scan: on_scan(o); break;
    case ZoneKind::Hand: on_hand(o); break;
    case ZoneKind::Pocket: on_pocket(o); break;
    case ZoneKind::Play: unknown_in_play(o); on_play(o); break;
    case ZoneKind::Dummy: unknown_in_play(o); on_dummy(o); break;
  }
}

// A tag or image in a play area or dummy that is no card of the enrolled deck: a card of another pack put
// down, or a pack not enrolled. Reported once per settled reading (the same stray tag lying there is one
// event); the table's play goes on from the cards it knows, the stray one being no card of this deal.
// The tags' UIDs are the director's detail (card_evidence), as at the station (board_check.cpp).
void Table::unknown_in_play(const Observation& o) {
  if (o.unknown == 0) return;
  const std::string where = o.zone.kind == ZoneKind::Dummy ? std::string("dummy") : seat_word(o.zone.seat) + "'s play area";
  Event e = make("irregularity.unknown_card", Severity::Warning, {},
                 board_text() + ": " + (o.unknown == 1 ? std::string("a tag") : std::to_string(o.unknown) + " tags") +
                     " in " + where + (o.unknown == 1 ? " is" : " are") + " no card of the enrolled deck");
  if (o.zone.has_seat()) e.seats = {o.zone.seat};
  e.evidence = {{"unknown", std::to_string(o.unknown)}, {"zone", o.zone.str()}};
  std::string ids;
  for (const std::string& id : o.unknown_ids) ids += (ids.empty() ? "" : ",") + id;
  if (!ids.empty()) e.card_evidence = {{"uids", ids}};
  emit(std::move(e));
}

bool Table::check_two_zones(const Observation& o) {
  // A card cannot be in front of a player and in dummy at once: one of the two readings is wrong.
  if (o.zone.kind != ZoneKind::Play && o.zone.kind != ZoneKind::Dummy) return false;
  bool conflict = false;
  for (const Zone& z : config_.zones) {
    if (z == o.zone || (z.kind != ZoneKind::Play && z.kind != ZoneKind::Dummy)) continue;
    const auto& other = readings_[static_cast<std::size_t>(z.index())].stable();
    if (!other) continue;
    Hand both = other->cards & o.cards;
    if (both.empty()) continue;
    // Dummy's card moving to dummy's play area is seen in both for a moment: only a card in two play
    // areas, or in dummy and the play area of a seat known not to be dummy, is a contradiction. When
    // dummy is not known yet, the play area it moves to says who dummy is.
    if (z.kind == ZoneKind::Dummy || o.zone.kind == ZoneKind::Dummy) {
      Seat player = z.kind == ZoneKind::Play ? z.seat : o.zone.seat;
      if (!dummy_ && phase_ == Phase::Play) {
        dummy_checked_ = true;
        dummy_known(player, o.time);
      }
      if (dummy_ && player == *dummy_) continue;
    }
    std::string cards, shown;
    both.for_each_descending([&](Card c) {
      cards += (cards.empty() ? "" : " ") + c.str();
      shown += (shown.empty() ? "" : " ") + c.display();
    });
    std::string n = both.size() == 1 ? "A card is" : std::to_string(both.size()) + " cards are";
    Event e = make("reading.uncertain", Severity::Warning, {}, n + " read in " + o.zone.str() + " and " + z.str() + " at once");
    e.evidence = {{"count", std::to_string(both.size())}, {"zones", o.zone.str() + " " + z.str()}, {"cause", "card in two zones"}};
    e.card_evidence = {{"cards", cards}};
    e.card_message = shown + " read in " + o.zone.str() + " and " + z.str() + " at once";
    emit(std::move(e));
    conflict = true;
  }
  return conflict;
}

// ---------------------------------------------------------------------------------------------------
// Board-checking station

bool Table::station_has_cards() const {
  return std::any_of(pockets_.begin(), pockets_.end(), [](const PocketRead& p) { return !p.cards.empty() || p.unknown || p.read; });
}

void Table::station_start_board(Millis t) {
  (void)t;
  pockets_ = {};
  pocket_ = 0;
  Event e = make("board.arrived", Severity::Info, {}, board_text() + " is being read at the station");
  e.evidence = {{"zones", config_.has_all(ZoneKind::Hand) ? "hand" : "scan"}};
  emit(std::move(e));
}

void Table::station_evaluate(Millis t) {
  if (!station_has_cards()) return;
  BoardCheck r = check_board(pockets_, *master_, board_, session_, t, previous_ ? &*previous_ : nullptr);
  if (r.board && !board_) {
    board_ = r.board;
    session_ = master_->board(*board_).session;
  }
  for (Event& e : r.events) {
    if (e.board == 0 && r.board && !info_) {
      const MasterBoard& b = master_->board(*r.board);
      e.board = b.board;
      e.event_name = master_->session(b.session).event;
      e.session = master_->session(b.session).session;
    }
    emit(std::move(e));
  }
  pockets_ = {};
  pocket_ = -1;
  pocket_by_command_ = false;
  board_.reset();
  info_.reset();
}

void Table::on_scan(const Observation& o) {
  if (o.cards.empty() && o.unknown == 0) return;  // the slot is empty again
  if (pocket_ < 0) station_start_board(o.time);
  // A pause between cards starts the next pocket, N then E, S, W (unless an operator names pockets).
  bool has_cards = !pockets_[static_cast<std::size_t>(pocket_)].cards.empty() || pockets_[static_cast<std::size_t>(pocket_)].unknown;
  if (!pocket_by_command_ && has_cards && o.time - last_card_ >= config_.pocket_gap_ms) {
    if (pocket_ == 3) {
      station_evaluate(o.time);
      station_start_board(o.time);
    } else {
      ++pocket_;
    }
  }
  PocketRead& p = pockets_[static_cast<std::size_t>(pocket_)];
  if (const int cards = o.count() - o.unknown; cards > 1) {  // two tags of one face at once are two cards too
    Event e = make("reading.uncertain", Severity::Warning, {}, std::to_string(cards) + " cards over the scan slot at once");
    e.evidence = {{"zone", "scan"}, {"cause", "several cards at once"}};
    emit(std::move(e));
  }
  o.cards.for_each_descending([&](Card c) {
    auto [first, last] = o.card_ids.equal_range(c);
    if (first == last) {  // no tag to tell by (a camera): a card read again is a second card (13C)
      p.cards.push_back(c);
      return;
    }
    for (auto tag = first; tag != last; ++tag) {
      // The same tag again is the same card passed over the slot twice -- an operator's slip, not Law 13C:
      // counted once, where it was first read, and the operator told. In this pocket, or in an earlier
      // one: the last card of a pocket left lying on the slot is passed again as the next pocket starts,
      // and it is the pocket it was read with that holds it. Another tag of the face is a second card.
      auto holds = [&](const PocketRead& q) {
        auto [had, had_end] = q.card_ids.equal_range(c);
        return std::any_of(had, had_end, [&](const auto& e) { return e.second == tag->second; });
      };
      if (auto read_in = std::find_if(pockets_.begin(), pockets_.end(), holds); read_in != pockets_.end()) {
        passed_twice(c, tag->second, kAllSeats[static_cast<std::size_t>(read_in - pockets_.begin())]);
        continue;
      }
      p.cards.push_back(c);
      p.card_ids.emplace(c, tag->second);
    }
  });
  p.unknown += o.unknown;
  p.unknown_ids.insert(p.unknown_ids.end(), o.unknown_ids.begin(), o.unknown_ids.end());
  p.read = true;
  last_card_ = o.time;
}

// One card -- one tag -- passed over the scan slot twice: in the pocket being read, or again as a later
// pocket is read (`counted_in`, where it was read first). Public words name no card (the board goes on to
// the table); the card and its tag are the director's detail.
void Table::passed_twice(Card c, const std::string& id, Seat counted_in) {
  const Seat pocket = kAllSeats[static_cast<std::size_t>(pocket_)];
  Event e = make("reading.uncertain", Severity::Warning, {}, "");
  if (counted_in == pocket) {
    e.message = board_text() + ": a card was passed over the scan slot twice in " + seat_word(pocket) + "'s pocket (the same tag); counted once";
    e.seats = {pocket};
    e.evidence = {{"zone", "scan"}, {"cause", "card passed twice"}, {"pocket", std::string(1, seat_letter(pocket))}};
    e.card_message = board_text() + ": " + c.display() + " (tag " + id + ") was passed twice; counted once";
  } else {
    e.message = board_text() + ": a card of " + seat_word(counted_in) + "'s pocket was passed over the scan slot again with " +
                seat_word(pocket) + "'s (the same tag); counted once, in " + seat_word(counted_in) + "'s \u2014 check it is back there";
    e.seats = {counted_in, pocket};
    std::sort(e.seats.begin(), e.seats.end(), [](Seat a, Seat b) { return index(a) < index(b); });
    e.evidence = {{"zone", "scan"}, {"cause", "card passed again in another pocket"}, {"pocket", std::string(1, seat_letter(pocket))},
                  {"counted_in", std::string(1, seat_letter(counted_in))}};
    e.card_message = board_text() + ": " + c.display() + " (tag " + id + ") was read in " + seat_word(counted_in) + "'s pocket and again in " +
                     seat_word(pocket) + "'s; counted in " + seat_word(counted_in) + "'s";
  }
  e.card_evidence = {{"card", c.str()}, {"uid", id}};
  emit(std::move(e));
}

void Table::on_hand(const Observation& o) {
  if (!o.complete) {
    Event e = make("reading.uncertain", Severity::Warning, {}, "The reading of " + o.zone.str() + " is incomplete; waiting for a complete one");
    e.evidence = {{"zone", o.zone.str()}, {"cause", "incomplete"}};
    e.seats = {o.zone.seat};
    emit(std::move(e));
    return;
  }
  if (o.cards.empty() && o.unknown == 0) return;  // the pocket was taken away
  if (pocket_ < 0) station_start_board(o.time);
  PocketRead& p = pockets_[static_cast<std::size_t>(index(o.zone.seat))];
  p.cards.clear();
  o.cards.for_each_descending([&](Card c) { p.cards.push_back(c); });
  // A second tag of a face -- another pack's ♠A beside this pack's -- is a second card: 14 in the pocket,
  // and the face read twice (Law 13C).
  for (Card c : o.same_face()) p.cards.push_back(c);
  p.card_ids = o.card_ids;
  p.unknown = o.unknown;
  p.unknown_ids = o.unknown_ids;
  p.source = o.source;
  p.read = true;
  if (std::all_of(pockets_.begin(), pockets_.end(), [](const PocketRead& q) { return q.read; })) {
    station_merge_heard_twice();
    station_evaluate(o.time);
  }
}

// A reader under each pocket hears its neighbour's tags too (cross-talk a few centimetres apart, no signal
// strength to choose by): one tag under two pockets is one card, as at the board's return -- counted once,
// where the deal puts it, and the technician told; never a pocket of 14 and a surplus card for the
// director. Another tag of the face is another card and stays for the board check (Law 13C).
void Table::station_merge_heard_twice() {
  // Most boards have no face in two pockets: nothing to merge, and no copy of the four pockets' 52 tags.
  std::array<Hand, 4> faces{};
  for (std::size_t si = 0; si < 4; ++si)
    for (Card c : pockets_[si].cards) faces[si].add(c);
  if (read_in_two(faces).empty()) return;
  FourPockets four;
  for (Seat s : kAllSeats) four.add(s, pockets_[static_cast<std::size_t>(index(s))]);
  const auto merged = four.merge_heard_twice(info_ ? std::optional(info_->deal) : std::nullopt);
  if (merged.empty()) return;
  for (std::size_t si = 0; si < 4; ++si) {
    PocketRead& p = pockets_[si];
    p.cards.clear();
    four.hands[si].for_each_descending([&](Card c) { p.cards.push_back(c); });
    for (Card c : same_face(four.hands[si], four.ids[si])) p.cards.push_back(c);
    p.card_ids = std::move(four.ids[si]);
  }
  for (const HeardTwice& h : merged) heard_by_two_readers(h, four.readers, ZoneKind::Hand);
}

// ---------------------------------------------------------------------------------------------------
// Commands

void Table::command(const Command& c) {
  now_ = std::max(now_, c.time);
  auto reject = [&](const std::string& why) {
    Event e = make("table.command_rejected", Severity::Warning, {}, why);
    e.evidence = {{"command", c.text}};
    emit(std::move(e));
  };
  switch (c.kind) {
    case Command::Kind::Board: {
      if (const auto same = boards_named_by_label(*master_, c.text, session_); same.size() == 1) {
        if (label_names_board_in_progress(same.front())) return;
        if (label_read_late(same.front())) {
          set_board(same.front(), "label " + c.text, "given");  // the scan goes on, to be checked whole against it
          return;
        }
      }
      if (station_has_cards()) station_evaluate(c.time);
      // An ambiguous label is refused, not guessed: the station then names the board by its cards, and
      // the board it finds sets the session that later labels are read in.
      auto named = boards_named_by_label(*master_, c.text, session_);
      if (named.size() != 1) {
        reject(board_label_problem(*master_, c.text, named));
        return;
      }
      set_board(named.front(), "label " + c.text, "given");
      if (!config_.has_all(ZoneKind::Play)) pocket_ = -1;
      return;
    }
    case Command::Kind::Contract: {
      auto cc = parse_contract_command(c.text);
      if (!cc) {
        reject("'" + c.text + "' is not a contract (expected e.g. \"4HX N\" or \"pass\")");
        return;
      }
      contract_ = cc;
      // A contract given after the opening lead or dummy: check what could not be checked before.
      if (opening_leader_ && !tricks_.empty()) opening_lead_check(*opening_leader_);
      return;
    }
    case Command::Kind::Pocket:
      if (pocket_ < 0) station_start_board(c.time);
      pocket_ = index(c.seat);
      pocket_by_command_ = true;
      return;
    case Command::Kind::Check:
      station_evaluate(c.time);
      return;
  }
}

// A label reader reads a board's tag again while the board lies on it, and says it again when the daemon
// starts: the label of the board the table holds now -- in play, or its pockets being scanned at the
// station -- says nothing new. It is no second board.identified, and above all no end of the station's
// scan: evaluating half a board's pockets would raise Law 13A (a pocket short) and Law 14 (cards missing)
// alerts for a board that is whole, and the pockets scanned after it would count as another board's. In
// play it keeps the hands a cause found (a board turned, Law 87A), which naming the board again would drop.
// A board the table no longer holds is named afresh, as any label:
//  - at the station, once that board's scan was evaluated (the fourth pocket's pause, the four hands read,
//    `check`): a director who fixes a board and reads its label again wants a fresh check, and gets one --
//    the scan that follows is a new board's;
//  - at the station, cards still lying on the slot or the pocket readers from that evaluated scan are not
//    read again by a label (a reading counts when it changes); the next cards read start the new scan;
//  - in play, after board.returned: the table cannot tell a tag read again from the same board brought back
//    to be played (returned too soon and taken out again, a director's replay). Naming it again is the safe
//    guess: a stale name is replaced by the next board's label, and a board whose cards do not fit it is
//    reported as a wrong board, whereas a board left unnamed would go unchecked against its deal.
// A board found by its cards in play (infer_board) is the board the table holds, too: its label confirms it.
bool Table::label_names_board_in_progress(std::uint32_t entry) const {
  return info_ && info_->entry && *info_->entry == entry;
}

// The station's operator often takes North's cards out and scans them before the board lies on the label
// reader: the label then comes in the middle of a scan that began with no name. It is that board's when
// the cards read so far are its deal's (pockets_fit_deal), and naming the board in progress keeps the scan
// going -- ending it would check half a board (false Laws 13A and 14 alerts) and count the pockets after
// it as another board's. Cards of another deal mean the operator moved on to the labelled board with the
// unnamed one not fully read: that scan is checked as it is, and the director told, as for any label.
bool Table::label_read_late(std::uint32_t entry) const {
  return !board_ && pocket_ >= 0 && station_has_cards() && pockets_fit_deal(pockets_, master_->board(entry).deal);
}

// ---------------------------------------------------------------------------------------------------
// The table in play

std::optional<Seat> Table::declarer() const {
  if (contract_ && !contract_->passed_out) return contract_->contract.declarer;
  if (dummy_) return partner(*dummy_);
  if (opening_leader_) return right_hand_opponent(*opening_leader_);
  return std::nullopt;
}

std::optional<Suit> Table::trump() const {
  if (contract_ && !contract_->passed_out) return trump_of(contract_->contract.strain);
  return std::nullopt;
}


Hand Table::remaining(Seat s) const {
  Hand h = held_->hand(s);
  for (const Card& c : played_[static_cast<std::size_t>(index(s))]) h.remove(c);
  return h;
}

void Table::on_pocket(const Observation& o) {
  Seat s = o.zone.seat;
  auto si = static_cast<std::size_t>(index(s));
  bool present = !o.cards.empty() || o.unknown > 0;
  std::optional<bool> before = present_[si];
  present_[si] = present;
  if (!present && before && *before) back_heard_[si].reset();
  if (phase_ == Phase::Waiting) {
    if (!present) {
      if (!(before && *before)) return;
      // Between boards the pockets taken out are judged together (judge_pockets_out): the board just
      // returned, its pockets read after it (seeds 195, 210, 467, 653, 673, 696 and 841 of
      // bench/reader_faults_sweep at 0.2 flicker and drops: one pocket read empty eight polls running was
      // a false auction period "passed out" in half a second, and a second board.returned, Law 7); the
      // board lifted off the table to move on (four pockets at once: an auction period, then "passed out"
      // and a board returned when the next board was laid there).
      if (between_boards_) {
        if (!first_out_) first_out_ = PocketOut{s, o.time};
        pockets_out_[si] = true;
        judge_pockets_out();
        return;
      }
      start_auction(s, o.time);
      return;
    }
    if (first_out_) {
      pockets_out_[si] = false;
      if (first_out_->seat == s) {  // back: replies missed, or put back
        first_out_.reset();
        pockets_out_ = {};
      }
    }
    arrived_[si] = true;
    if (board_arrived_ || !std::all_of(arrived_.begin(), arrived_.end(), [](bool a) { return a; })) return;
    const std::optional<Millis> spread = back_spread();
    if (!lifted_ || !spread || *spread <= laid_window()) {
      lifted_.reset();  // the four pockets back together: a board laid there, the next or the same one
      board_on_the_pockets();
      return;
    }
    // Four players who took their hands out within the window (judged a lift) put them back one after
    // another: that was the auction period, passed out (Law 17D), and the board never left. The period is
    // said from the first pocket out, and the return below counts the hands as at any return.
    const PocketOut first = *lifted_;
    lifted_.reset();
    lifted_at_.reset();
    board_arrived_ = true;
    start_auction(first.seat, first.time);
    auction_between_boards_ = false;  // the put-back is judged: no next board to mend it into
  }
  if (!std::all_of(present_.begin(), present_.end(), [](const std::optional<bool>& p) { return p && *p; })) {
    return_pending_.reset();  // a pocket taken out again: the board is not back yet
    return;
  }
  // Law 7C: each player puts his 13 cards back in his pocket, and a hand is often pushed in a few cards
  // at a time: a pocket read in full steadies at 9, 10, ... on the way to 13. Counting the first steady
  // reading of the last pocket alerts a director to a hand being put away slowly (Laws 13, 14). So while
  // the pockets read in full and one of them holds fewer than 13, the counts wait until no pocket's
  // reading has changed for return_settle_ms (3 s: longer than a player's pause with a stack half in,
  // far shorter than the time before the board is moved to the next table), then a short pocket is
  // reported. Every pocket at 13 or more (nothing left to go in), or pockets that only sense presence,
  // are judged at once.
  if (next_board_laid()) {
    // The period was the board before lifted away (its pockets' last tags heard further apart than the
    // window, on a reader missing replies): the board laid here now is the next, not one passed out.
    phase_ = Phase::Waiting;
    between_boards_ = true;
    auction_between_boards_ = false;
    slow_reported_ = false;
    arrived_ = {true, true, true, true};
    board_on_the_pockets();
    return;
  }
  if (pockets_filling()) {
    return_pending_ = o.time;
    return;
  }
  return_pending_.reset();
  board_returned(o.time);
}

void Table::board_on_the_pockets() {
  board_arrived_ = true;
  emit(make("board.arrived", Severity::Info, {}, board_text() + " is on the table, its four pockets full"));
}

bool Table::pockets_filling() const {
  int cards = 0;
  bool short_pocket = false;
  for (Seat s : kAllSeats) {
    const auto& r = pocket_reading(s).stable();
    if (!r || !r->complete) return false;  // presence only: no count is made at return
    cards += r->cards.size();
    short_pocket = short_pocket || r->count() < 13;
  }
  return short_pocket && cards >= 40;  // read in full (board_returned's floor for a count)
}

void Table::start_auction(Seat withdrawn, Millis t) {
  if (!board_arrived_ && (lifted_at_ || !between_boards_)) {
    // The board laid after a lift, or the first board of the run, taken out before each pocket read
    // present steadily (a reader missing its replies in the second before the players took their hands;
    // at the start every reader counts as one, steady_after_reads): each pocket heard a tag since the lift
    // (since the start) was full. The board arrived, and is said so before its period.
    const Millis since = lifted_at_ ? *lifted_at_ : -1;
    bool laid = true;
    for (Seat s : kAllSeats)
      laid = laid && (arrived_[static_cast<std::size_t>(index(s))] || pocket_reading(s).tag_heard() > since);
    if (laid) board_on_the_pockets();
  }
  lifted_at_.reset();
  back_heard_ = {};  // as at a lift: the pockets' coming back is heard from here
  phase_ = Phase::Auction;
  auction_between_boards_ = between_boards_;
  between_boards_ = false;
  first_out_.reset();
  pockets_out_ = {};
  lifted_.reset();
  board_start_ = t;
  std::string dealer = info_ ? seat_word(info_->dealer) : std::string("unknown");
  Event e = make("auction.period_started", Severity::Info, {"17A", "17B"},
                 board_text() + ": the auction period has started (" + side_word(side_of(withdrawn)) + " took their cards out); " +
                     (board_ ? dealer + " deals and calls first" : std::string("the dealer is not known yet")) + " (Law 17)");
  e.seats = {withdrawn};
  e.evidence = {{"withdrawn", std::string(1, seat_letter(withdrawn))}, {"dealer", info_ ? std::string(1, seat_letter(info_->dealer)) : "unknown"}};
  emit(std::move(e));
}

// Law 17A: every player takes his hand out of the board at the start of the auction period, one after
// another, seconds apart. A board lifted off the table -- moved on to the next table, or away when the
// round or the session ends -- takes its four pockets off the antennas at once: each last heard its tags
// within a poll or two of the others (board_lift_ms), whatever the readers' noise made of the moment each
// was seen empty. The pockets still full keep being heard: one heard after the window says the pockets
// out went one by one.
void Table::judge_pockets_out() {
  if (phase_ != Phase::Waiting || !first_out_) return;
  int out = 0;
  Millis earliest_out = std::numeric_limits<Millis>::max(), earliest = earliest_out, latest = -1;
  for (Seat s : kAllSeats) {
    auto si = static_cast<std::size_t>(index(s));
    Millis heard = pocket_reading(s).tag_heard();
    earliest = std::min(earliest, heard);
    latest = std::max(latest, heard);
    if (pockets_out_[si]) {
      ++out;
      earliest_out = std::min(earliest_out, heard);
    }
  }
  if (out < 2) return;  // one pocket read empty starts nothing by itself: a reader missing its replies
  const Millis window = lift_window();
  if (lifted_at_ && !board_arrived_) {
    // The board laid after a lift: a pocket on a reader missing replies may never have read present
    // steadily before its player took the hand out, so it was never seen to go. It held the board's hand
    // if it heard a tag since the lift (start_auction); last heard more than the window before the pockets
    // seen going, it went before them: the period began with it. Heard within the window it may still be
    // full, and it is left out: it can start a period here, never make the others' going a lift.
    const Millis seen_out = earliest_out;
    for (Seat s : kAllSeats) {
      auto si = static_cast<std::size_t>(index(s));
      Millis heard = pocket_reading(s).tag_heard();
      if (pockets_out_[si] || arrived_[si] || heard <= *lifted_at_ || seen_out - heard <= window) continue;
      ++out;
      earliest_out = std::min(earliest_out, heard);
    }
  }
  const PocketOut first = *first_out_;
  if (out == 4 && earliest >= 0 && latest - earliest <= window) {
    // The board lifted away: no auction period, and the board laid here next arrives afresh.
    lifted_ = first;
    lifted_at_ = latest;
    back_heard_ = {};  // a tag heard before the lift, in a pocket read empty by a reader's noise, is no coming back
    first_out_.reset();
    pockets_out_ = {};
    arrived_ = {};
    board_arrived_ = false;
    return;
  }
  if (out == 4 || latest - earliest_out > window) start_auction(first.seat, first.time);
}

bool Table::pocket_reader_noisy() const {
  return std::any_of(std::begin(kAllSeats), std::end(kAllSeats),
                     [this](Seat s) { return noisy_[static_cast<std::size_t>(Zone{ZoneKind::Pocket, s}.index())]; });
}

Millis Table::lift_window() const {
  // The board just returned lies there to be lifted: on a reader missing replies its pockets' last tags
  // may come a few polls apart. A board laid after a lift (said to have arrived, or not yet read steadily:
  // pockets going after lifted_at_) is there to be played, and its players taking their hands out within
  // the noisy window are far likelier than its being lifted again unplayed: there, only pockets gone within
  // board_lift_ms are a lift (a board laid there and lifted again whose lift is taken for a period is
  // mended when the next is laid, next_board_laid).
  if (board_arrived_ || lifted_at_ || !pocket_reader_noisy()) return config_.board_lift_ms;
  return std::max(config_.board_lift_ms, config_.board_lift_noisy_ms);
}

Millis Table::relaid_window() const {
  return pocket_reader_noisy() ? std::max(config_.board_lift_ms, config_.board_relaid_noisy_ms) : config_.board_lift_ms;
}

Millis Table::laid_window() const {
  return pocket_reader_noisy() ? std::max(config_.board_lift_ms, config_.board_laid_noisy_ms) : config_.board_lift_ms;
}

std::optional<Millis> Table::back_spread() const {
  Millis earliest = std::numeric_limits<Millis>::max(), latest = -1;
  for (const auto& back : back_heard_) {
    if (!back) return std::nullopt;  // a pocket never read empty, or no tag heard since
    earliest = std::min(earliest, *back);
    latest = std::max(latest, *back);
  }
  return latest - earliest;
}

bool Table::next_board_laid() const {
  if (phase_ != Phase::Auction || !auction_between_boards_ || !tricks_.empty()) return false;
  for (const auto& p : played_)
    if (!p.empty()) return false;
  const std::optional<Millis> spread = back_spread();
  return spread && *spread <= relaid_window();
}

void Table::on_play(const Observation& o) {
  Seat s = o.zone.seat;
  auto si = static_cast<std::size_t>(index(s));
  if (o.cards.size() > 1) {
    Event e = make("reading.uncertain", Severity::Warning, {}, std::to_string(o.cards.size()) + " cards in " + seat_word(s) + "'s play area at once");
    e.seats = {s};
    e.evidence = {{"zone", o.zone.str()}, {"cause", "several cards at once"}};
    emit(std::move(e));
    return;
  }
  if (o.cards.empty()) {
    // A card of the open trick leaving its play area before the trick is complete: taken back (a lead
    // out of turn withdrawn, perhaps; the next card says) or a reader's blip.
    if (faced_[si] && !tricks_.empty() && tricks_.back().count < 4 && tricks_.back().cards[si] == faced_[si]) taken_back_[si] = true;
    faced_[si].reset();  // quitted (turned over) or taken back
    close_trick(o.time);  // a complete trick being quitted is over
    return;
  }
  Card c{};
  o.cards.for_each_descending([&](Card x) { c = x; });
  if (faced_[si] == c) return;
  // The card in front of a player changed without the area being cleared: if it was this seat's card
  // of the last trick, still open, the player took it back and played another (a corrected revoke, or
  // a misread corrected by the reader).
  std::optional<Card> replaces;
  if (faced_[si] && !tricks_.empty() && tricks_.back().cards[si] == faced_[si] && !tricks_.back().winner) replaces = faced_[si];
  faced_[si] = c;
  card_played(s, c, o.time, replaces);
}

void Table::opening_lead_check(Seat s) {
  if (!contract_ || contract_->passed_out || s == left_hand_opponent(contract_->contract.declarer)) return;
  Seat decl = contract_->contract.declarer;
  Seat want = left_hand_opponent(decl);
  // A defender's opening lead out of turn is Law 54's; a card the declaring side faces before the
  // opening lead (the presumptive dummy or declarer) is an exposed card of Law 24.
  bool declaring_side = s == decl || s == partner(decl);
  Event l = make("irregularity.lead_out_of_turn", Severity::Alert, declaring_side ? std::vector<std::string>{"24"} : std::vector<std::string>{"54"},
                 board_text() + ": the opening lead was faced by " + seat_word(s) + (s == partner(decl) ? ", the presumptive dummy" : s == decl ? ", the presumptive declarer" : "") +
                     "; " + seat_word(want) + " was on lead" + (declaring_side ? " (Law 24)" : " (Law 54)"));
  l.seats = {s};
  l.evidence = {{"expected", std::string(1, seat_letter(want))}, {"observed", std::string(1, seat_letter(s))}, {"lead", "opening"}};
  emit(std::move(l));
  lead_alerted_ = 0;
}

bool Table::lead_withdrawn(Seat s, Millis t) {
  if (tricks_.empty()) return false;
  Trick& tr = tricks_.back();
  if (tr.count == 4 || tr.winner || s == tr.leader || tr.cards[static_cast<std::size_t>(index(s))]) return false;
  // Every card of the open trick has left its play area, the lead among them.
  for (std::size_t k = 0; k < 4; ++k)
    if (tr.cards[k] && !taken_back_[k]) return false;
  // Who should lead? The winner of the last trick, or declarer's left-hand opponent. A card from the
  // seat that should lead is a lead; when nobody can tell, a card from the leader's left could be a
  // follow to a card a reader lost for a moment, so only a card from another seat counts as a lead.
  std::optional<Seat> want;
  if (tricks_.size() >= 2) want = tricks_[tricks_.size() - 2].winner;
  else if (contract_ && !contract_->passed_out) want = left_hand_opponent(contract_->contract.declarer);
  if (want ? (s != *want || tr.leader == *want) : s == left_hand_opponent(tr.leader)) return false;

  // The lead is withdrawn: the trick is rebuilt from the cards actually played. The withdrawn card goes
  // back to its owner (a penalty card, Law 50, is played later as any other card).
  std::size_t ti = tricks_.size() - 1;
  Seat offender = tr.leader;
  std::string withdrawn;
  for (Seat x : kAllSeats) {
    auto xi = static_cast<std::size_t>(index(x));
    if (!tr.cards[xi]) continue;
    auto& mine = played_[xi];
    if (auto it = std::find(mine.rbegin(), mine.rend(), *tr.cards[xi]); it != mine.rend()) mine.erase(std::next(it).base());
    for (auto& mark : shown_out_[xi])
      if (mark == static_cast<int>(ti) + 1) mark = 0;
    withdrawn += (withdrawn.empty() ? "" : " ") + std::string(1, seat_letter(x)) + ":" + tr.cards[xi]->str();
  }
  std::erase_if(revokes_, [&](const Revoke& r) { return r.trick == ti; });
  std::erase_if(foreign_, [&](const auto& f) { return tr.cards[static_cast<std::size_t>(index(f.first))] == f.second; });
  Card lead = *tr.cards[static_cast<std::size_t>(index(offender))];
  tricks_.pop_back();
  taken_back_ = {};
  bool alerted = lead_alerted_ && *lead_alerted_ == ti;
  lead_alerted_.reset();
  bool defender = !declarer() || (offender != *declarer() && offender != partner(*declarer()));
  std::string trick_word = ti == 0 ? "opening lead" : "lead to trick " + std::to_string(ti + 1);
  if (alerted || (ti == 0 && !contract_)) {
    // Known out of turn: one follow-up on the same alert. Not known before (no contract): the
    // withdrawal itself says the lead was out of turn, and this is the alert.
    Event e = make("irregularity.lead_out_of_turn", alerted ? Severity::Warning : Severity::Alert,
                   // A defender's card led out of turn and withdrawn is a penalty card (Law 50); declarer's
                   // lead out of turn, from either hand, is retracted under Law 55B with no penalty card.
                   ti == 0 ? (defender ? std::vector<std::string>{"54", "50"} : std::vector<std::string>{"24"})
                           : (defender ? std::vector<std::string>{"53", "56", "50"} : std::vector<std::string>{"55"}),
                   board_text() + ": " + seat_word(offender) + "'s " + trick_word + " out of turn was withdrawn" +
                       (defender ? " (a penalty card, Law 50)" : "") + "; " + seat_word(s) + " led instead");
    e.seats = {offender};
    e.evidence = {{"expected", std::string(1, seat_letter(s))}, {"observed", std::string(1, seat_letter(offender))},
                  {"lead", ti == 0 ? "opening" : "trick " + std::to_string(ti + 1)}, {"state", "withdrawn"}};
    e.card_evidence = {{"withdrawn", withdrawn}};
    e.card_message = board_text() + ": " + seat_word(offender) + " faced " + lead.display() + " and took it back";
    emit(std::move(e));
  }
  (void)t;
  if (tricks_.empty()) opening_leader_ = s;
  return true;
}

// Three cards of the open trick read, all three gone from their play areas, and a card comes: the trick
// was quitted (turned over) with its fourth card never read steadily -- a reader that drops and misreads
// polls can miss a card that lies a second. The card that comes is the next trick's, not the missing
// one: taken for it, the seat's next card becomes its card to this trick (a false revoke, Law 61) or
// another seat's lead replaces its own card here (a false lead out of turn, Law 54). The table cannot
// tell which card the unread one was, nor who won the trick: it says so (reading.uncertain), counts the
// trick won by whoever leads next (as when the trumps are not known), and leaves the unread card out of
// the revoke check (check_revoke). A lead taken back is lead_withdrawn's: there one card had left.
// At the board's return (`next` empty) the same: the last trick quitted three cards read, its winner
// not known.
bool Table::quitted_with_a_card_unread(std::optional<Seat> next, Millis t) {
  if (tricks_.empty()) return false;
  Trick& tr = tricks_.back();
  if (tr.count != 3 || tr.winner) return false;
  // Every card read has left, or its area has read empty as long as a steady reader needs to see a card
  // go: on a reader that drops replies a card is gone only after noisy_absent_reads polls without it, and
  // a trick quitted with one area slower to show it (seed 22 of bench/reader_faults_sweep at 0.2 flicker
  // and drops) had the next trick's cards taken for cards *replacing* its own -- its East card back in
  // East's hand, and East's next card to a spade a false revoke (Law 61).
  for (Seat x : kAllSeats) {
    auto k = static_cast<std::size_t>(index(x));
    if (tr.cards[k] && !taken_back_[k] && play_reading(x).absent_reads() < config_.stable_reads)
      return false;
  }
  Seat unread = Seat::North;
  for (Seat x : kAllSeats)
    if (!tr.cards[static_cast<std::size_t>(index(x))]) unread = x;
  // The unread seat's own card, its area silent in this trick until that card came (first read as the
  // card it is), while the trick's cards have not all gone as a reader missing replies needs to see them
  // go (noisy_absent_reads): the fourth card, read as it comes. Seed 533 of bench/reader_faults_sweep at
  // 0.2: West's, North's and East's areas read empty three or four polls together as South's ♣7 came;
  // taken for the next trick's lead, trick 1 went to South, and South's ♣9 to trick 2 led trick 3 out of
  // turn (Law 55). An area that heard another card first (seed 110 at 0.3: North's ♠J heard twice, never
  // steadily, then his ♣Q lead) is a card never read, and the card now there the next trick's.
  const StableReading& unread_area = play_reading(unread);
  if (next && *next == unread && unread_area.heard_before_came() < tr.started && unread_area.stable() &&
      unread_area.came_as() == unread_area.stable()->cards)
    for (std::size_t k = 0; k < 4; ++k)
      if (tr.cards[k] && !taken_back_[k]) return false;
  // A hand that had no card to play (short, Law 13) leaves its area silent while the trick lies there.
  // So does a card whose every reply was lost, on a reader missing replies (seed 101 of
  // bench/reader_faults_sweep at 0.2: North's ♥2 lost or read empty ten polls running): there a silent
  // area is a card never read, as one heard once is. On a reader that misses nothing it is the hand's:
  // the trick is quitted with three cards and the hole is Law 13D's, counted when the board goes back.
  // Either way a card from a seat whose card of this trick has gone is the next trick's: taken for a
  // card replacing its own, the whole next trick sent three played cards back to their hands (a board
  // run a trick behind, a false revoke; and a short hand's hole lost, every count even).
  const bool silent = play_reading(unread).card_heard() < tr.started;
  if (silent && !noisy_[static_cast<std::size_t>(Zone{ZoneKind::Play, unread}.index())]) {
    if (!next || *next == unread) return false;  // at the return, or the seat's own card late: as it comes
    taken_back_ = {};
    tr.count = 4;  // quitted three cards played: the next card starts a trick, led by its seat
    finish_trick(tricks_.size() - 1, *next, true, t);
    return true;
  }
  const auto ui = static_cast<std::size_t>(index(unread));
  std::size_t ti = tricks_.size() - 1;
  // At the last trick the seat holds one card: the deal less what it played, as long as every card played
  // came from its own hand (held_, no card astray) and none of its cards went unread before. The unread
  // card can only be that one (seeds 316, 454 and 846 of bench/reader_faults_sweep: the last trick quitted
  // with a card unread, its winner "not known", the board's trick count short).
  std::optional<Card> only;
  if (held_ && foreign_.empty() && unread_[ui] == 0) {
    Hand rest = remaining(unread);
    if (rest.size() == 1) rest.for_each_descending([&](Card c) { only = c; });
  }
  if (!only) ++unread_[ui];
  Event e = make("reading.uncertain", Severity::Warning, {},
                 board_text() + ": trick " + std::to_string(ti + 1) + " was quitted with " + seat_word(unread) + "'s card never " +
                     (silent ? "heard (its area read empty on a reader missing replies); " : "read steadily; ") +
                     (only    ? "it can only be " + seat_word(unread) + "'s last card"
                      : next ? "the trick is counted to whoever leads next"
                             : "who won it is not known"));
  e.seats = {unread};
  e.evidence = {{"zone", Zone{ZoneKind::Play, unread}.str()}, {"cause", "card not read"}, {"trick", std::to_string(ti + 1)}};
  if (only) {
    e.card_evidence = {{"card", only->str()}};
    e.card_message = board_text() + ": " + seat_word(unread) + "'s card to trick " + std::to_string(ti + 1) + ", never read steadily, can only be " +
                     only->display() + ", the last card of the hand";
  }
  emit(std::move(e));
  taken_back_ = {};
  if (only) {  // the trick complete: its winner by trumps and rank (close_trick), or from the next lead
    tr.cards[ui] = *only;
    played_[ui].push_back(*only);
    tr.count = 4;
    return true;
  }
  if (!next) return true;  // the last trick: left open, its winner not known
  tr.count = 4;  // complete, one card unknown: the next card starts a trick, led by its seat
  finish_trick(ti, *next, true, t);
  return true;
}

void Table::close_trick(Millis t) {
  if (tricks_.empty() || tricks_.back().count < 4 || tricks_.back().winner || !trump_known(contract_)) return;
  const Trick& last = tricks_.back();
  finish_trick(tricks_.size() - 1, trick_winner(last.cards, last.leader, trump()), false, t);
}

void Table::card_played(Seat s, Card c, Millis t, std::optional<Card> replaces) {
  auto si = static_cast<std::size_t>(index(s));
  // A card cannot be played twice from one pack: a card another seat has already played (to an earlier
  // trick or to this one), read again in this seat's play area, is crosstalk from a neighbouring antenna
  // or a misread -- uncertain, never a lead out of turn (53-56) nor a card from another hand (87A).
  for (Seat x : kAllSeats) {
    const auto& theirs = played_[static_cast<std::size_t>(index(x))];
    if (x == s || std::find(theirs.begin(), theirs.end(), c) == theirs.end()) continue;
    Event e = make("reading.uncertain", Severity::Warning, {},
                   "A card already played by " + seat_word(x) + " is read in " + seat_word(s) + "'s play area; a card is played only once: the reading is not used");
    e.seats = {s};
    e.evidence = {{"zone", Zone{ZoneKind::Play, s}.str()}, {"cause", "card already played"}, {"played_by", std::string(1, seat_letter(x))}};
    e.card_evidence = {{"card", c.str()}};
    e.card_message = c.display() + ", played by " + seat_word(x) + ", read in " + seat_word(s) + "'s play area";
    emit(std::move(e));
    return;
  }
  if (replaces) {
    Trick& trick = tricks_.back();
    card_withdrawn(s, *replaces, t);
    trick.cards[si] = c;
    played_[si].push_back(c);
    Event pe = make("play.card", Severity::Info, {}, seat_word(s) + " plays " + c.display() + " instead of " + replaces->display());
    pe.seats = {s};
    pe.evidence = {{"card", c.str()}, {"trick", std::to_string(tricks_.size())}, {"replaces", replaces->str()}};
    emit(std::move(pe));
    if (info_) check_ownership(s, c, t);
    find_cause();
    check_revoke(s, c, t);
    return;
  }
  // A card already played by this seat in an earlier trick, seen again (a quitted card turned up): not a play.
  for (std::size_t i = 0; i + 1 < tricks_.size() || (i < tricks_.size() && tricks_[i].count == 4); ++i)
    if (tricks_[i].cards[si] == c) return;
  // The same card back in the open trick after a moment out of its play area: still the same play.
  if (!tricks_.empty() && tricks_.back().count < 4 && tricks_.back().cards[si] == c) {
    taken_back_[si] = false;
    return;
  }
  // The leader's card, waited for (pending_lead_), comes with nothing but the early card in the trick:
  // it leads, and the early card follows it. Anything else ends the wait: the lead out of turn stands.
  std::optional<Seat> followed;
  if (pending_lead_) {
    Trick& open = tricks_.back();
    if (s == pending_lead_->want && tricks_.size() == pending_lead_->trick + 1 && open.count == 1 && !open.cards[si]) {
      open.leader = s;
      followed = pending_lead_->seat;
      pending_lead_.reset();
    } else {
      settle_pending_lead();
    }
  }
  bool quitted = quitted_with_a_card_unread(s, t);
  bool relead = !quitted && lead_withdrawn(s, t);
  if (relead && tricks_.empty()) opening_lead_check(s);

  if (phase_ == Phase::Waiting && (first_out_ || lifted_)) {
    // Pockets out between boards, not yet judged a period (or judged the board lifted: four players took
    // their hands at once), and now a card faced: the auction period was, from the first pocket out.
    const PocketOut first = first_out_ ? *first_out_ : *lifted_;
    start_auction(first.seat, first.time);
  }
  if (phase_ == Phase::Waiting || phase_ == Phase::Auction) {
    if (phase_ == Phase::Waiting) board_start_ = t;
    phase_ = Phase::Play;
    opening_leader_ = s;
    Event e = make("auction.period_ended", Severity::Info, {"17D"},
                   board_text() + ": the opening lead is faced by " + seat_word(s) + "; the auction period is over (Law 17D)");
    e.seats = {s};
    e.evidence = {{"opening_leader", std::string(1, seat_letter(s))}};
    emit(std::move(e));
    opening_lead_check(s);
  }

  bool new_trick = tricks_.empty() || tricks_.back().count == 4;
  if (new_trick) {
    if (!tricks_.empty()) {
      close_trick(t);
      Trick& prev = tricks_.back();
      if (!prev.winner) {
        finish_trick(tricks_.size() - 1, s, true, t);  // no trump known: the next leader won it
      } else if (*prev.winner != s) {
        // The leader's area heard a card before this one came, and has not read it steadily yet (misreads,
        // missed replies): that card was there first and leads. The alert waits for it (pending_lead_).
        if (leader_card_came_first(*prev.winner, s)) pending_lead_ = PendingLead{s, *prev.winner, tricks_.size(), t};
        else trick_lead_out_of_turn(s, *prev.winner, tricks_.size());
      }
    }
    if (tricks_.size() >= 13) {
      Event e = make("reading.uncertain", Severity::Warning, {}, "A card after thirteen tricks, from " + seat_word(s));
      e.seats = {s};
      e.evidence = {{"cause", "more than 13 tricks"}};
      e.card_evidence = {{"card", c.str()}};
      e.card_message = c.display() + " from " + seat_word(s) + " after thirteen tricks";
      emit(std::move(e));
      return;
    }
    tricks_.push_back(Trick{s, {}, 0, std::nullopt, t});
    taken_back_ = {};
  }
  Trick& trick = tricks_.back();
  if (trick.cards[si]) card_withdrawn(s, *trick.cards[si], t);
  else ++trick.count;
  trick.cards[si] = c;
  played_[si].push_back(c);
  taken_back_[si] = false;

  Event pe = make("play.card", Severity::Info, {}, seat_word(s) + " plays " + c.display() +
                                                      (followed ? " (the lead: there before " + seat_word(*followed) + "'s card, read after it)" : ""));
  pe.seats = {s};
  pe.evidence = {{"card", c.str()}, {"trick", std::to_string(tricks_.size())}};
  if (followed) pe.evidence.emplace_back("lead_before", std::string(1, seat_letter(*followed)));
  emit(std::move(pe));

  if (!info_) infer_board(t);
  if (info_) check_ownership(s, c, t);
  find_cause();
  check_revoke(s, c, t);
  // The early card follows the lead now: Law 61 is judged for it against the suit led.
  if (followed) check_revoke(*followed, *trick.cards[static_cast<std::size_t>(index(*followed))], t);
  check_established(s, t);
  if (tricks_.size() == 13 && tricks_.back().count == 4) phase_ = Phase::Over;
}

void Table::trick_lead_out_of_turn(Seat s, Seat want, std::size_t ti) {
  lead_alerted_ = ti;
  std::optional<Seat> decl = declarer();
  // Law 55 is declarer's lead out of turn, from his hand or from dummy, whoever was on lead (the
  // other hand of his side, or a defender); Law 56 (with 53) is a defender's.
  bool declarer_side = decl && (s == *decl || s == partner(*decl));
  bool wrong_hand = declarer_side && want == partner(s);
  Event e = make("irregularity.lead_out_of_turn", Severity::Alert,
                 declarer_side ? std::vector<std::string>{"55"} : std::vector<std::string>{"53", "56"},
                 board_text() + ": trick " + std::to_string(ti + 1) + " was led by " + seat_word(s) + "; " + seat_word(want) +
                     " won the last trick and is on lead" +
                     (wrong_hand      ? " \u2014 declarer led from the wrong hand (Law 55)"
                      : declarer_side ? " \u2014 declarer led out of turn" + std::string(s == *decl ? "" : " from dummy") + " (Law 55)"
                                      : " (Laws 53, 56)"));
  e.seats = {s};
  e.evidence = {{"expected", std::string(1, seat_letter(want))}, {"observed", std::string(1, seat_letter(s))},
                {"lead", "trick " + std::to_string(ti + 1)}};
  emit(std::move(e));
}

// A reader that misreads and drops polls can take a second to read steadily a card that lies still, while
// the next seat's card, read cleanly, settles first (seed 989 of bench/reader_faults_sweep: West's ♦9
// read twice, then named as five other cards running; North's ♦Q settled a poll before it). Which card
// came first is what the reads say: the leader's area heard a card before the other seat's did, and shows
// none steadily yet (a card still lying from the last trick is no lead).
const StableReading& Table::play_reading(Seat s) const { return readings_[static_cast<std::size_t>(Zone{ZoneKind::Play, s}.index())]; }
const StableReading& Table::pocket_reading(Seat s) const { return readings_[static_cast<std::size_t>(Zone{ZoneKind::Pocket, s}.index())]; }

bool Table::leader_card_came_first(Seat want, Seat s) const {
  const StableReading& leader = play_reading(want);
  const StableReading& other = play_reading(s);
  return !faced_[static_cast<std::size_t>(index(want))] && leader.card_came() >= 0 && other.card_came() >= 0 &&
         leader.card_came() < other.card_came();
}

void Table::settle_pending_lead() {
  PendingLead p = *pending_lead_;
  pending_lead_.reset();
  if (tricks_.size() == p.trick + 1) trick_lead_out_of_turn(p.seat, p.want, p.trick);
}

void Table::card_withdrawn(Seat s, Card old, Millis t) {
  (void)t;
  auto& mine = played_[static_cast<std::size_t>(index(s))];
  if (auto it = std::find(mine.begin(), mine.end(), old); it != mine.end()) mine.erase(it);
  std::size_t trick = tricks_.size() - 1;
  for (auto it = revokes_.begin(); it != revokes_.end(); ++it) {
    if (it->seat != s || it->trick != trick || it->card != old || it->established) continue;
    Event e = make("irregularity.revoke", Severity::Warning, {"62A"},
                   board_text() + ": " + seat_word(s) + " corrected the revoke in trick " + std::to_string(trick + 1) +
                       " before it was established (Law 62)");
    e.seats = {s};
    e.evidence = {{"trick", std::to_string(trick + 1)}, {"state", "corrected"}};
    e.card_evidence = {{"card", old.str()}};
    e.card_message = board_text() + ": " + seat_word(s) + " took back " + old.display();
    emit(std::move(e));
    revokes_.erase(it);
    break;
  }
}

void Table::finish_trick(std::size_t i, Seat winner, bool inferred, Millis t) {
  (void)t;
  Trick& trick = tricks_[i];
  trick.winner = winner;
  std::string cards;
  for (int k = 0; k < 4; ++k) {
    Seat s = rotate(trick.leader, k);
    if (auto c = trick.cards[static_cast<std::size_t>(index(s))]) cards += (cards.empty() ? "" : " ") + std::string(1, seat_letter(s)) + ":" + c->str();
  }
  auto wc = trick.cards[static_cast<std::size_t>(index(winner))];
  Event e = make("play.trick", Severity::Info, {},
                 "Trick " + std::to_string(i + 1) + ": " + seat_word(winner) + " wins" + (wc ? " with " + wc->display() : "") +
                     (inferred ? " (from the next lead)" : ""));
  e.seats = {winner};
  e.evidence = {{"trick", std::to_string(i + 1)}, {"cards", cards}, {"leader", std::string(1, seat_letter(trick.leader))},
                {"winner", std::string(1, seat_letter(winner))}, {"how", inferred ? "next lead" : trump() ? "trumps and rank" : "rank"}};
  emit(std::move(e));
}

void Table::infer_board(Millis t) {
  if (inference_failed_) return;
  std::vector<std::uint32_t> candidates;
  if (session_) {
    for (std::uint32_t i = 0; i < master_->size(); ++i)
      if (master_->board(i).session == *session_) candidates.push_back(i);
  } else if (master_->size() <= config_.infer_limit) {
    for (std::uint32_t i = 0; i < master_->size(); ++i) candidates.push_back(i);
  }
  if (candidates.empty()) return;
  std::size_t played = 0;
  std::erase_if(candidates, [&](std::uint32_t i) {
    const Deal& d = master_->board(i).deal;
    for (Seat s : kAllSeats)
      for (const Card& c : played_[static_cast<std::size_t>(index(s))])
        if (!d.hand(s).contains(c)) return true;
    return false;
  });
  for (const auto& p : played_) played += p.size();
  if (candidates.size() == 1) {
    set_board(candidates[0], "inferred from the " + std::to_string(played) + " cards played", "the only board that fits");
    // Dummy may have been faced before the board was known: look at it now.
    if (const auto& d = readings_[static_cast<std::size_t>(Zone{ZoneKind::Dummy, Seat::North}.index())].stable(); d && !dummy_checked_) on_dummy(*d);
  } else if (candidates.empty()) {
    inference_failed_ = true;
    Event e = make("reading.uncertain", Severity::Warning, {},
                   "No board of the master record fits the cards played; give the board's label to check this board");
    e.evidence = {{"cause", "board not identified"}, {"cards_played", std::to_string(played)}};
    emit(std::move(e));
  }
  (void)t;
}

void Table::check_ownership(Seat s, Card c, Millis t) {
  (void)t;
  // As the table believes the hands are (the master deal, or as a reported cause makes it): nothing to say.
  if (held_ && held_->holder(c) == s) return;
  auto owner = info_->deal.holder(c);
  if (!owner) return;
  if (*owner == s) {
    // The master deal's card, but a published cause said otherwise: the cause is not the whole story.
    // The hands are in doubt from now on; nothing more is alerted for the same disturbed board.
    held_.reset();
    return;
  }
  foreign_.emplace_back(s, c);
  held_.reset();  // the hands are in doubt until the cards played show a cause
  if (ownership_reported_) return;
  ownership_reported_ = true;
  // The cause, when the cards played already show it; else "not known yet" and a follow-up once known.
  std::optional<Cause> cause = likely_cause();
  // After a reported dummy exchange, a defender's card from another hand says the board is disturbed
  // beyond it (the board turned two seats looks like an exchange at first): a follow-up on that alert.
  bool after_exchange = cause_ == "dummy exchanged";
  cause_.clear();
  Event e = make("irregularity.card_from_other_hand", after_exchange ? Severity::Warning : Severity::Alert, cause_laws(cause ? cause->kind : ""),
                 board_text() + ": " + (after_exchange ? "besides the dummy exchange reported, " : "") + seat_word(s) +
                     " played a card that the master record gives to " + seat_word(*owner) + "; " +
                     (cause ? "most likely " + cause->words : "the cause is not known yet") + cause_laws_words(cause ? cause->kind : ""));
  e.seats = {s, *owner};
  e.evidence = {{"played_by", std::string(1, seat_letter(s))}, {"belongs_to", std::string(1, seat_letter(*owner))},
                {"cause", cause ? cause->words : "not known yet"}};
  if (cause) e.evidence.emplace_back("kind", cause->kind);
  e.card_evidence = {{"card", c.str()}};
  e.card_message = board_text() + ": " + seat_word(s) + " played " + c.display() + ", which the master record gives to " + seat_word(*owner);
  emit(std::move(e));
  if (cause) {
    cause_ = cause->words;
    held_ = cause->held;
  }
}

std::optional<Table::Cause> Table::likely_cause() const {
  // Which causes fit every card played so far, the likelier first: the board turned or hands in the
  // wrong pockets (a permutation of the master deal), then another board of the session as dealt, then
  // another board under a permutation. A cause is named when it is the only one of its rank that fits
  // and several cards from other hands support it (not the first alone); a fouled board (cards exchanged
  // between hands) when nothing fits.
  // Dummy's faced cards are evidence too: they are the hand of the seat opposite declarer.
  Hand dummy_cards;
  std::optional<Seat> dummy_seat;
  if (contract_ && !contract_->passed_out) {
    dummy_seat = partner(contract_->contract.declarer);
    if (const auto& d = readings_[static_cast<std::size_t>(Zone{ZoneKind::Dummy, Seat::North}.index())].stable()) dummy_cards = d->cards;
  }
  std::array<Hand, 4> played{};
  for (Seat x : kAllSeats)
    for (const Card& y : played_[static_cast<std::size_t>(index(x))]) played[static_cast<std::size_t>(index(x))].add(y);
  // A deal fits under a seat map when each seat's cards played are in the hand the map gives it, and
  // dummy's faced cards are in dummy's but for a few astray (up to 3: a cause is not ruled out by them).
  // Which hand of a deal can be which seat's is worked out once per deal (16 tests), not once per map
  // (24 deals permuted): up to 4,096 boards x 24 maps are looked at for each card while no cause is named.
  struct Fits {
    std::array<std::array<bool, 4>, 4> seat_holds{};  // [table seat][seat of the deal]
    std::array<bool, 4> dummy_ok{};                   // the deal's hand can be the faced dummy
    bool any = false;
    bool under(const SeatMap& m) const {
      for (std::size_t x = 0; x < 4; ++x)
        if (!seat_holds[x][static_cast<std::size_t>(index(m[x]))]) return false;
      return true;
    }
  };
  auto fits_of = [&](const Deal& d) {
    Fits f;
    for (std::size_t h = 0; h < 4; ++h) {
      const Hand& hand = d.hands()[h];
      f.dummy_ok[h] = !dummy_seat || (dummy_cards - hand).size() <= 3;
    }
    for (std::size_t x = 0; x < 4; ++x) {
      bool some = false;
      for (std::size_t h = 0; h < 4; ++h) {
        bool ok = (played[x] - d.hands()[h]).empty();
        if (ok && dummy_seat && static_cast<std::size_t>(index(*dummy_seat)) == x) ok = f.dummy_ok[h];
        f.seat_holds[x][h] = ok;
        some = some || ok;
      }
      if (!some) return f;  // this seat's cards are in no hand of the deal: no map fits
    }
    f.any = true;
    return f;
  };
  std::size_t support = foreign_.size() + (dummy_seat && !(dummy_cards - info_->deal.hand(*dummy_seat)).empty() ? 1 : 0);
  // Per rank, how many causes fit (0, 1 or more: that is all the verdict needs) and the first one; its
  // words are written only for the cause named.
  struct Rank {
    int count = 0;
    std::optional<std::uint32_t> entry;  // none: the board's own deal
    SeatMap map = kIdentitySeats;
  };
  std::array<Rank, 5> fit;
  auto add = [&](std::size_t rank, std::optional<std::uint32_t> entry, const SeatMap& m) {
    if (fit[rank].count++ == 0) {
      fit[rank].entry = entry;
      fit[rank].map = m;
    }
  };
  auto search = [&](std::uint32_t i, std::size_t as_dealt, std::size_t permuted) {
    Fits f = fits_of(master_->board(i).deal);
    if (!f.any) return;
    for (const SeatMap& m : all_seat_maps())
      if (f.under(m)) add(m == kIdentitySeats ? as_dealt : permuted, i, m);
  };
  {
    Fits f = fits_of(info_->deal);
    if (f.any)
      for (const SeatMap& m : all_seat_maps())
        if (m != kIdentitySeats && f.under(m)) add(0, std::nullopt, m);
  }
  std::size_t session_boards = 0, other_boards = 0;  // deals searched, for the odds of a fit by chance
  if (board_ && session_) {
    for (std::uint32_t i = 0; i < master_->size(); ++i)
      if (i != *board_ && master_->board(i).session == *session_) {
        ++session_boards;
        search(i, 1, 2);
      }
  }
  // Nothing of the session fits: a deal of another session or event of the record (as dealt, then
  // under a permutation), searched when the record is small enough (infer_limit, as for inferring
  // the board). Only when nothing of the record fits are cards exchanged
  // between hands: a fouled board. (A whole foreign deal called a fouled board sends the director to
  // look for a few swapped cards.)
  if (fit[0].count == 0 && fit[1].count == 0 && fit[2].count == 0 && board_ && master_->size() <= config_.infer_limit) {
    for (std::uint32_t i = 0; i < master_->size(); ++i)
      if (i != *board_ && !(session_ && master_->board(i).session == *session_)) {
        ++other_boards;
        search(i, 3, 4);
      }
  }
  if (std::all_of(fit.begin(), fit.end(), [](const Rank& rank) { return rank.count == 0; }))
    return Cause{"a fouled board: cards were exchanged between hands", std::nullopt, "fouled board"};
  if (support < 2) return std::nullopt;
  // A deal that is in no board of the record (dealt at the table, another event's board) fits some board
  // of a big record by chance: a card played lies in a given hand of a random deal one time in four, so
  // `evidence` cards fit one of N deals x seat maps about N / 4^evidence times. Another board is named
  // only when that is under one in twenty (a wrong board of the session is common, a deal from nowhere
  // rare: the board's own deal turned or its hands swapped, and the session's 30 boards as dealt, are
  // named from 5 cards; 4,096 boards x 24 maps from 11) --
  // more cards, or dummy's faced hand, make it sure -- else
  // the table waits (as for two causes that fit): the director is never sent after a board that only
  // happens to fit (4,096 boards x 24 maps fit 8 cards of a random deal 1.5 times; bench/table_bench).
  std::size_t evidence = 0;
  for (const auto& p : played_) evidence += p.size();
  if (dummy_seat && dummy_cards.size() > 3) evidence += static_cast<std::size_t>(dummy_cards.size() - 3);  // up to 3 astray are allowed
  const auto by_chance = [&](std::size_t r) {
    if (r == 0) return 23.0 * std::pow(0.25, static_cast<double>(evidence));  // the board's own deal, 23 other seat maps
    const double maps = r == 1 || r == 3 ? 1.0 : 24.0;  // as dealt, or under one of the seat maps
    const double deals = static_cast<double>(r <= 2 ? session_boards : other_boards);
    return deals * maps * std::pow(0.25, static_cast<double>(evidence));
  };
  for (std::size_t r = 0; r < fit.size(); ++r) {
    const Rank& rank = fit[r];
    if (rank.count > 1) return std::nullopt;  // two causes of the same likelihood: wait for more cards
    if (rank.count == 0) continue;
    if (by_chance(r) > 0.05) return std::nullopt;
    const SeatMap& m = rank.map;
    if (!rank.entry) return Cause{map_words(m), info_->deal.permuted(m), rotation_of(m) ? "board turned" : "hands in the wrong pockets"};
    Deal d = master_->board(*rank.entry).deal.permuted(m);
    std::string as = m == kIdentitySeats ? "" : " (" + map_words(m) + ")";
    if (r <= 2) return Cause{"a wrong board: the cards fit " + master_->describe(*rank.entry) + as, d, "wrong board"};
    return Cause{"a deal from another session: the cards fit " + master_->describe(*rank.entry) + as, d, kForeignSession};
  }
  return std::nullopt;
}

void Table::find_cause() {
  if (!ownership_reported_ || !cause_.empty() || !info_) return;
  if (auto c = likely_cause()) publish_cause(c->words, c->held, c->kind);
}

void Table::publish_cause(const std::string& cause, std::optional<Deal> held, const std::string& kind) {
  cause_ = cause;
  held_ = held;
  std::size_t played = 0;
  for (const auto& p : played_) played += p.size();
  Event e = make("irregularity.card_from_other_hand", Severity::Warning, cause_laws(kind),
                 board_text() + ": the cards played so far show why cards came from other hands: " + cause + cause_laws_words(kind));
  std::string list;
  for (const auto& [seat, card] : foreign_) {
    list.append(list.empty() ? "" : " ").append(1, seat_letter(seat)).append(":").append(card.str());  // appends: see emit_capabilities
    if (std::find(e.seats.begin(), e.seats.end(), seat) == e.seats.end()) e.seats.push_back(seat);
  }
  e.evidence = {{"cause", cause}, {"kind", kind}, {"cards_played", std::to_string(played)},
                {"from_other_hands", std::to_string(foreign_.size())}, {"state", "cause found"}};
  e.card_evidence = {{"cards", list}};
  emit(std::move(e));
  // Dummy, faced while the cause was not known, can be looked at now.
  if (const auto& d = readings_[static_cast<std::size_t>(Zone{ZoneKind::Dummy, Seat::North}.index())].stable(); d && !dummy_checked_) on_dummy(*d);
}

void Table::check_revoke(Seat s, Card c, Millis t) {
  (void)t;
  const Trick& trick = tricks_.back();
  std::size_t ti = tricks_.size() - 1;
  auto si = static_cast<std::size_t>(index(s));
  auto already = [&](Seat seat, std::size_t trick_index) {
    return std::any_of(revokes_.begin(), revokes_.end(), [&](const Revoke& r) { return r.seat == seat && r.trick == trick_index; });
  };
  if (s != trick.leader) {
    Card led = *trick.cards[static_cast<std::size_t>(index(trick.leader))];
    if (c.suit() != led.suit()) {
      auto& mark = shown_out_[si][static_cast<std::size_t>(index(led.suit()))];
      if (mark == 0) mark = static_cast<int>(ti) + 1;
      // From the hands as held: certain as soon as the card is faced -- as long as every card played
      // came from the hand the master record (or a reported dummy exchange) gives it. Once a card has
      // come from another hand, the hands are in doubt (cards astray may not have been played yet) and
      // only the play itself proves a revoke: one disturbed board, one alert.
      if (held_ && foreign_.empty() && held_->holder(c) == s) {
        Hand rest = remaining(s);
        // Cards the seat played unread (quitted_with_a_card_unread) may have been these very cards.
        if (rest.length(led.suit()) > unread_[si] && !already(s, ti)) {
          Card held{};
          Hand::from_bits(std::uint64_t{rest.suit_bits(led.suit())} << (index(led.suit()) * kRanks)).for_each_descending([&](Card x) {
            if (held == Card{}) held = x;
          });
          revokes_.push_back({s, ti, c, false});
          // Law 62D1: a revoke on trick twelve is corrected even once established (see check_established).
          bool twelfth = ti == kTwelfthTrick;
          Event e = make("irregularity.revoke", Severity::Alert, twelfth ? std::vector<std::string>{"61", "62D1"} : std::vector<std::string>{"61", "62"},
                         board_text() + ": " + seat_word(s) + " revoked in trick " + std::to_string(ti + 1) +
                             " (failed to follow suit); not yet established" +
                             (twelfth ? "; a revoke on trick 12 is corrected even once established, until the hands are back in the board (Laws 61, 62D1)"
                                      : " (Laws 61, 62)"));
          e.seats = {s};
          e.evidence = {{"trick", std::to_string(ti + 1)}, {"state", "not established"}, {"how", "from the hands"}};
          e.card_evidence = {{"led", std::string(1, suit_letter(led.suit()))}, {"card", c.str()}, {"holds", held.str()}};
          e.card_message = board_text() + ": " + seat_word(s) + " played " + c.display() + " to " + std::string(suit_symbol(led.suit())) +
                           " led but holds " + held.display();
          emit(std::move(e));
        }
      }
    }
  }
  // From the play alone: a seat that showed out of a suit and later plays it revoked back then.
  int mark = shown_out_[si][static_cast<std::size_t>(index(c.suit()))];
  if (mark > 0 && static_cast<std::size_t>(mark - 1) < ti && !already(s, static_cast<std::size_t>(mark - 1))) {
    std::size_t at = static_cast<std::size_t>(mark - 1);
    revokes_.push_back({s, at, c, true});
    bool twelfth = at == kTwelfthTrick;
    Event e = make("irregularity.revoke", Severity::Alert,
                   twelfth ? std::vector<std::string>{"61", "63A", "62D1", "64B6"} : std::vector<std::string>{"61", "63A"},
                   board_text() + ": " + seat_word(s) + " revoked in trick " + std::to_string(at + 1) + " (failed to follow suit, as trick " +
                       std::to_string(ti + 1) + " shows); the revoke is established" +
                       (twelfth ? kTwelfthTrickWords + " (Laws 61, 63A, 62D1, 64B6)" : std::string(" (Laws 61, 63A)")));
    e.seats = {s};
    e.evidence = {{"trick", std::to_string(at + 1)}, {"state", "established"}, {"how", "from the play"}};
    if (twelfth) e.evidence.insert(e.evidence.end(), {{"correction", "before the hands are returned"}, {"adjustment", "none"}});
    e.card_evidence = {{"led", std::string(1, suit_letter(c.suit()))}, {"card", c.str()}};
    e.card_message = board_text() + ": " + seat_word(s) + " showed out of " + std::string(suit_symbol(c.suit())) + " at trick " +
                     std::to_string(at + 1) + " and now plays " + c.display();
    emit(std::move(e));
  }
}

void Table::check_established(Seat s, Millis t) {
  (void)t;
  std::size_t ti = tricks_.size() - 1;
  for (Revoke& r : revokes_) {
    if (r.established || ti <= r.trick || (s != r.seat && s != partner(r.seat))) continue;
    // Law 63A1: established when the offender or his partner plays to a later trick. On trick twelve it
    // is still to be corrected before the hands go back in the board (62D1), with no trick adjustment
    // (64B6): a director must not go to the 64A transfer.
    r.established = true;
    bool twelfth = r.trick == kTwelfthTrick;
    Event e = make("irregularity.revoke", Severity::Alert, twelfth ? std::vector<std::string>{"63A", "62D1", "64B6"} : std::vector<std::string>{"63A"},
                   board_text() + ": " + seat_word(r.seat) + "'s revoke at trick " + std::to_string(r.trick + 1) +
                       " is established: " + seat_word(s) + " has played to trick " + std::to_string(ti + 1) +
                       (twelfth ? kTwelfthTrickWords + " (Laws 63A, 62D1, 64B6)" : std::string(" (Law 63A)")));
    e.seats = {r.seat};
    e.evidence = {{"trick", std::to_string(r.trick + 1)}, {"state", "established"}};
    if (twelfth) e.evidence.insert(e.evidence.end(), {{"correction", "before the hands are returned"}, {"adjustment", "none"}});
    e.card_evidence = {{"card", r.card.str()}};
    emit(std::move(e));
  }
}

void Table::on_dummy(const Observation& o) {
  if (o.cards.empty() || dummy_checked_ || phase_ != Phase::Play || !info_) return;
  // Cards from other hands with no known cause yet: the faced dummy may be what shows the cause (a
  // turned board), and is then no dummy exchange. Until a cause is known, dummy waits.
  if (ownership_reported_ && cause_.empty()) {
    find_cause();
    if (cause_.empty() || dummy_checked_) return;  // (publishing the cause looked at dummy already)
  }
  // Whose hand is faced? The seat that holds most of these cards in the deal as held.
  std::array<int, 4> votes{};
  const Deal& deal = held_ ? *held_ : info_->deal;
  o.cards.for_each_descending([&](Card c) {
    if (auto h = deal.holder(c)) ++votes[static_cast<std::size_t>(index(*h))];
  });
  auto best = static_cast<int>(std::max_element(votes.begin(), votes.end()) - votes.begin());
  if (votes[static_cast<std::size_t>(best)] * 2 <= o.cards.size()) return;  // no clear owner: wait for a better reading
  dummy_checked_ = true;
  dummy_known(static_cast<Seat>(best), o.time);
}

void Table::dummy_known(Seat d, Millis t) {
  (void)t;
  dummy_ = d;
  if (contract_ && !contract_->passed_out) {
    Seat decl = contract_->contract.declarer;
    if (d == partner(decl)) return;
    if (d == decl && opening_leader_ && *opening_leader_ == right_hand_opponent(decl)) {
      // Law 54A: after a faced opening lead out of turn (here from declarer's right), declarer may spread
      // his hand: he becomes dummy and his partner declares -- and the lead was then in turn. The same
      // table is seen when the contract was entered with the wrong declarer. Either way the hand in the
      // dummy zone is the dummy's own, played to its own play area: no exchange of hands (43A2a). The
      // table follows the contract as played; the Law 54 alert already given gets one follow-up.
      Seat offender = *opening_leader_;
      contract_->contract.declarer = partner(decl);
      dummy_ = decl;
      Event e = make("irregularity.lead_out_of_turn", Severity::Warning, {"54A"},
                     board_text() + ": " + seat_word(decl) + " spread his hand as dummy after " + seat_word(offender) +
                         "'s opening lead, so " + seat_word(partner(decl)) + " declares (Law 54A; or the contract was given with the wrong declarer)");
      e.seats = {offender};
      e.evidence = {{"expected", std::string(1, seat_letter(left_hand_opponent(decl)))}, {"observed", std::string(1, seat_letter(offender))},
                    {"lead", "opening"}, {"state", "accepted"}, {"dummy", std::string(1, seat_letter(decl))},
                    {"declarer", std::string(1, seat_letter(partner(decl)))}};
      emit(std::move(e));
      return;
    }
    // From now on the table follows the hands as they are: the seat opposite declarer is still the
    // dummy whose cards go to its play area, and it holds the hand it faced (43A2a): one cause, one
    // alert, and no card from another hand for the cards the exchange explains.
    dummy_ = partner(decl);
    // Cards from other hands already alerted: the faced dummy is the same disturbed board, no new alert.
    if (ownership_reported_) return;
    if (d != decl && info_) {
      // A defender's hand faced as dummy is no exchange of declarer's and dummy's hands: the hands are
      // not where the master record puts them (a turned board, hands in the wrong pockets, another
      // board). Law 87A, one alert, its cause once the cards show it.
      ownership_reported_ = true;
      held_.reset();
      std::optional<Cause> cause = likely_cause();
      Event e = make("irregularity.card_from_other_hand", Severity::Alert, cause_laws(cause ? cause->kind : ""),
                     board_text() + ": the hand faced as dummy by " + seat_word(partner(decl)) + " is " + seat_word(d) +
                         "'s in the master record; " + (cause ? "most likely " + cause->words : "the cause is not known yet") +
                         cause_laws_words(cause ? cause->kind : ""));
      e.seats = {partner(decl), d};
      e.evidence = {{"played_by", std::string(1, seat_letter(partner(decl)))}, {"belongs_to", std::string(1, seat_letter(d))},
                    {"cause", cause ? cause->words : "not known yet"}, {"seen", "dummy"}};
      if (cause) {
        e.evidence.emplace_back("kind", cause->kind);
        cause_ = cause->words;
        held_ = cause->held;
      }
      emit(std::move(e));
      return;
    }
    if (info_ && cause_.empty() && foreign_.empty()) {
      SeatMap m = kIdentitySeats;
      std::swap(m[static_cast<std::size_t>(index(partner(decl)))], m[static_cast<std::size_t>(index(d))]);
      held_ = info_->deal.permuted(m);
      cause_ = "dummy exchanged";
    }
    Event e = make("irregularity.dummy_exchange", Severity::Alert, {"43A2a"},
                   board_text() + ": the hand faced as dummy is " + seat_word(d) + "'s, but " + seat_word(partner(decl)) +
                       " is dummy" + (d == decl ? " \u2014 declarer's and dummy's hands are exchanged" : "") + " (Law 43A2a)");
    e.seats = {d, partner(decl)};
    e.evidence = {{"expected", std::string(1, seat_letter(partner(decl)))}, {"observed", std::string(1, seat_letter(d))}};
    emit(std::move(e));
    return;
  }
  if (!opening_leader_ || d == left_hand_opponent(*opening_leader_)) return;  // as it should be
  Seat l = *opening_leader_;
  // Without the contract the faced dummy says who declares: partner of dummy; the lead should have come
  // from declarer's left. A dummy on the leader's right is a lead from the wrong defender (most likely)
  // or declarer's hand faced as dummy; a dummy opposite the leader means declarer's side led.
  Seat want = right_hand_opponent(d);
  Event e = make("irregularity.lead_out_of_turn", Severity::Alert, {"54"},
                 board_text() + ": dummy is " + seat_word(d) + ", so " + seat_word(want) + " was on lead, but " + seat_word(l) +
                     " faced the opening lead" + (d == right_hand_opponent(l) ? " (or declarer's hand was faced as dummy, Law 43A2a)" : "") +
                     " (Law 54)");
  e.seats = {l};
  e.evidence = {{"expected", std::string(1, seat_letter(want))}, {"observed", std::string(1, seat_letter(l))}, {"lead", "opening"},
                {"dummy", std::string(1, seat_letter(d))}};
  emit(std::move(e));
}

void Table::board_returned(Millis t) {
  if (pending_lead_) settle_pending_lead();  // the hands went back: the leader's card never came
  std::size_t cards_played = 0;
  for (const auto& p : played_) cards_played += p.size();
  if (phase_ == Phase::Auction && cards_played == 0) {
    Event e = make("auction.period_ended", Severity::Info, {"17D"}, board_text() + ": passed out, the hands are back in the board (Law 17D)");
    e.evidence = {{"passed_out", "yes"}};
    emit(std::move(e));
  }
  quitted_with_a_card_unread(std::nullopt, t);
  close_trick(t);
  if (!tricks_.empty() && tricks_.back().count == 4 && !tricks_.back().winner) {
    // The last trick: with no trump known and no next lead, its winner is by rank alone if nobody ruffed.
    const Trick& last = tricks_.back();
    Suit led = last.cards[static_cast<std::size_t>(index(last.leader))]->suit();
    bool all_follow = std::all_of(last.cards.begin(), last.cards.end(), [&](const auto& c) { return c && c->suit() == led; });
    if (all_follow) {
      finish_trick(tricks_.size() - 1, trick_winner(last.cards, last.leader, std::nullopt), false, t);
    } else {
      // Somebody did not follow and the trump is not known: the cards are published, the winner is not guessed.
      std::string cards;
      for (int k = 0; k < 4; ++k) {
        Seat s = rotate(last.leader, k);
        cards += (cards.empty() ? "" : " ") + std::string(1, seat_letter(s)) + ":" + last.cards[static_cast<std::size_t>(index(s))]->str();
      }
      Event e = make("play.trick", Severity::Info, {},
                     "Trick " + std::to_string(tricks_.size()) + ": the winner is not known (no contract given, no next lead)");
      e.evidence = {{"trick", std::to_string(tricks_.size())}, {"cards", cards}, {"leader", std::string(1, seat_letter(last.leader))},
                    {"winner", "unknown"}};
      emit(std::move(e));
    }
  }
  // Law 63A3: a revoke is established when a member of the offending side makes or agrees to a claim or
  // concession. Play that stops short of thirteen complete tricks ended in one (Laws 68-69), and the cards
  // go back only once it is agreed or ruled on: a revoke still open then has its final state.
  bool played_out = tricks_.size() == 13 && tricks_.back().count == 4;
  for (Revoke& r : revokes_) {
    if (r.established || played_out) continue;
    r.established = true;
    Event e = make("irregularity.revoke", Severity::Alert, {"63A3"},
                   board_text() + ": " + seat_word(r.seat) + "'s revoke at trick " + std::to_string(r.trick + 1) +
                       " is established: play ended in a claim or concession (Law 63A3)");
    e.seats = {r.seat};
    e.evidence = {{"trick", std::to_string(r.trick + 1)}, {"state", "established"}};
    e.card_evidence = {{"card", r.card.str()}};
    emit(std::move(e));
  }
  // What the pockets hold as the board goes back (Law 7C: each player's 13 cards in his own pocket).
  FourPockets four;               // each pocket's stable reading
  const std::array<Hand, 4>& pockets = four.hands;
  bool read_cards = false;       // some pocket identified a card
  bool every_pocket_read = true;  // each pocket has a stable, complete reading
  Hand together;                  // every card read in a pocket
  Hand twice;                     // cards read in two pockets: one of them is of another pack
  for (Seat s : kAllSeats) {
    const auto& r = pocket_reading(s).stable();
    if (r) four.add(s, *r);
    read_cards = read_cards || (r && !r->cards.empty());
    every_pocket_read = every_pocket_read && r && r->complete;
  }
  // One tag heard by two pocket readers (one reader a pocket, no signal strength to choose by) is one
  // card: counted once, where the deal puts it, and the technician told -- never a surplus card and a
  // pocket of 14 for the director (docs/hardware.md, "Cross-talk"). Another tag is another card (13C).
  if (every_pocket_read)
    for (const HeardTwice& h : four.merge_heard_twice(info_ ? std::optional(info_->deal) : std::nullopt))
      heard_by_two_readers(h, four.readers, ZoneKind::Pocket);
  // A second tag of a face in one pocket -- another pack's ♠A beside this pack's -- is a second card there:
  // counted (14, not 13), and the face read twice (Law 13C).
  std::array<std::vector<Card>, 4> again{};
  for (std::size_t si = 0; si < 4; ++si) {
    again[si] = same_face(pockets[si], four.ids[si]);
    for (Card c : again[si]) twice.add(c);
  }
  for (const Hand& h : pockets) {
    twice |= together & h;
    together |= h;
  }
  // The pockets count as read in full -- the evidence of what each hand holds -- when all four read
  // completely and together name at least 40 cards (the board check's floor for the nearest board). An
  // RFID antenna under a stack of 13 hears a tag or two: that is presence, and a count of it a false alert.
  bool pockets_read = every_pocket_read && together.size() >= 40;
  if (cards_played > 0 && !pockets_read) {
    // Law 13D: after play, a hand that played more or fewer cards than the others. Only where the pockets
    // are not read: a claim or concession ends play (Laws 68-70) and the cards not played are simply not
    // played, so after a claim in the middle of a trick the counts played differ. Pockets read in full
    // show what each hand really holds: they are the evidence, not the count of cards played.
    std::array<std::size_t, 4> n{};
    // A card played unread (quitted_with_a_card_unread) was played all the same.
    for (std::size_t i = 0; i < 4; ++i) n[i] = played_[i].size() + static_cast<std::size_t>(unread_[i]);
    std::size_t most = *std::max_element(n.begin(), n.end());
    bool uneven = std::any_of(n.begin(), n.end(), [&](std::size_t x) { return x != most; });
    // Play that stopped in the middle of a trick before the thirteenth -- the seats after the leader in
    // order not yet played, every earlier trick complete -- is what a claim looks like ("I play the ace
    // and the rest are mine", Laws 68-70), and pockets that only report presence cannot tell it from a
    // hand short of a card. A short or long hand shows at the thirteenth trick (or leaves a hole in an
    // earlier one): that stays an alert; a claim's shape is a warning that says both readings.
    bool claim_shape = false;
    if (uneven && !tricks_.empty() && tricks_.size() < 13 && tricks_.back().count > 0 && tricks_.back().count < 4) {
      const Trick& open = tricks_.back();
      claim_shape = std::all_of(tricks_.begin(), tricks_.end() - 1, [](const Trick& k) { return k.count == 4; });
      for (int k = 0; k < 4 && claim_shape; ++k) {
        const Seat s = bridge::rotate(open.leader, k);
        claim_shape = open.cards[static_cast<std::size_t>(index(s))].has_value() == (k < open.count);
      }
    }
    if (uneven) {
      Event e = make("irregularity.wrong_count", claim_shape ? Severity::Warning : Severity::Alert, {"13D"}, "");
      std::string list, text;
      for (Seat s : kAllSeats) {
        list += (list.empty() ? "" : " ") + std::string(1, seat_letter(s)) + "=" + std::to_string(n[static_cast<std::size_t>(index(s))]);
        if (n[static_cast<std::size_t>(index(s))] != most) {
          e.seats.push_back(s);
          std::size_t k = n[static_cast<std::size_t>(index(s))];
          text += (text.empty() ? "" : ", ") + seat_word(s) + " has played " + std::to_string(k) + (k == 1 ? " card" : " cards");
        }
      }
      e.evidence = {{"expected", "the same number each"}, {"observed", list}};
      e.message = board_text() + ": after play " + text + ", the others " + std::to_string(most) + " (Law 13D)";
      if (claim_shape) {
        e.evidence.emplace_back("likely", "a claim in trick " + std::to_string(tricks_.size()));
        e.message = board_text() + ": play ended in the middle of trick " + std::to_string(tricks_.size()) + " (" + text + ", the others " +
                    std::to_string(most) + "): most likely a claim (Laws 68-70); if not, a hand is short of a card (Law 13D) \u2014 the pockets cannot tell";
      }
      emit(std::move(e));
    }
  }
  if (pockets_read) returned_count(four, again, together, twice);
  // Law 7: the board goes back with each hand in its own pocket. Checked where the pockets read cards.
  if (info_) {
    std::vector<Misplaced> wrong;
    for (Seat s : kAllSeats)
      pockets[static_cast<std::size_t>(index(s))].for_each_descending([&](Card c) {
        // A card read in two pockets is a surplus card (13C, above), not a card in the wrong pocket.
        if (auto owner = info_->deal.holder(c); owner && *owner != s && !twice.contains(c)) wrong.push_back({c, *owner, s});
      });
    if (read_cards && !wrong.empty()) {
      // In a director's words: whole hands in the wrong pockets, or a few cards.
      NearestMap near = nearest_map(pockets, info_->deal);
      int read = 0;
      for (const Hand& h : pockets) read += h.size();
      bool whole_hands = near.map != kIdentitySeats && near.in_place == read;
      std::string what = whole_hands ? map_words(near.map)
                                     : std::to_string(wrong.size()) + (wrong.size() == 1 ? " card is in the wrong pocket" : " cards are in the wrong pockets");
      // The cause reported during play (a turned board, a wrong board...) explains it: a follow-up, not a new alert.
      bool as_reported = held_ && !cause_.empty() && std::all_of(kAllSeats, kAllSeats + 4, [&](Seat s) {
                           return (pockets[static_cast<std::size_t>(index(s))] - held_->hand(s)).empty();
                         });
      Event e = make("irregularity.fouled_board", as_reported ? Severity::Warning : Severity::Alert, {"7", "87A"},
                     board_text() + " went back fouled: " + what + (as_reported ? ", as reported during play" : "") +
                         " \u2014 correct it before it travels (Laws 7, 87A)");
      e.seats = misplaced_seats(wrong);
      e.evidence = {{"misplaced", std::to_string(wrong.size())}, {"how", whole_hands ? describe(near.map) : "cards"}};
      if (as_reported) e.evidence.emplace_back("cause", cause_);
      e.card_evidence = {{"misplaced", misplaced_list(wrong)}};
      e.card_message = board_text() + ": " + misplaced_display(wrong);
      emit(std::move(e));
    }
  }
  // Law 6D2: the next deal must not come from these cards as they lie: remember how they were quitted.
  previous_.reset();
  if (tricks_.size() == 13 && std::all_of(tricks_.begin(), tricks_.end(), [](const Trick& x) { return x.count == 4; })) {
    PreviousBoard prev;
    prev.name = info_ ? info_->description : std::string("the previous board");
    for (const Trick& x : tricks_)
      for (int k = 0; k < 4; ++k) {
        Seat s = rotate(x.leader, k);
        Card c = *x.cards[static_cast<std::size_t>(index(s))];
        prev.tricks.push_back(c);
        prev.quitted[static_cast<std::size_t>(index(s))].push_back(c);
      }
    previous_ = std::move(prev);
  }
  Event e = make("board.returned", Severity::Info, {"7"}, board_text() + " is back in its pockets after " + seconds(t - board_start_));
  e.evidence = {{"duration", seconds(t - board_start_)}, {"tricks", std::to_string(tricks_.size())}};
  emit(std::move(e));
  reset_board();
  between_boards_ = true;
}

void Table::heard_by_two_readers(const HeardTwice& h, const std::array<std::string, 4>& readers, ZoneKind kind) {
  std::string pockets, devices, zones;
  for (Seat s : h.seats) {
    pockets += (pockets.empty() ? "" : (s == h.seats.back() ? " and " : ", ")) + seat_word(s);
    zones.append(zones.empty() ? "" : " ").append(Zone{kind, s}.str());  // appends: see emit_capabilities
    const std::string& r = readers[static_cast<std::size_t>(index(s))];
    if (!r.empty() && devices.find(r) == std::string::npos) devices += (devices.empty() ? "" : ", ") + r;
  }
  // Public words name no card: the board still travels to the next table.
  Event e = make("reading.uncertain", Severity::Warning, {},
                 board_text() + ": one card's tag is heard by the readers of " + pockets + "'s pockets" +
                     (devices.empty() ? "" : " (" + devices + ")") + "; counted once, in " + seat_word(h.kept) +
                     "'s — move the readers at least 10 cm apart");
  e.seats = h.seats;
  e.evidence = {{"cause", "card heard by two readers"}, {"zones", zones}, {"counted_in", std::string(1, seat_letter(h.kept))}};
  if (!devices.empty()) e.evidence.emplace_back("readers", devices);
  e.card_evidence = {{"card", h.card.str()}, {"uid", h.id}};
  e.card_message = board_text() + ": " + h.card.display() + " (tag " + h.id + ") is heard in " + pockets + "'s pockets; it is " +
                   seat_word(h.kept) + "'s";
  emit(std::move(e));
}

// Law 7C: after play each player puts his 13 cards back into his own pocket, and the board must reach the
// next table intact, where a pocket of 12 or 14 is Law 13's and a card lost Law 14's. Pockets read in full
// show it before the board travels: the same checks and events as the board-checking station, at return.
void Table::returned_count(const FourPockets& four, const std::array<std::vector<Card>, 4>& again, Hand together, Hand twice) {
  const std::array<Hand, 4>& pockets = four.hands;
  const std::array<int, 4>& unknown = four.unknown;
  Hand missing = Hand::full_deck() - together;
  int unknown_total = std::accumulate(unknown.begin(), unknown.end(), 0);

  // A pocket of other than 13 (an unknown tag is something there too). When every card of the pack is
  // read once and nothing else, the counts are off only because cards went into the wrong pockets: the
  // fouled board (below) names them, one cause, one alert.
  if (!missing.empty() || !twice.empty() || unknown_total > 0) {
    Event e = make("irregularity.wrong_count", Severity::Alert, {"7", "13D"}, "");
    std::string list, text;
    for (Seat s : kAllSeats) {
      auto si = static_cast<std::size_t>(index(s));
      int n = pockets[si].size() + static_cast<int>(again[si].size()) + unknown[si];
      if (n == 13) continue;
      e.seats.push_back(s);
      list += (list.empty() ? "" : " ") + std::string(1, seat_letter(s)) + "=" + std::to_string(n);
      text += (text.empty() ? "" : ", ") + std::to_string(n) + (n == 1 ? " card" : " cards") + " in " + seat_word(s) + "'s pocket";
    }
    if (!e.seats.empty()) {
      e.evidence = {{"expected", "13 each"}, {"observed", list}};
      e.message = board_text() + " went back with " + text + " \u2014 correct it before it travels (Laws 7, 13D)";
      emit(std::move(e));
    }
  }

  // Law 13C: the same card in two pockets, or twice in one (two tags) -- one of them is of another pack.
  twice.for_each_descending([&](Card c) {
    Event e = make("irregularity.surplus_card", Severity::Alert, {"7", "13C"}, "");
    std::string places;
    std::size_t times = 0;
    for (Seat s : kAllSeats) {
      auto si = static_cast<std::size_t>(index(s));
      if (!pockets[si].contains(c)) continue;
      e.seats.push_back(s);
      places += (places.empty() ? "" : " and ") + seat_word(s);
      times += 1 + static_cast<std::size_t>(std::count(again[si].begin(), again[si].end(), c));
    }
    e.evidence = {{"observed", std::to_string(times) + " times"}, {"pockets", places}};
    e.message = board_text() + " went back with a card read twice (" + places +
                ") \u2014 a card that is no part of the deal; take it out before the board travels (Laws 7, 13C)";
    e.card_evidence = {{"card", c.str()}};
    // The tags read for it, as at the station (board_check.cpp): two tags are two cards, one of another
    // pack, and the director finds the one to take out by its UID.
    std::string uids;
    for (Seat s : e.seats)
      for (auto [tag, end] = four.ids[static_cast<std::size_t>(index(s))].equal_range(c); tag != end; ++tag)
        uids += (uids.empty() ? "" : ",") + tag->second;
    if (!uids.empty()) e.card_evidence.emplace_back("uids", uids);
    e.card_message = board_text() + ": " + c.display() + " is in " + places + (e.seats.size() == 1 ? "'s pocket twice" : "'s pockets");
    emit(std::move(e));
  });

  // A tag that is no card of the enrolled deck: something in the pocket that must not travel with it.
  for (Seat s : kAllSeats) {
    auto si = static_cast<std::size_t>(index(s));
    int n = unknown[si];
    if (n == 0) continue;
    Event e = make("irregularity.unknown_card", Severity::Warning, {"7"},
                   board_text() + ": " + (n == 1 ? std::string("a tag") : std::to_string(n) + " tags") + " in " + seat_word(s) +
                       "'s pocket " + (n == 1 ? "is" : "are") + " no card of the enrolled deck \u2014 take " + (n == 1 ? "it" : "them") +
                       " out before the board travels (Law 7)");
    e.seats = {s};
    e.evidence = {{"unknown", std::to_string(n)}};
    std::string ids;
    for (const std::string& id : four.unknown_ids[si]) ids += (ids.empty() ? "" : ",") + id;
    if (!ids.empty()) e.card_evidence = {{"uids", ids}};
    emit(std::move(e));
  }

  // Law 14: a card of the pack that is in no pocket. Which card is for directors only: the board still
  // travels, and the next table's players must not learn its cards.
  if (!missing.empty()) {
    Event e = make("irregularity.missing_card", Severity::Alert, {"7", "14"}, "");
    std::string list, shown;
    int k = 0;
    missing.for_each_descending([&](Card c) {
      list.append(list.empty() ? "" : " ").append(c.str());  // appends: see emit_capabilities
      if (k++ < 6) shown += (shown.empty() ? "" : ", ") + c.display();
      if (info_)
        if (auto owner = info_->deal.holder(c); owner && std::find(e.seats.begin(), e.seats.end(), *owner) == e.seats.end())
          e.seats.push_back(*owner);
    });
    if (k > 6) shown += " and " + std::to_string(k - 6) + " more";
    std::sort(e.seats.begin(), e.seats.end(), [](Seat a, Seat b) { return index(a) < index(b); });
    e.evidence = {{"missing", std::to_string(k)}};
    e.message = board_text() + " went back short: " + (k == 1 ? std::string("a card is") : std::to_string(k) + " cards are") +
                " in no pocket" + (unknown_total ? " (unknown tags were read: perhaps damaged cards)" : "") +
                " \u2014 find " + (k == 1 ? "it" : "them") + " before the board travels (Laws 7, 14)";
    e.card_evidence = {{"missing", list}};
    e.card_message = board_text() + ": missing " + shown;
    emit(std::move(e));
  }
}

void Table::reset_board() {
  phase_ = Phase::Waiting;
  return_pending_.reset();
  board_.reset();
  contract_.reset();
  opening_leader_.reset();
  dummy_.reset();
  dummy_checked_ = false;
  tricks_.clear();
  played_ = {};
  faced_ = {};
  revokes_.clear();
  shown_out_ = {};
  ownership_reported_ = false;
  inference_failed_ = false;
  slow_reported_ = false;
  arrived_ = {};
  board_arrived_ = false;
  info_.reset();
  held_.reset();
  cause_.clear();
  foreign_.clear();
  taken_back_ = {};
  unread_ = {};
  lead_alerted_.reset();
  pending_lead_.reset();
  first_out_.reset();
  pockets_out_ = {};
  lifted_.reset();
  lifted_at_.reset();
  back_heard_ = {};
  auction_between_boards_ = false;
}

}  // namespace cardtable::table
