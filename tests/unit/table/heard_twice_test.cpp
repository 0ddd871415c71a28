// One tag heard by two pocket readers at once is one card (docs/hardware.md "Cross-talk", docs/laws.md at
// the board's return); a second card of the same face from another pack -- another tag -- is Law 13C's
// surplus card, as is the same card twice from a device that gives no tag ids (a camera).
#include <gtest/gtest.h>

#include "table/heard_twice.hpp"
#include "table/table.hpp"
#include "table_test_support.hpp"

using namespace cardtable::table;
using cardtable::bridge::Card;
using cardtable::bridge::Hand;
using cardtable::bridge::Seat;
using test::irregularities;
using test::run;
using Types = std::vector<std::string>;

namespace {

// Board 1 played out, then its pockets read as they go back: the seat that holds ♠A in the master deal
// and its left-hand neighbour, whose pocket also reads `extra` (a ♠A: "+SA", another pack's: "+SA@2").
struct Returned {
  Seat holder;
  Seat neighbour;
  std::vector<Event> events;
};
Returned board_returned(const std::string& extra, bool tags = true, bool to_holder = false) {
  const auto& deal = test::master().board(0).deal;
  Seat holder = *deal.holder(*Card::parse("SA"));
  Seat neighbour = cardtable::bridge::left_hand_opponent(holder);
  std::string script = std::string("zones playing-table\n") + (tags ? "tags\n" : "") +
                       "at 0 board Spring Pairs/1/1\nat 0 pocket N as master\nat 0 pocket E as master\n"
                       "at 0 pocket S as master\nat 0 pocket W as master\n"
                       "at 3 pocket N empty\nat 3 pocket S empty\nat 4 pocket E empty\nat 4 pocket W empty\n"
                       "at 20 contract 4H S\nat 22 play all as master contract 4H S\n";
  for (Seat s : cardtable::bridge::kAllSeats) {
    const char letter = cardtable::bridge::seat_letter(s);
    script += std::string("at 95 pocket ") + letter + " as master" + (s == (to_holder ? holder : neighbour) ? " " + extra : "") + "\n";
  }
  return {holder, neighbour, run(script + "end 100\n")};
}

}  // namespace

TEST(HeardTwice, TheSameTagInTwoPocketsAtTheReturnIsOneCardAndNoAlert) {
  Returned r = board_returned("+SA");
  EXPECT_EQ(irregularities(r.events), Types{}) << test::dump(r.events);
  const Event* e = nullptr;
  for (const Event& x : r.events)
    if (x.type == "reading.uncertain" && x.find("cause") && *x.find("cause") == "card heard by two readers") e = &x;
  ASSERT_NE(e, nullptr) << test::dump(r.events);
  EXPECT_EQ(e->severity, Severity::Warning);
  EXPECT_EQ(e->seats, (std::vector<Seat>{std::min(r.holder, r.neighbour, [](Seat a, Seat b) { return index(a) < index(b); }),
                                         std::max(r.holder, r.neighbour, [](Seat a, Seat b) { return index(a) < index(b); })}));
  // Counted where the deal puts it; the technician is told what to do; the card itself is director-only
  // (the board still travels).
  EXPECT_EQ(*e->find("counted_in"), std::string(1, cardtable::bridge::seat_letter(r.holder)));
  EXPECT_NE(e->message.find("move"), std::string::npos) << e->message;
  EXPECT_EQ(e->message.find("\u2660"), std::string::npos) << e->message;
  EXPECT_EQ(*e->find_card("card"), "SA");
  EXPECT_EQ(*e->find_card("uid"), scenario_tag_uid(*Card::parse("SA"), 1));
  EXPECT_NE(test::first(r.events, "board.returned"), nullptr);
}

TEST(HeardTwice, ASecondCardOfTheSameFaceFromAnotherPackIsStillASurplusCard) {
  Returned r = board_returned("+SA@2");
  EXPECT_EQ(irregularities(r.events), (Types{"wrong_count", "surplus_card"})) << test::dump(r.events);
  EXPECT_EQ(*test::first(r.events, "irregularity.wrong_count")->find("observed"),
            std::string(1, cardtable::bridge::seat_letter(r.neighbour)) + "=14");
}

TEST(HeardTwice, ASecondAceOfAnotherPackInTheSamePocketAsItsOwnMakesFourteen) {
  // One pocket's reader hears two tags of one face: its own ♠A and another pack's. Two cards (Laws 7, 13C):
  // the pocket holds 14, not 13 with the stranger unseen.
  Returned r = board_returned("+SA@2", true, true);
  EXPECT_EQ(irregularities(r.events), (Types{"wrong_count", "surplus_card"})) << test::dump(r.events);
  const std::string holder(1, cardtable::bridge::seat_letter(r.holder));
  EXPECT_EQ(*test::first(r.events, "irregularity.wrong_count")->find("observed"), holder + "=14");
  const Event* surplus = test::first(r.events, "irregularity.surplus_card");
  EXPECT_EQ(surplus->seats, std::vector<Seat>{r.holder});
  EXPECT_EQ(*surplus->find("observed"), "2 times");
  EXPECT_EQ(*surplus->find_card("card"), "SA");
  // The director finds the stranger by its tag, as at the station (director-only, card_evidence).
  const Card sa = *Card::parse("SA");
  ASSERT_NE(surplus->find_card("uids"), nullptr) << test::dump(r.events);
  EXPECT_EQ(*surplus->find_card("uids"), scenario_tag_uid(sa, 1) + "," + scenario_tag_uid(sa, 2));
  EXPECT_EQ(surplus->message.find(scenario_tag_uid(sa, 2)), std::string::npos) << "public words name no tag: " << surplus->message;
}

TEST(HeardTwice, ASecondAceOfAnotherPackInTheNeighboursPocketNamesBothTagsForTheDirector) {
  Returned r = board_returned("+SA@2");
  const Event* surplus = test::first(r.events, "irregularity.surplus_card");
  ASSERT_NE(surplus, nullptr) << test::dump(r.events);
  const Card sa = *Card::parse("SA");
  ASSERT_NE(surplus->find_card("uids"), nullptr) << test::dump(r.events);
  EXPECT_EQ(*surplus->find_card("uids"), scenario_tag_uid(sa, 1) + "," + scenario_tag_uid(sa, 2));
}

TEST(HeardTwice, WithoutTagIdsTheSameCardTwiceIsStillASurplusCard) {
  // A camera, or a reader that gives no ids: nothing tells one card from two, and the director is told.
  Returned r = board_returned("+SA", false);
  EXPECT_EQ(irregularities(r.events), (Types{"wrong_count", "surplus_card"})) << test::dump(r.events);
}

TEST(HeardTwice, WithNoDealTheCardIsCountedWhereItMakesTheCountsRight) {
  std::array<Hand, 4> hands{};
  const Card sa = *Card::parse("SA");
  for (int i = 0; i < 13; ++i) hands[1].add(Card::from_id(i));       // East: 13 without ♠A
  for (int i = 13; i < 25; ++i) hands[0].add(Card::from_id(i));      // North: 12 and ♠A
  hands[0].add(sa);
  hands[1].add(sa);                                                   // East hears North's ♠A
  using Ids = std::multimap<Card, std::string>;
  std::array<Ids, 4> ids{Ids{{sa, "04AA"}}, Ids{{sa, "04AA"}}, Ids{}, Ids{}};
  auto merged = merge_heard_twice(hands, ids, {0, 0, 0, 0}, std::nullopt);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].kept, Seat::North);
  EXPECT_EQ(hands[0].size(), 13);
  EXPECT_EQ(hands[1].size(), 13);
  EXPECT_FALSE(hands[1].contains(sa));
  EXPECT_EQ(ids[1].count(sa), 0u);
  // Another id in East: two cards, left for the surplus check.
  hands[1].add(sa);
  ids[1] = Ids{{sa, "04BB"}};
  EXPECT_TRUE(merge_heard_twice(hands, ids, {0, 0, 0, 0}, std::nullopt).empty());
  EXPECT_TRUE(hands[1].contains(sa));
}

TEST(HeardTwice, NorthsTagHeardInEastBesideEastsOwnSecondAceLeavesEastItsSecondAce) {
  // East's reader hears North's ♠A (the same tag: one card) and a ♠A of another pack in East's own pocket
  // (another tag: a second card, Law 13C): only the tag heard twice is taken out of East.
  std::array<Hand, 4> hands{};
  const Card sa = *Card::parse("SA");
  hands[0].add(sa);
  hands[1].add(sa);
  using Ids = std::multimap<Card, std::string>;
  std::array<Ids, 4> ids{Ids{{sa, "04AA"}}, Ids{{sa, "04AA"}, {sa, "04BB"}}, Ids{}, Ids{}};
  ASSERT_EQ(merge_heard_twice(hands, ids, {0, 0, 0, 0}, std::nullopt).size(), 1u);
  EXPECT_TRUE(hands[0].contains(sa));
  EXPECT_TRUE(hands[1].contains(sa)) << "East's second ♠A is still there, for the surplus check";
  EXPECT_EQ(ids[1], (Ids{{sa, "04BB"}}));
}

// A board-checking station with a reader under each pocket (hand:N..W, tag ids): the holder's ♠A heard by
// the neighbouring pocket's reader too is the same tag -- one card, counted where the deal puts it, the
// board verified and the technician told to move the readers apart; not 14 cards and a surplus card.
TEST(HeardTwice, AtTheStationTheSameTagUnderTwoPocketsIsOneCardAndTheBoardVerified) {
  const auto& deal = test::master().board(0).deal;
  const Seat holder = *deal.holder(*Card::parse("SA"));
  const Seat neighbour = cardtable::bridge::left_hand_opponent(holder);
  std::string script = "zones station-hands\ntags\nat 0 board Spring Pairs/1/1\n";
  for (Seat s : cardtable::bridge::kAllSeats)
    script += std::string("at 1 hand ") + cardtable::bridge::seat_letter(s) + " as master" + (s == neighbour ? " +SA" : "") + "\n";
  const auto ev = run(script + "end 5\n");
  EXPECT_EQ(irregularities(ev), Types{}) << test::dump(ev);
  EXPECT_NE(test::first(ev, "board.verified"), nullptr) << test::dump(ev);
  const Event* told = nullptr;
  for (const Event& x : ev)
    if (x.type == "reading.uncertain" && x.find("cause") && *x.find("cause") == "card heard by two readers") told = &x;
  ASSERT_NE(told, nullptr) << test::dump(ev);
  EXPECT_EQ(*told->find("counted_in"), std::string(1, cardtable::bridge::seat_letter(holder)));
  EXPECT_NE(told->find("zones")->find("hand:"), std::string::npos) << *told->find("zones");
  EXPECT_NE(told->message.find("move"), std::string::npos) << told->message;
  EXPECT_EQ(*told->find_card("uid"), scenario_tag_uid(*Card::parse("SA"), 1));
}
