// Property test: thousands of random boards through clean sessions give no irregularity at all; each kind
// of fault injected gives exactly its irregularity and no other. The counts are printed.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <random>

#include "table/unshuffled.hpp"
#include "table_test_support.hpp"

using namespace cardtable::table;
using namespace cardtable::bridge;

namespace {

// 2,048 random boards in 64 sessions of 32.
const MasterRecord& big_master() {
  static const MasterRecord m = [] {
    MasterRecord r;
    add_synthetic_records(r, 2048, 32, 20261120, "Property");
    return r;
  }();
  return m;
}

std::vector<Event> run_on(const std::string& script) {
  std::vector<ScenarioError> errors;
  auto sc = parse_scenario("master memory\n" + script, ".", [](const auto&) -> const MasterRecord& { return big_master(); }, errors);
  if (!sc) throw std::runtime_error(errors.empty() ? "?" : errors[0].message);
  return run_scenario(*sc, big_master());
}

std::string label(std::uint32_t i) {
  const MasterBoard& b = big_master().board(i);
  return big_master().session(b.session).event + "/" + big_master().session(b.session).session + "/" + std::to_string(b.board);
}

std::string cards(const Hand& h) {
  std::string out;
  h.for_each_descending([&](Card c) { out += " " + c.str(); });
  return out.empty() ? " -" : out;
}

std::string station(std::uint32_t board, const std::array<Hand, 4>& pockets, const std::string& noise = "") {
  std::string s = "zones station-hands\nat 0 board " + label(board) + "\n" + noise;
  for (int p = 0; p < 4; ++p) s += "at 1 hand " + std::string(1, "NESW"[p]) + cards(pockets[static_cast<std::size_t>(p)]) + "\n";
  return s + "end 4\n";
}

// A lead out of turn faced and withdrawn before the right leader leads: at trick `trick` (1..13), by
// the seat `offset` seats after the right leader, the card that seat plays to the trick anyway.
struct Withdrawn {
  int trick = 1;
  int offset = 1;
};

// The play of a board: the hands as `held` (the master deal unless a fault moved cards), faults of play.
std::string play_script(std::uint32_t board, const Contract& c, const PlayFaults& f, std::optional<Deal> held = std::nullopt,
                        std::optional<Withdrawn> withdrawn = std::nullopt) {
  std::string s = "zones playing-table\nat 0 board " + label(board) + "\nat 0 pockets full\nat 2 pocket N empty\nat 2 pocket S empty\n"
                  "at 3 pocket E empty\nat 3 pocket W empty\nat 5 contract " + c.str() + " " + seat_letter(c.declarer) + "\n";
  const Deal deal = held.value_or(big_master().board(board).deal);
  auto play = legal_play(deal, c, f);
  Seat dummy = partner(c.declarer);
  Hand dummy_hand = deal.hand(dummy);
  if (withdrawn) {
    std::size_t lead = static_cast<std::size_t>(withdrawn->trick - 1) * 4;
    const auto& [x, card] = play[lead + static_cast<std::size_t>(withdrawn->offset)];
    double t = 6 + static_cast<double>(withdrawn->trick - 1) * 3.0;
    s += "at " + std::to_string(t - 0.8) + " play " + seat_letter(x) + " " + card.str() + "\n";
    s += "at " + std::to_string(t - 0.4) + " play " + seat_letter(x) + " -\n";
  }
  for (std::size_t i = 0; i < play.size(); ++i) {
    double t = 6 + static_cast<double>(i / 4) * 3.0 + static_cast<double>(i % 4) * 0.5;
    s += "at " + std::to_string(t) + " play " + seat_letter(play[i].first) + " " + play[i].second.str() + "\n";
    if (i == 0 || play[i].first == dummy) {
      if (play[i].first == dummy) dummy_hand.remove(play[i].second);
      s += "at " + std::to_string(t + 0.25) + " dummy" + cards(dummy_hand) + "\n";
    }
    if (i % 4 == 3)
      for (char x : std::string("NESW")) s += "at " + std::to_string(t + 0.5) + " clear play:" + x + "\n";
  }
  return s + "at 50 pockets full\nend 52\n";
}

struct Tally {
  int runs = 0, as_expected = 0;
  std::map<std::string, int> unexpected;
};

long count(const std::vector<Event>& ev, const std::string& type) {
  return std::count_if(ev.begin(), ev.end(), [&](const Event& e) { return e.type == type; });
}

void expect(Tally& tally, const std::vector<Event>& ev, const std::vector<std::string>& want, const std::string& what,
            bool complete_play = false) {
  ++tally.runs;
  auto got = test::irregularities(ev);
  // Beyond the irregularities, the session must have happened: a station board gets its verdict, a
  // played board all its cards and tricks (a script that silently did nothing must not pass).
  // (A withdrawn lead is one play.card more: the card faced out of turn.)
  bool happened = complete_play ? count(ev, "play.card") >= 52 && count(ev, "play.trick") == 13 && count(ev, "board.returned") == 1
                                : count(ev, "board.identified") >= 1;
  if (want.empty() && !complete_play && ev.size() > 0 && count(ev, "board.arrived") == 1)
    happened = happened && (count(ev, "board.verified") == 1);
  if (!happened) {
    ++tally.unexpected["incomplete session"];
    ADD_FAILURE() << what << ": the session did not happen as scripted\n" << test::dump(ev);
    return;
  }
  if (got == want) {
    ++tally.as_expected;
    return;
  }
  std::string key;
  for (const auto& g : got) key += g + " ";
  ++tally.unexpected[key];
  ADD_FAILURE() << what << ": expected " << ::testing::PrintToString(want) << ", got " << ::testing::PrintToString(got) << "\n"
                << test::dump(ev);
}

void report(const char* name, const Tally& t) {
  std::cout << "[ property ] " << name << ": " << t.as_expected << " of " << t.runs << " as expected\n";
}

}  // namespace

TEST(Property, StationCleanBoardsAndEachFault) {
  std::mt19937_64 rng(42);
  auto pick = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
  std::map<std::string, Tally> tallies;
  const std::uint32_t n = static_cast<std::uint32_t>(big_master().size());
  for (int i = 0; i < 2000; ++i) {
    std::uint32_t b = pick(n);
    const Deal& d = big_master().board(b).deal;
    auto hands = d.hands();
    std::string what = label(b);
    // Clean.
    expect(tallies["clean"], run_on(station(b, hands)), {}, what + " clean");
    if (i % 4 != 0) continue;  // each fault on 500 of the boards
    // A card moved to another pocket.
    {
      auto h = hands;
      std::size_t from = pick(4), to = (from + 1 + pick(3)) % 4;
      Card c{};
      int k = static_cast<int>(pick(13));
      h[from].for_each_descending([&](Card x) { if (k-- == 0) c = x; });
      h[from].remove(c);
      h[to].add(c);
      expect(tallies["card moved"], run_on(station(b, h)), {"wrong_count", "deal_mismatch"}, what + " moved " + c.str());
    }
    // The board turned 1-3 seats.
    expect(tallies["board turned"], run_on(station(b, d.rotated(1 + static_cast<int>(pick(3))).hands())), {"board_rotated"}, what + " turned");
    // The board turned 1-3 seats and k = 1..3 cards astray (Law 87A, issue 7): the turn named and the
    // few cards against the turned deal, never a mismatch of the whole deal. One card moved: the pockets
    // of 12 and 14 too; cards exchanged: 13 each.
    {
      int turn = 1 + static_cast<int>(pick(3));
      auto h = d.rotated(turn).hands();
      int k = 1 + static_cast<int>(pick(3));
      bool moved = pick(2) == 0;
      auto nth = [&](std::size_t s, std::uint32_t m) {
        Card out{};
        h[s].for_each_descending([&](Card x) { if (m-- == 0) out = x; });
        return out;
      };
      std::size_t from = pick(4), to = (from + 1 + pick(3)) % 4;
      for (int j = 0; j < (moved ? 1 : k); ++j) {
        Card a = nth(from, pick(static_cast<std::uint32_t>(h[from].size())));
        h[from].remove(a);
        h[to].add(a);
        if (!moved) {
          Card z = nth(to, pick(static_cast<std::uint32_t>(h[to].size())));
          while (z == a) z = nth(to, pick(static_cast<std::uint32_t>(h[to].size())));
          h[to].remove(z);
          h[from].add(z);
        }
      }
      std::vector<std::string> want = moved ? std::vector<std::string>{"wrong_count", "board_rotated", "deal_mismatch"}
                                            : std::vector<std::string>{"board_rotated", "deal_mismatch"};
      auto ev = run_on(station(b, h));
      // Two exchanges can undo each other: then only the turn is left.
      if (!moved && count(ev, "irregularity.deal_mismatch") == 0) want = {"board_rotated"};
      expect(tallies["turned, cards astray"], ev, want, what + " turned " + std::to_string(turn) + (moved ? " one card moved" : " cards exchanged"));
    }
    // The deal of a board of another session.
    {
      std::uint32_t other = pick(n);
      while (big_master().board(other).session == big_master().board(b).session) other = pick(n);
      expect(tallies["another session"], run_on(station(b, big_master().board(other).deal.hands())), {"foreign_session"}, what + " other session");
    }
    // A sorted pack: one suit a hand, suits in a random order (packets of 13).
    {
      std::array<Hand, 4> h{};
      std::array<int, 4> order = {0, 1, 2, 3};
      std::shuffle(order.begin(), order.end(), rng);
      for (int s = 0; s < 4; ++s)
        for (int r = 0; r < kRanks; ++r) h[static_cast<std::size_t>(s)].add(Card(static_cast<Suit>(order[static_cast<std::size_t>(s)]), static_cast<Rank>(r)));
      expect(tallies["sorted pack"], run_on(station(b, h)), {"unshuffled_deal"}, what + " sorted");
    }
    // A missing card.
    {
      auto h = hands;
      std::size_t from = pick(4);
      Card c{};
      int k = static_cast<int>(pick(13));
      h[from].for_each_descending([&](Card x) { if (k-- == 0) c = x; });
      h[from].remove(c);
      expect(tallies["missing card"], run_on(station(b, h)), {"wrong_count", "missing_card"}, what + " missing " + c.str());
    }
    // An extra card: a second copy of another pocket's card.
    {
      auto h = hands;
      std::size_t to = pick(4), from = (to + 1 + pick(3)) % 4;
      Card c{};
      int k = static_cast<int>(pick(13));
      h[from].for_each_descending([&](Card x) { if (k-- == 0) c = x; });
      h[to].add(c);
      expect(tallies["extra card"], run_on(station(b, h)), {"wrong_count", "surplus_card"}, what + " extra " + c.str());
    }
    // Noisy and flickering readings before the true ones: uncertainty only.
    {
      std::string noise = "at 0.1 read hand:N SA confidence 0.2\nat 0.2 flicker hand:E SA SK 0.6\n";
      expect(tallies["noise and flicker"], run_on(station(b, hands, noise)), {}, what + " noisy");
    }
  }
  for (const auto& [name, t] : tallies) report(("station, " + name).c_str(), t);
}

TEST(Property, PlayCleanBoardsAndEachFault) {
  std::mt19937_64 rng(7);
  auto pick = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
  std::map<std::string, Tally> tallies;
  const std::uint32_t n = static_cast<std::uint32_t>(big_master().size());
  for (int i = 0; i < 600; ++i) {
    std::uint32_t b = pick(n);
    Contract c;
    c.level = 1 + static_cast<int>(pick(7));
    c.strain = static_cast<Strain>(pick(5));
    c.declarer = static_cast<Seat>(pick(4));
    std::string what = label(b) + " " + c.str() + " " + seat_letter(c.declarer);
    expect(tallies["clean"], run_on(play_script(b, c, {})), {}, what + " clean", true);
    if (i % 2 != 0) continue;
    // The opening lead from the leader's partner.
    PlayFaults wrong_lead;
    wrong_lead.opening_leader = right_hand_opponent(c.declarer);
    expect(tallies["opening lead out of turn"], run_on(play_script(b, c, wrong_lead)), {"lead_out_of_turn"}, what + " lead");
    // One revoke, at a trick where somebody can revoke: reported at once, then established.
    PlayFaults revoke;
    revoke.revoke_at_trick = 1 + static_cast<int>(pick(10));
    auto play = legal_play(big_master().board(b).deal, c, revoke);
    auto clean = legal_play(big_master().board(b).deal, c, {});
    if (play == clean) continue;  // nobody could revoke at that trick
    expect(tallies["revoke"], run_on(play_script(b, c, revoke)), {"revoke", "revoke"}, what + " revoke");
  }
  for (const auto& [name, t] : tallies) report(("play, " + name).c_str(), t);
}

// Issue 7: leads out of turn withdrawn and accepted, dummy exchanges, turned boards with cards astray --
// each run gives exactly its irregularities and no other (no false revoke, one alert per cause).
TEST(Property, PlayWithdrawnAndAcceptedLeadsExchangedDummiesTurnedBoards) {
  std::mt19937_64 rng(2026);
  auto pick = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
  std::map<std::string, Tally> tallies;
  const std::uint32_t n = static_cast<std::uint32_t>(big_master().size());
  for (int i = 0; i < 300; ++i) {
    std::uint32_t b = pick(n);
    Contract c;
    c.level = 1 + static_cast<int>(pick(7));
    c.strain = static_cast<Strain>(pick(5));
    c.declarer = static_cast<Seat>(pick(4));
    const Deal& deal = big_master().board(b).deal;
    std::string what = label(b) + " " + c.str() + " " + seat_letter(c.declarer);
    // A lead out of turn (any other seat, any trick) withdrawn, and the right leader leads: the alert and
    // its follow-up, no revoke.
    Withdrawn w{1 + static_cast<int>(pick(13)), 1 + static_cast<int>(pick(3))};
    expect(tallies["lead out of turn withdrawn"], run_on(play_script(b, c, {}, std::nullopt, w)), {"lead_out_of_turn", "lead_out_of_turn"},
           what + " withdrawn at trick " + std::to_string(w.trick) + " offset " + std::to_string(w.offset), true);
    // A lead out of turn at a later trick, accepted: play goes on from the offender, one alert.
    PlayFaults accepted;
    accepted.accepted_lead_at_trick = 2 + static_cast<int>(pick(12));
    expect(tallies["lead out of turn accepted"], run_on(play_script(b, c, accepted)), {"lead_out_of_turn"},
           what + " accepted at trick " + std::to_string(*accepted.accepted_lead_at_trick), true);
    // Declarer's and dummy's hands exchanged, the whole board played: one alert.
    {
      Deal d = deal;
      std::swap(d.hand(c.declarer), d.hand(partner(c.declarer)));
      expect(tallies["dummy exchange"], run_on(play_script(b, c, {}, d)), {"dummy_exchange"}, what + " dummy exchange", true);
    }
    // The board turned 1-3 seats, and k <= 3 cards exchanged between random hands: one alert (and at
    // most its one follow-up naming the cause), never a revoke.
    {
      int turn = 1 + static_cast<int>(pick(3));
      int k = static_cast<int>(pick(4));
      Deal d = deal.rotated(turn);
      for (int j = 0; j < k; ++j) {
        Seat a = static_cast<Seat>(pick(4)), z = rotate(a, 1 + static_cast<int>(pick(3)));
        auto nth = [&](Seat s, std::uint32_t m) {
          Card out{};
          d.hand(s).for_each_descending([&](Card x) { if (m-- == 0) out = x; });
          return out;
        };
        Card ca = nth(a, pick(13)), cz = nth(z, pick(13));
        d.hand(a).remove(ca);
        d.hand(z).remove(cz);
        d.hand(a).add(cz);
        d.hand(z).add(ca);
      }
      auto ev = run_on(play_script(b, c, {}, d));
      // One alert in all (cards from another hand; or a dummy exchange when the board turned two seats
      // shows first as one), and at most two follow-ups: the cause, and the cause revised by cards astray.
      long alerts = std::count_if(ev.begin(), ev.end(), [](const Event& e) { return e.event_class() == "irregularity" && e.severity == Severity::Alert; });
      auto got = test::irregularities(ev);
      bool one_cause = std::all_of(got.begin(), got.end(), [](const std::string& g) { return g == "card_from_other_hand" || g == "dummy_exchange"; });
      expect(tallies["turned board, cards astray"], ev, alerts == 1 && one_cause && got.size() <= 3 ? got : std::vector<std::string>{"one alert, its cause"},
             what + " turned " + std::to_string(turn) + " with " + std::to_string(k) + " cards astray", true);
    }
  }
  for (const auto& [name, t] : tallies) report(("play, " + name).c_str(), t);
}

TEST(Property, PlayDeviceSilentMidBoard) {
  std::mt19937_64 rng(11);
  auto pick = [&](std::uint32_t n) { return static_cast<std::uint32_t>(rng() % n); };
  std::map<std::string, Tally> tallies;
  const std::uint32_t n = static_cast<std::uint32_t>(big_master().size());
  // A device going silent in the middle of a board: uncertainty only.
  for (int i = 0; i < 100; ++i) {
    std::uint32_t b = pick(n);
    Contract c{4, Strain::Spades, 0, Seat::South};
    std::string s = play_script(b, c, {});
    s.insert(s.find("at 50 pockets full"), "at 20 silent dummy\n");
    expect(tallies["silent device"], run_on(s), {}, label(b) + " silent", true);
  }
  for (const auto& [name, t] : tallies) report(("play, " + name).c_str(), t);
}
