// The table's figures: observations processed per second and the latency of one observation (median,
// p99) on one core, over whole played boards and board checks. (The unshuffled-deal test: unshuffled_bench.)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <functional>
#include <map>

#include "bridge/synthetic_record.hpp"
#include "table/scenario.hpp"
#include "table/table.hpp"
#include "table/unshuffled.hpp"

using namespace cardtable::bridge;
using namespace cardtable::table;

namespace {

const MasterRecord& master() {
  static const MasterRecord m = [] {
    MasterRecord r;
    add_synthetic_records(r, 1024, 32, 11, "Bench");
    return r;
  }();
  return m;
}

Scenario parse(const std::string& text) {
  std::vector<ScenarioError> errors;
  auto sc = parse_scenario("master memory\n" + text, ".", [](const auto&) -> const MasterRecord& { return master(); }, errors);
  if (!sc) throw std::runtime_error(errors.empty() ? "bad scenario" : errors[0].message);
  return *sc;
}

// 32 boards of the record one after another: `script` gives one board's scenario for its label; each
// board's inputs follow the last one's, 100 ms later.
std::vector<TableInput> thirty_two_boards(const std::function<std::string(const std::string&)>& script) {
  std::vector<TableInput> all;
  for (int b = 1; b <= 32; ++b) {
    auto in = scenario_inputs(parse(script("Bench/1/" + std::to_string(b))));
    Millis offset = all.empty() ? 0 : all.back().time + 100;
    for (TableInput& i : in) {
      i.time += offset;
      i.observation.time += offset;
      i.command.time += offset;
    }
    all.insert(all.end(), in.begin(), in.end());
  }
  return all;
}

// 32 boards played at a table with every zone (pockets, play areas, dummy), each read every 100 ms.
const std::vector<TableInput>& played_session() {
  static const std::vector<TableInput> inputs = thirty_two_boards([](const std::string& label) {
    return "zones playing-table\nat 0 board " + label + "\nat 0 pockets full\nat 2 pocket N empty\nat 2 pocket S empty\n"
           "at 3 pocket E empty\nat 3 pocket W empty\nat 5 contract 4S S\nat 6 play all as master contract 4S S\n"
           "at 75 pockets full\nend 77\n";
  });
  return inputs;
}

void BM_TableObservations(benchmark::State& state) {
  const auto& inputs = played_session();
  std::size_t observations = 0, events = 0;
  std::vector<double> latencies;
  latencies.reserve(inputs.size());
  for (auto _ : state) {
    Table table(master(), TableConfig::playing_table());
    latencies.clear();
    for (const TableInput& in : inputs) {
      if (in.kind == TableInput::Kind::Observe) {
        auto t0 = std::chrono::steady_clock::now();
        table.observe(in.observation);
        auto t1 = std::chrono::steady_clock::now();
        latencies.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
      } else {
        apply(table, in);
      }
      events += table.take_events().size();
    }
    observations += latencies.size();
  }
  std::sort(latencies.begin(), latencies.end());
  state.counters["observations/s"] = benchmark::Counter(static_cast<double>(observations), benchmark::Counter::kIsRate);
  state.counters["median_ns"] = latencies[latencies.size() / 2];
  state.counters["p99_ns"] = latencies[latencies.size() * 99 / 100];
  state.counters["max_ns"] = latencies.back();
  state.counters["events"] = static_cast<double>(events) / static_cast<double>(state.iterations());
  state.counters["observations"] = static_cast<double>(latencies.size());
}
BENCHMARK(BM_TableObservations)->Unit(benchmark::kMillisecond);

// Observations alone, without the clock reads around each one: the throughput figure.
void BM_TableThroughput(benchmark::State& state) {
  const auto& inputs = played_session();
  std::size_t observations = 0;
  for (auto _ : state) {
    Table table(master(), TableConfig::playing_table());
    for (const TableInput& in : inputs) {
      apply(table, in);
      observations += in.kind == TableInput::Kind::Observe ? 1 : 0;
      benchmark::DoNotOptimize(table.take_events());
    }
  }
  state.counters["observations/s"] = benchmark::Counter(static_cast<double>(observations), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TableThroughput)->Unit(benchmark::kMillisecond);

// Readers that give tag ids (RFID, a `tags` scenario): a board-checking station with a reader under each
// of the four pockets, 13 tags each read every 100 ms, 32 boards. Every read is compared with the reading
// being confirmed (StableReading: Observation::same_reading, count), the path the further tags of a face
// (Law 13C's second card) run through on every poll.
const std::vector<TableInput>& tagged_station() {
  static const std::vector<TableInput> inputs = thirty_two_boards([](const std::string& label) {
    return "zones station-hands\ntags\nat 0 board " + label + "\nat 1 hand N as master\nat 1 hand E as master\n"
           "at 1 hand S as master\nat 1 hand W as master\nat 9 hand N -\nat 9 hand E -\nat 9 hand S -\nat 9 hand W -\nend 10\n";
  });
  return inputs;
}

void BM_TableTaggedStation(benchmark::State& state) {
  const auto& inputs = tagged_station();
  std::size_t observations = 0, verified = 0;
  for (auto _ : state) {
    Table table(master(), TableConfig::station_hands());
    for (const TableInput& in : inputs) {
      apply(table, in);
      observations += in.kind == TableInput::Kind::Observe ? 1 : 0;
      for (const Event& e : table.take_events()) verified += e.type == "board.verified" ? 1U : 0U;
    }
  }
  state.counters["observations/s"] = benchmark::Counter(static_cast<double>(observations), benchmark::Counter::kIsRate);
  state.counters["verified"] = static_cast<double>(verified) / static_cast<double>(state.iterations());  // 32: every board read
}
BENCHMARK(BM_TableTaggedStation)->Unit(benchmark::kMillisecond);

// Cards from another hand at a table whose master record is large (4,096 boards of 32-board sessions,
// the most `infer_limit` searches): when nothing of the session fits, Table::likely_cause searches every
// other board of the record under its 24 seat maps for a Law 87A / 6D2 "deal from another session"
// verdict, again at each card played while no cause is named. One op = one whole board played at a
// table with every zone (about 300 observations); max_cpu_ns = the slowest single input (CPU time), the figure
// that has to stay well under a reader's poll (20-50 ms).
const MasterRecord& big_master() {
  static const MasterRecord m = [] {
    MasterRecord r;
    add_synthetic_records(r, 4096, 32, 11, "Bench");
    return r;
  }();
  return m;
}

Scenario parse_big(const std::string& text) {
  std::vector<ScenarioError> errors;
  auto sc = parse_scenario("master memory\n" + text, ".", [](const auto&) -> const MasterRecord& { return big_master(); }, errors);
  if (!sc) throw std::runtime_error(errors.empty() ? "bad scenario" : errors[0].message);
  return *sc;
}

const std::string kBoardStart =
    "zones playing-table\nat 0 board Bench/1/1\nat 0 pockets full\nat 2 pocket N empty\nat 2 pocket S empty\n"
    "at 3 pocket E empty\nat 3 pocket W empty\nat 5 contract 4S S\n";

// The cards of `deal` played trick by trick from 6 s ("trick" lines: no dummy reading, so only the
// cards played narrow the search).
std::string tricks_of(const Deal& deal) {
  auto cc = parse_contract_command("4S S");
  auto play = legal_play(deal, cc->contract);
  std::string text;
  for (std::size_t i = 0; i + 3 < play.size(); i += 4) {
    text += "at " + std::to_string(6 + 5 * (i / 4)) + " trick " + std::string(1, seat_letter(play[i].first));
    for (std::size_t k = 0; k < 4; ++k) text += " " + play[i + k].second.str();
    text += "\n";
  }
  return text;
}

enum class BigCase { Matches, ForeignSession, FouledLead, Nowhere };

const std::vector<TableInput>& big_inputs(BigCase c) {
  static std::map<BigCase, std::vector<TableInput>> cache;
  auto it = cache.find(c);
  if (it != cache.end()) return it->second;
  std::string text = kBoardStart;
  const Deal& own = big_master().board(*big_master().find("Bench", "1", 1)).deal;
  switch (c) {
    case BigCase::Matches: text += "at 6 play all as master contract 4S S\n"; break;
    // The board labelled 1/1 holds board 1 of session 100: found only beyond the session (Laws 87A, 6D2).
    case BigCase::ForeignSession: text += "at 6 play all as master board Bench/100/1 contract 4S S\n"; break;
    case BigCase::FouledLead: {
      // West's opening lead (the top of his longest suit, legal_play's rule) is a card of another hand:
      // a higher card of that suit taken from another pocket, one of West's own put there instead. From
      // the first card on, the search runs at each card while few cards are played and many deals of
      // the record fit them -- the most searches one board can cause.
      Deal d = own;
      const Hand west = own.hand(Seat::West);
      Suit longest = Suit::Spades;
      for (Suit s : {Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs})
        if (west.length(s) > west.length(longest)) longest = s;
      Card top{}, low{};
      west.for_each_descending([&](Card x) {
        if (x.suit() == longest && top == Card{}) top = x;
        if (x.suit() != longest) low = x;
      });
      for (Seat other : {Seat::North, Seat::East, Seat::South}) {
        Card higher{};
        own.hand(other).for_each_descending([&](Card x) {
          if (x.suit() == longest && x.id() > top.id() && higher == Card{}) higher = x;
        });
        if (higher == Card{}) continue;
        d.hand(Seat::West).remove(low);
        d.hand(Seat::West).add(higher);
        d.hand(other).remove(higher);
        d.hand(other).add(low);
        break;
      }
      text += tricks_of(d);
      break;
    }
    case BigCase::Nowhere: {
      // A deal in no board of the record: every card is anybody's.
      std::uint64_t seed = 0xC0FFEE;
      text += tricks_of(random_deal(seed));
      break;
    }
  }
  text += "at 75 pockets full\nend 77\n";
  return cache.emplace(c, scenario_inputs(parse_big(text))).first->second;
}

void BM_TableCardsFromOtherHands(benchmark::State& state) {
  const auto& inputs = big_inputs(static_cast<BigCase>(state.range(0)));
  // The slowest single input, in one pass outside the timed loop, in thread CPU time: the two cores are
  // shared, and a wall clock would time the other processes (and a clock read around each input would
  // weigh on the time per board).
  double worst = 0;
  {
    Table table(big_master(), TableConfig::playing_table());
    for (const TableInput& in : inputs) {
      timespec t0{}, t1{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
      apply(table, in);
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
      worst = std::max(worst, static_cast<double>(t1.tv_sec - t0.tv_sec) * 1e9 + static_cast<double>(t1.tv_nsec - t0.tv_nsec));
      benchmark::DoNotOptimize(table.take_events());
    }
  }
  std::size_t events = 0;
  for (auto _ : state) {
    Table table(big_master(), TableConfig::playing_table());
    for (const TableInput& in : inputs) {
      apply(table, in);
      events += table.take_events().size();
    }
  }
  state.counters["max_cpu_ns"] = worst;
  state.counters["events"] = static_cast<double>(events) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_TableCardsFromOtherHands)
    ->ArgName("case")  // 0 the deal matches, 1 a deal of another session, 2 the opening lead from another hand, 3 a deal in no board
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMicrosecond);

// The unshuffled-deal test (Law 6D2) is measured in bench/unshuffled_bench.cpp.

}  // namespace

BENCHMARK_MAIN();
