// Frames decoded per second per driver (the parse path a reply takes before it becomes observations), and
// the whole poll → observations step. Measures, never asserts. Run: build/bench/devices_bench
#include <benchmark/benchmark.h>

#include "devices/board_protocol.hpp"
#include "devices/ccid_pn53x.hpp"
#include "devices/crosstalk.hpp"
#include "devices/observe.hpp"

using namespace cardtable;
using namespace cardtable::devices;

namespace {

std::vector<std::uint8_t> four_antenna_scan() {
  board::ScanResult s;
  s.scan = 77;
  for (std::uint8_t a = 0; a < 4; ++a) {
    board::AntennaReading r{a, 0, {}};
    std::uint8_t uid[7] = {0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, a};
    r.tags.push_back({*Uid::from_bytes(uid), static_cast<std::uint8_t>(100 + a)});
    s.antennas.push_back(r);
  }
  return board::encode(board::FrameType::ScanReply, 9, board::encode_scan(s));
}

void BM_BoardScanReplyDecode(benchmark::State& state) {
  const auto frame = four_antenna_scan();
  for (auto _ : state) {
    auto f = board::parse_frame(frame);
    auto s = board::parse_scan(f.value->payload, 4);
    benchmark::DoNotOptimize(s);
  }
  state.counters["frames/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BoardScanReplyDecode);

void BM_Acr122uTargetReplyDecode(benchmark::State& state) {
  std::vector<std::uint8_t> data = {0xD5, 0x4B, 0x01, 0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6, 0x90, 0x00};
  const auto reply = ccid::encode_reply(ccid::Reply{ccid::kDataBlock, 0, 5, 0, 0, data});
  for (auto _ : state) {
    auto r = ccid::parse_reply(reply, 5);
    auto sw = acr122u::parse_status_word(r.value->data);
    auto a = pn53x::parse_answer(*sw.value, pn53x::kInListPassiveTarget);
    auto t = pn53x::parse_targets(*a.value);
    benchmark::DoNotOptimize(t);
  }
  state.counters["frames/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Acr122uTargetReplyDecode);

// A board's scan reply to four observations: decode, cross-talk, deck look-up.
void BM_BoardScanToObservations(benchmark::State& state) {
  const auto frame = four_antenna_scan();
  DeckLibrary decks;
  Deck d;
  d.label = "bench";
  for (int a = 0; a < 4; ++a) {
    std::uint8_t uid[7] = {0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, static_cast<std::uint8_t>(a)};
    d.cards[*Uid::from_bytes(uid)] = bridge::Card::from_id(a);
  }
  std::vector<DeckProblem> problems;
  decks.add(d, problems);
  DeviceCounters counters;
  const table::Zone zones[4] = {*table::Zone::parse("play:N"), *table::Zone::parse("play:E"), *table::Zone::parse("play:S"), *table::Zone::parse("play:W")};
  for (auto _ : state) {
    auto f = board::parse_frame(frame);
    auto s = board::parse_scan(f.value->payload, 4);
    std::vector<AntennaTags> heard;
    for (const auto& r : s.value->antennas) {
      AntennaTags a{r.antenna, {}, false};
      for (const auto& t : r.tags) a.tags.push_back({t.uid, t.strength});
      heard.push_back(std::move(a));
    }
    resolve_crosstalk(heard, 6);
    for (const auto& a : heard) benchmark::DoNotOptimize(observe(zones[a.antenna], a, &decks, "board0", 0, counters));
  }
  state.counters["polls/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_BoardScanToObservations);

}  // namespace

BENCHMARK_MAIN();
