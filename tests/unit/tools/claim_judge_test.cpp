// The hub's judgement of the seqs one table claims (tools/cardtable-hub/claim_judge.hpp): a heartbeat's
// last_seq or an event's own seq skipping seqs is events lost on the way -- counted in `missed` -- unless no
// journal backs it (a bug at the table, a corrupted message putting 2^62 in it). The table's snapshot
// answer is the evidence that backs or disowns a claim; without one, a claim a million past is not believed.
#include "claim_judge.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <utility>

namespace {
using cardtable::hub::ClaimJudge;
using cardtable::hub::kBelievedGap;
using Seqs = std::optional<std::pair<std::uint64_t, std::uint64_t>>;

constexpr std::uint64_t kBogus = std::uint64_t{1} << 62;
constexpr bool kHeartbeat = true, kEvent = false;
constexpr bool kAsksTable = true, kCannotAsk = false;

// Events #from to #to heard in order, each found to miss nothing.
void events_in_order(ClaimJudge& j, std::uint64_t from, std::uint64_t to) {
  for (std::uint64_t s = from; s <= to; ++s) ASSERT_EQ(j.heard(s, kEvent).missed, Seqs{}) << "event #" << s;
}

bool says(const std::string& said, const std::string& what) { return said.find(what) != std::string::npos; }

}  // namespace

TEST(ClaimJudge, EventsHeardOneByOneMissNothing) {
  ClaimJudge j(kCannotAsk);
  events_in_order(j, 1, 5);
  EXPECT_EQ(j.last_seq(), 5u);
}

TEST(ClaimJudge, AnEventPastTheNextOneMeansTheSeqsBetweenWereMissed) {
  ClaimJudge j(kCannotAsk);
  events_in_order(j, 1, 2);
  EXPECT_EQ(j.heard(5, kEvent).missed, Seqs({3, 4}));
  EXPECT_EQ(j.last_seq(), 5u);
}

TEST(ClaimJudge, AHeartbeatNamingALaterLastSeqMeansTheSeqsUpToItWereMissed) {
  ClaimJudge j(kCannotAsk);
  events_in_order(j, 1, 2);
  EXPECT_EQ(j.heard(4, kHeartbeat).missed, Seqs({3, 4}));
  EXPECT_EQ(j.heard(4, kHeartbeat).missed, Seqs{}) << "the same last seq again is no news";
}

TEST(ClaimJudge, TheFirstSeqHeardCannotBeJudgedAndCountsNothingBeforeIt) {
  ClaimJudge j(kCannotAsk);
  const auto h = j.heard(812, kHeartbeat);
  EXPECT_EQ(h.missed, Seqs{});
  EXPECT_TRUE(h.said.empty());
  EXPECT_EQ(j.last_seq(), 812u);
}

TEST(ClaimJudge, AFirstClaimFarAboveTheNextSeqHeardIsNotBelieved) {
  ClaimJudge j(kCannotAsk);
  j.heard(kBogus, kHeartbeat);
  const auto h = j.heard(1, kEvent);
  EXPECT_EQ(h.missed, Seqs{});
  EXPECT_TRUE(says(h.said, "its first message, a heartbeat, named seq #" + std::to_string(kBogus) + ", then an event named #1")) << h.said;
  EXPECT_EQ(j.last_seq(), 1u);
  events_in_order(j, 2, 3);
  EXPECT_EQ(j.heard(5, kEvent).missed, Seqs({4, 4})) << "the table's gaps are found again";
}

TEST(ClaimJudge, AFirstClaimLessThanAMillionAboveTheNextSeqStands) {
  ClaimJudge j(kCannotAsk);
  j.heard(kBelievedGap, kHeartbeat);
  EXPECT_TRUE(j.heard(1, kEvent).said.empty());
  EXPECT_EQ(j.last_seq(), kBelievedGap);
}

TEST(ClaimJudge, WithoutTheTablesSnapshotAClaimAMillionPastTheLastIsNotBelievedAndSaidOnce) {
  ClaimJudge j(kCannotAsk);
  events_in_order(j, 1, 2);
  const auto first = j.heard(kBogus, kHeartbeat);
  EXPECT_EQ(first.missed, Seqs{});
  EXPECT_TRUE(says(first.said, "a heartbeat named seq #" + std::to_string(kBogus) + " as its last, " + std::to_string(kBogus - 2) + " past #2 heard: not believed"))
      << first.said;
  EXPECT_TRUE(j.heard(kBogus + 1, kEvent).said.empty()) << "said once";
  EXPECT_EQ(j.last_seq(), 2u);
  EXPECT_EQ(j.heard(4, kEvent).missed, Seqs({3, 3})) << "the table's next lost event is still found";
}

TEST(ClaimJudge, AClaimJustAMillionPastTheLastIsStillBelieved) {
  ClaimJudge j(kCannotAsk);
  events_in_order(j, 1, 2);
  EXPECT_EQ(j.heard(2 + kBelievedGap, kHeartbeat).missed, Seqs({3, 2 + kBelievedGap}));
}

TEST(ClaimJudge, WhereTheTablesSnapshotCanCheckItAClaimIsCountedUntilTheAnswerComes) {
  ClaimJudge j(kAsksTable);
  events_in_order(j, 1, 2);
  EXPECT_EQ(j.heard(kBogus, kHeartbeat).missed, Seqs({3, kBogus}));
}

TEST(ClaimJudge, AnAnswerBelowAClaimDisownsItAndTakesBackWhatItCounted) {
  ClaimJudge j(kAsksTable);
  events_in_order(j, 1, 2);
  j.heard(kBogus, kHeartbeat);
  const auto d = j.answered(2);
  EXPECT_EQ(d.taken_back, kBogus - 2);
  EXPECT_TRUE(says(d.said, "a heartbeat named seq #" + std::to_string(kBogus) + " as its last, its snapshot answered #2")) << d.said;
  EXPECT_EQ(j.last_seq(), 2u);
  EXPECT_EQ(j.heard(4, kEvent).missed, Seqs({3, 3})) << "the table's next lost event is found again";
}

TEST(ClaimJudge, AnAnswerThatReachesTheClaimBacksIt) {
  ClaimJudge j(kAsksTable);
  events_in_order(j, 1, 2);
  j.heard(5, kHeartbeat);
  const auto d = j.answered(5);
  EXPECT_EQ(d.taken_back, 0u);
  EXPECT_TRUE(d.said.empty()) << d.said;
  EXPECT_EQ(j.last_seq(), 5u);
}

TEST(ClaimJudge, AnEventsOwnSeqWasHeardSoItsDisownedClaimTakesBackOnlyTheSeqsBelowIt) {
  ClaimJudge j(kAsksTable);
  events_in_order(j, 1, 2);
  EXPECT_EQ(j.heard(kBogus, kEvent).missed, Seqs({3, kBogus - 1}));
  const auto d = j.answered(2);
  EXPECT_EQ(d.taken_back, kBogus - 3);
  EXPECT_TRUE(says(d.said, "an event named seq #" + std::to_string(kBogus) + ", its snapshot answered #2")) << d.said;
}

TEST(ClaimJudge, EventsHeardBetweenAClaimAndTheAnswerThatDisownsItAreTakenBackWithIt) {
  ClaimJudge j(kAsksTable);
  events_in_order(j, 1, 2);
  j.heard(kBogus, kHeartbeat);  // counted #3 to the claim
  j.heard(4, kEvent);           // #3 lost, #4 heard
  const auto d = j.answered(4);
  EXPECT_EQ(d.taken_back, kBogus - 3) << "only #3 stays missed";
  EXPECT_EQ(j.last_seq(), 4u);
}

TEST(ClaimJudge, AClaimDisownedAndMadeAgainIsNotBelievedUntilAnAnswerNamesIt) {
  ClaimJudge j(kAsksTable);
  events_in_order(j, 1, 2);
  j.heard(kBogus, kHeartbeat);
  j.answered(2);
  const auto again = j.heard(kBogus, kHeartbeat);
  EXPECT_EQ(again.missed, Seqs{});
  EXPECT_EQ(again.ask_again_to, kBogus) << "only the table's snapshot can back it";
  EXPECT_TRUE(says(again.said, "as its last again, at or past #" + std::to_string(kBogus) + " that its snapshot disowned")) << again.said;
  const auto repeated = j.heard(kBogus + 1, kHeartbeat);
  EXPECT_EQ(repeated.missed, Seqs{});
  EXPECT_TRUE(repeated.said.empty()) << "said once";
  // The journal did get there: an answer naming it lets the claim be believed again.
  j.answered(kBogus);
  EXPECT_EQ(j.heard(kBogus + 1, kHeartbeat).missed, Seqs({3, kBogus + 1}));
}

TEST(ClaimJudge, WhileTheTablesSnapshotsAreGivenUpAClaimIsJudgedAsWithoutTableControl) {
  ClaimJudge j(kAsksTable);
  events_in_order(j, 1, 2);
  j.snapshots_given_up();
  const auto h = j.heard(kBogus, kHeartbeat);
  EXPECT_EQ(h.missed, Seqs{});
  EXPECT_TRUE(says(h.said, "not believed (its snapshot questions were given up")) << h.said;
  j.snapshots_answered();
  EXPECT_EQ(j.heard(kBogus, kHeartbeat).missed, Seqs({3, kBogus})) << "its answers check claims again";
}

TEST(ClaimJudge, ANewJournalStartsAgainAtOneAndKeepsItsSnapshotsGivenUp) {
  ClaimJudge j(kAsksTable);
  events_in_order(j, 1, 10);
  j.snapshots_given_up();
  j.new_journal();
  EXPECT_EQ(j.last_seq(), std::nullopt);
  events_in_order(j, 1, 2);
  EXPECT_TRUE(says(j.heard(kBogus, kHeartbeat).said, "its snapshot questions were given up"));
}

// A table's bug numbered a heartbeat 2^62, and numbers its next event 2^62 + 1: that event merely continues
// the claim, it is no evidence of the journal. Taken as an event heard in order, it backed the claim: the
// answer (#2) disowned nothing and `missed` kept ~2^62.
TEST(ClaimJudge, AnEventThatMerelyContinuesAClaimDoesNotBackIt) {
  ClaimJudge j(kAsksTable);
  events_in_order(j, 1, 2);
  EXPECT_EQ(j.heard(kBogus, kHeartbeat).missed, Seqs({3, kBogus}));
  EXPECT_EQ(j.heard(kBogus + 1, kEvent).missed, Seqs{}) << "heard, not missed";
  EXPECT_EQ(j.heard(kBogus + 2, kEvent).missed, Seqs{});
  const auto d = j.answered(2);
  EXPECT_EQ(d.taken_back, kBogus - 2) << "all the claim counted, not the events heard after it";
  EXPECT_TRUE(says(d.said, "a heartbeat named seq #" + std::to_string(kBogus) + " as its last, then seqs to #" + std::to_string(kBogus + 2) +
                               ", its snapshot answered #2"))
      << d.said;
  EXPECT_EQ(j.last_seq(), 2u);
  EXPECT_EQ(j.heard(kBogus, kHeartbeat).missed, Seqs{}) << "the claim stays disowned";
  EXPECT_EQ(j.heard(4, kEvent).missed, Seqs({3, 3})) << "the table's next lost event is found again";
}

TEST(ClaimJudge, AnEventContinuingAnEventsClaimIsHeardNotMissedWhenTheClaimIsDisowned) {
  ClaimJudge j(kAsksTable);
  events_in_order(j, 1, 2);
  EXPECT_EQ(j.heard(kBogus, kEvent).missed, Seqs({3, kBogus - 1}));
  j.heard(kBogus + 1, kEvent);
  EXPECT_EQ(j.answered(2).taken_back, kBogus - 3);
}

// The same bug in a table's first message, at a table the hub cannot ask: the event after it was taken as
// a seq past the first, judging it, and every real event after (#1, #2...) came below it unjudged.
TEST(ClaimJudge, AnEventThatMerelyContinuesAFirstClaimDoesNotJudgeIt) {
  ClaimJudge j(kCannotAsk);
  j.heard(kBogus, kHeartbeat);
  j.heard(kBogus + 1, kEvent);
  const auto h = j.heard(1, kEvent);
  EXPECT_TRUE(says(h.said, "its first message, a heartbeat, named seq #" + std::to_string(kBogus) + ", events to #" + std::to_string(kBogus + 1) +
                               " continued it, then an event named #1"))
      << h.said;
  EXPECT_EQ(j.last_seq(), 1u);
  events_in_order(j, 2, 3);
  EXPECT_EQ(j.heard(5, kEvent).missed, Seqs({4, 4})) << "the table's gaps are found again";
}

// A real gap: #3 lost, #4 heard, the table asked; its answer was made at #4, and #5 came before the answer
// did. The answer reaches the claim (#4): #5 continues it in order, nothing is disowned.
TEST(ClaimJudge, AnAnswerThatReachesTheClaimBacksTheEventsHeardAfterItToo) {
  ClaimJudge j(kAsksTable);
  events_in_order(j, 1, 2);
  EXPECT_EQ(j.heard(4, kEvent).missed, Seqs({3, 3}));
  j.heard(5, kEvent);
  const auto d = j.answered(4);
  EXPECT_TRUE(d.said.empty()) << d.said;
  EXPECT_EQ(d.taken_back, 0u);
  EXPECT_EQ(j.last_seq(), 5u);
  EXPECT_EQ(j.heard(7, kEvent).missed, Seqs({6, 6}));
}

// A real gap counted (#3, #4 lost, heartbeat names #5), then a bogus claim before the table's answer (#5):
// the answer backs the first and disowns the second alone.
TEST(ClaimJudge, AnAnswerBetweenTwoClaimsDisownsOnlyThePartPastIt) {
  ClaimJudge j(kAsksTable);
  events_in_order(j, 1, 2);
  EXPECT_EQ(j.heard(5, kHeartbeat).missed, Seqs({3, 5}));
  EXPECT_EQ(j.heard(kBogus, kHeartbeat).missed, Seqs({6, kBogus}));
  const auto d = j.answered(5);
  EXPECT_EQ(d.taken_back, kBogus - 5) << "#3 to #5 stay missed";
  EXPECT_TRUE(says(d.said, "a heartbeat named seq #" + std::to_string(kBogus) + " as its last, its snapshot answered #5")) << d.said;
  EXPECT_EQ(j.last_seq(), 5u);
  EXPECT_EQ(j.heard(7, kEvent).missed, Seqs({6, 6})) << "a real gap past the answer is still believed";
}
