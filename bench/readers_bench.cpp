// cardtabled with two emulated readers (umockdev, the drivers' real libusb code): a card faced on the
// reader board's scan antenna -> the alert at a subscriber, beside the reader's poll period; the last
// completed transfer -> the alert; the daemon's own hand-over -> table figure (status input_latency: from
// the moment a reader hands a reading over, a wait for room in the queue included); its RSS.
// Prints its figures, asserts nothing. Run (the preload is umockdev's; the quirk file sets the poll period):
//   LD_PRELOAD=libumockdev-preload.so.0 build/bench/readers_bench [QUIRK_FILE] [CYCLES]
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#include "devices/quirks.hpp"
#include "reader_models.hpp"

using namespace cardtable::devices;
using namespace std::chrono_literals;
using Steady = std::chrono::steady_clock;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The board model, with the time of every SCAN reply stamped by what the bench had placed when it answered.
class TimedBoard : public test::BoardModel {
 public:
  std::vector<test::Bytes> answer(std::uint8_t ep, const test::Bytes& w) override {
    int gen = generation.load();  // read first: a reply stamped `gen` holds at least that placement
    auto out = BoardModel::answer(ep, w);
    auto now = Steady::now();
    auto frame = board::parse_frame(w);
    if (frame && frame.value->header.type == board::FrameType::Scan) {
      std::lock_guard lock(mutex);
      replies[gen].push_back(now);
    }
    return out;
  }
  std::atomic<int> generation{0};
  std::mutex mutex;
  std::map<int, std::vector<Steady::time_point>> replies;
};

double ms(Steady::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

void print(const char* what, std::vector<double> v) {
  if (v.empty()) {
    std::printf("%-58s no samples\n", what);
    return;
  }
  std::sort(v.begin(), v.end());
  auto rank = [&](double p) { return v[static_cast<std::size_t>(std::max(0.0, std::ceil(p * static_cast<double>(v.size())) - 1))]; };
  std::printf("%-58s median %7.2f ms  p99 %7.2f ms  max %7.2f ms  (n=%zu)\n", what, rank(0.5), rank(0.99), v.back(), v.size());
}

json request(zmq::context_t& ctx, const std::string& ep, const json& r) {
  zmq::socket_t req(ctx, zmq::socket_type::req);
  req.set(zmq::sockopt::rcvtimeo, 3000);
  req.set(zmq::sockopt::linger, 0);
  req.connect(ep);
  req.send(zmq::buffer(r.dump()));
  zmq::message_t m;
  if (!req.recv(m)) return {};
  return json::parse(m.to_string_view());
}

}  // namespace

int main(int argc, char** argv) {
  if (!test::umockdev_available()) {
    std::fprintf(stderr, "readers_bench: run under umockdev's preload: LD_PRELOAD=libumockdev-preload.so.0 %s\n", argv[0]);
    return 2;
  }
  std::string quirks = argc > 1 ? argv[1] : CARDTABLE_SHIPPED_QUIRKS;
  int cycles = argc > 2 ? std::atoi(argv[2]) : 100;
  std::vector<QuirkProblem> problems;
  auto table = QuirkTable::load(quirks, problems);
  const ReaderQuirk* board_quirk = nullptr;
  const ReaderQuirk* acr_quirk = nullptr;
  for (const ReaderQuirk& q : table.all()) {
    if (q.protocol == "cardtable-board") board_quirk = &q;
    if (q.protocol == "pn53x-ccid" && !acr_quirk) acr_quirk = &q;
  }
  if (!board_quirk || !acr_quirk) {
    std::fprintf(stderr, "readers_bench: %s has no reader board or PN53x model\n", quirks.c_str());
    return 2;
  }
  // The physical antenna that the quirk's antenna_order makes logical antenna 0 (the scan slot).
  std::uint8_t slot = 0;
  for (std::size_t p = 0; p < board_quirk->antenna_order.size(); ++p)
    if (board_quirk->antenna_order[p] == 0) slot = static_cast<std::uint8_t>(p);

  UMockdevTestbed* testbed = umockdev_testbed_new();
  fs::path dir = fs::temp_directory_path() / ("rb-" + std::to_string(getpid()));
  fs::create_directories(dir / "decks");
  {
    std::ofstream deck(dir / "decks" / "bench.deck");
    deck << "deck bench\n04CA4D00000001 SA\n04CA4D00000002 HK\n";
  }
  TimedBoard board;
  test::AcrModel acr;
  auto plugged_board = std::make_unique<test::FakeUsbDevice>(testbed, 1, 4, "1-2", test::kBoardDescriptors, board);
  auto plugged_acr = std::make_unique<test::FakeUsbDevice>(testbed, 1, 5, "1-3", test::kAcr122uDescriptors, acr);

  std::string pub = "ipc://" + (dir / "pub").string(), control = "ipc://" + (dir / "control").string();
  std::vector<std::string> args = {CARDTABLED, "--master", CARDTABLE_MASTER, "--device", "board0=cardtable-board", "--device", "north=acr122u",
                                   "--zone", "scan=board0/antenna0", "--zone", "play:E=board0/antenna1", "--zone", "play:S=board0/antenna2",
                                   "--zone", "play:W=board0/antenna3", "--zone", "play:N=north", "--decks", (dir / "decks").string(),
                                   "--quirks", quirks, "--state-dir", (dir / "state").string(), "--publish", pub, "--control", control,
                                   "--live", "ipc://" + (dir / "live").string(), "--heartbeat", "0.2"};
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open((dir / "daemon.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 2);
    std::vector<char*> argv2;
    for (auto& a : args) argv2.push_back(a.data());
    argv2.push_back(nullptr);
    execv(argv2[0], argv2.data());
    _exit(127);
  }
  zmq::context_t ctx;
  zmq::socket_t sub(ctx, zmq::socket_type::sub);
  sub.set(zmq::sockopt::subscribe, "");
  sub.set(zmq::sockopt::rcvtimeo, 100);
  sub.connect(pub);
  // Both readers added, and the subscription heard from.
  int added = 0;
  bool heard = false;
  auto start = Steady::now();
  while ((added < 2 || !heard) && Steady::now() - start < 20s) {
    std::vector<zmq::message_t> parts;
    if (!zmq::recv_multipart(sub, std::back_inserter(parts)) || parts.size() != 2) {
      json r = request(ctx, control, {{"command", "status"}});
      added = 0;
      if (r.contains("status"))
        for (const auto& d : r["status"]["devices"]) added += d.value("present", false) ? 1 : 0;
      continue;
    }
    heard = true;
  }
  if (added < 2) {
    std::fprintf(stderr, "readers_bench: the readers were not added (see %s)\n", (dir / "daemon.log").c_str());
    kill(pid, SIGTERM);
    return 1;
  }
  std::this_thread::sleep_for(500ms);

  std::vector<double> faced, last_transfer;
  int missed = 0;
  std::vector<board::Tag> two = {{*Uid::parse("04CA4D00000001"), 90}, {*Uid::parse("04CA4D00000002"), 90}};
  for (int c = 1; c <= cycles; ++c) {
    board.place(slot, two);  // two cards over the slot at once: an immediate reading.uncertain
    board.generation = c;
    Steady::time_point got{};
    auto until = Steady::now() + 3s;
    while (Steady::now() < until) {
      std::vector<zmq::message_t> parts;
      if (!zmq::recv_multipart(sub, std::back_inserter(parts)) || parts.size() != 2) continue;
      json e = json::parse(parts[1].to_string_view(), nullptr, false);
      if (e.is_object() && e.value("type", "") == "reading.uncertain" && e.contains("evidence") &&
          e["evidence"].value("cause", "") == "several cards at once") {
        got = Steady::now();
        break;
      }
    }
    if (got == Steady::time_point{}) {
      ++missed;
    } else {
      std::lock_guard lock(board.mutex);
      const auto& r = board.replies[c];
      if (!r.empty()) {
        faced.push_back(ms(got - r.front()));
        auto before = std::find_if(r.rbegin(), r.rend(), [&](auto t) { return t <= got; });
        if (before != r.rend()) last_transfer.push_back(ms(got - *before));
      }
    }
    board.clear();
    board.generation = -c;
    std::this_thread::sleep_for(700ms);  // empty and settled, outside the flicker window
  }
  json status = request(ctx, control, {{"command", "status"}})["status"];
  long rss = 0, hwm = 0;
  std::ifstream st("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(st, line);) {
    if (line.starts_with("VmRSS:")) rss = std::stol(line.substr(6));
    if (line.starts_with("VmHWM:")) hwm = std::stol(line.substr(6));
  }
  kill(pid, SIGTERM);
  waitpid(pid, nullptr, 0);
  plugged_board.reset();
  plugged_acr.reset();
  g_object_unref(testbed);

  std::printf("quirks %s: reader board polled every %d ms, ACR122U every %d ms; %d cycles, %d missed\n", quirks.c_str(),
              board_quirk->poll_ms, acr_quirk->poll_ms, cycles, missed);
  print("card faced (first reply holding it) -> alert at subscriber", faced);
  print("last completed transfer -> alert at subscriber", last_transfer);
  auto lat = status["input_latency"];
  std::printf("%-58s median %7.3f ms  p99 %7.3f ms  max %7.3f ms  (n=%lld)\n", "reader's hand-over -> table (daemon's own status)",
              lat.value("median_us", 0) / 1000.0, lat.value("p99_us", 0) / 1000.0, lat.value("max_us", 0) / 1000.0,
              static_cast<long long>(lat.value("samples", 0)));
  // A reading that waited for room in a full queue is in the figure above since the stamp is taken at hand-over.
  std::printf("%-58s %lld\n", "times a reader waited for room in the queue (input_waits)",
              static_cast<long long>(status.value("input_waits", 0)));
  std::printf("goal: card faced -> alert within 3 poll periods + 1 ms = %d ms\n", 3 * board_quirk->poll_ms + 1);
  std::printf("cardtabled RSS with two emulated readers: %ld kB now, %ld kB peak (bar: < 30 MB)\n", rss, hwm);
  fs::remove_all(dir);
  return 0;
}
