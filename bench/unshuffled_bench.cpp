// Law 6D2, the unshuffled-deal test: its false positives on random deals (the figure docs/laws.md
// publishes), the cost of one lookup, of building the table once, and of the previous-board test.
// Benchmarks measure and print; they never assert. Run: build/bench/unshuffled_bench
#include <benchmark/benchmark.h>

#include "bridge/deal.hpp"
#include "table/unshuffled.hpp"

namespace {
using namespace cardtable::bridge;
using namespace cardtable::table;

// Ten million random deals through the sorted-pack test: false_positives must read 0.
void BM_UnshuffledFalsePositives(benchmark::State& state) {
  const UnshuffledDeals& u = unshuffled_deals();
  std::uint64_t seed = 0xC0FFEE;
  std::int64_t deals = 0, hits = 0;
  for (auto _ : state) {
    for (std::int64_t i = 0; i < state.range(0); ++i) hits += u.match(random_deal(seed)) ? 1 : 0;
    deals += state.range(0);
  }
  state.counters["deals"] = static_cast<double>(deals);
  state.counters["false_positives"] = static_cast<double>(hits);
  state.counters["pack_orders"] = static_cast<double>(UnshuffledDeals::orders());
  state.counters["accepted_hand_sets"] = static_cast<double>(u.size());
  state.counters["deals/s"] = benchmark::Counter(static_cast<double>(deals), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_UnshuffledFalsePositives)->Arg(10'000'000)->Iterations(1)->Unit(benchmark::kMillisecond);

// One lookup (a binary search in the sorted table), random deal generation excluded.
void BM_UnshuffledLookup(benchmark::State& state) {
  const UnshuffledDeals& u = unshuffled_deals();
  std::uint64_t seed = 7;
  std::vector<Deal> deals;
  for (int i = 0; i < 4096; ++i) deals.push_back(random_deal(seed));
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(u.match(deals[i++ & 4095]));
}
BENCHMARK(BM_UnshuffledLookup);

// Building the table (once per process).
void BM_UnshuffledBuild(benchmark::State& state) {
  for (auto _ : state) {
    UnshuffledDeals u;
    benchmark::DoNotOptimize(u.size());
  }
}
BENCHMARK(BM_UnshuffledBuild)->Unit(benchmark::kMillisecond);

// A new deal checked against the previous board's quitted cards (386 packs x 52 cuts x 5 ways, only
// when the deal is in no board of the record): its cost and its false positives on random deals.
void BM_PreviousBoardFalsePositives(benchmark::State& state) {
  std::uint64_t seed = 0xBEEF;
  Deal d = random_deal(seed);
  PreviousBoard prev;
  prev.name = "the previous board";
  for (Seat s : kAllSeats) d.hand(s).for_each_descending([&](Card c) { prev.quitted[static_cast<std::size_t>(index(s))].push_back(c); });
  for (std::size_t t = 0; t < 13; ++t)
    for (std::size_t s = 0; s < 4; ++s) prev.tricks.push_back(prev.quitted[s][t]);
  std::int64_t deals = 0, hits = 0;
  for (auto _ : state) {
    hits += UnshuffledDeals::match_previous(random_deal(seed), prev) ? 1 : 0;
    ++deals;
  }
  state.counters["deals"] = static_cast<double>(deals);
  state.counters["false_positives"] = static_cast<double>(hits);
}
BENCHMARK(BM_PreviousBoardFalsePositives)->Iterations(2000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
