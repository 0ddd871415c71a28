// Power cut: the real cardtabled, killed with SIGKILL while it publishes, its newest journal file then
// cut at a random byte (what a power cut leaves of the writes the disk had not yet made durable),
// restarts cleanly, numbers on without a gap, and has lost no acknowledged event: every director.ack it
// confirmed, and every event before it, is still replayed as it was.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>
#include <zmq.hpp>

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

class PowerCut : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("cardtabled-power-cut-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    ctl = "ipc://" + (dir / "ctl").string();
  }
  void TearDown() override {
    kill_daemon(SIGTERM);
    fs::remove_all(dir);
  }
  // The demo table, looping fast: it publishes all the time.
  void start() {
    std::vector<std::string> args = {CARDTABLED, "--master", SAMPLE_DIR, "--simulate", SAMPLE_DIR "/demo-table.scn", "--speed", "200",
                                     "--loop", "--state-dir", (dir / "state").string(), "--publish", "bind:ipc://" + (dir / "pub").string(),
                                     "--control", "bind:" + ctl, "--live", "bind:ipc://" + (dir / "live").string(), "--heartbeat", "0.2",
                                     "--analyzer", "/bin/false"};
    pid = ::fork();
    if (pid == 0) {
      std::freopen((dir / "daemon.log").c_str(), "a", stderr);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      std::_Exit(127);
    }
  }
  int kill_daemon(int sig) {
    if (pid <= 0) return 0;
    ::kill(pid, sig);
    int st = 0;
    ::waitpid(pid, &st, 0);
    pid = -1;
    return st;
  }
  std::optional<json> request(const json& body, int timeout_ms = 2000) {
    zmq::socket_t s(ctx, zmq::socket_type::req);
    s.set(zmq::sockopt::linger, 0);
    s.set(zmq::sockopt::rcvtimeo, timeout_ms);
    s.connect(ctl);
    s.send(zmq::buffer(body.dump()));
    zmq::message_t m;
    if (!s.recv(m)) return std::nullopt;
    return json::parse(m.to_string_view());
  }
  std::optional<json> wait_status() {
    for (int i = 0; i < 100; ++i) {
      if (auto r = request({{"command", "status"}}, 300)) return (*r)["status"];
      std::this_thread::sleep_for(100ms);
    }
    return std::nullopt;
  }
  std::vector<json> replay_all() {
    std::vector<json> out;
    for (std::uint64_t since = 1;;) {
      auto r = request({{"command", "replay"}, {"since", since}});
      if (!r || !(*r)["ok"].get<bool>()) return out;
      for (auto& e : (*r)["events"]) out.push_back(e);
      if (!(*r)["more"].get<bool>() || out.empty()) return out;
      since = out.back()["seq"].get<std::uint64_t>() + 1;
    }
  }
  std::string log() const {
    std::ifstream in(dir / "daemon.log");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path newest_journal_file() const {
    fs::path newest;
    for (const auto& e : fs::directory_iterator(dir / "state" / "journal"))
      if (e.path().filename().string().starts_with("journal-") && (newest.empty() || e.path() > newest)) newest = e.path();
    return newest;
  }

  fs::path dir;
  std::string ctl;
  pid_t pid = -1;
  zmq::context_t ctx;
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_F(PowerCut, KilledWhilePublishingAndTheLastSegmentCutAtARandomByteNoAcknowledgedEventIsLost) {
  std::random_device seed_source;
  const unsigned seed = seed_source();
  std::mt19937 random(seed);
  RecordProperty("seed", std::to_string(seed));
  SCOPED_TRACE("random seed " + std::to_string(seed));

  std::map<std::uint64_t, json> acknowledged;  // the director.ack events the daemon confirmed, by seq
  for (int round = 1; round <= 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    start();
    auto status = wait_status();
    ASSERT_TRUE(status) << log();
    // A director acknowledges events while the table goes on publishing.
    for (int i = 0; i < 5; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50 + random() % 150));
      auto s = request({{"command", "status"}});
      ASSERT_TRUE(s);
      std::uint64_t last = (*s)["status"]["last_seq"].get<std::uint64_t>();
      auto r = request({{"command", "ack"}, {"seq", last}, {"by", "TD round " + std::to_string(round)}});
      ASSERT_TRUE(r && (*r)["ok"].get<bool>()) << (r ? r->dump() : "no reply");
      acknowledged[(*r)["seq"].get<std::uint64_t>()] = json();
    }
    // Killed while publishing: events keep coming after the last acknowledgement (unacknowledged, so a
    // power cut may take them).
    std::uint64_t last_ack = acknowledged.rbegin()->first;
    std::uint64_t target = last_ack + 10 + random() % 40;
    for (int i = 0; i < 100; ++i) {
      auto s = request({{"command", "status"}});
      if (s && (*s)["status"]["last_seq"].get<std::uint64_t>() >= target) break;
      std::this_thread::sleep_for(50ms);
    }
    int st = kill_daemon(SIGKILL);
    ASSERT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) << "the daemon was still running when killed";

    // What the disk held when the power went: the newest file cut at a random byte after the last
    // acknowledged event (that one the daemon had confirmed, so it was on the disk).
    fs::path newest = newest_journal_file();
    ASSERT_FALSE(newest.empty());
    std::string whole = read(newest);
    std::size_t keep_from = 0;
    std::istringstream lines(whole);
    std::size_t offset = 0;
    for (std::string line; std::getline(lines, line); offset += line.size() + 1)
      if (auto j = json::parse(line, nullptr, false); !j.is_discarded() && j["seq"].get<std::uint64_t>() == last_ack)
        keep_from = offset + line.size() + 1;
    std::size_t cut = keep_from + random() % (whole.size() - keep_from + 1);
    fs::resize_file(newest, cut);
    std::cout << "round " << round << ": killed with " << whole.size() << " bytes in " << newest.filename().string() << ", cut at byte "
              << cut << " (the last acknowledged event ends at " << keep_from << ")\n";

    start();
    status = wait_status();
    ASSERT_TRUE(status) << "no clean restart after the cut\n" << log();
    std::vector<json> all = replay_all();
    ASSERT_FALSE(all.empty());
    for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i]["seq"].get<std::uint64_t>(), i + 1) << "a gap or a repeat at seq " << i + 1;
    for (auto& [seq, event] : acknowledged) {
      ASSERT_LE(seq, all.size()) << "acknowledged event " << seq << " lost";
      const json& e = all[seq - 1];
      EXPECT_EQ(e["type"], "director.ack") << "seq " << seq << " is now " << e.dump();
      if (event.is_null()) event = e;  // first seen after the cut: from now on it must stay as it is
      EXPECT_EQ(e, event) << "acknowledged event " << seq << " changed";
    }
    kill_daemon(SIGTERM);
  }
}
