// Enrolling a pack at the scan reader: each card confirmed once, repeated, foreign and doubled cards refused.
#include <gtest/gtest.h>

#include "devices/enrolment.hpp"

namespace cardtable::devices {
namespace {

Uid tag(int n) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "0410%02X%02X", n / 256, n % 256);
  return *Uid::parse(hex);
}
// A card passed over the reader: heard for three polls, then the field is empty.
std::vector<std::string> pass(Enrolment& e, const Uid& u) {
  std::vector<std::string> out;
  for (int i = 0; i < 3; ++i)
    for (auto& m : e.feed({u})) out.push_back(m);
  e.feed({});
  return out;
}

TEST(EnrolNamed, ASortedPackPassedInOrderMakesTheWholeDeck) {
  Enrolment e("pack-1", Enrolment::Order::Named, nullptr);
  EXPECT_EQ(e.prompt(), "Pass the ♠A over the reader.");
  for (int i = 0; i < 52; ++i) {
    auto said = pass(e, tag(i));
    ASSERT_EQ(said.size(), 1u) << i;
  }
  EXPECT_TRUE(e.complete());
  EXPECT_EQ(e.deck().cards.at(tag(0)).str(), "SA");
  EXPECT_EQ(e.deck().cards.at(tag(51)).str(), "C2");
  EXPECT_TRUE(e.missing().empty());
}

TEST(EnrolNamed, ACardLeftOverTheReaderCountsOnce) {
  Enrolment e("p", Enrolment::Order::Named, nullptr);
  for (int i = 0; i < 20; ++i) e.feed({tag(7)});
  EXPECT_EQ(e.deck().cards.size(), 1u);
}

TEST(EnrolNamed, ATagHeardInOnePollIsNotTaken) {
  Enrolment e("p", Enrolment::Order::Named, nullptr);
  e.feed({tag(7)});
  e.feed({});
  EXPECT_TRUE(e.deck().cards.empty());
}

TEST(EnrolNamed, RepeatedCardIsRefusedAndTheSameCardIsAskedAgain) {
  Enrolment e("p", Enrolment::Order::Named, nullptr);
  pass(e, tag(1));
  auto said = pass(e, tag(1));
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0], "That tag is the ♠A, enrolled already: a repeated card. Pass the ♠K over the reader.");
  EXPECT_EQ(e.deck().cards.size(), 1u);
}

TEST(EnrolNamed, ForeignCardOfAnotherPackIsRefused) {
  auto others = std::make_shared<DeckLibrary>();
  Deck d;
  d.label = "pack-9";
  d.cards[tag(99)] = *bridge::Card::parse("D5");
  std::vector<DeckProblem> problems;
  others->add(d, problems);
  Enrolment e("p", Enrolment::Order::Named, others);
  auto said = pass(e, tag(99));
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0].find("of pack pack-9: a foreign card"), std::string::npos);
  EXPECT_TRUE(e.deck().cards.empty());
}

TEST(EnrolNamed, TwoTagsAtOnceAreRefusedOnce) {
  Enrolment e("p", Enrolment::Order::Named, nullptr);
  EXPECT_EQ(e.feed({tag(1), tag(2)}).size(), 1u);
  EXPECT_TRUE(e.feed({tag(1), tag(2)}).empty());
  EXPECT_TRUE(e.deck().cards.empty());
}

TEST(EnrolAny, EachTagWaitsForItsNameAndADoubledNameIsRefused) {
  Enrolment e("p", Enrolment::Order::Any, nullptr);
  pass(e, tag(1));
  EXPECT_TRUE(e.waiting_for_name());
  e.name_card(*bridge::Card::parse("HT"));
  EXPECT_FALSE(e.waiting_for_name());
  pass(e, tag(2));
  auto said = e.name_card(*bridge::Card::parse("HT"));
  EXPECT_NE(said[0].find("enrolled already"), std::string::npos);
  EXPECT_TRUE(e.waiting_for_name());
  e.name_card(*bridge::Card::parse("C3"));
  EXPECT_EQ(e.deck().cards.at(tag(2)).str(), "C3");
  EXPECT_EQ(e.missing().size(), 50u);
}

}  // namespace
}  // namespace cardtable::devices
