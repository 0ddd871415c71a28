// Readings are decided only when stable; everything else is uncertainty, never an irregularity.
#include <gtest/gtest.h>

#include "table/stable_reading.hpp"
#include "table_test_support.hpp"

using namespace cardtable::table;
using cardtable::bridge::Card;
using cardtable::bridge::Hand;

namespace {
Observation obs(Millis t, const char* card, double confidence = 1.0) {
  Observation o;
  o.zone = Zone{ZoneKind::Play, Seat::West};
  if (card) o.cards.add(*Card::parse(card));
  o.time = t;
  o.confidence = confidence;
  return o;
}
}  // namespace

TEST(Stability, AReadingCountsAfterThreeEqualReads) {
  TableConfig c;
  StableReading r;
  EXPECT_FALSE(r.feed(obs(0, "SA"), c));
  EXPECT_FALSE(r.feed(obs(100, "SA"), c));
  auto s = r.feed(obs(200, "SA"), c);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->cards.contains(*Card::parse("SA")));
  EXPECT_FALSE(r.feed(obs(300, "SA"), c));  // no news
}

// A pocket's reader hears a second ♠A -- another pack's, another tag -- put beside its own: 13 tags become
// 14 and the face is the same. A different reading, decided like any other (Law 13C needs to see it).
TEST(Stability, ASecondTagOfAFaceAlreadyReadIsANewReading) {
  TableConfig c;
  StableReading r;
  auto read = [](Millis t, std::vector<const char*> tags) {
    Observation o = obs(t, "SA");
    o.zone = Zone{ZoneKind::Pocket, Seat::West};
    for (const char* tag : tags) o.card_ids.emplace(*Card::parse("SA"), tag);
    o.count_tags();  // as a reader does once its tags are in
    return o;
  };
  for (Millis t : {0, 100, 200}) r.feed(read(t, {"04AA"}), c);
  ASSERT_TRUE(r.stable());
  std::optional<Observation> two;
  for (Millis t : {300, 400, 500})
    if (auto s = r.feed(read(t, {"04AA", "04BB"}), c)) two = s;
  ASSERT_TRUE(two) << "14 tags after 13 is news";
  EXPECT_EQ(two->card_ids.size(), 2u);
  EXPECT_FALSE(read(0, {"04AA"}).same_reading(read(0, {"04AA", "04BB"})));
  EXPECT_TRUE(read(0, {"04AA"}).same_reading(read(0, {"04BB"}))) << "another tag of the face alone: the same reading";
  // At the scan slot a reading is a card passing: another tag of the face is another card passed (13C).
  Observation slot_a = read(0, {"04AA"}), slot_b = read(0, {"04BB"});
  slot_a.zone = slot_b.zone = Zone{ZoneKind::Scan, Seat::North};
  EXPECT_FALSE(slot_a.same_reading(slot_b)) << "at the scan slot another tag is another card";
}

// A reading built without count_tags (an input log replayed, written before the count was kept) is counted
// as it enters stability: its second ♠A is not lost.
TEST(Stability, AReadingBuiltWithoutItsTagsCountedIsCountedOnEntry) {
  TableConfig c;
  StableReading r;
  Observation o = obs(0, "SA");
  o.card_ids = {{*Card::parse("SA"), "04AA"}, {*Card::parse("SA"), "04BB"}};
  ASSERT_FALSE(o.tags_counted());
  std::optional<Observation> s;
  for (Millis t : {0, 100, 200}) {
    o.time = t;
    if (auto x = r.feed(o, c)) s = x;
  }
  ASSERT_TRUE(s);
  EXPECT_EQ(s->count(), 2) << "two tags of ♠A, two cards";
}

TEST(Stability, OrAfterTheSameReadingForLongEnough) {
  TableConfig c;
  c.stable_reads = 10;
  StableReading r;
  EXPECT_FALSE(r.feed(obs(0, "SA"), c));
  EXPECT_TRUE(r.feed(obs(400, "SA"), c));  // two reads 400 ms apart
}

TEST(Stability, FlickerIsReportedOnceAndNeverStable) {
  TableConfig c;
  StableReading r;
  int reported = 0;
  for (int i = 0; i < 20; ++i) {
    EXPECT_FALSE(r.feed(obs(i * 100, i % 2 ? "SA" : "SK"), c));
    reported += r.flicker_started(i * 100, c) ? 1 : 0;
  }
  EXPECT_EQ(reported, 1);
}

// A reader that misses the card's reply now and then reads the area empty for a poll: the card is still
// there, and the table keeps it (a read hearing less is a reply missed). That is no reading that "keeps
// changing": the zone is not said to be uncertain for it, however often it comes, while the card read,
// missed, read again makes its reader's missed replies known.
TEST(Stability, ACardWhoseReplyIsMissedEveryOtherPollIsNoFlicker) {
  TableConfig c;
  StableReading r;
  int reported = 0, missed = 0;
  for (int i = 0; i < 40; ++i) {
    (void)r.feed(obs(i * 100, i % 2 ? nullptr : "SA"), c);
    reported += r.flicker_started(i * 100, c) ? 1 : 0;
    missed += r.missed_replies() ? 1 : 0;
  }
  EXPECT_EQ(reported, 0);
  ASSERT_TRUE(r.stable());
  EXPECT_TRUE(r.stable()->cards.contains(*Card::parse("SA"))) << "the card is there";
  EXPECT_GT(missed, 0);
}

// A card really taken away reads empty until the empty reading settles: that is a change, not flicker.
// Two cards taken for each other, read after read, are a zone that keeps changing: flicker.
TEST(Stability, ACardTakenAwayIsNoFlickerAndTwoCardsTakenForEachOtherAre) {
  TableConfig c;
  StableReading r;
  int reported = 0;
  for (int i = 0; i < 10; ++i) (void)r.feed(obs(i * 100, "SA"), c);
  for (int i = 10; i < 20; ++i) reported += (r.feed(obs(i * 100, nullptr), c), r.flicker_started(i * 100, c)) ? 1 : 0;
  EXPECT_EQ(reported, 0) << "a card taken away is no flicker";
  ASSERT_TRUE(r.stable());
  EXPECT_TRUE(r.stable()->cards.empty());
  // SA, SK, SA, SK...: a tag heard that the last read did not have is a change each time.
  for (int i = 20; i < 40; ++i) {
    (void)r.feed(obs(i * 100, (i / 2) % 2 ? "SA" : "SK"), c);
    reported += r.flicker_started(i * 100, c) ? 1 : 0;
  }
  EXPECT_EQ(reported, 1);
}

TEST(Stability, ReadingsBelowTheConfidenceFloorNeverCount) {
  TableConfig c;
  StableReading r;
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(r.feed(obs(i * 100, "SA", 0.3), c));
  EXPECT_TRUE(r.low_confidence_started(c) || true);
  EXPECT_FALSE(r.stable());
}

// An RFID reader misses a tag's reply for a poll (a dropout) far more often than it hears a tag that is
// not there: a read hearing less does not break a card's run.
TEST(Stability, AOnePollDropoutDoesNotBreakACardsRun) {
  TableConfig c;
  StableReading r;
  EXPECT_FALSE(r.feed(obs(0, "SA"), c));
  EXPECT_FALSE(r.feed(obs(100, nullptr), c));  // the reply lost for one poll
  EXPECT_FALSE(r.feed(obs(200, "SA"), c));
  EXPECT_TRUE(r.missed_replies());
  auto s = r.feed(obs(300, "SA"), c);  // the third read of the card: faced
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->cards.contains(*Card::parse("SA")));
}

TEST(Stability, ACardReallyWithdrawnFromASteadyReaderIsSeenAfterThreeReads) {
  TableConfig c;
  StableReading r;
  for (int i = 0; i < 3; ++i) r.feed(obs(i * 100, "SA"), c);
  EXPECT_FALSE(r.feed(obs(300, nullptr), c, false));
  EXPECT_FALSE(r.feed(obs(400, nullptr), c, false));
  auto s = r.feed(obs(500, nullptr), c, false);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->cards.empty());
}

// Three empty polls in a row from a reader that keeps missing replies prove nothing; eight do.
TEST(Stability, OnANoisyReaderACardIsGoneOnlyAfterALongerRunWithoutIt) {
  TableConfig c;
  StableReading r;
  for (int i = 0; i < 3; ++i) r.feed(obs(i * 100, "SA"), c);
  for (int i = 3; i < 3 + c.noisy_absent_reads - 1; ++i) EXPECT_FALSE(r.feed(obs(i * 100, nullptr), c, true)) << i;
  auto s = r.feed(obs((3 + c.noisy_absent_reads - 1) * 100, nullptr), c, true);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->cards.empty());
}

// The reads of South's pocket in a simulated session at 10 % flicker and 10 % dropped reads (seed 20): the
// board's four pockets full, then South's single presence tag unheard for three polls running in the
// session's first second -- before the reader has missed any other reply -- and heard again. Three empty
// polls from a reader nobody has yet seen read steadily are no proof that a hand came out (Law 17): the
// board arrives once, its auction starts when a side really takes its cards out, and it goes back once
// (Law 7), not "passed out" a second after it arrived and back again.
TEST(Stability, ABoardGoesBackOnceEvenWhenTheReaderDropsReadsOfAFullPocket) {
  auto ev = test::run(
      "zones playing-table\nat 0 board Spring Pairs/1/1\nat 0 pockets full\n"
      "at 0.4 pocket S empty\nat 0.7 pocket S full\n"  // three polls without South's tag: missed replies
      "at 3 pocket N empty\nat 3 pocket S empty\nat 4 pocket E empty\nat 4 pocket W empty\n"
      "at 10 pockets full\nend 14\n");
  auto count = [&](const char* type) { return std::count_if(ev.begin(), ev.end(), [&](const Event& e) { return e.type == type; }); };
  EXPECT_EQ(count("board.arrived"), 1) << test::dump(ev);
  EXPECT_EQ(count("auction.period_started"), 1) << test::dump(ev);
  EXPECT_EQ(count("board.returned"), 1) << test::dump(ev);
  const Event* start = test::first(ev, "auction.period_started");
  ASSERT_NE(start, nullptr);
  EXPECT_GE(start->time, 3000) << "the auction starts when North-South take their cards out";
  EXPECT_EQ(test::irregularities(ev), std::vector<std::string>{}) << test::dump(ev);
}

// A misread names another card for one poll: the card's run goes on; the other card is never faced.
TEST(Stability, AOnePollMisreadDoesNotReplaceTheCard) {
  TableConfig c;
  StableReading r;
  for (int i = 0; i < 3; ++i) r.feed(obs(i * 100, "SA"), c);
  EXPECT_FALSE(r.feed(obs(300, "H7"), c));
  EXPECT_FALSE(r.feed(obs(400, "SA"), c));
  EXPECT_FALSE(r.feed(obs(500, "SA"), c));
  EXPECT_TRUE(r.stable()->cards.contains(*Card::parse("SA")));
}

// West's lead to trick 2 of board 4 in a simulated session at 10 % flicker and drops and 5 % misreads
// (seed 5): ♦J read, read again, then two misreads naming two other cards, then ♦J. Each misread names a
// card once; the card read more often than all of them together is the card there. Set aside at the first
// misread and dropped at the second, ♦J was never steady in the second it lay there, and North's card of
// the next trick made a false lead out of turn (Law 55).
TEST(Stability, ACardOutlastsMisreadsNamingDifferentCardsEachOnce) {
  TableConfig c;
  StableReading r;
  r.feed(obs(0, nullptr), c);
  r.feed(obs(100, nullptr), c);
  r.feed(obs(200, nullptr), c);
  EXPECT_FALSE(r.feed(obs(300, "DJ"), c, true));
  EXPECT_FALSE(r.feed(obs(400, "DJ"), c, true));
  EXPECT_FALSE(r.feed(obs(500, "HA"), c, true));
  EXPECT_FALSE(r.feed(obs(600, "C7"), c, true));
  auto s = r.feed(obs(700, "DJ"), c, true);
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->cards.contains(*Card::parse("DJ")));
  EXPECT_EQ(s->cards.size(), 1);
}

// A card named twice among another card's reads is no misread: the zone names two cards, and neither is
// taken for the card there until one is read stable_reads times.
TEST(Stability, ACardNamedTwiceAmongAnothersReadsIsNoMisread) {
  TableConfig c;
  StableReading r;
  for (int i = 0; i < 3; ++i) r.feed(obs(i * 100, nullptr), c);
  EXPECT_FALSE(r.feed(obs(300, "DJ"), c, true));
  EXPECT_FALSE(r.feed(obs(400, "HA"), c, true));
  EXPECT_FALSE(r.feed(obs(500, "DJ"), c, true));
  EXPECT_FALSE(r.feed(obs(600, "HA"), c, true));
  EXPECT_FALSE(r.feed(obs(700, "DJ"), c, true));
  EXPECT_TRUE(r.stable()->cards.empty());
}

// South's card at trick 4 of board 3 (seed 582 of the same sweep): ♣7 faced, read as ♦2, two empty polls,
// ♦2 again. Two reads of a card 300 ms apart with missed polls between are no proof: a reader does not
// invent a tag, but it may name the tag that is there wrongly, twice. Taken for a card, ♦2 was a false
// card from East's hand (Law 87A). Read with nothing between, two reads a stable_ms apart are a slow
// reader's, and stand.
TEST(Stability, AMisreadCardReadTwiceAroundMissedPollsIsNoCard) {
  TableConfig c;
  StableReading r;
  for (int i = 0; i < 3; ++i) r.feed(obs(i * 100, nullptr), c);
  EXPECT_FALSE(r.feed(obs(300, "D2"), c, true));
  EXPECT_FALSE(r.feed(obs(400, nullptr), c, true));
  EXPECT_FALSE(r.feed(obs(500, nullptr), c, true));
  EXPECT_FALSE(r.feed(obs(600, "D2"), c, true));
  EXPECT_TRUE(r.stable()->cards.empty());

  StableReading slow;
  slow.feed(obs(0, nullptr), c);
  slow.feed(obs(400, nullptr), c);
  EXPECT_FALSE(slow.feed(obs(800, "D2"), c));
  auto s = slow.feed(obs(1200, "D2"), c);
  ASSERT_TRUE(s) << "two reads in a row, stable_ms apart: a slow reader";
  EXPECT_FALSE(s->cards.empty());
}

// West's play area at trick 1 of board 6 (seed 944 of bench/reader_faults_sweep, 10 % flicker and drops,
// 5 % misreads): ♥Q lies, the trick is quitted, seven empty reads in the second before West leads ♦10 to
// trick 2 (three polls dropped). On a reader that drops replies an empty zone counts only after
// noisy_absent_reads (8): ♦10 was taken for a card *replacing* ♥Q in trick 1, and South's next card for a
// revoke (Law 61). Empty reads in a row, then another card: the card had gone, and that is the news first.
TEST(Stability, AnotherCardAfterEmptyReadsSaysFirstThatTheCardHadGone) {
  TableConfig c;
  StableReading r;
  for (int i = 0; i < 3; ++i) r.feed(obs(i * 100, "HQ"), c, true);
  ASSERT_TRUE(r.stable() && r.stable()->cards.contains(*Card::parse("HQ")));
  for (Millis t : {1000, 1100, 1200, 1300, 1500, 1700, 1900}) EXPECT_FALSE(r.feed(obs(t, nullptr), c, true)) << t;
  auto gone = r.feed(obs(2000, "DT"), c, true);
  ASSERT_TRUE(gone) << "the departure, as ♦10 comes";
  EXPECT_TRUE(gone->cards.empty());
  EXPECT_FALSE(r.feed(obs(2100, "DT"), c, true));
  EXPECT_FALSE(r.feed(obs(2200, nullptr), c, true));  // a missed reply
  auto lead = r.feed(obs(2300, "DT"), c, true);
  ASSERT_TRUE(lead);
  EXPECT_TRUE(lead->cards.contains(*Card::parse("DT")));

  // Missed replies of the card still there, then the card again: no departure, no news.
  StableReading still;
  for (int i = 0; i < 3; ++i) still.feed(obs(i * 100, "HQ"), c, true);
  for (Millis t : {300, 400, 500, 600}) EXPECT_FALSE(still.feed(obs(t, nullptr), c, true));
  EXPECT_FALSE(still.feed(obs(700, "HQ"), c, true));
  EXPECT_TRUE(still.stable()->cards.contains(*Card::parse("HQ")));
}

// Whether an area heard anything before the card now there came: a seat's area silent all through a
// trick until its card came is told from one that heard a card earlier (table.cpp, seed 533).
TEST(Stability, WhatTheAreaHeardBeforeTheCardNowThereCame) {
  TableConfig c;
  StableReading r;
  for (int i = 0; i < 3; ++i) r.feed(obs(i * 100, nullptr), c, true);
  r.feed(obs(1000, "C7"), c, true);
  EXPECT_EQ(r.card_came(), 1000);
  EXPECT_EQ(r.heard_before_came(), -1) << "nothing heard before";
  EXPECT_TRUE(r.came_as().contains(*Card::parse("C7")) && r.came_as().size() == 1);
  r.feed(obs(1100, "C7"), c, true);
  for (Millis t = 1200; t < 2000; t += 100) r.feed(obs(t, nullptr), c, true);
  r.feed(obs(2000, "C9"), c, true);
  EXPECT_EQ(r.card_came(), 2000);
  EXPECT_EQ(r.heard_before_came(), 1100) << "♣7, last heard at 1100";
  EXPECT_TRUE(r.came_as().contains(*Card::parse("C9")) && r.came_as().size() == 1);

  // Fewer empty reads than a card leaving needs on a reader missing replies: ♣7 may lie there still, and
  // the card that came is still ♣7's -- another card read now did not come by itself.
  StableReading still;
  still.feed(obs(0, "C7"), c, true);
  for (Millis t = 100; t < 600; t += 100) still.feed(obs(t, nullptr), c, true);
  still.feed(obs(600, "C9"), c, true);
  EXPECT_EQ(still.card_came(), 0);
  EXPECT_TRUE(still.came_as().contains(*Card::parse("C7")) && still.came_as().size() == 1);
}

// West's play area at trick 3 of board 4 (seed 816 of bench/reader_faults_sweep at 0.2 flicker and drops):
// ♣A lies, one read names it ♦10, the trick is quitted -- six empty reads, four polls dropped -- and West
// leads ♦10. The read before the empty ones made ♦10 the card being confirmed, and ♦10 read again was
// taken for that card heard again after missed replies: a card *replacing* ♣A in the trick quitted ("West
// plays ♦10 instead of ♣A"), the board a trick behind, and North's club a false revoke (Law 61). The
// empty reads since ♣A left say that it had gone, whatever was read just before them.
TEST(Stability, AnotherCardAfterEmptyReadsHadGoneThoughAMisreadNamedItBeforeThem) {
  TableConfig c;
  StableReading r;
  for (int i = 0; i < 3; ++i) r.feed(obs(i * 100, "CA"), c, true);
  EXPECT_FALSE(r.feed(obs(300, "DT"), c, true)) << "a misread";
  for (Millis t : {500, 600, 700, 800, 900, 1100}) EXPECT_FALSE(r.feed(obs(t, nullptr), c, true)) << t;
  auto gone = r.feed(obs(1300, "DT"), c, true);
  ASSERT_TRUE(gone) << "the departure, as ♦10 comes";
  EXPECT_TRUE(gone->cards.empty());
  EXPECT_FALSE(r.missed_replies()) << "♦10 was not there before: nothing heard again";
  EXPECT_FALSE(r.feed(obs(1400, "DT"), c, true));
  auto lead = r.feed(obs(1500, "DT"), c, true);
  ASSERT_TRUE(lead);
  EXPECT_TRUE(lead->cards.contains(*Card::parse("DT")));

  // Fewer empty reads than a steady reader needs to see a card go: missed replies, and ♦10 read twice
  // more (three in all, around them) replaces ♣A as before -- a card changed without the area cleared.
  StableReading missed;
  for (int i = 0; i < 3; ++i) missed.feed(obs(i * 100, "CA"), c, true);
  missed.feed(obs(300, "DT"), c, true);
  for (Millis t : {400, 500}) EXPECT_FALSE(missed.feed(obs(t, nullptr), c, true));
  EXPECT_FALSE(missed.feed(obs(600, "DT"), c, true));
  auto changed = missed.feed(obs(700, "DT"), c, true);
  ASSERT_TRUE(changed);
  EXPECT_TRUE(changed->cards.contains(*Card::parse("DT")));
}

// Which of two play areas had a card first decides who led (Laws 53-56), whichever settled first. West's
// area at the lead to trick 3 of board 8 (seed 126 of bench/reader_faults_sweep at 0.2 flicker and drops):
// ♣J heard, then two empty reads 300 ms apart with polls dropped between -- an empty reading settled by
// time -- then ♣J again, while North's card came between. North's at trick 4 of board 7 (seed 182): ♣10
// heard once, three empty reads, heard again. The card had lain there all along: it came when first
// heard, and went only after empty reads running as long as a card leaving needs (8 on a noisy reader).
TEST(Stability, ACardCameWhenFirstHeardAndWentOnlyAfterAsManyEmptyReadsAsALeavingCardNeeds) {
  TableConfig c;
  StableReading r;
  for (int i = 0; i < 3; ++i) r.feed(obs(i * 100, nullptr), c, true);
  EXPECT_EQ(r.card_came(), -1);
  r.feed(obs(1000, "CJ"), c, true);
  EXPECT_EQ(r.card_came(), 1000);
  r.feed(obs(1400, nullptr), c, true);
  r.feed(obs(1700, nullptr), c, true);  // settled empty by time: no news (the stable reading was empty)
  EXPECT_EQ(r.card_came(), 1000) << "two empty reads with polls dropped between: the card may lie there still";
  r.feed(obs(1800, "CJ"), c, true);
  for (Millis t : {1900, 2000, 2100}) r.feed(obs(t, nullptr), c, true);
  EXPECT_EQ(r.card_came(), 1000) << "three empty reads on a reader that drops replies";
  r.feed(obs(2200, "CJ"), c, true);
  EXPECT_EQ(r.card_came(), 1000);
  for (Millis t = 2300; t < 3100; t += 100) r.feed(obs(t, nullptr), c, true);
  EXPECT_EQ(r.card_came(), -1) << "eight empty reads running: the card went";

  StableReading steady;  // a reader that reads steadily: three empty reads are enough
  for (int i = 0; i < 3; ++i) steady.feed(obs(i * 100, nullptr), c);
  steady.feed(obs(1000, "CJ"), c);
  for (Millis t : {1100, 1200}) steady.feed(obs(t, nullptr), c);
  EXPECT_EQ(steady.card_came(), 1000);
  steady.feed(obs(1300, nullptr), c);
  EXPECT_EQ(steady.card_came(), -1);
}

TEST(Uncertainty, ASilentDeviceMakesItsZoneUnknownNotIrregular) {
  auto ev = test::run("zones playing-table\nat 0 clear play:W\nat 2 silent play:W\nend 10\n");
  const Event* e = test::first(ev, "reading.uncertain");
  ASSERT_NE(e, nullptr) << test::dump(ev);
  EXPECT_EQ(*e->find("cause"), "silent");
  EXPECT_EQ(test::irregularities(ev), std::vector<std::string>{});
}

TEST(Uncertainty, OneCardInTwoPlayAreasIsNotAPlay) {
  auto ev = test::run("zones playing-table\nat 0 board Spring Pairs/1/1\nat 1 play W SK\nat 2 play E SK\nend 5\n");
  EXPECT_NE(test::first(ev, "reading.uncertain"), nullptr);
  EXPECT_EQ(std::count_if(ev.begin(), ev.end(), [](const Event& e) { return e.type == "play.card"; }), 1);
  EXPECT_EQ(test::irregularities(ev), std::vector<std::string>{}) << test::dump(ev);
}

TEST(Uncertainty, AnUnknownTagIsAnIrregularityOnlyWhenStable) {
  // An unknown tag that flickers over the slot is not counted; one that lies there is.
  auto flicker = test::run("zones station-scan\nat 0 board Spring Pairs/1/3\nat 0.5 read scan unknown 1\nat 0.6 clear scan\n"
                           "at 2 scan pocket N as master\nat 12 scan pocket E as master\nat 22 scan pocket S as master\n"
                           "at 32 scan pocket W as master\nend 46\n");
  EXPECT_EQ(test::irregularities(flicker), std::vector<std::string>{}) << test::dump(flicker);
}

TEST(Capabilities, SaysWhichChecksTheZonesCannotSupport) {
  auto ev = test::run("zones play:N play:E play:S play:W\nend 1\n");
  const Event* e = test::first(ev, "table.capabilities");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(*e->find("unavailable"), "station,pockets,dummy");
}
