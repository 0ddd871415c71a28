// A gap in a table's seqs is replayed even when it shows up while another replay of that table is still
// running (a stand-in table, stand_in_table.hpp, holds each `replay` until the test answers it: a table
// reading a long journal from a slow disk). A gap seen meanwhile was
// skipped: the new journal of a table restarted on an empty state folder, or a second gap of the same
// journal, was never replayed, and the alerts in it never shown.
#include "tests/console/stand_in_table.hpp"

#include <gtest/gtest.h>

using namespace cardtable::console::stand_in;

// The daemon restarts on an empty state folder while the console replays a gap of its old journal: the
// new journal's events before the first one heard are replayed from seq 1 once the old replay ends, and
// its alert there is shown. The old journal's late answer is not taken for the new journal's events.
TEST(GapReplay, ANewJournalSeenWhileTheOldOnesReplayRunsIsReplayedFromSeqOneAfterIt) {
  Console c;
  const auto old_journal = journal_of(kOld, 6, 0), new_journal = journal_of(kNew, 4, 2);
  c.hear(old_journal[0]);
  c.hear(old_journal[4]);  // seq 5: 2 to 4 missing
  auto old_replay = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(old_replay) << "the old journal's gap is asked for";
  EXPECT_EQ(since_of(*old_replay), 2u);

  c.hear(new_journal[3]);  // seq 4 of the new journal, while the old replay runs: 1 to 3 missing
  c.table.answer_replay(*old_replay, old_journal);  // the old daemon answers at last
  auto new_replay = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(new_replay) << "the new journal's gap, seen while the old journal's replay ran, was never asked for";
  EXPECT_EQ(since_of(*new_replay), 1u);
  c.table.answer_replay(*new_replay, new_journal);

  ASSERT_TRUE(c.run_until([&] { return c.shows_open_alert(kNew, 2); })) << c.venue.director_snapshot(1000).dump();
  for (std::uint64_t seq = 1; seq <= 4; ++seq) EXPECT_EQ(c.shown(kNew, seq), 1u) << "the new journal's seq " << seq;
  EXPECT_EQ(c.shown(kOld, 2), 0u) << "the old journal's late answer is dropped: its seqs are not the ones missed now";
}

// A second gap of the same journal, past the end of the one being replayed, is replayed after it.
TEST(GapReplay, ASecondGapSeenWhileTheFirstIsReplayedIsReplayedAfterIt) {
  Console c;
  const auto journal = journal_of(kOld, 9, 7);
  c.hear(journal[0]);
  c.hear(journal[4]);  // seq 5: 2 to 4 missing
  auto first = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(first);
  EXPECT_EQ(since_of(*first), 2u);

  c.hear(journal[8]);  // seq 9: 6 to 8 missing too, the alert at 7 among them
  c.table.answer_replay(*first, journal);
  auto second = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(second) << "the second gap, seen while the first was replayed, was never asked for";
  EXPECT_EQ(since_of(*second), 6u);
  c.table.answer_replay(*second, journal);

  ASSERT_TRUE(c.run_until([&] { return c.shows_open_alert(kOld, 7); })) << c.venue.director_snapshot(1000).dump();
  for (std::uint64_t seq = 1; seq <= 9; ++seq) EXPECT_EQ(c.shown(kOld, seq), 1u) << "seq " << seq << " shown once";
}

// Each heartbeat shows the same gap until its replay is answered: it is asked for once, and the replay
// stops at the heartbeat's last_seq (what follows comes live), so no event is shown twice.
TEST(GapReplay, TheSameGapShownByEveryHeartbeatIsReplayedOnce) {
  Console c;
  const auto journal = journal_of(kOld, 8, 3);
  c.hear(journal[0]);
  c.hear(heartbeat(kOld, 4));  // 2 to 4 missing
  auto first = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(first);
  EXPECT_EQ(since_of(*first), 2u);
  c.hear(heartbeat(kOld, 4));  // the next second's heartbeat, the replay still running
  c.hear(journal[4]);           // seq 5, live
  c.table.answer_replay(*first, journal);
  ASSERT_TRUE(c.run_until([&] { return c.shows_open_alert(kOld, 3); }));

  c.hear(journal[7]);  // seq 8: 6 and 7 missing; asked next, not 2 to 4 again
  auto next = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(next);
  EXPECT_EQ(since_of(*next), 6u) << "the gap the second heartbeat showed again was asked for twice";
  c.table.answer_replay(*next, journal);
  ASSERT_TRUE(c.run_until([&] { return c.shown(kOld, 7) == 1; }));
  for (std::uint64_t seq = 1; seq <= 8; ++seq) EXPECT_EQ(c.shown(kOld, seq), 1u) << "seq " << seq << " shown once";
}
