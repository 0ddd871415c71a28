// Both RFID drivers put the UID of each known card's tag into the Observation (card_ids), against emulated
// readers: the table needs it to tell one card heard by two readers -- one ACR122U a pocket, a North card
// lying near East's reader -- from a second card of the same face from another pack (docs/hardware.md,
// "Cross-talk"; docs/laws.md, the board's return).
#include <gtest/gtest.h>

#include "devices/deck.hpp"
#include "devices/usb/acr122u_reader.hpp"
#include "devices/usb/board_reader.hpp"
#include "reader_models.hpp"
#include "recording_sink.hpp"

namespace cardtable::devices {
namespace {

using bridge::Card;
using test::AcrModel;
using test::BoardModel;
using test::FakeUsbDevice;

Uid uid(const char* hex) { return *Uid::parse(hex); }
Zone zone(const char* text) { return *Zone::parse(text); }
const Card kSpadeAce = *Card::parse("SA");
const char* const kSA = "04A1B2C3D4E5F6";
const char* const kSA2 = "04A1B2C3D4E5F8";  // the ♠A of a second pack
const char* const kHK = "04A1B2C3D4E5F7";

// The first reading of `z` that identified `card` (empty ids when none came within 10 s).
std::map<Card, std::string> ids_read(test::RecordingSink& sink, const Zone& z, Card card) {
  std::map<Card, std::string> out;
  sink.wait([&](auto& in, auto&) {
    for (auto& i : in)
      if (i.kind == table::TableInput::Kind::Observe && i.observation.zone == z && i.observation.cards.contains(card)) {
        out = i.observation.card_ids;
        return true;
      }
    return false;
  });
  return out;
}

class UsbTagIds : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::umockdev_available()) GTEST_SKIP() << "needs umockdev's preload: run under umockdev-wrapper";
    testbed_ = umockdev_testbed_new();
    auto lib = std::make_shared<DeckLibrary>();
    std::vector<DeckProblem> problems;
    Deck one, two;
    one.label = "pack-1";
    one.cards[uid(kSA)] = kSpadeAce;
    one.cards[uid(kHK)] = *Card::parse("HK");
    two.label = "pack-2";
    two.cards[uid(kSA2)] = kSpadeAce;
    lib->add(one, problems);
    lib->add(two, problems);
    env_.decks = lib;
    env_.quirks_path = CARDTABLE_TEST_QUIRKS;
  }
  void TearDown() override {
    for (auto& r : readers_) r->stop();
    readers_.clear();
    fakes_.clear();
    models_.clear();
    if (testbed_) g_object_unref(testbed_);
  }
  template <class Model>
  Model& plug(int devnum, const char* port, const char* descriptors) {
    models_.push_back(std::make_unique<Model>());  // kept until the readers stop: they poll it
    fakes_.push_back(std::make_unique<FakeUsbDevice>(testbed_, 1, devnum, port, descriptors, *models_.back()));
    return static_cast<Model&>(*models_.back());
  }
  void start(std::unique_ptr<Device> d) {
    std::string error;
    EXPECT_TRUE(d->start(sink_, error)) << error;
    readers_.push_back(std::move(d));
  }
  static DeviceConfig config(const char* name, const char* driver, std::map<int, Zone> antennas, std::map<std::string, std::string> options = {}) {
    return DeviceConfig{name, driver, std::move(antennas), std::move(options)};
  }

  UMockdevTestbed* testbed_ = nullptr;
  DeviceEnvironment env_;
  test::RecordingSink sink_;
  std::vector<std::unique_ptr<test::UsbModel>> models_;
  std::vector<std::unique_ptr<FakeUsbDevice>> fakes_;
  std::vector<std::unique_ptr<Device>> readers_;
};

// One ACR122U a pocket: North's ♠A heard by East's reader too carries the same UID in both readings; a ♠A
// of another pack carries its own.
TEST_F(UsbTagIds, Acr122uReadingsCarryTheUidOfEachKnownCard) {
  AcrModel& north = plug<AcrModel>(2, "1-1", test::kAcr122uDescriptors);
  AcrModel& east = plug<AcrModel>(3, "1-3", test::kAcr122uDescriptors);
  start(std::make_unique<Acr122uReader>(config("north", "acr122u", {{0, zone("pocket:N")}}, {{"port", "1-1"}}), env_));
  start(std::make_unique<Acr122uReader>(config("east", "acr122u", {{0, zone("pocket:E")}}, {{"port", "1-3"}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added, 2));
  north.place(uid(kSA));
  east.place(uid(kSA));
  auto n = ids_read(sink_, zone("pocket:N"), kSpadeAce), e = ids_read(sink_, zone("pocket:E"), kSpadeAce);
  EXPECT_EQ(n, (std::map<Card, std::string>{{kSpadeAce, kSA}}));
  EXPECT_EQ(e, n) << "one tag heard by two readers: the same id";
  std::size_t seen = sink_.input_count();
  east.place(uid(kSA2));
  std::string last;
  sink_.wait([&](auto& in, auto&) {
    for (std::size_t i = seen; i < in.size(); ++i)
      if (in[i].observation.zone == zone("pocket:E") && in[i].observation.card_ids.count(kSpadeAce))
        if ((last = in[i].observation.card_ids.at(kSpadeAce)) == kSA2) return true;
    return false;
  });
  EXPECT_EQ(last, kSA2) << "another pack's ♠A: another id";
}

// The reader board: each antenna's reading carries its cards' UIDs, and an unknown tag stays in
// unknown_ids only.
TEST_F(UsbTagIds, BoardReadingsCarryTheUidOfEachKnownCard) {
  BoardModel& board = plug<BoardModel>(4, "1-2", test::kBoardDescriptors);
  start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("play:N")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  board.place(0, {{uid(kHK), 90}, {uid("04FFFFFFFFFFFF"), 80}});  // physical 0 is logical 2 (antenna_order 2,0,1,3)
  const Card hk = *Card::parse("HK");
  auto ids = ids_read(sink_, zone("play:N"), hk);
  EXPECT_EQ(ids, (std::map<Card, std::string>{{hk, kHK}}));
}

}  // namespace
}  // namespace cardtable::devices
