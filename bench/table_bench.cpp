// The table's figures: observations processed per second and the latency of one observation (median,
// p99) on one core, over whole played boards and board checks. (The unshuffled-deal test: unshuffled_bench.)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>

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
    Diagnostics d;
    synthetic_records(1024, 32, 11, "Bench", [&](BoardRecord&& b) { r.add(b, d); });
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

// 32 boards played at a table with every zone (pockets, play areas, dummy), each read every 100 ms.
const std::vector<TableInput>& played_session() {
  static const std::vector<TableInput> inputs = [] {
    std::vector<TableInput> all;
    for (int b = 1; b <= 32; ++b) {
      std::string label = "Bench/1/" + std::to_string(b);
      Scenario sc = parse("zones playing-table\nat 0 board " + label + "\nat 0 pockets full\nat 2 pocket N empty\nat 2 pocket S empty\n"
                          "at 3 pocket E empty\nat 3 pocket W empty\nat 5 contract 4S S\nat 6 play all as master contract 4S S\n"
                          "at 75 pockets full\nend 77\n");
      auto in = scenario_inputs(sc);
      Millis offset = all.empty() ? 0 : all.back().time + 100;
      for (TableInput& i : in) {
        i.time += offset;
        i.observation.time += offset;
        i.command.time += offset;
      }
      all.insert(all.end(), in.begin(), in.end());
    }
    return all;
  }();
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

// The unshuffled-deal test (Law 6D2) is measured in bench/unshuffled_bench.cpp.

}  // namespace

BENCHMARK_MAIN();
