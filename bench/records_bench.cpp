// Master-record figures: load the real corpus, a session's small master record and a synthetic record of
// 1,000,000 boards, look up deals (as dealt, turned, permuted), and double-dummy deals per second.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "bridge/double_dummy.hpp"
#include "bridge/master_record.hpp"
#include "bridge/pbn_writer.hpp"
#include "bridge/record_file.hpp"
#include "bridge/synthetic_record.hpp"

using namespace cardtable::bridge;
namespace fs = std::filesystem;

namespace {

constexpr int kMillion = 1'000'000;

std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

fs::path corpus() {
  if (const char* env = std::getenv("CARDTABLE_CORPUS"); env && *env) return env;
  return CARDTABLE_CORPUS_DIR;
}

// The synthetic record, written once per run as PBN (about 150 MB) in the temporary folder.
const fs::path& million_board_file() {
  static const fs::path path = [] {
    fs::path p = fs::temp_directory_path() / "cardtable-bench-1M.pbn";  // written anew by every run
    std::ofstream out(p, std::ios::binary);
    std::vector<BoardRecord> chunk;
    bool first = true;
    synthetic_records(kMillion, 32, 1, "Synthetic", [&](BoardRecord&& r) {
      chunk.push_back(std::move(r));
      if (chunk.size() == 10000) {
        std::string text = write_pbn_compact(chunk);
        if (!first) text.erase(0, text.find("\n\n") + 1);
        out << text;
        chunk.clear();
        first = false;
      }
    });
    return p;
  }();
  return path;
}

MasterRecord& million_board_record() {
  static MasterRecord m = [] {
    MasterRecord r;
    r.reserve(kMillion);
    Diagnostics d = r.load({million_board_file()});
    return r;
  }();
  return m;
}

void BM_LoadCorpus(benchmark::State& state) {
  if (!fs::is_directory(corpus() / "pbn")) {
    state.SkipWithError("no corpus (set CARDTABLE_CORPUS)");
    return;
  }
  std::size_t boards = 0, bytes = 0;
  for (auto _ : state) {
    RecordSet s = read_records({corpus() / "pbn", corpus() / "lin", corpus() / "dup"});
    boards = s.boards.size();
    benchmark::DoNotOptimize(s);
  }
  for (const auto& dir : {"pbn", "lin", "dup"})
    for (const auto& e : fs::recursive_directory_iterator(corpus() / dir))
      if (e.is_regular_file()) bytes += e.file_size();
  state.counters["boards"] = static_cast<double>(boards);
  state.counters["boards/s"] = benchmark::Counter(static_cast<double>(boards), benchmark::Counter::kIsIterationInvariantRate);
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes) * state.iterations());
}
BENCHMARK(BM_LoadCorpus)->Unit(benchmark::kMillisecond);

// What the daemon does at every start: load a session's master record of a few boards (a 2.6 KB PBN
// file). The reader once zero-filled a whole 4 MB chunk for it.
void BM_LoadSmallMasterRecord(benchmark::State& state) {
  const fs::path file = fs::path(SCENARIO_DIR) / "master" / "spring-pairs.pbn";
  for (auto _ : state) {
    MasterRecord m;
    Diagnostics d = m.load({file});
    benchmark::DoNotOptimize(d);
  }
  state.counters["file_bytes"] = static_cast<double>(fs::file_size(file));
}
BENCHMARK(BM_LoadSmallMasterRecord)->Unit(benchmark::kMicrosecond);

void BM_LoadMillionBoardMasterRecord(benchmark::State& state) {
  const fs::path& file = million_board_file();
  for (auto _ : state) {
    std::size_t before = resident_bytes();
    MasterRecord m;
    m.reserve(kMillion);
    Diagnostics d = m.load({file});
    state.counters["boards"] = static_cast<double>(m.size());
    state.counters["record_MB"] = static_cast<double>(m.memory_bytes()) / 1e6;
    state.counters["rss_growth_MB"] = static_cast<double>(resident_bytes() - before) / 1e6;
    state.counters["problems"] = static_cast<double>(d.size());
  }
  state.counters["file_MB"] = static_cast<double>(fs::file_size(file)) / 1e6;
}
BENCHMARK(BM_LoadMillionBoardMasterRecord)->Unit(benchmark::kMillisecond)->Iterations(1);

void lookup(benchmark::State& state, int how) {
  MasterRecord& m = million_board_record();
  std::vector<Deal> probes;
  for (std::uint32_t i = 0; i < 4096; ++i) {
    Deal d = m.board(i * 241).deal;
    if (how == 1) d = d.rotated(static_cast<int>(i % 3) + 1);
    if (how == 2) d = d.permuted({Seat::South, Seat::West, Seat::North, Seat::East});
    if (how == 3) {  // not in the record at all
      std::uint64_t seed = 0xABCDEF + i;
      d = random_deal(seed);
    }
    probes.push_back(d);
  }
  std::size_t i = 0, found = 0;
  for (auto _ : state) {
    auto r = m.lookup_first(probes[i++ & 4095]);
    found += r ? 1U : 0U;
    benchmark::DoNotOptimize(r);
  }
  state.counters["found"] = static_cast<double>(found) / static_cast<double>(state.iterations());
  state.counters["record_boards"] = static_cast<double>(m.size());
}
void BM_LookupAsDealt(benchmark::State& s) { lookup(s, 0); }
void BM_LookupTurned(benchmark::State& s) { lookup(s, 1); }
void BM_LookupPermuted(benchmark::State& s) { lookup(s, 2); }
void BM_LookupAbsent(benchmark::State& s) { lookup(s, 3); }
BENCHMARK(BM_LookupAsDealt)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_LookupTurned)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_LookupPermuted)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_LookupAbsent)->Unit(benchmark::kNanosecond);

void BM_DoubleDummyBatch(benchmark::State& state) {
  std::uint64_t seed = 3;
  std::vector<Deal> deals;
  for (int i = 0; i < state.range(0); ++i) deals.push_back(random_deal(seed));
  for (auto _ : state) benchmark::DoNotOptimize(solve_double_dummy(deals));
  state.counters["deals/s"] = benchmark::Counter(static_cast<double>(deals.size()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_DoubleDummyBatch)->Arg(200)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(2);

}  // namespace

BENCHMARK_MAIN();
