// A replay of a table's missing seqs that fails (the table did not answer in time, refused a busy reader)
// is asked again, 3 times after 2 s, 4 s and 8 s by default, and then said and counted as missed on the
// table's tile; seqs the table's journal no longer holds (rotated away: its answer begins at its
// first_available) are said and counted too. A gap shown by an event is never shown again (the event
// moved the table's last seq past it): a failed replay was dropped, and the seqs rotated away left out,
// both without a word, an alert among them never shown.
#include "tests/console/stand_in_table.hpp"

#include <gtest/gtest.h>

#include <thread>

using namespace cardtable::console;
using namespace cardtable::console::stand_in;

namespace {

// Short waits: the law is the retry, not the 2 s (nor the minute before a gap given up is asked again).
GatewayLimits quick() { return GatewayLimits{.replay_retry_wait = 20ms}; }
GatewayLimits quick_given_up() { return GatewayLimits{.replay_retry_wait = 20ms, .replay_given_up_wait = 100ms}; }

}  // namespace

TEST(ReplayRetry, AFailedReplayIsAskedAgainAndTheAlertInItShown) {
  Console c(quick());
  const auto journal = journal_of(kOld, 5, 3);
  c.hear(journal[0]);
  c.hear(journal[4]);  // seq 5: 2 to 4 missing, the alert at 3 among them
  ASSERT_TRUE(c.table.refuse_every_try(c.io, 2, 1));
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
  ASSERT_TRUE(c.table.refuse_every_try(c.io, 2, GapReplays::kRetries + 1)) << "a failed replay was not asked again";
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
  auto asked = c.hear_gap(journal[0], journal[9]);  // seq 10: 2 to 9 missing
  ASSERT_TRUE(asked);
  c.table.answer_page(*asked, {journal.begin() + 5, journal.end()}, false, 6);  // the journal starts at 6 now: 2 to 5 rotated away
  ASSERT_TRUE(c.run_until([&] { return c.shown(kOld, 9) == 1; }));
  EXPECT_EQ(c.tile().value("missed", 0u), 4u) << "seqs 2 to 5, rotated away, are counted on the tile: " << c.tile().dump();
}

TEST(ReplayRetry, SeqsRotatedAwayBetweenTwoAnswersOfALongGapAreCountedAsMissed) {
  Console c;
  const auto journal = journal_of(kOld, 10, 0);
  auto first = c.hear_gap(journal[0], journal[9]);  // seq 10: 2 to 9 missing
  ASSERT_TRUE(first);
  c.table.answer_page(*first, {journal.begin() + 1, journal.begin() + 3}, true, 1);  // files rotated away during the read: `more`
  auto rest = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(rest);
  EXPECT_EQ(since_of(*rest), 4u);
  c.table.answer_page(*rest, {journal.begin() + 6, journal.end() - 1}, false, 7);  // 4 to 6 rotated away meanwhile
  ASSERT_TRUE(c.run_until([&] { return c.shown(kOld, 9) == 1; }));
  EXPECT_EQ(c.tile().value("missed", 0u), 3u) << "seqs 4 to 6, rotated away between the answers: " << c.tile().dump();
}

// A replay's `unreadable` seqs are in the table's journal but their lines are damaged on its disk: the
// daemon leaves them out of `events` and names them. The console ignored the list: those events (an
// alert among them) were lost without a word, or blamed on a rotation or a short answer.
TEST(ReplayRetry, SeqsDamagedInTheTablesJournalAreSaidAndCountedAsMissed) {
  Console c;
  const auto journal = journal_of(kOld, 8, 0);
  auto asked = c.hear_gap(journal[0], journal[7]);  // seq 8: 2 to 7 missing
  ASSERT_TRUE(asked);
  std::vector<json> readable = {journal[2], journal[3], journal[5]};  // 2, 5 and 7 damaged
  testing::internal::CaptureStderr();
  c.table.answer(*asked, {{"ok", true}, {"events", readable}, {"more", false}, {"first_available", 1}, {"journal", kOld},
                          {"unreadable", {2, 5, 7}}});
  const bool counted = c.run_until([&] { return c.tile().value("missed", 0u) == 3u; });
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(counted) << "seqs 2, 5 and 7, damaged, are counted on the tile: " << c.tile().dump();
  EXPECT_NE(log.find("table " + kTable), std::string::npos) << log;
  EXPECT_NE(log.find("journal " + kOld), std::string::npos) << log;
  EXPECT_NE(log.find("#2, #5, #7"), std::string::npos) << log;
  EXPECT_NE(log.find("damaged in the table's journal"), std::string::npos) << log;
  EXPECT_EQ(log.find("rotated away"), std::string::npos) << "seq 2 is damaged, not rotated away: " << log;
  EXPECT_EQ(log.find("ended at"), std::string::npos) << "seq 7 is damaged, not left out of a short answer: " << log;
}

// A gap given up (counted as missed) and replayed later after all (the table's control endpoint came
// back, and the console asked again): the seqs recovered leave the tile's count. They stayed counted as
// missed, the tile dashed for events the director could see in the timeline.
TEST(ReplayRetry, SeqsGivenUpAndReplayedLaterAreNoLongerCountedAsMissed) {
  Console c(quick_given_up());
  const auto journal = journal_of(kOld, 4, 3);
  c.hear(journal[0]);
  c.hear(heartbeat(kOld, 4));  // 2 to 4 missing, the alert at 3 among them
  ASSERT_TRUE(c.table.refuse_every_try(c.io, 2, GapReplays::kRetries + 1));
  ASSERT_TRUE(c.run_until([&] { return c.tile().value("missed", 0u) == 3u; })) << c.tile().dump();

  // The table answers again: the console's next ask for the gap (heartbeats keep showing it) is answered.
  std::optional<StandInTable::Asked> again;
  for (auto end = std::chrono::steady_clock::now() + 5s; !again && std::chrono::steady_clock::now() < end;) {
    c.hear(heartbeat(kOld, 4));
    again = c.table.next_request(c.io, 50ms);
  }
  ASSERT_TRUE(again) << "a gap given up was never asked for again";
  EXPECT_EQ(since_of(*again), 2u);
  c.table.answer_replay(*again, journal);
  ASSERT_TRUE(c.run_until([&] { return c.shows_open_alert(kOld, 3); }));
  EXPECT_EQ(c.tile().value("missed", 0u), 0u) << "seqs 2 to 4, replayed after all, are still counted as missed: " << c.tile().dump();
}

// A table whose control endpoint never answers while its heartbeats keep showing the same gap: given up
// once (said, counted), the range is not asked for afresh at every heartbeat. It was: 4 tries and 4 log
// lines about every 26 s for as long as the table ran. A new gap (seqs not given up) gets its own tries.
TEST(ReplayRetry, AGapGivenUpIsNotAskedAgainAtEachHeartbeatButANewGapIs) {
  Console c(quick());
  const auto journal = journal_of(kOld, 6, 0);
  c.hear(journal[0]);
  c.hear(heartbeat(kOld, 4));  // 2 to 4 missing
  ASSERT_TRUE(c.table.refuse_every_try(c.io, 2, GapReplays::kRetries + 1));
  ASSERT_TRUE(c.run_until([&] { return c.tile().value("missed", 0u) == 3u; }));

  testing::internal::CaptureStderr();
  std::optional<StandInTable::Asked> asked;
  for (int beat = 0; beat < 5 && !asked; ++beat) {
    c.hear(heartbeat(kOld, 4));  // the same gap, shown again
    asked = c.table.next_request(c.io, 50ms);
  }
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_FALSE(asked) << "the gap given up was asked for afresh at a heartbeat, since " << (asked ? since_of(*asked) : 0);
  EXPECT_EQ(log, "") << "a give-up is said once, not at every heartbeat";
  EXPECT_EQ(c.tile().value("missed", 0u), 3u);

  c.hear(heartbeat(kOld, 6));  // 5 and 6 missing too: a new gap
  auto fresh = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(fresh) << "a new gap after one given up gets no tries";
  EXPECT_EQ(since_of(*fresh), 5u) << "the new gap is asked from its own first seq, not with the range given up";
  c.table.answer_replay(*fresh, journal);
  EXPECT_TRUE(c.run_until([&] { return c.shown(kOld, 6) == 1; }));
}

// A gap given up is asked again after a long wait (GapReplays::kGivenUpWait, a minute), one try at a
// time, quietly while it keeps failing (said once, when given up): a table whose control endpoint comes
// back gets its missed events replayed, those of a gap shown by an event too (no heartbeat shows it again).
TEST(ReplayRetry, AGapGivenUpIsAskedAgainQuietlyAfterTheLongWait) {
  Console c(quick_given_up());
  const auto journal = journal_of(kOld, 5, 3);
  c.hear(journal[0]);
  c.hear(journal[4]);  // seq 5: 2 to 4 missing, the alert at 3 among them
  ASSERT_TRUE(c.table.refuse_every_try(c.io, 2, GapReplays::kRetries + 1));
  ASSERT_TRUE(c.run_until([&] { return c.tile().value("missed", 0u) == 3u; }));  // given up: said

  testing::internal::CaptureStderr();
  const bool refused_again = c.table.refuse_every_try(c.io, 2, 1);  // the first ask after the long wait
  auto again = c.table.next_request(c.io, 2s);                      // and the next one
  const std::string log = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(refused_again) << "a gap given up was never asked for again";
  ASSERT_TRUE(again) << "a gap given up is asked again after each long wait while it is missing";
  EXPECT_EQ(since_of(*again), 2u);
  EXPECT_EQ(log, "") << "a gap given up and still failing is said once, when given up";
  EXPECT_EQ(c.tile().value("missed", 0u), 3u);
  c.table.answer_replay(*again, journal);
  ASSERT_TRUE(c.run_until([&] { return c.shows_open_alert(kOld, 3); }));
  EXPECT_EQ(c.tile().value("missed", 0u), 0u) << c.tile().dump();
}

// A table's retry timer ran for a gap given up before, and a second gap was given up half way through its
// wait: the timer's firing asked both again, the second after half a wait, not its own
// (GapReplays::kGivenUpWait: given up 59 s into the first's minute, asked again a second later). Each gap
// given up waits its full wait.
TEST(ReplayRetry, EachGapGivenUpWaitsItsOwnLongWaitThoughTheTimerRanForAnOlderOne) {
  constexpr auto kWait = 1000ms;
  Console c(GatewayLimits{.replay_retry_wait = 20ms, .replay_given_up_wait = kWait});
  const auto journal = journal_of(kOld, 9, 0);
  c.hear(journal[0]);
  c.hear(journal[4]);  // seq 5: 2 to 4 missing
  ASSERT_TRUE(c.table.refuse_every_try(c.io, 2, GapReplays::kRetries + 1));
  ASSERT_TRUE(c.run_until([&] { return c.tile().value("missed", 0u) == 3u; }));  // given up: its wait begins
  std::this_thread::sleep_for(kWait / 2);
  c.hear(journal[8]);  // seq 9: 6 to 8 missing, half way through the first gap's wait
  ASSERT_TRUE(c.table.refuse_every_try(c.io, 6, GapReplays::kRetries + 1));
  const auto second_given_up = std::chrono::steady_clock::now();  // the console gives it up after this

  ASSERT_TRUE(c.table.refuse_every_try(c.io, 2, 1)) << "the first gap given up was not asked again after its wait";
  auto second = c.table.next_request(c.io, 2 * kWait);
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - second_given_up);
  ASSERT_TRUE(second) << "the second gap given up was never asked again";
  EXPECT_EQ(since_of(*second), 6u);
  EXPECT_GE(waited, kWait) << "the second gap given up was asked again " << waited.count() << " ms after, not after its own wait";
  c.table.answer_replay(*second, journal);
  EXPECT_TRUE(c.run_until([&] { return c.shown(kOld, 8) == 1; }));
  EXPECT_EQ(c.tile().value("missed", 0u), 3u) << "2 to 4 still missing, 6 to 8 replayed: " << c.tile().dump();
}
