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
    Diagnostics d;
    synthetic_records(2048, 32, 20261120, "Property", [&](BoardRecord&& b) { r.add(b, d); });
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

std::string play_script(std::uint32_t board, const Contract& c, const PlayFaults& f) {
  std::string s = "zones playing-table\nat 0 board " + label(board) + "\nat 0 pockets full\nat 2 pocket N empty\nat 2 pocket S empty\n"
                  "at 3 pocket E empty\nat 3 pocket W empty\nat 5 contract " + c.str() + " " + seat_letter(c.declarer) + "\n";
  auto play = legal_play(big_master().board(board).deal, c, f);
  Seat dummy = partner(c.declarer);
  Hand dummy_hand = big_master().board(board).deal.hand(dummy);
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
  bool happened = complete_play ? count(ev, "play.card") == 52 && count(ev, "play.trick") == 13 && count(ev, "board.returned") == 1
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
