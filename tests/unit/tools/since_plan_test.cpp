// watch --since: one seq for every table, or a table's own (seqs are per table), and where the next
// watch goes on from.
#include <gtest/gtest.h>

#include "since_plan.hpp"

using cardtable::tools::resume_options;
using cardtable::tools::SincePlan;

namespace {
std::optional<SincePlan> plan(const std::vector<std::string>& values, std::string* why = nullptr) {
  std::string said;
  auto p = SincePlan::parse(values, said);
  if (why) *why = said;
  return p;
}
}  // namespace

TEST(SincePlan, ANumberIsEveryTablesOwnSeqAndATablesSeqWinsForThatTable) {
  auto p = plan({"3", "default/A/7:58"});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->of("default/A/7"), 58u);
  EXPECT_EQ(p->of("default/A/8"), 3u);
  EXPECT_EQ(p->every(), 3u);
}

TEST(SincePlan, TablesNamedAloneAreTheOnlyOnesAskedFor) {
  auto p = plan({"default/A/7:58", "Spring Pairs/B/2:1"});
  ASSERT_TRUE(p);
  EXPECT_EQ(p->of("Spring Pairs/B/2"), 1u);
  EXPECT_FALSE(p->of("default/A/8"));
  EXPECT_FALSE(p->every());
  EXPECT_TRUE(plan({})->empty());
}

TEST(SincePlan, WhatIsNeitherASeqNorATablesSeqIsRefusedNamingIt) {
  for (const std::string bad : {"0", "-1", "x", "default/A:4", "default/A/7:0", "default/A/7:", "/A/7:3", "default//7:3", "default/A/7/1:3"}) {
    std::string why;
    EXPECT_FALSE(plan({bad}, &why)) << bad;
    EXPECT_NE(why.find(bad), std::string::npos) << why;
  }
}

TEST(SincePlan, TwoSeqsForTheSameTablesAreRefused) {
  std::string why;
  EXPECT_FALSE(plan({"1", "2"}, &why));
  EXPECT_NE(why.find("one seq for every table"), std::string::npos) << why;
  EXPECT_FALSE(plan({"default/A/7:3", "default/A/7:4"}, &why));
  EXPECT_NE(why.find("twice"), std::string::npos) << why;
  EXPECT_TRUE(plan({"1", "1", "default/A/7:3", "default/A/7:3"}));  // said twice, the same: no doubt
}

TEST(SincePlan, TheNextWatchGoesOnFromTheSeqAfterTheLastShownOfEachTable) {
  EXPECT_EQ(resume_options(*plan({"default/A/1:1", "default/A/2:1"}), {{"default/A/1", 57}, {"default/A/2", 33}}),
            "--since default/A/1:58 --since default/A/2:34");
  EXPECT_EQ(resume_options(*plan({}), {{"default/A/1", 57}}), "") << "a watch without --since says nothing";
}

// A watch stopped before it showed anything of a table (its replay stopped before its first page, or its
// journal empty so far): the line named only the tables shown, and the next watch never replayed that one.
TEST(SincePlan, ATableNothingWasShownOfKeepsTheSeqAskedForIt) {
  EXPECT_EQ(resume_options(*plan({"1"}), {{"default/A/1", 57}, {"default/A/3", 0}}), "--since 1 --since default/A/1:58");
  EXPECT_EQ(resume_options(*plan({"default/A/1:12", "default/A/2:40"}), {{"default/A/2", 41}}),
            "--since default/A/1:12 --since default/A/2:42");
}

// A gap said and never shown (no endpoint replays it): the line went on past it, with the events shown
// after it, and no watch showed its seqs. The line starts at a table's first seq not shown; a table never
// shown at all starts there too, unless --since N says it already.
TEST(SincePlan, TheLineStartsAtATablesFirstSeqSaidAndNotShown) {
  EXPECT_EQ(resume_options(*plan({"default/A/2:1"}), {{"default/A/1", 7}}, {{"default/A/1", 4}}), "--since default/A/1:4 --since default/A/2:1");
  EXPECT_EQ(resume_options(*plan({"1"}), {{"default/A/1", 57}}, {{"default/A/1", 12}, {"default/A/3", 1}}), "--since 1 --since default/A/1:12");
  EXPECT_EQ(resume_options(*plan({"default/A/3:9"}), {}, {{"default/A/3", 9}}), "--since default/A/3:9");
  EXPECT_EQ(resume_options(*plan({"5"}), {}, {{"default/A/3", 2}}), "--since 5 --since default/A/3:2");
}
