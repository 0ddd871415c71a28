// The live journal's gaps (embargoed hands, released to broadcasters) get the same care as the events':
// a gap seen while a `replay-live` of the table runs is asked for after it, and one whose replay keeps
// failing is said and counted on the tile. A live gap seen meanwhile was skipped: the 60 s poll asks only
// from the last live seq held, past it, so the hands in the middle never reached the broadcasters' pages.
#include "tests/console/stand_in_table.hpp"

#include <gtest/gtest.h>

using namespace cardtable::console;
using namespace cardtable::console::stand_in;

namespace {

std::size_t cards_shown(Console& c, const json& any_card) {
  const json board = c.venue.live_board(kTable, VenueState::live_key(any_card));
  return board.is_object() ? board["cards"].size() : 0;
}

}  // namespace

TEST(LiveGapReplay, ASecondLiveGapSeenWhileTheFirstIsReplayedIsReplayedAfterIt) {
  Console c;
  const auto live = live_journal_of(kOld, 9);
  auto first = c.hear_gap(live[0], live[4], true);  // seq 5: 2 to 4 missing
  ASSERT_TRUE(first);
  EXPECT_EQ(first->request.value("command", ""), "replay-live");
  EXPECT_EQ(since_of(*first), 2u);

  c.hear_live(live[8]);  // seq 9: 6 to 8 missing too
  c.table.answer_replay(*first, {live.begin(), live.begin() + 5});  // what the table had released when asked
  auto second = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(second) << "the second live gap, seen while the first was replayed, was never asked for";
  EXPECT_EQ(second->request.value("command", ""), "replay-live");
  EXPECT_EQ(since_of(*second), 6u);
  c.table.answer_replay(*second, live);
  ASSERT_TRUE(c.run_until([&] { return cards_shown(c, live[0]) == 9; })) << cards_shown(c, live[0]) << " of 9 cards shown";
}

TEST(LiveGapReplay, ALiveGapWhoseReplayKeepsFailingIsCountedAsMissedOnTheTile) {
  Console c(GatewayLimits{.replay_retry_wait = 20ms});
  const auto live = live_journal_of(kOld, 5);
  c.hear_live(live[0]);
  c.hear_live(live[4]);  // seq 5: 2 to 4 missing
  ASSERT_TRUE(c.table.refuse_every_try(c.io, 2, GapReplays::kRetries + 1)) << "a failed replay-live was not asked again";
  EXPECT_FALSE(c.table.next_request(c.io, 500ms)) << "asked again past its retries";
  EXPECT_EQ(c.tile().value("live_missed", 0u), 3u) << c.tile().dump();
}

// Damaged lines of the live journal (`unreadable` in a replay-live answer): hands the broadcasters lack.
TEST(LiveGapReplay, LiveSeqsDamagedInTheTablesLiveJournalAreCountedAsLiveMissed) {
  Console c;
  const auto live = live_journal_of(kOld, 5);
  auto asked = c.hear_gap(live[0], live[4], true);  // seq 5: 2 to 4 missing
  ASSERT_TRUE(asked);
  c.table.answer(*asked, {{"ok", true}, {"events", {live[1], live[3]}}, {"more", false}, {"first_available", 1}, {"journal", kOld},
                          {"unreadable", {3}}});
  EXPECT_TRUE(c.run_until([&] { return c.tile().value("live_missed", 0u) == 1u; })) << c.tile().dump();
}
