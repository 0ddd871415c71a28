// Both RFID drivers' real libusb code against emulated readers (umockdev testbed + a usbdevfs handler that
// answers from a model of each reader): enumeration by VID/PID, the handshake, a stream of reads, corrupt
// frames, timeouts, a reset, unplug with NO_DEVICE and re-plug, two readers at once.
#include <gtest/gtest.h>

#include <thread>

#include "devices/deck.hpp"
#include "devices/usb/acr122u_reader.hpp"
#include "devices/usb/board_reader.hpp"
#include "usb_reader_fixture.hpp"
#include "warning_log.hpp"

namespace cardtable::devices {
namespace {

using bridge::Card;
using bridge::Hand;
using test::AcrModel;
using test::BoardModel;
using test::FakeUsbDevice;

Uid uid(const char* hex) { return *Uid::parse(hex); }
Hand cards(std::initializer_list<const char*> names) {
  Hand h;
  for (const char* n : names) h.add(*Card::parse(n));
  return h;
}
Zone zone(const char* text) { return *Zone::parse(text); }

const char* const kSA = "04A1B2C3D4E5F6";
const char* const kHK = "04A1B2C3D4E5F7";
const char* const kC7 = "08112233";

class UsbReaders : public test::UsbReaderFixture {
 protected:
  std::vector<Deck> decks() const override {
    Deck d;
    d.label = "pack-1";
    d.cards[uid(kSA)] = *Card::parse("SA");
    d.cards[uid(kHK)] = *Card::parse("HK");
    d.cards[uid(kC7)] = *Card::parse("C7");
    return {d};
  }
  // A reader board serving the scan slot whose next `replies` replies each come after a stale one (a reply
  // to an earlier request): a frame dropped at each of those polls.
  Device& board_dropping_frames(int replies) {
    BoardModel& board = model<BoardModel>();
    plug(4, "1-2", test::kBoardDescriptors, board);
    Device& reader = start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("scan")}}), env_));
    EXPECT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
    board.stale_frames = 1;
    board.stale_next = replies;
    return reader;
  }
};

TEST_F(UsbReaders, Acr122uIsFoundByVidPidShakesHandsAndReadsTheCardFaced) {
  env_.quirks_path = CARDTABLE_SHIPPED_QUIRKS;  // the file we install, with its real periods
  AcrModel& acr = model<AcrModel>();
  plug(2, "1-1", test::kAcr122uDescriptors, acr);
  Device& reader = start(std::make_unique<Acr122uReader>(config("reader0", "acr122u", {{0, zone("play:N")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  EXPECT_EQ(sink_.events()[0].device, "reader0");
  EXPECT_EQ(acr.handshakes, 1);
  EXPECT_NE(reader.status()["firmware"].get<std::string>().find("ACR122U207"), std::string::npos);
  EXPECT_EQ(reader.status()["port"], "1-1");

  EXPECT_TRUE(sink_.wait_reading(zone("play:N"), {}));
  acr.place(uid(kSA));
  EXPECT_TRUE(sink_.wait_reading(zone("play:N"), cards({"SA"})));
  acr.place(uid(kHK));
  EXPECT_TRUE(sink_.wait_reading(zone("play:N"), cards({"HK"})));
  acr.place(std::nullopt);
  std::size_t seen = sink_.input_count();
  EXPECT_TRUE(sink_.wait_reading(zone("play:N"), {}, seen));
  EXPECT_TRUE(reader.present());
  for (const auto& in : sink_.inputs()) EXPECT_EQ(in.observation.source, "reader0");
}

TEST_F(UsbReaders, Acr122uTagInNoDeckIsReadAsUnknown) {
  AcrModel& acr = model<AcrModel>();
  plug(2, "1-1", test::kAcr122uDescriptors, acr);
  Device& reader = start(std::make_unique<Acr122uReader>(config("reader0", "acr122u", {{0, zone("scan")}}), env_));
  acr.place(uid("04FFFFFFFFFFFF"));
  ASSERT_TRUE(sink_.wait([](auto& in, auto&) {
    for (auto& i : in)
      if (i.observation.unknown == 1 && i.observation.cards.empty()) return true;
    return false;
  }));
  EXPECT_GE(reader.counters().unknown_tags, 1u);
}

TEST_F(UsbReaders, Acr122uAnswerCutShortIsCountedDroppedAndReadingGoesOn) {
  AcrModel& acr = model<AcrModel>();
  plug(2, "1-1", test::kAcr122uDescriptors, acr);
  Device& reader = start(std::make_unique<Acr122uReader>(config("reader0", "acr122u", {{0, zone("play:E")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  acr.corrupt_next = 1;
  acr.place(uid(kC7));
  EXPECT_TRUE(sink_.wait_reading(zone("play:E"), cards({"C7"})));
  EXPECT_EQ(reader.counters().short_frames, 1u);
  EXPECT_TRUE(reader.present());
  for (auto& e : sink_.events()) EXPECT_NE(e.kind, DeviceEvent::Kind::Lost);
}

TEST_F(UsbReaders, Acr122uThatStopsAnsweringTimesOutIsResetThenReportedAndComesBack) {
  AcrModel& acr = model<AcrModel>();
  FakeUsbDevice& fake = plug(2, "1-1", test::kAcr122uDescriptors, acr);
  Device& reader = start(std::make_unique<Acr122uReader>(config("reader0", "acr122u", {{0, zone("play:S")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  acr.mute = true;
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Error));
  EXPECT_TRUE(sink_.wait_event(DeviceEvent::Kind::Lost));
  EXPECT_GE(reader.counters().timeouts, 2u);
  EXPECT_EQ(reader.counters().resets, 1u);
  EXPECT_EQ(fake.resets(), 1);
  EXPECT_FALSE(reader.present());
  auto events = sink_.events();
  EXPECT_NE(events[1].reason.find("not answering after a reset"), std::string::npos) << events[1].reason;
  EXPECT_EQ(events[1].zones, std::vector<Zone>{zone("play:S")});

  acr.mute = false;  // the reader recovers: handshake again, added again, reading again
  EXPECT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added, 2));
  acr.place(uid(kSA));
  EXPECT_TRUE(sink_.wait_reading(zone("play:S"), cards({"SA"})));
}

// A daemon started before its reader was plugged in said nothing of it (only `status` showed it
// absent); now the reader says so once at start, and is taken the moment it is plugged in.
TEST_F(UsbReaders, AReaderNotPluggedInAtStartSaysSoOnceAndIsTakenWhenPluggedIn) {
  test::WarningLog log;
  Device& reader = start(std::make_unique<Acr122uReader>(config("north", "acr122u", {{0, zone("play:N")}}, {{"port", "1-1"}}), env_));
  const auto lines = log.lines();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "north: no acr122u reader on USB port 1-1 is plugged in: waiting for it; its zones are unknown until it is");
  EXPECT_FALSE(reader.present());
  AcrModel& acr = model<AcrModel>();
  acr.place(uid(kSA));
  plug(2, "1-1", test::kAcr122uDescriptors, acr);
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  EXPECT_TRUE(sink_.wait_reading(zone("play:N"), cards({"SA"})));
}

// A stack of 13 tags is not dependable on one HF antenna (docs/hardware.md): a hand: zone on an RFID
// reader is taken, as a pocket read in full is, but the technician is told at start why it would make
// false wrong counts and what reads a hand instead. A play area on the same board is said nothing of.
TEST_F(UsbReaders, AHandZoneOnAnRfidReaderIsSaidAtStartWithWhyAndWhatReadsAHand) {
  test::WarningLog log;
  BoardModel& board = model<BoardModel>();
  plug(4, "1-2", test::kBoardDescriptors, board);
  start(std::make_unique<BoardReader>(config("station", "cardtable-board", {{0, zone("hand:N")}, {2, zone("play:S")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  std::vector<std::string> hands;
  for (const std::string& line : log.lines())
    if (line.find("hand:") != std::string::npos || line.find("play:S") != std::string::npos) hands.push_back(line);
  ASSERT_EQ(hands.size(), 1u);
  EXPECT_EQ(hands[0].rfind("station: hand:N is on antenna0 of an RFID reader, which does not dependably read a hand of 13 cards", 0), 0u) << hands[0];
  EXPECT_NE(hands[0].find("false wrong count"), std::string::npos) << hands[0];
  EXPECT_NE(hands[0].find("A camera reads hand: zones; with RFID, pass the cards over the scan slot"), std::string::npos) << hands[0];
}

// A pocket is read for its presence: the antenna under it hears a tag or two of the 13. Should it hear
// most of them (the four pockets naming 40 cards or more), the table counts them at the board's return
// (docs/laws.md), and a card not heard is a false wrong count: the same limit as a hand: zone's, said at
// start in the same way, once for the reader's pockets. A play area is said nothing of.
TEST_F(UsbReaders, PocketZonesOnAnRfidReaderAreSaidAtStartWithTheLimitOfACount) {
  test::WarningLog log;
  BoardModel& board = model<BoardModel>();
  plug(4, "1-2", test::kBoardDescriptors, board);
  start(std::make_unique<BoardReader>(
      config("board0", "cardtable-board", {{0, zone("pocket:N")}, {1, zone("pocket:E")}, {2, zone("play:S")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  std::vector<std::string> said;
  for (const std::string& line : log.lines())
    if (line.find("pocket:") != std::string::npos || line.find("play:S") != std::string::npos) said.push_back(line);
  ASSERT_EQ(said.size(), 1u) << "one line for the reader's pockets";
  EXPECT_EQ(said[0].rfind("board0: pocket:N on antenna0, pocket:E on antenna1 of an RFID reader are read for presence, not dependably for "
                          "their 13 cards",
                          0),
            0u)
      << said[0];
  EXPECT_NE(said[0].find("false wrong count"), std::string::npos) << said[0];
  EXPECT_NE(said[0].find("A camera over a board-checking station reads hands in full"), std::string::npos) << said[0];
}

// A zone on an antenna the board does not have was never read, with no word why. The board says how
// many it has when it shakes hands (it may have more than the quirk file's count), so it is said then.
TEST_F(UsbReaders, AZoneOnAnAntennaTheBoardLacksIsSaidWhenTheBoardArrives) {
  BoardModel& board = model<BoardModel>();  // four antennas
  plug(4, "1-2", test::kBoardDescriptors, board);
  Device& reader = start(std::make_unique<BoardReader>(config("b0", "cardtable-board", {{0, zone("play:N")}, {9, zone("play:S")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  EXPECT_NE(sink_.events().front().reason.find("play:S is on antenna9, which this board lacks (antenna0 to antenna3): it is never read"),
            std::string::npos)
      << sink_.events().front().reason;
  // Never read means not reported: a zone read as empty at every poll would look like a seat with no
  // card (a player who never plays), where the table must know nothing of it.
  board.place(1, {{uid(kSA), 90}});  // antenna_order 2,0,1,3: the physical antenna 1 is antenna0
  ASSERT_TRUE(sink_.wait_reading(zone("play:N"), cards({"SA"})));
  reader.stop();  // before the board's model goes
  for (const auto& in : sink_.inputs()) EXPECT_NE(in.observation.zone.str(), "play:S");
}

// The quirk file's antenna_order maps the board's physical antennas to the numbers on its case, and a
// board may have fewer antennas than its model's order lists (docs/hardware.md). Which zones it lacks is
// a question of the physical antenna behind each logical one: with cardtable-board-v1's order 2,0,1,3 a
// two-antenna board has physical 0 (antenna2) and physical 1 (antenna0), and no antenna1 or antenna3.
// The two numberings were compared as one: antenna2's zone, on a real antenna, was never read, and
// antenna1's, on none, was reported read empty at every poll -- a seat with no card.
TEST_F(UsbReaders, ABoardWithFewerAntennasThanTheOrderLacksTheLogicalAntennasWithNoPhysicalOne) {
  BoardModel& board = model<BoardModel>(2);
  plug(4, "1-2", test::kBoardDescriptors, board);
  Device& reader = start(std::make_unique<BoardReader>(
      config("b0", "cardtable-board", {{0, zone("play:N")}, {1, zone("play:E")}, {2, zone("play:S")}, {3, zone("play:W")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  const std::string reason = sink_.events().front().reason;
  EXPECT_NE(reason.find("play:E is on antenna1, which this board lacks (it has antenna0, antenna2): it is never read"), std::string::npos) << reason;
  EXPECT_NE(reason.find("play:W is on antenna3, which this board lacks"), std::string::npos) << reason;
  EXPECT_EQ(reason.find("play:S is on"), std::string::npos) << reason;
  EXPECT_EQ(reason.find("play:N is on"), std::string::npos) << reason;
  board.place(0, {{uid(kSA), 90}});  // physical 0 is antenna2: play:S
  board.place(1, {{uid(kHK), 90}});  // physical 1 is antenna0: play:N
  ASSERT_TRUE(sink_.wait_reading(zone("play:S"), cards({"SA"})));
  ASSERT_TRUE(sink_.wait_reading(zone("play:N"), cards({"HK"})));
  reader.stop();  // before the board's model goes
  for (const auto& in : sink_.inputs()) {
    EXPECT_NE(in.observation.zone.str(), "play:E");
    EXPECT_NE(in.observation.zone.str(), "play:W");
  }
}

TEST_F(UsbReaders, Acr122uUnpluggedIsLostOnceAndReadsAgainWhenPluggedBack) {
  AcrModel& acr = model<AcrModel>();
  FakeUsbDevice& fake = plug(2, "1-1", test::kAcr122uDescriptors, acr);
  Device& reader = start(std::make_unique<Acr122uReader>(config("reader0", "acr122u", {{0, zone("play:W")}}), env_));
  acr.place(uid(kSA));
  ASSERT_TRUE(sink_.wait_reading(zone("play:W"), cards({"SA"})));
  fake.unplug();
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Lost));
  EXPECT_FALSE(reader.present());

  AcrModel& again = model<AcrModel>();  // plugged back: a new address on the same port
  again.place(uid(kHK));
  plug(3, "1-1", test::kAcr122uDescriptors, again);
  std::size_t seen = sink_.input_count();
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added, 2));
  EXPECT_TRUE(sink_.wait_reading(zone("play:W"), cards({"HK"}), seen));
  EXPECT_TRUE(reader.present());
  std::size_t lost = 0;
  for (auto& e : sink_.events()) lost += e.kind == DeviceEvent::Kind::Lost;
  EXPECT_EQ(lost, 1u);
}

TEST_F(UsbReaders, BoardWhoseTransfersFailWithNoDeviceIsLostWithoutWaitingForUdev) {
  BoardModel& board = model<BoardModel>();
  FakeUsbDevice& fake = plug(4, "1-2", test::kBoardDescriptors, board);
  start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{0, zone("play:E")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  fake.unplug(false);
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Lost));
  auto events = sink_.events();
  EXPECT_NE(events.back().reason.find("LIBUSB_ERROR_NO_DEVICE"), std::string::npos) << events.back().reason;
  EXPECT_EQ(events.back().zones, std::vector<Zone>{zone("play:E")});
}

// A board whose transfers died with NO_DEVICE but whose hub sent no "remove" (so no hotplug LEFT) kept
// its reader for ever: the reader's thread had ended, but only LEFT freed the reader, so a board plugged
// into another port was refused and the zones stayed unknown. The reader frees itself; the "remove" that
// comes late for the dead board leaves the new one alone.
TEST_F(UsbReaders, ABoardDeadWithNoUdevRemoveIsReplacedByOnePluggedIntoAnotherPort) {
  BoardModel& board = model<BoardModel>();
  FakeUsbDevice& dead = plug(4, "1-2", test::kBoardDescriptors, board);
  Device& reader = start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("play:E")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  dead.unplug(false);
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Lost));

  BoardModel& spare = model<BoardModel>();
  spare.place(0, {{uid(kC7), 10}});  // antenna_order 2,0,1,3: physical 0 is antenna2
  plug(5, "1-3", test::kBoardDescriptors, spare);
  std::size_t seen = sink_.input_count();
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added, 2)) << "the new board was refused";
  EXPECT_TRUE(sink_.wait_reading(zone("play:E"), cards({"C7"}), seen));
  EXPECT_TRUE(reader.present());
  EXPECT_EQ(reader.status()["port"], "1-3");

  dead.unplug(true);  // udev says at last that the dead board is gone
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  seen = sink_.input_count();
  spare.place(0, {{uid(kSA), 10}});
  EXPECT_TRUE(sink_.wait_reading(zone("play:E"), cards({"SA"}), seen));
  EXPECT_TRUE(reader.present());
  std::size_t lost = 0;
  for (auto& e : sink_.events()) lost += e.kind == DeviceEvent::Kind::Lost;
  EXPECT_EQ(lost, 1u);
}

// A director's `status` showed the dead board's NO_DEVICE as `last_error` of the board that replaced it,
// long after the new one was added and reading: a working reader that looked broken. The dead board's
// reason is in its device.lost event; the reader's status speaks of the hardware it holds now.
TEST_F(UsbReaders, AReplacementBoardThatWorksShowsNoErrorOfTheDeadOne) {
  BoardModel& board = model<BoardModel>();
  FakeUsbDevice& dead = plug(4, "1-2", test::kBoardDescriptors, board);
  Device& reader = start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("play:E")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  dead.unplug(false);
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Lost));
  ASSERT_NE(reader.status().value("last_error", "").find("LIBUSB_ERROR_NO_DEVICE"), std::string::npos) << reader.status().dump();

  BoardModel& spare = model<BoardModel>();
  spare.place(0, {{uid(kC7), 10}});
  plug(5, "1-3", test::kBoardDescriptors, spare);
  std::size_t seen = sink_.input_count();
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added, 2));
  ASSERT_TRUE(sink_.wait_reading(zone("play:E"), cards({"C7"}), seen));
  const auto s = reader.status();
  EXPECT_EQ(s["port"], "1-3");
  EXPECT_TRUE(s["present"].get<bool>());
  EXPECT_FALSE(s.contains("last_error")) << s.dump();
}

// The same reader that stopped answering and came back after a reset: its `status` said it was failing
// while it read again.
TEST_F(UsbReaders, AReaderThatRecoversShowsNoErrorOnceAddedAgain) {
  AcrModel& acr = model<AcrModel>();
  plug(2, "1-1", test::kAcr122uDescriptors, acr);
  Device& reader = start(std::make_unique<Acr122uReader>(config("reader0", "acr122u", {{0, zone("play:S")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  acr.mute = true;
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Lost));
  ASSERT_TRUE(reader.status().contains("last_error")) << reader.status().dump();
  acr.mute = false;
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added, 2));
  acr.place(uid(kSA));
  ASSERT_TRUE(sink_.wait_reading(zone("play:S"), cards({"SA"})));
  EXPECT_FALSE(reader.status().contains("last_error")) << reader.status().dump();
}

// The same with the second board plugged in (and refused: the reader had one) before the first dies:
// nothing arrives after the death, so the reader asks the bus again for a free one.
TEST_F(UsbReaders, ABoardDeadWithNoUdevRemoveIsReplacedByAFreeOneAlreadyPluggedIn) {
  BoardModel& board = model<BoardModel>();
  BoardModel& spare = model<BoardModel>();
  spare.place(0, {{uid(kC7), 10}});
  FakeUsbDevice& dead = plug(4, "1-2", test::kBoardDescriptors, board);
  Device& reader = start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("play:E")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  plug(5, "1-3", test::kBoardDescriptors, spare);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_EQ(reader.status()["port"], "1-2");
  dead.unplug(false);
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Lost));
  std::size_t seen = sink_.input_count();
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added, 2)) << "the free board was not taken";
  EXPECT_TRUE(sink_.wait_reading(zone("play:E"), cards({"C7"}), seen));
  EXPECT_EQ(reader.status()["port"], "1-3");
}

// The HELLO reply's shortest poll period (docs/hardware.md) is what the board can do: it scans every
// antenna at each SCAN. It was read and never used: a board asking for 250 ms was polled every 20 ms.
TEST_F(UsbReaders, ABoardIsPolledNoFasterThanItsHelloSays) {
  BoardModel& board = model<BoardModel>();
  board.min_poll_ms = 250;
  plug(4, "1-2", test::kBoardDescriptors, board);
  Device& reader = start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("play:E")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  const int before = board.scans;
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  const int scans = board.scans - before;
  EXPECT_LE(scans, 6) << "the quirk file's 20 ms would be 50";
  EXPECT_GE(scans, 2);
  EXPECT_EQ(reader.status()["poll_ms"], 250);
  EXPECT_EQ(reader.poll_ms(), 250) << "what the daemon checks --silence against once the board is there";
}

// The daemon refuses a --silence under three polls before it starts reading (daemon/poll_silence.hpp): the
// reader says its period as soon as its options or the quirk file say it, before any hardware is there.
TEST_F(UsbReaders, AReaderSaysItsPollPeriodBeforeItIsPluggedInWhenItsOptionsOrTheQuirkFileSayIt) {
  env_.quirks_path = CARDTABLE_SHIPPED_QUIRKS;  // acr122u and scl3711 both at 100 ms, the board at 50 ms
  Device& by_option = start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("scan")}}, {{"poll_ms", "2000"}}), env_));
  EXPECT_EQ(by_option.poll_ms(), 2000);
  Device& by_model = start(std::make_unique<Acr122uReader>(config("reader0", "acr122u", {{0, zone("play:N")}}, {{"model", "scl3711"}}), env_));
  EXPECT_EQ(by_model.poll_ms(), 100);
  Device& by_protocol = start(std::make_unique<Acr122uReader>(config("reader1", "acr122u", {{0, zone("play:S")}}), env_));
  EXPECT_EQ(by_protocol.poll_ms(), 100) << "every pn53x-ccid model of the file is polled every 100 ms";
  EXPECT_EQ(by_option.status()["poll_ms"], 2000);
  EXPECT_FALSE(by_option.present());
}

TEST_F(UsbReaders, BoardShakesHandsAndMapsPhysicalAntennasThroughTheQuirkOrder) {
  BoardModel& board = model<BoardModel>();
  plug(4, "1-2", test::kBoardDescriptors, board);
  Device& reader = start(std::make_unique<BoardReader>(
      config("board0", "cardtable-board", {{0, zone("play:N")}, {1, zone("play:E")}, {2, zone("play:S")}, {3, zone("play:W")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  EXPECT_NE(reader.status()["firmware"].get<std::string>().find("1.2.3, 4 antennas"), std::string::npos);
  // antenna_order = 2,0,1,3: the physical antenna 0 is the one labelled 2.
  board.place(0, {{uid(kSA), 90}});
  EXPECT_TRUE(sink_.wait_reading(zone("play:S"), cards({"SA"})));
  board.place(3, {{uid(kHK), 90}});
  EXPECT_TRUE(sink_.wait_reading(zone("play:W"), cards({"HK"})));
  board.clear();
  std::size_t seen = sink_.input_count();
  EXPECT_TRUE(sink_.wait_reading(zone("play:S"), {}, seen));
  EXPECT_EQ(reader.counters().crc_errors + reader.counters().garbage + reader.counters().short_frames, 0u);
}

TEST_F(UsbReaders, BoardCrcFailureAndStaleReplyAreCountedAndDropped) {
  BoardModel& board = model<BoardModel>();
  plug(4, "1-2", test::kBoardDescriptors, board);
  Device& reader = start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("scan")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  board.corrupt_next = 1;
  board.stale_next = 1;
  board.place(0, {{uid(kC7), 50}});
  EXPECT_TRUE(sink_.wait_reading(zone("scan"), cards({"C7"})));
  EXPECT_TRUE(sink_.wait([&](auto&, auto&) { return reader.counters().crc_errors == 1 && reader.counters().out_of_sequence == 1; }));
  EXPECT_TRUE(reader.present());
}

// docs/hardware.md: a reply with another sequence number is skipped, and the host reads on until the
// right reply or its timeout. The driver gave up after four frames: with four stale replies queued ahead
// of each right one (answers to requests it had given up on, which a slow board sends late), a healthy
// board read nothing, and each right reply left behind made the next request's queue longer.
TEST_F(UsbReaders, BoardReadsOnPastStaleRepliesUntilTheRightOne) {
  BoardModel& board = model<BoardModel>();
  plug(4, "1-2", test::kBoardDescriptors, board);
  Device& reader = start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("scan")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  board.stale_frames = 6;
  board.stale_next = 1000000;  // every reply from now on
  board.place(0, {{uid(kC7), 50}});
  EXPECT_TRUE(sink_.wait_reading(zone("scan"), cards({"C7"})));
  EXPECT_TRUE(sink_.wait([&](auto&, auto&) { return reader.counters().out_of_sequence >= 12; }));
  EXPECT_TRUE(reader.present());
  reader.stop();  // before the board's model goes
  for (auto& e : sink_.events()) EXPECT_NE(e.kind, DeviceEvent::Kind::Lost) << e.reason;
}

// A stale reply before every answer made a warning line at every poll (20 a second at 50 ms, 72,000 an
// hour into the journal): the first few of a window are said, the rest only counted.
TEST_F(UsbReaders, AFrameDroppedAtEveryPollIsSaidAFewTimesAndCountedEveryTime) {
  test::WarningLog warnings;
  Device& reader = board_dropping_frames(1000000);  // every reply from now on
  EXPECT_TRUE(sink_.wait([&](auto&, auto&) { return reader.counters().out_of_sequence >= 30; }));
  reader.stop();
  std::size_t said = 0;
  for (const auto& line : warnings.lines()) said += line.find("frame dropped") != std::string::npos;
  EXPECT_LE(said, 5U) << "30 frames dropped in well under the 10 s window";
  EXPECT_GE(said, 1U) << "the first is said";
}

// The frames not said one by one were said as one line only when a frame was dropped after the window:
// a burst that ended (a cable knocked, a reader unplugged) left its rest in no log line at all. Now they
// are said once the window is over, or when the reader stops: every dropped frame is in the log, by
// itself or in a count.
TEST_F(UsbReaders, ABurstOfDroppedFramesIsSaidInAFewLinesThatCountEveryFrame) {
  test::WarningLog warnings;
  Device& reader = board_dropping_frames(40);  // a burst, then clean replies
  ASSERT_TRUE(sink_.wait([&](auto&, auto&) { return reader.counters().out_of_sequence >= 40; }));
  reader.stop();
  std::uint64_t said = 0, counted = 0;
  std::size_t lines = 0;
  for (const std::string& line : warnings.lines()) {
    if (line.find("frame dropped") != std::string::npos) ++said, ++lines;
    if (auto more = line.find(" more frames dropped"); more != std::string::npos) {
      ++lines;
      counted += std::stoull(line.substr(line.rfind(' ', more - 1) + 1));
    }
  }
  EXPECT_LE(lines, 6U) << "a few lines, not one a frame";
  EXPECT_EQ(said + counted, reader.counters().out_of_sequence.load()) << "each dropped frame said, or counted in a line";
}

// The same for the ACR122U's CCID answers: a DataBlock with an older bSeq is skipped, the right one read.
TEST_F(UsbReaders, Acr122uReadsOnPastStaleAnswersUntilTheRightOne) {
  AcrModel& acr = model<AcrModel>();
  plug(2, "1-1", test::kAcr122uDescriptors, acr);
  Device& reader = start(std::make_unique<Acr122uReader>(config("reader0", "acr122u", {{0, zone("play:E")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  acr.stale_frames = 6;
  acr.stale_next = 1000000;
  acr.place(uid(kC7));
  EXPECT_TRUE(sink_.wait_reading(zone("play:E"), cards({"C7"})));
  EXPECT_TRUE(sink_.wait([&](auto&, auto&) { return reader.counters().out_of_sequence >= 12; }));
  EXPECT_TRUE(reader.present());
  reader.stop();
  for (auto& e : sink_.events()) EXPECT_NE(e.kind, DeviceEvent::Kind::Lost) << e.reason;
}

TEST_F(UsbReaders, BoardTagOnTwoAntennasIsOneCardOrUncertain) {
  BoardModel& board = model<BoardModel>();
  plug(4, "1-2", test::kBoardDescriptors, board);
  Device& reader = start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("play:N")}, {0, zone("play:E")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  // Physical 0 → logical 2 (play:N), physical 1 → logical 0 (play:E). A clear lead: play:N has it, alone.
  board.place(0, {{uid(kSA), 200}});
  board.place(1, {{uid(kSA), 100}});
  ASSERT_TRUE(sink_.wait_reading(zone("play:N"), cards({"SA"})));
  for (auto& in : sink_.inputs()) EXPECT_FALSE(in.observation.zone == zone("play:E") && !in.observation.cards.empty());
  // No clear lead: neither antenna has it; both read uncertain.
  board.place(1, {{uid(kSA), 198}});
  ASSERT_TRUE(sink_.wait([](auto& in, auto&) {
    for (auto& i : in)
      if (i.observation.zone == Zone{table::ZoneKind::Play, bridge::Seat::East} && i.observation.confidence == 0.0) return true;
    return false;
  }));
  EXPECT_GE(reader.counters().crosstalk, 2u);
}

// Cross-talk between two play areas' antennas was only counted: status showed a number, the log nothing,
// and the table took the uncertain readings for noise. The technician is told once which zones hear one
// tag and to move their antennas apart, by how much -- not at every poll the card lies there.
TEST_F(UsbReaders, BoardAntennasThatHearOneTagAreNamedOnceWithHowFarToMoveThemApart) {
  test::WarningLog log;
  BoardModel& board = model<BoardModel>();
  plug(4, "1-2", test::kBoardDescriptors, board);
  Device& reader = start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("play:N")}, {0, zone("play:E")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  board.place(0, {{uid(kSA), 200}});  // physical 0 is logical 2: play:N
  board.place(1, {{uid(kSA), 198}});  // physical 1 is logical 0: play:E
  ASSERT_TRUE(sink_.wait([&](auto&, auto&) { return reader.counters().crosstalk >= 3; }));
  std::vector<std::string> said;
  for (const std::string& line : log.lines())
    if (line.find("same tag") != std::string::npos) said.push_back(line);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0].rfind("board0: play:E (antenna0) and play:N (antenna2) heard the same tag in one poll", 0), 0u) << said[0];
  EXPECT_NE(said[0].find("move these antennas at least 10 cm apart"), std::string::npos) << said[0];
}

TEST_F(UsbReaders, TwoReadersAtOnceEachOnItsPortAndOneUnpluggedAlone) {
  AcrModel& north = model<AcrModel>();
  AcrModel& south = model<AcrModel>();
  BoardModel& board = model<BoardModel>();
  plug(2, "1-1", test::kAcr122uDescriptors, north);
  plug(3, "1-3", test::kAcr122uDescriptors, south);
  FakeUsbDevice& board_usb = plug(4, "1-2", test::kBoardDescriptors, board);
  start(std::make_unique<Acr122uReader>(config("north", "acr122u", {{0, zone("play:N")}}, {{"port", "1-1"}}), env_));
  start(std::make_unique<Acr122uReader>(config("south", "acr122u", {{0, zone("play:S")}}, {{"port", "1-3"}}), env_));
  Device& b = start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("scan")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added, 3));
  north.place(uid(kSA));
  south.place(uid(kHK));
  board.place(0, {{uid(kC7), 10}});
  EXPECT_TRUE(sink_.wait_reading(zone("play:N"), cards({"SA"})));
  EXPECT_TRUE(sink_.wait_reading(zone("play:S"), cards({"HK"})));
  EXPECT_TRUE(sink_.wait_reading(zone("scan"), cards({"C7"})));

  board_usb.unplug();
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Lost));
  EXPECT_FALSE(b.present());
  auto events = sink_.events();
  for (auto& e : events)
    if (e.kind == DeviceEvent::Kind::Lost) {
      EXPECT_EQ(e.device, "board0");
    }
  std::size_t seen = sink_.input_count();
  north.place(uid(kHK));
  EXPECT_TRUE(sink_.wait_reading(zone("play:N"), cards({"HK"}), seen));
}

}  // namespace
}  // namespace cardtable::devices
