// The cost of durability (issue 11): events journalled a second with an fdatasync after each (what the
// daemon does, so that a subscriber never sees an event a power cut can take) and without it (the kernel's
// page cache only). The journal is written in CARDTABLE_BENCH_DIR (default: the system's temporary
// folder): run it on the disk the state directory lives on, since the figure is the disk's.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "protocol/durable_file.hpp"
#include "protocol/journal.hpp"

namespace fs = std::filesystem;
using cardtable::protocol::Journal;
using cardtable::protocol::WireEvent;

namespace {

fs::path bench_dir(const std::string& name) {
  const char* base = std::getenv("CARDTABLE_BENCH_DIR");
  fs::path d = fs::path(base ? base : fs::temp_directory_path().string()) / ("journal-bench-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(d);
  return d;
}

// A typical table event: a card played, with its evidence (about 400 bytes of JSON).
WireEvent card_played() {
  WireEvent e;
  e.type = "play.card";
  e.tournament = "Pairs";
  e.section = "A";
  e.table = "7";
  e.event = "Monday evening";
  e.session = "1";
  e.board = 12;
  e.seats = {"S"};
  e.evidence = {{"trick", "5"}, {"zone", "S"}};
  e.message = "South plays to trick 5";
  e.card_message = "South plays the queen of hearts";
  e.card_evidence = {{"card", "HQ"}};
  e.time = 1.8e9;
  e.mono = 1234.5;
  return e;
}

void BM_JournalAppend(benchmark::State& state) {
  bool sync = state.range(0) != 0;
  fs::path dir = bench_dir(sync ? "synced" : "cached");
  {
    Journal::Limits limits;
    limits.sync_each = sync;
    Journal j(dir, limits);
    WireEvent proto = card_played();
    for (auto _ : state) {
      WireEvent e = proto;
      benchmark::DoNotOptimize(j.append(e));
    }
    state.SetItemsProcessed(state.iterations());
  }
  fs::remove_all(dir);
}
BENCHMARK(BM_JournalAppend)->Arg(1)->ArgName("fdatasync_each")->UseRealTime();
BENCHMARK(BM_JournalAppend)->Arg(0)->ArgName("fdatasync_each")->UseRealTime();

// A board's broadcast file or an embargoed board (a few kB): written beside, fsync'd, renamed, folder fsync'd.
void BM_DurableFile(benchmark::State& state) {
  fs::path dir = bench_dir("files");
  fs::create_directories(dir);
  std::string text(static_cast<std::size_t>(state.range(0)), 'x');
  for (auto _ : state) cardtable::protocol::write_file_durably(dir / "board-1-1.pbn", text);
  state.SetItemsProcessed(state.iterations());
  fs::remove_all(dir);
}
BENCHMARK(BM_DurableFile)->Arg(4096)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
