// The real cardtabled with an emulated reader board (umockdev): the daemon's device layer, hot-plug and real
// clock end to end. The board is emulated in this process; cardtabled, started as a child, inherits
// umockdev's preload and testbed, so its libusb talks to our model. What it publishes is read back from its
// journal over the control endpoint.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#include "reader_models.hpp"

namespace cardtable::devices {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;
namespace fs = std::filesystem;

Uid uid(const char* hex) { return *Uid::parse(hex); }

class DaemonWithReaders : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::umockdev_available()) GTEST_SKIP() << "needs umockdev's preload: run under umockdev-wrapper";
    testbed_ = umockdev_testbed_new();
    static int n = 0;  // short: ipc socket paths are limited to 107 bytes
    dir_ = fs::temp_directory_path() / ("ctr-" + std::to_string(getpid()) + "-" + std::to_string(++n));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "decks");
    std::ofstream(dir_ / "decks" / "pack.deck") << "deck pack\n04A1B2C3D4E5F6 SA\n04A1B2C3D4E5F7 HK\n";
  }
  void TearDown() override {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
    fakes_.clear();
    if (testbed_) g_object_unref(testbed_);
    fs::remove_all(dir_);
  }
  void plug(int devnum) { fakes_.push_back(std::make_unique<test::FakeUsbDevice>(testbed_, 1, devnum, "1-2", test::kBoardDescriptors, board_)); }
  void start(const std::string& quirks) {
    pub_ = "ipc://" + (dir_ / "pub").string();
    control_ = "ipc://" + (dir_ / "control").string();
    std::vector<std::string> args = {CARDTABLED, "--master", SCENARIO_DIR "/master", "--device", "board0=cardtable-board",
                                     "--zone", "play:N=board0/antenna0", "--zone", "play:E=board0/antenna1",
                                     "--zone", "play:S=board0/antenna2", "--zone", "play:W=board0/antenna3",
                                     "--decks", (dir_ / "decks").string(), "--quirks", quirks, "--state-dir", (dir_ / "state").string(),
                                     "--publish", pub_, "--control", control_, "--live", "ipc://" + (dir_ / "live").string(), "--heartbeat", "3600"};
    pid_ = ::fork();
    if (pid_ == 0) {
      int fd = ::open((dir_ / "daemon.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 2);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
  }
  // Reads the journal (replay over the control endpoint: every event, none missed while a subscription
  // takes hold) until `pred` holds over it, or the time is up.
  bool until(const std::function<bool(const std::vector<json>&)>& pred, std::chrono::seconds limit = 20s) {
    auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      if (auto r = request({{"command", "replay"}, {"since", events_.size() + 1}})) {
        for (const auto& e : (*r)["events"]) events_.push_back(e);
      }
      if (pred(events_)) return true;
      std::this_thread::sleep_for(100ms);
    }
    return false;
  }
  std::optional<json> request(const json& r) {
    zmq::socket_t req(ctx_, zmq::socket_type::req);
    req.set(zmq::sockopt::rcvtimeo, 2000);
    req.set(zmq::sockopt::linger, 0);
    req.connect(control_);
    std::string text = r.dump();
    req.send(zmq::buffer(text));
    zmq::message_t m;
    if (!req.recv(m)) return std::nullopt;
    return json::parse(m.to_string_view());
  }
  static std::size_t count(const std::vector<json>& ev, const std::string& type, const std::string& cause = "") {
    std::size_t n = 0;
    for (const auto& e : ev)
      if (e["type"] == type && (cause.empty() || (e.contains("evidence") && e["evidence"].value("cause", "") == cause))) ++n;
    return n;
  }
  std::optional<json> status() {
    auto r = request({{"command", "status"}});
    if (!r) return std::nullopt;
    return (*r)["status"];
  }
  std::string log() {
    std::ifstream in(dir_ / "daemon.log");
    std::string out(std::istreambuf_iterator<char>(in), {});
    for (const auto& e : events_) out += e.value("type", "") + " " + e.value("message", "") + "\n";
    return out;
  }

  UMockdevTestbed* testbed_ = nullptr;
  fs::path dir_;
  test::BoardModel board_;
  std::vector<std::unique_ptr<test::FakeUsbDevice>> fakes_;
  zmq::context_t ctx_;
  std::string pub_, control_;
  pid_t pid_ = -1;
  std::vector<json> events_;
};

TEST_F(DaemonWithReaders, UnpluggedBoardMakesItsZonesUnknownNeverAnIrregularityAndReadsAgainWhenPluggedBack) {
  plug(4);
  start(FAST_QUIRKS);
  ASSERT_TRUE(until([](auto& ev) { return count(ev, "device.added") == 1; })) << log();
  auto s = status();
  ASSERT_TRUE(s) << log();
  ASSERT_EQ((*s)["devices"].size(), 1u);
  EXPECT_EQ((*s)["devices"][0]["name"], "board0");
  EXPECT_EQ((*s)["devices"][0]["present"], true);
  EXPECT_EQ((*s)["zones"]["play:E"], "board0/antenna1");
  EXPECT_EQ((*s)["clock"], "daemon");
  board_.place(1, {{uid("04A1B2C3D4E5F6"), 90}});  // physical 1 = logical antenna 0 = play:N

  fakes_.back()->unplug();
  ASSERT_TRUE(until([](auto& ev) { return count(ev, "device.lost") == 1 && count(ev, "reading.uncertain", "device lost") == 4; })) << log();
  for (const auto& e : events_) EXPECT_NE(e["class"], "irregularity") << e.dump();

  auto replugged = std::chrono::steady_clock::now();
  plug(5);  // plugged back: a new address on the same port
  ASSERT_TRUE(until([](auto& ev) { return count(ev, "device.added") == 2; })) << log();
  // Figures for docs/benchmarks.md, recorded, never asserted (the replay polling adds up to 100 ms).
  RecordProperty("replug_to_added_ms", static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - replugged).count()));
  std::ifstream st("/proc/" + std::to_string(pid_) + "/status");
  for (std::string line; std::getline(st, line);)
    if (line.starts_with("VmRSS:")) RecordProperty("daemon_rss_kb", std::stoi(line.substr(6)));
  s = status();
  ASSERT_TRUE(s);
  EXPECT_EQ((*s)["devices"][0]["present"], true);
  EXPECT_GT((*s)["devices"][0]["counters"]["observations"].get<int>(), 0);
}

TEST_F(DaemonWithReaders, ABoardThatGoesQuietMakesItsZonesSilentFromTheDaemonsOwnClock) {
  plug(4);
  start(PATIENT_QUIRKS);  // retries = 100: the board is not reset or reported for a long while
  ASSERT_TRUE(until([](auto& ev) { return count(ev, "device.added") == 1; })) << log();
  std::this_thread::sleep_for(500ms);  // the zones are heard
  board_.mute = true;                  // no scenario, no ticks from anywhere but the daemon's timer
  ASSERT_TRUE(until([](auto& ev) { return count(ev, "reading.uncertain", "silent") == 4; }, 30s)) << log();
  EXPECT_EQ(count(events_, "device.lost"), 0u);
  for (const auto& e : events_) EXPECT_NE(e["class"], "irregularity") << e.dump();
  board_.mute = false;
  EXPECT_TRUE(until([](auto& ev) { return count(ev, "reading.resumed") == 4; })) << log();
}

}  // namespace
}  // namespace cardtable::devices
