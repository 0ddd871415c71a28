// A board's label read again while the board is in progress -- a label reader reads the tag of a board
// lying on it again, and again when the daemon starts -- is no news: no second identification, and at the
// station no end of the scan of the board's pockets (half a board checked is Law 13A's pocket short and
// Law 14's cards missing for a board that is whole). Another board's label still ends the board before it.
// Board "Spring Pairs/1/3" at the station, "Spring Pairs/1/1" in play.
#include <gtest/gtest.h>

#include <algorithm>

#include "table_test_support.hpp"

using namespace cardtable::table;
using test::irregularities;
using Types = std::vector<std::string>;

namespace {
// The four pockets of board 3 over the scan slot, a card every 0.6 s: North from 1 s, East from 11 s,
// South from 21 s, West from 31 s (its last card at 38.2 s; the pause after it ends the board at 40.4 s).
// `between`: lines of the scenario that come in among them.
// `west`: what West's pocket holds besides the master's hand ("-SA").
std::string scanned(const std::string& between, const std::string& west = "", int end = 45) {
  return "zones station-scan\nat 0 board Spring Pairs/1/3\nat 1 scan pocket N as master\nat 11 scan pocket E as master\n"
         "at 21 scan pocket S as master\nat 31 scan pocket W as master" + west + "\n" + between + "end " + std::to_string(end) + "\n";
}

// A board in play at a playing table, played out and put back at 90 s.
const std::string kPlayed =
    "zones playing-table\nat 0 board Spring Pairs/1/1\nat 0 pockets full\nat 3 pocket N empty\nat 3 pocket S empty\n"
    "at 4 pocket E empty\nat 4 pocket W empty\nat 20 contract 4H S\n";

std::vector<std::string> of_type(const std::vector<Event>& events, const std::string& type) {
  std::vector<std::string> out;
  for (const Event& e : events)
    if (e.type == type) out.push_back(std::to_string(e.board) + " at " + std::to_string(e.time));
  return out;
}

std::size_t count(const std::vector<Event>& events, const std::string& type) {
  return static_cast<std::size_t>(std::count_if(events.begin(), events.end(), [&](const Event& e) { return e.type == type; }));
}
}  // namespace

// East's pocket half over the slot when the label is read again: the scan goes on, East's cards are
// East's, and the board is whole.
TEST(LabelReadAgain, TheSameLabelReadAgainDuringAStationScanRaisesNoAlert) {
  auto again = test::run(scanned("at 14 board Spring Pairs/1/3\nat 26 board Spring Pairs/1/3\n"));
  auto once = test::run(scanned(""));
  EXPECT_EQ(irregularities(again), Types{}) << test::dump(again);
  EXPECT_EQ(test::dump(again), test::dump(once));
  EXPECT_EQ(of_type(again, "board.verified"), Types{"3 at 40400"}) << test::dump(again);
}

// A reader under each pocket: two pockets read, the label read again, then the other two.
TEST(LabelReadAgain, TheSameLabelReadAgainBetweenThePocketsOfACameraStationRaisesNoAlert) {
  const std::string start = "zones station-hands\nat 0 board Spring Pairs/1/3\nat 1 hand N as master\nat 1 hand E as master\n";
  const std::string rest = "at 3 hand S as master\nat 3 hand W as master\nend 5\n";
  auto again = test::run(start + "at 2 board Spring Pairs/1/3\n" + rest);
  EXPECT_EQ(irregularities(again), Types{}) << test::dump(again);
  EXPECT_EQ(test::dump(again), test::dump(test::run(start + rest)));
}

TEST(LabelReadAgain, TheSameLabelReadAgainInPlayIsNotASecondIdentification) {
  const std::string play = "at 22 play all as master contract 4H S\nat 90 pockets full\nend 95\n";
  auto again = test::run(kPlayed + "at 10 board Spring Pairs/1/1\nat 40 board Spring Pairs/1/1\n" + play);
  EXPECT_EQ(count(again, "board.identified"), 1u) << test::dump(again);
  EXPECT_EQ(test::dump(again), test::dump(test::run(kPlayed + play)));
}

// The board was turned a seat before play (Law 87A): the table checks the play against the hands as the
// turn put them. Reading the label again does not take it back to the master's seats, where every card
// would be another hand's.
TEST(LabelReadAgain, TheSameLabelReadAgainInPlayKeepsTheCauseAlreadyFound) {
  const std::string play = "at 22 play all as master turned 1 contract 4H S\nat 90 pockets full\nend 95\n";
  auto again = test::run(kPlayed + "at 50 board Spring Pairs/1/1\n" + play);
  EXPECT_EQ(test::dump(again), test::dump(test::run(kPlayed + play)));
}

// The next board's label: the board scanned before it is checked then, as it was read, and the next
// scan is the next board's.
TEST(LabelReadAgain, ADifferentLabelStillEndsAndChecksThePreviousScan) {
  auto ev = test::run(scanned("at 38.5 board Spring Pairs/1/4\nat 40 scan pocket N as master\nat 50 scan pocket E as master\n"
                              "at 60 scan pocket S as master\nat 70 scan pocket W as master\n", "", 85));
  EXPECT_EQ(irregularities(ev), Types{}) << test::dump(ev);
  EXPECT_EQ(of_type(ev, "board.verified"), (Types{"3 at 38500", "4 at 79400"})) << test::dump(ev);
  EXPECT_EQ(of_type(ev, "board.identified"), (Types{"3 at 0", "4 at 38500"})) << test::dump(ev);
}

// Half a board, then the next board's label: what was read is checked (the director moved on with a
// board not fully read, and is told), as before.
TEST(LabelReadAgain, ADifferentLabelInTheMiddleOfAScanChecksWhatWasRead) {
  auto ev = test::run("zones station-scan\nat 0 board Spring Pairs/1/3\nat 1 scan pocket N as master\nat 11 scan pocket E as master\n"
                      "at 20 board Spring Pairs/1/4\nend 25\n");
  EXPECT_EQ(irregularities(ev), (Types{"wrong_count", "missing_card"})) << test::dump(ev);
  EXPECT_EQ(test::first(ev, "irregularity.wrong_count")->board, 3) << test::dump(ev);
}

// Once the station has checked the board, its label read again starts a fresh check: the director who
// put the missing card back reads the label and scans the board again, and the board is verified.
TEST(LabelReadAgain, TheSameLabelAfterTheCheckStartsAFreshCheck) {
  auto ev = test::run(scanned("at 45 board Spring Pairs/1/3\nat 46 scan pocket N as master\nat 56 scan pocket E as master\n"
                              "at 66 scan pocket S as master\nat 76 scan pocket W as master\n",
                              " -SA", 90));
  EXPECT_EQ(irregularities(ev), (Types{"wrong_count", "missing_card"})) << test::dump(ev);
  EXPECT_EQ(of_type(ev, "board.identified"), (Types{"3 at 0", "3 at 45000"})) << test::dump(ev);
  EXPECT_EQ(of_type(ev, "board.verified"), Types{"3 at 85400"}) << test::dump(ev);
}

// After board.returned the board is no longer in progress: its label read again names it afresh (the table
// cannot tell the tag read again from the board taken out to be played again, and a name left stale is
// replaced by the next board's label).
TEST(LabelReadAgain, TheLabelOfTheBoardJustReturnedNamesItAgain) {
  auto ev = test::run(kPlayed + "at 22 play all as master contract 4H S\nat 90 pockets full\nat 92 board Spring Pairs/1/1\nend 95\n");
  EXPECT_EQ(of_type(ev, "board.identified"), (Types{"1 at 0", "1 at 92000"})) << test::dump(ev);
  EXPECT_EQ(irregularities(ev), Types{}) << test::dump(ev);
}

// ---------------------------------------------------------------------------------------------------
// A label read late: the station's operator takes North's cards out and scans them before the board lies
// on the label reader. The board being scanned had no name; the label that comes now is its own when the
// cards read so far are that deal's (each pocket's cards from one of its hands). It names the board in
// progress -- the scan goes on and is checked whole against it -- where ending the scan there would check
// half a board: a pocket short (Law 13A) and cards missing (Law 14) for a board that is whole.

// Board 3 unnamed, its label read while East's pocket passes over the slot.
TEST(LabelReadLate, TheLabelOfTheBoardBeingScannedNamesItAndTheScanGoesOn) {
  const std::string b3 = " board Spring_Pairs/1/3";
  auto ev = test::run("zones station-scan\nat 1 scan pocket N as master" + b3 + "\nat 11 scan pocket E as master" + b3 +
                      "\nat 14 board Spring Pairs/1/3\nat 21 scan pocket S as master" + b3 + "\nat 31 scan pocket W as master" + b3 +
                      "\nend 45\n");
  EXPECT_EQ(irregularities(ev), Types{}) << test::dump(ev);
  EXPECT_EQ(of_type(ev, "board.identified"), Types{"3 at 14000"}) << test::dump(ev);
  EXPECT_EQ(of_type(ev, "board.verified"), Types{"3 at 40400"}) << test::dump(ev);
  EXPECT_EQ(count(ev, "board.arrived"), 1u) << test::dump(ev);
}

// Late, and the board fouled: two cards exchanged between East and South. The label still names the
// board being scanned (one card of a pocket from another hand is a fouled board, not another board), and
// the check lists the two cards (Law 87A), nothing else.
TEST(LabelReadLate, TheLabelOfAFouledBoardBeingScannedStillNamesItAndTheCheckFindsTheFoul) {
  const std::string b3 = " board Spring_Pairs/1/3";
  auto ev = test::run("zones station-scan\nat 1 scan pocket N as master" + b3 + "\nat 11 scan pocket E as master -HA +DJ" + b3 +
                      "\nat 17 board Spring Pairs/1/3\nat 21 scan pocket S as master -DJ +HA" + b3 + "\nat 31 scan pocket W as master" + b3 +
                      "\nend 45\n");
  EXPECT_EQ(irregularities(ev), Types{"deal_mismatch"}) << test::dump(ev);
  EXPECT_EQ(of_type(ev, "board.identified"), Types{"3 at 17000"}) << test::dump(ev);
}

// A camera station (a reader under each pocket): North and East read, then the label.
TEST(LabelReadLate, TheLabelReadBetweenThePocketsOfACameraStationNamesTheBoardInProgress) {
  const std::string b3 = " board Spring_Pairs/1/3";
  auto ev = test::run("zones station-hands\nat 1 hand N as master" + b3 + "\nat 1 hand E as master" + b3 +
                      "\nat 2 board Spring Pairs/1/3\nat 3 hand S as master" + b3 + "\nat 3 hand W as master" + b3 + "\nend 5\n");
  EXPECT_EQ(irregularities(ev), Types{}) << test::dump(ev);
  EXPECT_EQ(of_type(ev, "board.verified"), Types{"3 at 3200"}) << test::dump(ev);  // West's and South's hands steady
}

// Another board's label while an unnamed board's pockets are scanned: the cards read are not that deal's,
// so the operator has moved on -- what was read is checked as it is (and the director told), and the next
// scan is the labelled board's, verified whole.
TEST(LabelReadLate, AnotherBoardsLabelMidScanStillChecksWhatWasRead) {
  const std::string b3 = " board Spring_Pairs/1/3";
  auto ev = test::run("zones station-scan\nat 1 scan pocket N as master" + b3 + "\nat 11 scan pocket E as master" + b3 +
                      "\nat 20 board Spring Pairs/1/4\nat 21 scan pocket N as master\nat 31 scan pocket E as master\n"
                      "at 41 scan pocket S as master\nat 51 scan pocket W as master\nend 65\n");
  EXPECT_FALSE(irregularities(ev).empty()) << test::dump(ev);
  for (const Event& e : ev) {
    if (e.type.rfind("irregularity.", 0) == 0) {
      EXPECT_NE(e.board, 4) << test::dump(ev);
    }
  }
  EXPECT_EQ(of_type(ev, "board.identified"), Types{"4 at 20000"}) << test::dump(ev);
  EXPECT_EQ(of_type(ev, "board.verified"), Types{"4 at 60400"}) << test::dump(ev);
}
