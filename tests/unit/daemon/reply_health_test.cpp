// A reader missing many of its replies is said to a director while the table still reads right
// (device.health); one missing them as readers do (about 3 %) never is, nor is a camera whose card a hand
// hid for a moment. Each read here is one the table counted (table::Table::ReaderReads), as the daemon
// hands them over after each read.
#include "daemon/reply_health.hpp"

#include <gtest/gtest.h>

namespace cardtable::daemon {
namespace {

using table::Observation;
using table::Zone;
using Counts = table::Table::ReaderReads;

// A read by `source` of `zone`.
Observation read_of(const std::string& source, const std::string& zone) {
  Observation o;
  o.source = source;
  o.zone = *Zone::parse(zone);
  o.cards.add(bridge::Card::parse("SA").value());
  return o;
}

// Feeds `heard` reads that heard a card, `missed` of them hearing again tags missed before, spread evenly;
// returns every change said.
std::vector<ReplyHealth::Change> feed(ReplyHealth& health, Counts& counts, std::uint64_t heard, std::uint64_t missed,
                                      const Observation& read) {
  std::vector<ReplyHealth::Change> said;
  for (std::uint64_t i = 0; i < heard; ++i) {
    ++counts.reads;
    ++counts.heard;
    if (missed && i % (heard / missed) == 0 && i / (heard / missed) < missed) ++counts.missed_replies;
    if (auto c = health.on_read(read, counts)) said.push_back(*c);
  }
  return said;
}

TEST(ReplyHealth, AReaderMissingRepliesAsReadersDoIsNeverSaid) {
  ReplyHealth health(0.15);
  Counts counts;
  // 5 % for ten windows: about 4,000 reads that heard a card, a few boards.
  EXPECT_TRUE(feed(health, counts, 10 * ReplyHealth::kWindow, ReplyHealth::kWindow / 2, read_of("board0", "play:N")).empty());
}

TEST(ReplyHealth, AReaderMissingAFifthOfItsRepliesIsSaidOnceWithItsShareAndZones) {
  ReplyHealth health(0.15);
  Counts counts;
  feed(health, counts, 10, 0, read_of("board0", "pocket:S"));
  auto said = feed(health, counts, 3 * ReplyHealth::kWindow, 3 * ReplyHealth::kWindow / 5, read_of("board0", "play:N"));
  ASSERT_EQ(said.size(), 1u) << "said once, not at every window it stays above the share";
  EXPECT_EQ(said[0].device, "board0");
  EXPECT_TRUE(said[0].missing);
  EXPECT_EQ(said[0].heard, ReplyHealth::kWindow);
  EXPECT_GE(said[0].missed * 100, 15 * said[0].heard);
  EXPECT_EQ(said[0].zones, "pocket:S,play:N") << "in the table's order of zones";
}

TEST(ReplyHealth, ItIsSaidGoodAgainOnlyUnderHalfTheShare) {
  ReplyHealth health(0.15);
  Counts counts;
  const Observation read = read_of("board0", "play:E");
  ASSERT_EQ(feed(health, counts, ReplyHealth::kWindow, ReplyHealth::kWindow / 5, read).size(), 1u);
  // 10 %: under the share, but not under half of it -- a reader hovering near the line is not said again
  // at each window.
  EXPECT_TRUE(feed(health, counts, 3 * ReplyHealth::kWindow, 3 * ReplyHealth::kWindow / 10, read).empty());
  auto said = feed(health, counts, ReplyHealth::kWindow, ReplyHealth::kWindow / 25, read);  // 4 %
  ASSERT_EQ(said.size(), 1u);
  EXPECT_FALSE(said[0].missing);
  EXPECT_EQ(said[0].missed, ReplyHealth::kWindow / 25);
}

TEST(ReplyHealth, EachReaderIsJudgedOnItsOwnReads) {
  ReplyHealth health(0.15);
  Counts bad, good;
  auto said = feed(health, good, ReplyHealth::kWindow, ReplyHealth::kWindow / 50, read_of("board1", "play:W"));
  auto more = feed(health, bad, ReplyHealth::kWindow, ReplyHealth::kWindow / 4, read_of("board0", "play:N"));
  said.insert(said.end(), more.begin(), more.end());
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0].device, "board0");
}

// A camera's card hidden by a player's hand and seen again counts as a reply missed; it is no fault.
TEST(ReplyHealth, ACameraIsNotJudged) {
  ReplyHealth health(0.15, [](const std::string& device) { return device == "cam0"; });
  Counts camera, reader;
  EXPECT_TRUE(feed(health, camera, 3 * ReplyHealth::kWindow, ReplyHealth::kWindow, read_of("cam0", "play:N")).empty());
  EXPECT_EQ(feed(health, reader, ReplyHealth::kWindow, ReplyHealth::kWindow / 4, read_of("board0", "play:S")).size(), 1u);
}

TEST(ReplyHealth, ShareZeroSaysNothing) {
  ReplyHealth health(0);
  Counts counts;
  EXPECT_TRUE(feed(health, counts, 3 * ReplyHealth::kWindow, ReplyHealth::kWindow, read_of("board0", "play:N")).empty());
}

// Counts that went back (a table made again) start a new window rather than wrap around.
TEST(ReplyHealth, CountsThatStartAgainStartANewWindow) {
  ReplyHealth health(0.15);
  Counts counts;
  const Observation read = read_of("board0", "play:N");
  EXPECT_TRUE(feed(health, counts, ReplyHealth::kWindow + 10, 0, read).empty());
  Counts again;
  // Its first read starts the window; 399 more do not close it (counts taken as gone on past the
  // window's start would have closed it at once).
  EXPECT_TRUE(feed(health, again, ReplyHealth::kWindow, ReplyHealth::kWindow / 4, read).empty()) << "a window not yet closed";
  auto said = feed(health, again, 1, 0, read);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_EQ(said[0].heard, ReplyHealth::kWindow);
}

// After a restart the last run's board is replayed through the table, its reads counted again: what
// they crossed was said by that run, if at all. This run's windows start after them.
TEST(ReplyHealth, ReadsReplayedAfterARestartAreNotJudged) {
  ReplyHealth health(0.15);
  const Observation read = read_of("board0", "play:N");
  Counts replayed{3000, 2000, 1000};  // half its replies missed, in the last run
  health.pass(read, replayed);
  EXPECT_TRUE(feed(health, replayed, ReplyHealth::kWindow, ReplyHealth::kWindow / 50, read).empty());
  EXPECT_EQ(feed(health, replayed, ReplyHealth::kWindow, ReplyHealth::kWindow / 5, read).size(), 1u) << "its own reads are";
}

// The last run's device.health, read back from its journal at start: a reader it said missing replies
// and that was mended while the daemon was down is said good at this run's first window; one still
// missing them is not said a second time.
TEST(ReplyHealth, WhatTheLastRunSaidIsWhereThisRunStarts) {
  ReplyHealth mended(0.15), still(0.15);
  mended.recall("board0", true);
  still.recall("board0", true);
  Counts a, b;
  const Observation read = read_of("board0", "play:N");
  auto said = feed(mended, a, ReplyHealth::kWindow, ReplyHealth::kWindow / 50, read);
  ASSERT_EQ(said.size(), 1u) << "the mended reader never said good";
  EXPECT_FALSE(said[0].missing);
  EXPECT_TRUE(feed(still, b, 3 * ReplyHealth::kWindow, 3 * ReplyHealth::kWindow / 5, read).empty()) << "said missing again";
  // And back: a reader the last run said good, judged afresh.
  ReplyHealth good(0.15);
  good.recall("board0", false);
  Counts c;
  EXPECT_EQ(feed(good, c, ReplyHealth::kWindow, ReplyHealth::kWindow / 5, read).size(), 1u);
}

// status → reads_by_device → health (1.10): what was last said of a tag reader; nothing of a camera, or
// with the alert off.
TEST(ReplyHealth, ItsStateIsWhatWasLastSaidAndNoneForACameraOrWithTheAlertOff) {
  ReplyHealth health(0.15, [](const std::string& device) { return device == "cam0"; });
  Counts reader, camera;
  feed(health, camera, ReplyHealth::kWindow, ReplyHealth::kWindow / 2, read_of("cam0", "play:S"));
  feed(health, reader, 10, 0, read_of("board0", "play:N"));
  EXPECT_EQ(health.state("board0"), "good");
  EXPECT_EQ(health.state("cam0"), std::nullopt);
  EXPECT_EQ(health.state("board9"), std::nullopt) << "never heard";
  feed(health, reader, ReplyHealth::kWindow, ReplyHealth::kWindow / 4, read_of("board0", "play:N"));
  EXPECT_EQ(health.state("board0"), "missing replies");
  health.recall("cam0", true);
  EXPECT_EQ(health.state("cam0"), std::nullopt) << "a camera is never judged";

  ReplyHealth off(0);
  off.recall("board0", true);
  EXPECT_EQ(off.state("board0"), std::nullopt);
}

}  // namespace
}  // namespace cardtable::daemon
