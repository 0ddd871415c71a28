// The cost of durability (issue 11): events journalled a second with an fdatasync after each (what the
// daemon does, so that a subscriber never sees an event a power cut can take) and without it (the kernel's
// page cache only). The journal is written in CARDTABLE_BENCH_DIR (default: the system's temporary
// folder): run it on the disk the state directory lives on, since the figure is the disk's.
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "protocol/alert_book.hpp"
#include "protocol/durable_file.hpp"
#include "protocol/journal.hpp"
#include "protocol/json_fields.hpp"

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

// A restart reads the whole journal once (the daemon's TableHost): the open alerts (AlertBook::load) and,
// in the same pass, each reader's last device.health (protocol 1.10). Arg: events in the journal (a table's
// session is about 2,000); second arg 1: with the device.health observer the daemon gives, 0: without.
void BM_StartFromJournal(benchmark::State& state) {
  const auto events = state.range(0);
  const bool observed = state.range(1) != 0;
  fs::path dir = bench_dir("start-" + std::to_string(events) + (observed ? "-observed" : ""));
  Journal::Limits limits;
  limits.sync_each = false;
  Journal j(dir, limits);
  const WireEvent proto = card_played();
  for (std::int64_t i = 0; i < events; ++i) {
    WireEvent e = proto;
    if (i % 500 == 0) {  // now and then a reader said missing replies, or good again
      e.type = "device.health";
      e.severity = "warning";
      e.evidence = {{"device", "board0"}, {"state", i % 1000 == 0 ? "missing replies" : "good"}};
    }
    j.append(e);
  }
  std::size_t said = 0;
  for (auto _ : state) {
    cardtable::protocol::AlertBook book;
    if (observed)
      book.load(j, [&said](const nlohmann::json& e) {
        if (cardtable::protocol::string_field(e, "type") != "device.health" || !e.contains("evidence") || !e["evidence"].is_object()) return;
        said += cardtable::protocol::string_field(e["evidence"], "state") == "missing replies";
      });
    else
      book.load(j);
    benchmark::DoNotOptimize(book.open_count());
  }
  benchmark::DoNotOptimize(said);
  state.SetItemsProcessed(state.iterations() * events);
  fs::remove_all(dir);
}
BENCHMARK(BM_StartFromJournal)->Args({2000, 0})->Args({2000, 1})->Args({100000, 0})->Args({100000, 1})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
