// The real cardtabled with a camera device (driver "camera") replaying a folder of frames the test renders
// itself from Debian's card art (kdegames-card-data-kf5): a cloth, four play areas. The camera's zones come
// from the calibration file; what the daemon publishes is read back from its journal over the control
// endpoint. The recogniser is the committed model, run by OpenCV for real.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>
#include <zmq.hpp>

#include "rendered_table.hpp"

namespace cardtable {
namespace {

using namespace std::chrono_literals;
using bridge::Card;
using bridge::Rank;
using bridge::Seat;
using bridge::Suit;
using nlohmann::json;
namespace fs = std::filesystem;

class DaemonWithCamera : public ::testing::Test {
 protected:
  void SetUp() override {
    static int n = 0;  // short: ipc socket paths are limited to 107 bytes
    dir_ = fs::temp_directory_path() / ("ctc-" + std::to_string(getpid()) + "-" + std::to_string(++n));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "frames");
    std::ofstream(dir_ / "zones.txt") << test::TableRenderer::play_zones();
    if (!art_.available()) GTEST_SKIP() << "needs kdegames-card-data-kf5 and rsvg-convert";
  }
  void TearDown() override {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      ::waitpid(pid_, nullptr, 0);
    }
    fs::remove_all(dir_);
  }
  // `count` frames of this table, after those already written.
  void frames(const std::map<Seat, Card>& cards, int count) {
    const cv::Mat f = art_.play_frame(cards);
    for (int i = 0; i < count; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "%05d.png", frames_++);
      ASSERT_TRUE(cv::imwrite((dir_ / "frames" / name).string(), f));
    }
  }
  void start(const std::string& extra_options = "") {
    control_ = "ipc://" + (dir_ / "control").string();
    std::vector<std::string> args = {CARDTABLED, "--master", SCENARIO_DIR "/master",
                                     "--device", "cam0=camera:source=folder:" + (dir_ / "frames").string() + ",zones=" + (dir_ / "zones.txt").string() +
                                                     ",model=" CARDTABLE_VISION_MODEL ",period_ms=100" + extra_options,
                                     "--state-dir", (dir_ / "state").string(), "--publish", "ipc://" + (dir_ / "pub").string(),
                                     "--control", control_, "--live", "ipc://" + (dir_ / "live").string(), "--heartbeat", "3600"};
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
  bool until(const std::function<bool(const std::vector<json>&)>& pred, std::chrono::seconds limit = 60s) {
    auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      if (auto r = request({{"command", "replay"}, {"since", events_.size() + 1}}))
        for (const auto& e : (*r)["events"]) events_.push_back(e);
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
  static std::vector<json> of(const std::vector<json>& ev, const std::string& type, const std::string& cause = "") {
    std::vector<json> out;
    for (const auto& e : ev)
      if (e["type"] == type && (cause.empty() || (e.contains("evidence") && e["evidence"].value("cause", "") == cause))) out.push_back(e);
    return out;
  }
  std::string log() {
    std::ifstream in(dir_ / "daemon.log");
    std::string out(std::istreambuf_iterator<char>(in), {});
    for (const auto& e : events_) out += e.value("type", "") + " " + e.value("message", "") + "\n";
    return out;
  }
  void no_irregularity() {
    for (const auto& e : events_) EXPECT_NE(e["class"], "irregularity") << e.dump();
  }

  fs::path dir_;
  test::TableRenderer art_{fs::temp_directory_path() / ("cardtable-art-" + std::to_string(::getpid()))};
  int frames_ = 0;
  zmq::context_t ctx_;
  std::string control_;
  pid_t pid_ = -1;
  std::vector<json> events_;
};

TEST_F(DaemonWithCamera, TheCameraIsADeviceOfTheDaemonServingTheZonesOfItsCalibrationFile) {
  frames({}, 5);
  start();
  ASSERT_TRUE(until([](auto& ev) { return !of(ev, "device.added").empty(); })) << log();
  const auto added = of(events_, "device.added").front();
  EXPECT_NE(added.value("message", "").find("cam0"), std::string::npos) << added.dump();
  auto r = request({{"command", "status"}});
  ASSERT_TRUE(r) << log();
  const json s = (*r)["status"];
  ASSERT_EQ(s["devices"].size(), 1u) << s.dump();
  EXPECT_EQ(s["devices"][0]["name"], "cam0");
  EXPECT_EQ(s["devices"][0]["driver"], "camera");
  EXPECT_EQ(s["devices"][0]["present"], true);
  EXPECT_EQ(s["zones"]["play:N"], "cam0/antenna0");
  EXPECT_EQ(s["zones"]["play:W"], "cam0/antenna3");
  // The driver came from its plug-in, loaded because a device names it (a daemon without a camera maps
  // neither: cardtabled_readers_test), and it brought OpenCV.
  std::ifstream maps("/proc/" + std::to_string(pid_) + "/maps");
  std::string all(std::istreambuf_iterator<char>(maps), {});
  EXPECT_NE(all.find("/cardtable-camera.so"), std::string::npos);
  EXPECT_NE(all.find("libopencv_dnn"), std::string::npos);
  std::this_thread::sleep_for(1500ms);  // the empty table is read, settled, and stays so
  ASSERT_TRUE(until([](auto&) { return true; }));
  EXPECT_GT((*request({{"command", "status"}}))["status"]["devices"][0]["counters"]["observations"].get<int>(), 0);
  EXPECT_TRUE(of(events_, "reading.uncertain").empty()) << log();
  no_irregularity();
}

TEST_F(DaemonWithCamera, ACardFlickeringInAndOutOfAPlayAreaIsUncertainNeverAnIrregularity) {
  frames({}, 5);
  for (int i = 0; i < 10; ++i) frames(i % 2 ? std::map<Seat, Card>{} : std::map<Seat, Card>{{Seat::West, Card(Suit::Clubs, Rank::Ace)}}, 1);
  frames({}, 10);
  start();
  ASSERT_TRUE(until([](auto& ev) {
    for (const auto& e : of(ev, "reading.uncertain", "low confidence"))
      if (e.contains("evidence") && e["evidence"].value("zone", "") == "play:W") return true;
    return false;
  })) << log();
  // The flicker is in play:W alone: the other areas stay settled.
  for (const auto& e : of(events_, "reading.uncertain")) EXPECT_EQ(e["evidence"].value("zone", ""), "play:W") << e.dump();
  no_irregularity();
}

// The first trick of Spring Pairs board 1 (4H by South), laid card by card before the camera. Disabled:
// the committed model (vision/model, far from trained: vision/README.md) reads none of these cards -- it
// refuses them, so the table hears unknown cards and no play.card comes. Enable it with a model that reads
// the standard deck (tests/unit/vision/rendered_cards_test.cpp says when).
TEST_F(DaemonWithCamera, DISABLED_ATrickLaidBeforeTheCameraIsFourPlayCardsAndThePlayTrick) {
  const Card ca(Suit::Clubs, Rank::Ace), c3(Suit::Clubs, Rank::Three), c4(Suit::Clubs, Rank::Four), c2(Suit::Clubs, Rank::Two);
  frames({}, 10);
  frames({{Seat::West, ca}}, 10);
  frames({{Seat::West, ca}, {Seat::North, c3}}, 10);
  frames({{Seat::West, ca}, {Seat::North, c3}, {Seat::East, c4}}, 10);
  frames({{Seat::West, ca}, {Seat::North, c3}, {Seat::East, c4}, {Seat::South, c2}}, 10);
  frames({}, 10);  // the trick quitted
  start();
  ASSERT_TRUE(until([](auto& ev) { return !of(ev, "device.added").empty(); })) << log();
  ASSERT_TRUE(request({{"command", "board"}, {"label", "Spring Pairs/1/1"}})) << log();
  ASSERT_TRUE(request({{"command", "contract"}, {"contract", "4H S"}})) << log();
  ASSERT_TRUE(until([](auto& ev) { return !of(ev, "play.trick").empty(); }, 90s)) << log();
  const auto cards = of(events_, "play.card");
  ASSERT_EQ(cards.size(), 4u) << log();
  const char* expected[] = {"W", "N", "E", "S"};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(cards[i]["seats"][0], expected[i]) << cards[i].dump();
  const auto trick = of(events_, "play.trick").front();
  EXPECT_EQ(trick["evidence"]["winner"], "W") << trick.dump();
  no_irregularity();
}

}  // namespace
}  // namespace cardtable
