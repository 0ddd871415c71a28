// The camera driver on recordings the test renders itself (Debian's card art on a cloth, four play areas):
// its zones come from the calibration file, every zone is reported each frame, a zone still changing is
// reported at confidence 0 (noise to the table), bad configurations and bad recordings are clear errors.
// The recogniser is the committed model, run by OpenCV for real.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <opencv2/videoio.hpp>

#include "bridge/card.hpp"
#include "devices/camera/camera_device.hpp"
#include "recording_sink.hpp"
#include "warning_log.hpp"
#include "rendered_table.hpp"
#include "vision/hand_layers.hpp"

namespace cardtable::devices {
namespace {

namespace fs = std::filesystem;
using bridge::Card;
using bridge::Rank;
using bridge::Seat;
using bridge::Suit;

class CameraDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cardtable-camera-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "frames");
    std::ofstream(dir_ / "zones.txt") << cardtable::test::TableRenderer::play_zones();
  }
  void TearDown() override { fs::remove_all(dir_); }

  DeviceConfig config(std::map<std::string, std::string> extra = {}) {
    DeviceConfig c{"cam0", "camera", {}, {{"source", "folder:" + (dir_ / "frames").string()},
                                          {"zones", (dir_ / "zones.txt").string()},
                                          {"model", CARDTABLE_VISION_MODEL},
                                          {"period_ms", "10"}}};
    for (auto& [k, v] : extra) c.options[k] = v;
    return c;
  }
  void frame(int n, const cv::Mat& image) {
    char name[32];
    std::snprintf(name, sizeof name, "%04d.png", n);
    ASSERT_TRUE(cv::imwrite((dir_ / "frames" / name).string(), image));
  }
  // Four frames of North's 10♦ as an MJPG video at `fps`; false where this OpenCV writes none.
  bool write_clip(const fs::path& clip, double fps) {
    cv::VideoWriter w(clip.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), fps, cv::Size(640, 640));
    if (!w.isOpened()) return false;
    const cv::Mat f = art_.play_frame({{Seat::North, Card(Suit::Diamonds, Rank::Ten)}});
    for (int i = 0; i < 4; ++i) w.write(f);
    return true;
  }
  std::unique_ptr<Device> make(const DeviceConfig& c) {
    std::string error;
    auto d = make_camera(c, DeviceEnvironment{}, error);
    EXPECT_TRUE(d) << error;
    return d;
  }
  static std::string error_of(const DeviceConfig& c) {
    std::string error;
    auto d = make_camera(c, DeviceEnvironment{}, error);
    EXPECT_FALSE(d);
    return error;
  }
  static std::vector<table::Observation> of_zone(const std::vector<table::TableInput>& in, const char* zone) {
    std::vector<table::Observation> out;
    for (const auto& i : in)
      if (i.kind == table::TableInput::Kind::Observe && i.observation.zone.str() == zone) out.push_back(i.observation);
    return out;
  }

  fs::path dir_;
  cardtable::test::TableRenderer art_{"cardtable-art"};
};

// A camera that is not there at start (unplugged, another /dev/video number) gave no word at all; it
// now says so once, after 3 s without a frame, and stays absent (no device.added, no zone read).
TEST_F(CameraDeviceTest, ACameraThatGivesNoFrameAtStartSaysSoOnce) {
  test::WarningLog log;
  const std::string none = "/dev/cardtable-test-no-camera-" + std::to_string(::getpid());
  auto d = make(config({{"source", "v4l2:" + none}}));
  ASSERT_TRUE(d);
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(d->start(sink, error)) << error;
  std::this_thread::sleep_for(std::chrono::milliseconds(4500));
  d->stop();
  const auto lines = log.lines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("cam0: "), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(": no frame in 3 s: waiting for the camera; its zones are unknown until it answers"), std::string::npos) << lines[0];
  EXPECT_FALSE(d->present());
  EXPECT_TRUE(sink.events().empty());
}

TEST_F(CameraDeviceTest, ItsZonesAreTheCalibrationFilesAndNoZoneOptionCanOverrideThem) {
  auto d = make(config());
  ASSERT_TRUE(d);
  std::vector<std::string> zones;
  for (const auto& z : d->zones()) zones.push_back(z.str());
  EXPECT_EQ(zones, (std::vector<std::string>{"play:N", "play:E", "play:S", "play:W"}));
  const auto s = d->status();
  EXPECT_EQ(s["driver"], "camera");
  EXPECT_EQ(s["source"], "folder:" + (dir_ / "frames").string());
  EXPECT_EQ(s["settle_frames"], 3);

  auto c = config();
  c.antennas[0] = *table::Zone::parse("play:N");
  EXPECT_NE(error_of(c).find("zones come from its calibration file"), std::string::npos);
}

// The daemon checks --silence against a device's period (daemon/poll_silence.hpp): a recording reports
// every zone each frame, at period_ms; a live camera at its own rate, which only it knows.
TEST_F(CameraDeviceTest, ARecordingSaysItsFramePeriodAndALiveCameraNone) {
  auto recording = make(config({{"period_ms", "2000"}}));
  ASSERT_TRUE(recording);
  EXPECT_EQ(recording->poll_ms(), 2000);
  EXPECT_EQ(recording->poll_option(), "period_ms");
  auto camera = make(config({{"source", "v4l2:/dev/video63"}}));
  ASSERT_TRUE(camera);
  EXPECT_EQ(camera->poll_ms(), 0);
}

TEST_F(CameraDeviceTest, ABadConfigurationIsRefusedNamingTheDeviceAndTheReason) {
  auto c = config();
  c.options.erase("source");
  EXPECT_NE(error_of(c).find("cam0: a camera needs source="), std::string::npos);
  EXPECT_NE(error_of(config({{"exposure", "3"}})).find("option 'exposure' is unknown"), std::string::npos);
  EXPECT_NE(error_of(config({{"settle", "0"}})).find("settle=0 is not a whole number in 1..100"), std::string::npos);
  EXPECT_NE(error_of(config({{"floor", "1.5"}})).find("floor=1.5 is not a number in 0..1"), std::string::npos);
  EXPECT_NE(error_of(config({{"pair_floor", "x"}})).find("pair_floor=x is not a number in 0..1"), std::string::npos);
  EXPECT_NE(error_of(config({{"zones", (dir_ / "none.txt").string()}})).find("none.txt"), std::string::npos);
  EXPECT_NE(error_of(config({{"model", (dir_ / "none.json").string()}})).find("none.json"), std::string::npos);
  std::ofstream(dir_ / "bad.txt") << "# cardtable-vision zones 1\nframe 640 640\nzone play:Q 1,1 2,2 3,1\n";
  EXPECT_NE(error_of(config({{"zones", (dir_ / "bad.txt").string()}})).find("bad.txt"), std::string::npos);
}

// The network's margin (a probability: the best card over the runner-up) and an embedding deck's (a
// cosine: the nearest prototype over the next) are two options: until 2026-11-27 margin= set both, so a
// director who tuned one moved the other. The camera's status says the operating point it reads at: the
// options' where they set it, the model's where they do not.
TEST_F(CameraDeviceTest, TheNetworksMarginAndAnEmbeddingDecksMarginAreTwoOptionsAndStatusSaysBoth) {
  // A deck of the whole pack, enrolled (as it must be) with the model's own embedding size: card k along
  // axis k.
  const auto info = vision::read_model_info(CARDTABLE_VISION_MODEL);
  ASSERT_TRUE(info.reader);
  const int dim = info.reader->emb_dim;
  ASSERT_GE(dim, 52);
  std::ofstream out(dir_ / "deck.txt");
  out << "# cardtable-vision deck 1\ndeck test\ndim " << dim << "\n";
  for (int id = 0; id < 52; ++id) {
    out << "card " << cardtable::bridge::Card::from_id(id).str();
    for (int k = 0; k < dim; ++k) out << (k == id ? " 1" : " 0");
    out << "\n";
  }
  out.close();
  const std::string deck = (dir_ / "deck.txt").string();
  auto d = make(config({{"deck", deck}, {"margin", "0.5"}}));
  ASSERT_TRUE(d);
  auto s = d->status();
  EXPECT_EQ(s["margin"], 0.5);
  EXPECT_EQ(s["deck_margin"], 0.2) << "the deck's default, whatever margin= says";
  // The rest of the point is the model's own (model.json reader.operating_point), as chosen with its reader.
  ASSERT_TRUE(info.reader->operating_point);
  EXPECT_EQ(s["floor"], info.reader->operating_point->floor);
  EXPECT_EQ(s["pair_floor"], info.reader->operating_point->pair_floor);
  EXPECT_EQ(s["views"], info.reader->operating_point->views);
  // And what runs each network: the committed model's detector (front and tail) and reader are computed
  // by the program itself (vision/detector_front.hpp, vision/detector_tail.hpp, vision/hand_reader.hpp).
  // (On a processor where cv::dnn is faster, hand_kernels_pay_off(), cv::dnn runs both and says so.)
  const std::string engines = s["engines"].get<std::string>();
  const bool here = cardtable::vision::hand_kernels_pay_off();
  EXPECT_NE(engines.find(here ? "detector: here" : "detector: whole in cv::dnn"), std::string::npos) << engines;
  EXPECT_NE(engines.find(here ? "reader: here" : "reader: cv::dnn"), std::string::npos) << engines;
  d = make(config({{"deck", deck}, {"deck_margin", "0.3"}}));
  ASSERT_TRUE(d);
  s = d->status();
  EXPECT_EQ(s["deck_margin"], 0.3);
  EXPECT_EQ(s["margin"], info.reader->operating_point->margin) << "the model's margin, whatever deck_margin= says";
  // Without an embedding deck, deck_margin= has nothing to apply to: refused, pointing at margin=.
  EXPECT_NE(error_of(config({{"deck_margin", "0.3"}})).find("the network's own margin is margin="), std::string::npos);
  EXPECT_FALSE(make(config())->status().contains("deck_margin"));
  EXPECT_NE(error_of(config({{"deck", deck}, {"deck_margin", "2"}})).find("deck_margin=2 is not a number in 0..1"), std::string::npos);
}

// An embedding deck of two cards was taken without a word (2026-11-29): every other card's index was
// matched to the nearer of the two, so the camera could read the queen of spades as the ace, a false card.
// Like a faces deck, an embedding deck holds the whole pack, and the camera refuses one that does not,
// naming what it lacks.
TEST_F(CameraDeviceTest, AnEmbeddingDeckLackingCardsIsRefusedNamingThem) {
  const auto info = vision::read_model_info(CARDTABLE_VISION_MODEL);
  ASSERT_TRUE(info.reader);
  std::string ace = "card SA 1", king = "card SK 0";
  for (int k = 1; k < info.reader->emb_dim; ++k) {
    ace += " 0";
    king += k == 1 ? " 1" : " 0";
  }
  std::ofstream(dir_ / "two.txt") << "# cardtable-vision deck 1\ndeck two\ndim " << info.reader->emb_dim << "\n" << ace << "\n" << king << "\n";
  const std::string error = error_of(config({{"deck", (dir_ / "two.txt").string()}}));
  EXPECT_NE(error.find("two.txt: lacks C2 C3"), std::string::npos) << error;
  EXPECT_NE(error.find("SQ"), std::string::npos) << error;
  EXPECT_NE(error.find("a missing card would be read as its look-alike"), std::string::npos) << error;
}

TEST_F(CameraDeviceTest, ARecordingReportsEveryZoneEachFrameAndAReadingOnlyOnceItHasHeldForTheSettleFrames) {
  if (!art_.available()) GTEST_SKIP() << "needs kdegames-card-data-kf5 and rsvg-convert";
  const cv::Mat f = art_.play_frame({{Seat::South, Card(Suit::Hearts, Rank::King)}});
  for (int i = 0; i < 5; ++i) frame(i, f);
  auto d = make(config());
  ASSERT_TRUE(d);
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(d->start(sink, error)) << error;
  ASSERT_TRUE(sink.wait_event(DeviceEvent::Kind::Added));
  // Five frames and then the still table after the recording: play:N is settled by its third frame.
  ASSERT_TRUE(sink.wait([&](auto& in, auto&) { return of_zone(in, "play:N").size() >= 8; }, 60));
  d->stop();
  const auto events = sink.events();
  EXPECT_EQ(events.front().device, "cam0");
  EXPECT_EQ(events.front().zones.size(), 4u);
  const auto inputs = sink.inputs();
  for (const char* zone : {"play:N", "play:E", "play:S", "play:W"}) {
    const auto obs = of_zone(inputs, zone);
    ASSERT_GE(obs.size(), 5u) << zone;
    // Frames 1 and 2: not yet held for three frames, noise to the table; from frame 3 on: the reading.
    EXPECT_EQ(obs[0].confidence, 0) << zone;
    EXPECT_EQ(obs[1].confidence, 0) << zone;
    for (std::size_t i = 2; i < obs.size(); ++i) EXPECT_GT(obs[i].confidence, 0) << zone << " report " << i;
    for (std::size_t i = 1; i < obs.size(); ++i) EXPECT_TRUE(obs[i].same_reading(obs[0])) << zone << ": a still table reads the same";
    EXPECT_EQ(obs[0].source, "cam0");
  }
  // Nothing is invented in the empty play areas.
  for (const char* zone : {"play:N", "play:E", "play:W"}) {
    EXPECT_TRUE(of_zone(inputs, zone)[3].cards.empty()) << zone;
    EXPECT_EQ(of_zone(inputs, zone)[3].unknown, 0) << zone;
  }
  // South's card is seen: read (a card) or refused (an unknown), never absent.
  const auto south = of_zone(inputs, "play:S")[3];
  EXPECT_GT(static_cast<int>(south.cards.size()) + south.unknown, 0);
  const auto s = d->status();
  EXPECT_EQ(s["counters"]["frames"], 5);
  EXPECT_EQ(s["recording_ended"], true);
  EXPECT_EQ(s["present"], true);
}

TEST_F(CameraDeviceTest, ACardFlickeringInAndOutNeverSettlesItsZoneWhileTheOthersDo) {
  if (!art_.available()) GTEST_SKIP() << "needs kdegames-card-data-kf5 and rsvg-convert";
  const cv::Mat with = art_.play_frame({{Seat::West, Card(Suit::Clubs, Rank::Ace)}});
  const cv::Mat without = art_.play_frame({});
  for (int i = 0; i < 10; ++i) frame(i, i % 2 ? without : with);
  auto d = make(config());
  ASSERT_TRUE(d);
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(d->start(sink, error)) << error;
  ASSERT_TRUE(sink.wait([&](auto& in, auto&) { return of_zone(in, "play:W").size() >= 10; }, 60));
  d->stop();
  const auto west = of_zone(sink.inputs(), "play:W");
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(west[i].confidence, 0) << "frame " << i << ": unsettled, noise to the table";
  const auto north = of_zone(sink.inputs(), "play:N");
  EXPECT_GT(north[9].confidence, 0);
  EXPECT_GE(d->status()["unsettled_reports"].get<int>(), 10);
}

TEST_F(CameraDeviceTest, AMissingRecordingIsADeviceErrorAndTheDeviceStaysAbsent) {
  auto d = make(config({{"source", "folder:" + (dir_ / "nowhere").string()}}));
  ASSERT_TRUE(d);
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(d->start(sink, error));
  ASSERT_TRUE(sink.wait_event(DeviceEvent::Kind::Error));
  d->stop();
  EXPECT_NE(sink.events().front().reason.find("nowhere"), std::string::npos) << sink.events().front().reason;
  EXPECT_FALSE(d->present());
}

// Each said once, naming the path once: a video file that is not there was "P: P: OpenCV cannot open
// this video" after three lines of OpenCV's own warnings, and an empty folder was first logged as a
// recording whose last frame goes on being read.
TEST_F(CameraDeviceTest, AVideoThatIsNotThereOrAFolderWithoutFramesIsSaidPlainly) {
  const std::string clip = (dir_ / "clip.avi").string();
  for (const auto& [source, says] : {std::pair{clip, clip + ": no such file"},
                                     {"folder:" + (dir_ / "frames").string(),
                                      (dir_ / "frames").string() + ": no frame in the folder (.png, .jpg, .jpeg or .bmp files)"}}) {
    auto d = make(config({{"source", source}}));
    ASSERT_TRUE(d);
    test::RecordingSink sink;
    std::string error;
    ASSERT_TRUE(d->start(sink, error));
    ASSERT_TRUE(sink.wait_event(DeviceEvent::Kind::Error));
    d->stop();
    ASSERT_EQ(sink.events().size(), 1u);
    EXPECT_EQ(sink.events().front().reason, says);
    EXPECT_FALSE(d->present());
  }
}

TEST_F(CameraDeviceTest, AFrameOfAnotherSizeThanTheCalibrationIsAnErrorNotAReading) {
  for (int i = 0; i < 3; ++i) frame(i, cv::Mat(240, 320, CV_8UC3, cv::Scalar(40, 90, 30)));
  auto d = make(config());
  ASSERT_TRUE(d);
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(d->start(sink, error));
  ASSERT_TRUE(sink.wait([&](auto&, auto&) { return d->status()["counters"]["garbage"] == 3; }));
  ASSERT_TRUE(sink.wait_event(DeviceEvent::Kind::Error, 2)) << "the recording's end is said too";
  d->stop();
  int said = 0;
  for (const auto& e : sink.events())
    said += e.reason.find("320x240 is not the calibration's 640x640") != std::string::npos && e.reason.find("no usable frame") == std::string::npos;
  EXPECT_EQ(said, 1) << "said once, not once a frame";
  for (const auto& i : sink.inputs()) EXPECT_NE(i.kind, table::TableInput::Kind::Observe);
  // A camera with no usable frame was announced (device.added) before the size was checked, stayed
  // present for good after the recording had stopped, and ended with "no frame could be read".
  EXPECT_FALSE(d->present());
  for (const auto& e : sink.events()) EXPECT_NE(e.kind, DeviceEvent::Kind::Added) << e.reason;
  const std::string last = sink.events().back().reason;
  EXPECT_NE(last.find("no usable frame (3 frames refused; the last error: "), std::string::npos) << last;
  EXPECT_NE(last.find("is not the calibration's 640x640"), std::string::npos) << last;
}

// A folder's frame that is gone (the folder deleted mid-replay) or damaged was skipped without a word:
// no device.error, the counters clean, and OpenCV's own "[ WARN ] imread_" line on stderr. Each is now
// counted, and said (once until a frame reads again), naming the file.
TEST_F(CameraDeviceTest, AFolderFrameThatIsGoneOrDamagedIsCountedAndSaid) {
  for (int i = 0; i < 3; ++i) frame(i, cv::Mat(640, 640, CV_8UC3, cv::Scalar(40, 90, 30)));
  std::ofstream(dir_ / "frames" / "0001.png", std::ios::trunc) << "not a png";
  std::ofstream(dir_ / "frames" / "0002.png", std::ios::trunc) << "nor this";
  auto d = make(config());
  ASSERT_TRUE(d);
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(d->start(sink, error));
  ASSERT_TRUE(sink.wait([&](auto&, auto&) { return d->status()["counters"]["garbage"] == 2; }));
  d->stop();
  EXPECT_EQ(d->status()["counters"]["frames"], 1);
  int said = 0;
  for (const auto& e : sink.events()) {
    if (e.kind != DeviceEvent::Kind::Error) continue;
    ++said;
    EXPECT_NE(e.reason.find("0001.png: does not decode as an image"), std::string::npos) << e.reason;
  }
  EXPECT_EQ(said, 1) << "said once while no frame reads again, every one counted";
}


// status's last_error is the camera's trouble now, as the RFID readers' is: a camera whose frames read
// again after damaged ones (a recording's bad files, a USB camera's glitch) showed the old error for good,
// and a technician looking at `cardtablectl status` went hunting a fault that was over. The error stays in
// the journal's device.error.
TEST_F(CameraDeviceTest, ACameraWhoseFramesReadAgainShowsNoErrorInStatus) {
  for (int i = 0; i < 6; ++i) frame(i, cv::Mat(640, 640, CV_8UC3, cv::Scalar(40, 90, 30)));
  std::ofstream(dir_ / "frames" / "0000.png", std::ios::trunc) << "not a png";
  std::ofstream(dir_ / "frames" / "0001.png", std::ios::trunc) << "nor this";
  auto d = make(config());
  ASSERT_TRUE(d);
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(d->start(sink, error));
  ASSERT_TRUE(sink.wait_event(DeviceEvent::Kind::Error, 1));
  ASSERT_TRUE(sink.wait([&](auto&, auto&) { return d->status()["counters"]["frames"] >= 4; }));
  const auto status = d->status();
  d->stop();
  EXPECT_EQ(status["counters"]["garbage"], 2);
  EXPECT_FALSE(status.contains("last_error")) << status.dump();
  bool said = false;
  for (const auto& e : sink.events()) said |= e.kind == DeviceEvent::Kind::Error && e.reason.find("0000.png") != std::string::npos;
  EXPECT_TRUE(said) << "the damaged frame is still said in its device.error";
}

TEST_F(CameraDeviceTest, AVideoFileReplaysThroughTheSameDevice) {
  if (!art_.available()) GTEST_SKIP() << "needs kdegames-card-data-kf5 and rsvg-convert";
  const auto clip = dir_ / "clip.avi";
  if (!write_clip(clip, 10)) GTEST_SKIP() << "this OpenCV writes no MJPG AVI";
  auto d = make(config({{"source", "file:" + clip.string()}}));
  ASSERT_TRUE(d);
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(d->start(sink, error)) << error;
  ASSERT_TRUE(sink.wait([&](auto& in, auto&) { return of_zone(in, "play:S").size() >= 4; }, 60));
  d->stop();
  EXPECT_EQ(d->status()["counters"]["frames"], 4);
  EXPECT_GT(of_zone(sink.inputs(), "play:S")[3].confidence, 0);
  EXPECT_TRUE(of_zone(sink.inputs(), "play:S")[3].cards.empty());
}

// A video replayed at the 100 ms default whatever its own rate ran a 30 frames/s recording of a session three
// times slower than the table it shows: every time the table measures (a card's stable_ms, the flicker
// window, --silence) met another table. A video file now replays at the rate its container says, unless
// period_ms= says another, and its period is known before the device starts, for the --silence check.
TEST_F(CameraDeviceTest, AVideoFileReplaysAtItsOwnFrameRateUnlessPeriodMsSaysAnother) {
  if (!art_.available()) GTEST_SKIP() << "needs kdegames-card-data-kf5 and rsvg-convert";
  const auto clip = dir_ / "two-a-second.avi";
  if (!write_clip(clip, 2)) GTEST_SKIP() << "this OpenCV writes no MJPG AVI";
  auto own_rate = config({{"source", "file:" + clip.string()}});
  own_rate.options.erase("period_ms");
  auto d = make(own_rate);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->poll_ms(), 500) << "known before it starts, for the daemon's --silence check";
  EXPECT_EQ(d->status()["period_ms"], 500.0);
  EXPECT_EQ(d->status()["period_from"], "the file's 2 frames/s");
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(d->start(sink, error)) << error;
  ASSERT_TRUE(sink.wait([&](auto& in, auto&) { return of_zone(in, "play:N").size() >= 4; }, 60));
  d->stop();
  const auto n = of_zone(sink.inputs(), "play:N");
  // A sleep never ends early: four frames half a second apart span at least 1.5 s (0.3 s at the default).
  EXPECT_GE(n[3].time - n[0].time, 1400) << "the recording was not replayed at its own 2 frames/s";

  auto paced = make(config({{"source", "file:" + clip.string()}, {"period_ms", "100"}}));
  ASSERT_TRUE(paced);
  EXPECT_EQ(paced->poll_ms(), 100) << "period_ms= replays it at another pace";
  EXPECT_EQ(paced->status()["period_from"], "period_ms=");
  auto folder = config();
  folder.options.erase("period_ms");
  EXPECT_EQ(make(folder)->poll_ms(), 100) << "a folder of frames says no rate: the default";
}

TEST_F(CameraDeviceTest, ACameraThatIsNotThereLeavesTheDeviceAbsentAndStopsPromptly) {
  auto d = make(config({{"source", "v4l2:" + (dir_ / "video99").string()}}));
  ASSERT_TRUE(d);
  test::RecordingSink sink;
  std::string error;
  ASSERT_TRUE(d->start(sink, error)) << error;  // absent hardware still starts: added when it arrives
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const auto t0 = std::chrono::steady_clock::now();
  d->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  EXPECT_FALSE(d->present());
  EXPECT_TRUE(sink.events().empty()) << "never added, so never lost";
  EXPECT_TRUE(sink.inputs().empty()) << "no frame, no reading: the table's silence check makes the zones unknown";
}

}  // namespace
}  // namespace cardtable::devices
