// A replay of a table's missing seqs that fails (the table did not answer in time, refused a busy reader)
// is asked again, 3 times after 2 s, 4 s and 8 s by default, and then said and counted as missed on the
// table's tile; seqs the table's journal no longer holds (rotated away: its answer begins at its
// first_available) are said and counted too. A gap shown by an event is never shown again (the event
// moved the table's last seq past it): a failed replay was dropped, and the seqs rotated away left out,
// both without a word, an alert among them never shown.
#include "tests/console/stand_in_table.hpp"

#include <gtest/gtest.h>

using namespace cardtable::console;
using namespace cardtable::console::stand_in;

namespace {

// Short waits: the law is the retry, not the 2 s.
GatewayLimits quick() { return GatewayLimits{.replay_retry_wait = 20ms}; }

void refuse(Console& c, StandInTable::Asked& asked) { c.table.answer(asked, {{"ok", false}, {"error", "refused: busy"}}); }

}  // namespace

TEST(ReplayRetry, AFailedReplayIsAskedAgainAndTheAlertInItShown) {
  Console c(quick());
  const auto journal = journal_of(kOld, 5, 3);
  c.hear(journal[0]);
  c.hear(journal[4]);  // seq 5: 2 to 4 missing, the alert at 3 among them
  auto first = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(first);
  refuse(c, *first);
  auto again = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(again) << "a failed replay of a gap shown by an event was dropped, never asked again";
  EXPECT_EQ(since_of(*again), 2u);
  c.table.answer_replay(*again, journal);
  ASSERT_TRUE(c.run_until([&] { return c.shows_open_alert(kOld, 3); }));
  EXPECT_EQ(c.tile().value("missed", 0u), 0u);
}

TEST(ReplayRetry, AReplayStillFailingAfterItsRetriesIsCountedAsMissedAndTheNextGapStillReplayed) {
  Console c(quick());
  const auto journal = journal_of(kOld, 9, 0);
  c.hear(journal[0]);
  c.hear(journal[4]);  // seq 5: 2 to 4 missing
  for (unsigned attempt = 1; attempt <= GapReplays::kRetries + 1; ++attempt) {
    auto asked = c.table.next_request(c.io, 2s);
    ASSERT_TRUE(asked) << "attempt " << attempt << " of the failed replay was never made";
    EXPECT_EQ(since_of(*asked), 2u);
    refuse(c, *asked);
  }
  EXPECT_FALSE(c.table.next_request(c.io, 500ms)) << "asked again past its retries";
  EXPECT_EQ(c.tile().value("missed", 0u), 3u) << "seqs 2 to 4 given up are counted on the tile: " << c.tile().dump();

  c.hear(journal[8]);  // seq 9: 6 to 8 missing
  auto next = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(next) << "the table's next gap is asked for once the last one is given up";
  EXPECT_EQ(since_of(*next), 6u);
  c.table.answer_replay(*next, journal);
  EXPECT_TRUE(c.run_until([&] { return c.shown(kOld, 8) == 1; }));
}

TEST(ReplayRetry, SeqsRotatedOutOfTheTablesJournalAreCountedAsMissed) {
  Console c;
  const auto journal = journal_of(kOld, 10, 0);
  c.hear(journal[0]);
  c.hear(journal[9]);  // seq 10: 2 to 9 missing
  auto asked = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(asked);
  // The journal starts at 6 now: 2 to 5 rotated away.
  c.table.answer(*asked, {{"ok", true}, {"events", {journal[5], journal[6], journal[7], journal[8], journal[9]}}, {"more", false},
                          {"first_available", 6}, {"last_seq", 10}, {"journal", kOld}});
  ASSERT_TRUE(c.run_until([&] { return c.shown(kOld, 9) == 1; }));
  EXPECT_EQ(c.tile().value("missed", 0u), 4u) << "seqs 2 to 5, rotated away, are counted on the tile: " << c.tile().dump();
}

TEST(ReplayRetry, SeqsRotatedAwayBetweenTwoAnswersOfALongGapAreCountedAsMissed) {
  Console c;
  const auto journal = journal_of(kOld, 10, 0);
  c.hear(journal[0]);
  c.hear(journal[9]);  // seq 10: 2 to 9 missing
  auto first = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(first);
  // Files rotated away during the read: the answer stops before the jump, with `more`.
  c.table.answer(*first, {{"ok", true}, {"events", {journal[1], journal[2]}}, {"more", true}, {"first_available", 1}, {"last_seq", 10}, {"journal", kOld}});
  auto rest = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(rest);
  EXPECT_EQ(since_of(*rest), 4u);
  c.table.answer(*rest, {{"ok", true}, {"events", {journal[6], journal[7], journal[8]}}, {"more", false}, {"first_available", 7}, {"last_seq", 10}, {"journal", kOld}});
  ASSERT_TRUE(c.run_until([&] { return c.shown(kOld, 9) == 1; }));
  EXPECT_EQ(c.tile().value("missed", 0u), 3u) << "seqs 4 to 6, rotated away between the answers: " << c.tile().dump();
}
