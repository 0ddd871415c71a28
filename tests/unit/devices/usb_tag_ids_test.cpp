// Both RFID drivers put the UID of each known card's tag into the Observation (card_ids), against emulated
// readers: the table needs it to tell one card heard by two readers -- one ACR122U a pocket, a North card
// lying near East's reader -- from a second card of the same face from another pack (docs/hardware.md,
// "Cross-talk"; docs/laws.md, the board's return).
#include <gtest/gtest.h>

#include "devices/deck.hpp"
#include "devices/usb/acr122u_reader.hpp"
#include "devices/usb/board_reader.hpp"
#include "usb_reader_fixture.hpp"

namespace cardtable::devices {
namespace {

using bridge::Card;
using test::AcrModel;
using test::BoardModel;

Uid uid(const char* hex) { return *Uid::parse(hex); }
Zone zone(const char* text) { return *Zone::parse(text); }
const Card kSpadeAce = *Card::parse("SA");
const char* const kSA = "04A1B2C3D4E5F6";
const char* const kSA2 = "04A1B2C3D4E5F8";  // the ♠A of a second pack
const char* const kHK = "04A1B2C3D4E5F7";

// The first reading of `z` that identified `card` (empty ids when none came within 10 s).
std::multimap<Card, std::string> ids_read(test::RecordingSink& sink, const Zone& z, Card card) {
  std::multimap<Card, std::string> out;
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

class UsbTagIds : public test::UsbReaderFixture {
 protected:
  std::vector<Deck> decks() const override {
    Deck one, two;
    one.label = "pack-1";
    one.cards[uid(kSA)] = kSpadeAce;
    one.cards[uid(kHK)] = *Card::parse("HK");
    two.label = "pack-2";
    two.cards[uid(kSA2)] = kSpadeAce;
    return {one, two};
  }
};

// One ACR122U a pocket: North's ♠A heard by East's reader too carries the same UID in both readings; a ♠A
// of another pack carries its own.
TEST_F(UsbTagIds, Acr122uReadingsCarryTheUidOfEachKnownCard) {
  AcrModel& north = model<AcrModel>();
  AcrModel& east = model<AcrModel>();
  plug(2, "1-1", test::kAcr122uDescriptors, north);
  plug(3, "1-3", test::kAcr122uDescriptors, east);
  start(std::make_unique<Acr122uReader>(config("north", "acr122u", {{0, zone("pocket:N")}}, {{"port", "1-1"}}), env_));
  start(std::make_unique<Acr122uReader>(config("east", "acr122u", {{0, zone("pocket:E")}}, {{"port", "1-3"}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added, 2));
  north.place(uid(kSA));
  east.place(uid(kSA));
  auto n = ids_read(sink_, zone("pocket:N"), kSpadeAce), e = ids_read(sink_, zone("pocket:E"), kSpadeAce);
  EXPECT_EQ(n, (std::multimap<Card, std::string>{{kSpadeAce, kSA}}));
  EXPECT_EQ(e, n) << "one tag heard by two readers: the same id";
  std::size_t seen = sink_.input_count();
  east.place(uid(kSA2));
  std::string last;
  sink_.wait([&](auto& in, auto&) {
    for (std::size_t i = seen; i < in.size(); ++i)
      if (in[i].observation.zone == zone("pocket:E"))
        for (auto [at, end] = in[i].observation.card_ids.equal_range(kSpadeAce); at != end; ++at)
          if ((last = at->second) == kSA2) return true;
    return false;
  });
  EXPECT_EQ(last, kSA2) << "another pack's ♠A: another id";
}

// The reader board: each antenna's reading carries its cards' UIDs, and an unknown tag stays in
// unknown_ids only.
TEST_F(UsbTagIds, BoardReadingsCarryTheUidOfEachKnownCard) {
  BoardModel& board = model<BoardModel>();
  plug(4, "1-2", test::kBoardDescriptors, board);
  start(std::make_unique<BoardReader>(config("board0", "cardtable-board", {{2, zone("play:N")}}), env_));
  ASSERT_TRUE(sink_.wait_event(DeviceEvent::Kind::Added));
  board.place(0, {{uid(kHK), 90}, {uid("04FFFFFFFFFFFF"), 80}});  // physical 0 is logical 2 (antenna_order 2,0,1,3)
  const Card hk = *Card::parse("HK");
  auto ids = ids_read(sink_, zone("play:N"), hk);
  EXPECT_EQ(ids, (std::multimap<Card, std::string>{{hk, kHK}}));
}

}  // namespace
}  // namespace cardtable::devices
