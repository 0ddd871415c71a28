// The board-checking station, law by law. Board "Spring Pairs/1/3" (dealer South):
//   N Q7.K62.QT94.KJ85  E JT2.AJT73.A82.A6  S K9654.Q9.J653.Q7  W A83.854.K7.T9432
#include <gtest/gtest.h>

#include "table/table.hpp"
#include "table_test_support.hpp"

using namespace cardtable::table;
using cardtable::bridge::Card;
using test::irregularities;
using test::run;
using Types = std::vector<std::string>;

namespace {
// The four pockets of a board read by the camera station, with what each pocket holds.
std::string hands(const std::string& label, const std::string& n, const std::string& e, const std::string& s, const std::string& w) {
  return "zones station-hands\nat 0 board " + label + "\nat 1 hand N as master " + n + "\nat 1 hand E as master " + e +
         "\nat 1 hand S as master " + s + "\nat 1 hand W as master " + w + "\nend 5\n";
}
const std::string kBoard3 = "Spring Pairs/1/3";
}  // namespace

TEST(BoardVerified, FourHandsOfThirteenAsInTheMasterRecord) {
  auto ev = run(hands(kBoard3, "", "", "", ""));
  EXPECT_EQ(irregularities(ev), Types{}) << test::dump(ev);
  ASSERT_NE(test::first(ev, "board.verified"), nullptr);
  EXPECT_EQ(test::first(ev, "board.verified")->board, 3);
}

TEST(WrongCount, FourteenWestTwelveNorthBeforeAnyCall) {
  auto ev = run(hands(kBoard3, "-SQ", "", "", "+SQ"));
  EXPECT_EQ(irregularities(ev), (Types{"wrong_count", "deal_mismatch"})) << test::dump(ev);
  const Event* e = test::first(ev, "irregularity.wrong_count");
  EXPECT_EQ(e->message, "Board 3: West holds 14 cards, North 12 \u2014 no call made yet (Law 13A)");
  EXPECT_EQ(e->laws, std::vector<std::string>{"13A"});
  EXPECT_EQ(*e->find("observed"), "W=14 N=12");
  EXPECT_EQ(*test::first(ev, "irregularity.deal_mismatch")->find_card("misplaced"), "SQ:N->W");
}

TEST(MissingCard, TheAceOfSpadesIsNowhere) {
  auto ev = run(hands(kBoard3, "", "", "", "-SA"));
  EXPECT_EQ(irregularities(ev), (Types{"wrong_count", "missing_card"})) << test::dump(ev);
  EXPECT_EQ(*test::first(ev, "irregularity.missing_card")->find_card("missing"), "SA");
  EXPECT_EQ(test::first(ev, "irregularity.missing_card")->seats, std::vector<Seat>{Seat::West});
}

TEST(SurplusCard, TheSameCardInTwoPockets) {
  // A second ace of hearts (from another pack) in South's pocket, in place of the queen of hearts.
  auto ev = run(hands(kBoard3, "", "", "-HQ +HA", ""));
  EXPECT_EQ(irregularities(ev), (Types{"surplus_card", "missing_card"})) << test::dump(ev);
  EXPECT_EQ(*test::first(ev, "irregularity.surplus_card")->find_card("card"), "HA");
}

// A reader under each pocket (hand:N..W, with tag ids): West's pocket holds its own ♠A and a ♠A of another
// pack -- two tags of one face. Two cards: West holds 14 (Law 13A) and a card was read twice in one pocket
// (Law 13C), the two tags named for the director to find the stranger.
TEST(SurplusCard, TwoAcesOfSpadesFromTwoPacksInOnePocketMakeFourteen) {
  auto ev = run("zones station-hands\ntags\nat 0 board " + kBoard3 +
                "\nat 1 hand N as master\nat 1 hand E as master\nat 1 hand S as master\nat 1 hand W as master +SA@2\nend 5\n");
  EXPECT_EQ(irregularities(ev), (Types{"wrong_count", "surplus_card"})) << test::dump(ev);
  const Event* count = test::first(ev, "irregularity.wrong_count");
  ASSERT_NE(count, nullptr) << test::dump(ev);
  EXPECT_EQ(count->message, "Board 3: West holds 14 cards \u2014 no call made yet (Law 13A)");
  const Event* surplus = test::first(ev, "irregularity.surplus_card");
  ASSERT_NE(surplus, nullptr);
  EXPECT_EQ(surplus->laws, std::vector<std::string>{"13C"});
  EXPECT_EQ(surplus->seats, std::vector<Seat>{Seat::West});
  EXPECT_EQ(*surplus->find_card("card"), "SA");
  const Card sa = *Card::parse("SA");
  EXPECT_EQ(*surplus->find_card("uids"), scenario_tag_uid(sa, 1) + "," + scenario_tag_uid(sa, 2));
}

// One card (one tag) passed over the scan slot again: no wrong count, no surplus card, the board verified;
// the operator told in words that name no card (the board goes on to the table), the card and its tag
// for the director. The warning, or null.
const Event* counted_once_and_operator_told(const std::vector<Event>& ev, const std::string& cause, const std::string& card) {
  EXPECT_EQ(irregularities(ev), Types{}) << test::dump(ev);
  EXPECT_NE(test::first(ev, "board.verified"), nullptr) << test::dump(ev);
  const Event* told = test::first(ev, "reading.uncertain");
  if (!told) return nullptr;
  EXPECT_EQ(told->severity, Severity::Warning);
  EXPECT_EQ(*told->find("cause"), cause);
  const Card c = *Card::parse(card);
  EXPECT_EQ(told->message.find(c.display().substr(0, 3)), std::string::npos) << "public words name no suit: " << told->message;
  EXPECT_EQ(*told->find_card("card"), card);
  EXPECT_EQ(*told->find_card("uid"), scenario_tag_uid(c, 1));
  return told;
}

// The scan slot with tag ids: North's ♠Q passed over the slot a second time is the same tag -- the same
// card. Counted once: no wrong count, no surplus card; the operator is told (reading.uncertain).
TEST(Station, OneCardPassedOverTheSlotTwiceIsCountedOnce) {
  auto ev = run("zones station-scan\ntags\nat 0 board " + kBoard3 + "\nat 1 scan pocket N as master\nat 9.5 scan SQ\n"
                "at 12 scan pocket E as master\nat 22 scan pocket S as master\nat 32 scan pocket W as master\nend 46\n");
  const Event* told = counted_once_and_operator_told(ev, "card passed twice", "SQ");
  ASSERT_NE(told, nullptr) << test::dump(ev);
  EXPECT_EQ(told->seats, std::vector<Seat>{Seat::North});
}

// North's last card (♣5) left lying on the scan slot, and passed over it again as East's pocket starts:
// the same tag is the same card, wherever it is passed again -- one card, not Law 13C's surplus card.
// It was North's when first read: counted there, and the operator told to check it went back to North.
const std::string kPassedAgainInEast = "at 1 scan pocket N as master\nat 12 scan C5\nat 12.6 scan pocket E as master\n"
                                       "at 22 scan pocket S as master\nat 32 scan pocket W as master\nend 46\n";

TEST(Station, OneCardPassedAgainInTheNextPocketIsCountedOnceWhereItWasFirstRead) {
  auto ev = run("zones station-scan\ntags\nat 0 board " + kBoard3 + "\n" + kPassedAgainInEast);
  const Event* told = counted_once_and_operator_told(ev, "card passed again in another pocket", "C5");
  ASSERT_NE(told, nullptr) << test::dump(ev);
  EXPECT_EQ(*told->find("pocket"), "E");
  EXPECT_EQ(*told->find("counted_in"), "N");
  EXPECT_EQ(told->seats, (std::vector<Seat>{Seat::North, Seat::East}));
}

// The same moment with another pack's ♣5 (another tag) is a second card: East holds 14, Law 13C.
TEST(SurplusCard, AnotherPacksCardPassedInTheNextPocketIsStillASurplusCard) {
  std::string script = kPassedAgainInEast;
  script.replace(script.find("scan C5"), 7, "scan C5@2");
  auto ev = run("zones station-scan\ntags\nat 0 board " + kBoard3 + "\n" + script);
  EXPECT_EQ(irregularities(ev), (Types{"wrong_count", "surplus_card"})) << test::dump(ev);
  EXPECT_EQ(*test::first(ev, "irregularity.wrong_count")->find("observed"), "E=14");
  EXPECT_EQ(test::first(ev, "reading.uncertain"), nullptr) << test::dump(ev);
}

// West's pocket holds its own ♠A and another pack's, passed over the slot one after the other (a sorted
// hand puts them side by side): the slot is empty for a moment between them, too short to read as empty,
// and the face is the same -- but the tag is another, so it is a second card: West holds 14 (Law 13A),
// a card read twice (Law 13C), both tags named for the director.
TEST(SurplusCard, AnotherPacksAceOfSpadesPassedRightAfterThePocketsOwnIsASecondCard) {
  auto ev = run("zones station-scan\ntags\nat 0 board " + kBoard3 + "\nat 1 scan pocket N as master\nat 12 scan pocket E as master\n"
                "at 22 scan pocket S as master\nat 32 scan pocket W as master +SA@2\nend 46\n");
  EXPECT_EQ(irregularities(ev), (Types{"wrong_count", "surplus_card"})) << test::dump(ev);
  const Event* count = test::first(ev, "irregularity.wrong_count");
  ASSERT_NE(count, nullptr) << test::dump(ev);
  EXPECT_EQ(*count->find("observed"), "W=14");
  const Event* surplus = test::first(ev, "irregularity.surplus_card");
  ASSERT_NE(surplus, nullptr) << test::dump(ev);
  const Card sa = *Card::parse("SA");
  EXPECT_EQ(*surplus->find_card("uids"), scenario_tag_uid(sa, 1) + "," + scenario_tag_uid(sa, 2));
}

// A second ♠Q -- another tag, another pack's -- over the slot is still Law 13C's surplus card, and without
// tag ids (a camera, a reader that gives none) nothing tells the same card from a second: 13C too.
TEST(SurplusCard, AnotherPacksCardOverTheSlotOrOneWithoutTagIdsIsStillASurplusCard) {
  for (const auto& [tags, again] : std::vector<std::pair<std::string, std::string>>{{"tags\n", "SQ@2"}, {"", "SQ"}}) {
    auto ev = run("zones station-scan\n" + tags + "at 0 board " + kBoard3 + "\nat 1 scan pocket N as master\nat 9.5 scan " + again +
                  "\nat 12 scan pocket E as master\nat 22 scan pocket S as master\nat 32 scan pocket W as master\nend 46\n");
    EXPECT_EQ(irregularities(ev), (Types{"wrong_count", "surplus_card"})) << again << "\n" << test::dump(ev);
    EXPECT_EQ(*test::first(ev, "irregularity.wrong_count")->find("observed"), "N=14") << again;
  }
}

TEST(DealMismatch, TwoCardsExchangedBetweenEastAndSouthAreListed) {
  auto ev = run(hands(kBoard3, "", "-HA +DJ", "-DJ +HA", ""));
  EXPECT_EQ(irregularities(ev), Types{"deal_mismatch"}) << test::dump(ev);
  EXPECT_EQ(*test::first(ev, "irregularity.deal_mismatch")->find_card("misplaced"), "HA:E->S DJ:S->E");
}

TEST(BoardRotated, TurnedOneSeatClockwise) {
  auto ev = run(hands(kBoard3, "W", "N", "E", "S"));
  EXPECT_EQ(irregularities(ev), Types{"board_rotated"}) << test::dump(ev);
  EXPECT_EQ(*test::first(ev, "irregularity.board_rotated")->find("how"), "turned 1 seat clockwise");
}

TEST(BoardRotated, NorthAndSouthHandsInEachOthersPockets) {
  auto ev = run(hands(kBoard3, "S", "", "N", ""));
  EXPECT_EQ(irregularities(ev), Types{"board_rotated"}) << test::dump(ev);
  EXPECT_EQ(*test::first(ev, "irregularity.board_rotated")->find("pockets"), "N<-S E<-E S<-N W<-W");
}

TEST(WrongBoard, TheDealOfAnotherBoardOfTheSameSession) {
  auto ev = run(hands(kBoard3, "board 1/4", "board 1/4", "board 1/4", "board 1/4"));
  EXPECT_EQ(irregularities(ev), Types{"wrong_board"}) << test::dump(ev);
  EXPECT_EQ(*test::first(ev, "irregularity.wrong_board")->find("found"), "Spring Pairs / 1, board 4");
}

TEST(ForeignSession, TheDealOfABoardOfAnotherEvent) {
  std::string b = "board Autumn_Teams/1/2";
  auto ev = run(hands(kBoard3, b, b, b, b));
  EXPECT_EQ(irregularities(ev), Types{"foreign_session"}) << test::dump(ev);
  EXPECT_EQ(test::first(ev, "irregularity.foreign_session")->laws, std::vector<std::string>{"6D2"});
}

TEST(ForeignSession, BoardOneOfTheOtherSessionOfTheSameEvent) {
  std::string b = "board 2/1";
  auto ev = run(hands("Spring Pairs/1/1", b, b, b, b));
  EXPECT_EQ(irregularities(ev), Types{"foreign_session"}) << test::dump(ev);
}

TEST(UnshuffledDeal, ASortedPackDealtInThrees) {
  // Spades to clubs, aces first, dealt in packets of three (and a last round of ones).
  std::string script = "zones station-hands\nat 0 board Spring Pairs/1/3\n"
                       "at 1 hand N SA SK SQ S2 HA HK H3 H2 DA D4 D3 D2 C5\n"
                       "at 1 hand E SJ ST S9 HQ HJ HT DK DQ DJ CA CK CQ C4\n"
                       "at 1 hand S S8 S7 S6 H9 H8 H7 DT D9 D8 CJ CT C9 C3\n"
                       "at 1 hand W S5 S4 S3 H6 H5 H4 D7 D6 D5 C8 C7 C6 C2\nend 5\n";
  auto ev = run(script);
  EXPECT_EQ(irregularities(ev), Types{"unshuffled_deal"}) << test::dump(ev);
}

TEST(BoardIdentified, FromAllFiftyTwoCardsWithoutALabel) {
  auto ev = run("zones station-hands\nat 1 hand N as master board 1/6\nat 1 hand E as master board 1/6\n"
                "at 1 hand S as master board 1/6\nat 1 hand W as master board 1/6\nend 5\n");
  EXPECT_EQ(irregularities(ev), Types{}) << test::dump(ev);
  ASSERT_NE(test::first(ev, "board.identified"), nullptr);
  EXPECT_EQ(*test::first(ev, "board.identified")->find("board"), "Spring Pairs / 1, board 6");
}

TEST(Station, ScanSlotPocketsSeparatedByAPause) {
  auto ev = run("zones station-scan\nat 0 board Spring Pairs/1/3\nat 1 scan pocket N as master\nat 11 scan pocket E as master\n"
                "at 21 scan pocket S as master\nat 31 scan pocket W as master\nend 45\n");
  EXPECT_EQ(irregularities(ev), Types{}) << test::dump(ev);
  EXPECT_NE(test::first(ev, "board.verified"), nullptr) << test::dump(ev);
}

TEST(Station, TwoBoardsOneAfterTheOther) {
  std::string script = "zones station-scan\nat 0 board Spring Pairs/1/3\n";
  for (int p = 0; p < 4; ++p) script += "at " + std::to_string(1 + 10 * p) + " scan pocket " + "NESW"[p] + " as master\n";
  script += "at 42 board Spring Pairs/1/4\n";
  for (int p = 0; p < 4; ++p) script += "at " + std::to_string(43 + 10 * p) + " scan pocket " + "NESW"[p] + " as master W\n";
  auto ev = run(script + "end 90\n");
  // The first board is verified; the second has West's hand in every pocket.
  EXPECT_EQ(std::count_if(ev.begin(), ev.end(), [](const Event& e) { return e.type == "board.verified"; }), 1) << test::dump(ev);
  EXPECT_NE(test::first(ev, "irregularity.surplus_card"), nullptr);
}

// A tag that is no card, read with its UID (an RFID reader says which tag): the UID is in the director-only
// detail of irregularity.unknown_card, never in the public evidence.
TEST(UnknownCard, TheTagsUidIsInTheDirectorsDetail) {
  std::vector<ScenarioError> errors;
  auto sc = parse_scenario("master memory\nzones station-scan\nat 0 board Spring Pairs/1/3\nat 1 scan pocket N as master -SQ\n"
                           "at 9 scan unknown\nat 12 scan pocket E as master\nat 22 scan pocket S as master\nat 32 scan pocket W as master\nend 46\n",
                           ".", [](const auto&) -> const cardtable::bridge::MasterRecord& { return test::master(); }, errors);
  ASSERT_TRUE(sc);
  Table table(test::master(), sc->config);
  for (TableInput in : scenario_inputs(*sc)) {
    if (in.kind == TableInput::Kind::Observe && in.observation.unknown) in.observation.unknown_ids = {"04DEADBEEF0001"};
    apply(table, in);
  }
  auto ev = table.take_events();
  const Event* e = test::first(ev, "irregularity.unknown_card");
  ASSERT_NE(e, nullptr) << test::dump(ev);
  EXPECT_EQ(*e->find("unknown"), "1");
  ASSERT_NE(e->find_card("uids"), nullptr);
  EXPECT_EQ(*e->find_card("uids"), "04DEADBEEF0001");
  EXPECT_EQ(e->find("uids"), nullptr);
}

// A stray tag put down in play (a card of another pack): irregularity.unknown_card once for the settled
// reading, its UID in the director-only detail; the board's own play is not disturbed by it.
TEST(UnknownCard, AStrayTagInAPlayAreaIsReportedOnceWithItsUidForTheDirector) {
  std::vector<ScenarioError> errors;
  auto sc = parse_scenario("master memory\nzones playing-table\nat 0 board Spring Pairs/1/3\nat 0 pockets full\n"
                           "at 1 pocket N empty\nat 1 pocket S empty\nat 2 pocket E empty\nat 2 pocket W empty\n"
                           "at 10 read play:W - unknown 1\nat 14 clear play:W\nend 20\n",
                           ".", [](const auto&) -> const cardtable::bridge::MasterRecord& { return test::master(); }, errors);
  ASSERT_TRUE(sc) << (errors.empty() ? "" : errors.front().message);
  Table table(test::master(), sc->config);
  for (TableInput in : scenario_inputs(*sc)) {
    if (in.kind == TableInput::Kind::Observe && in.observation.unknown) in.observation.unknown_ids = {"04DEADBEEF0002"};
    apply(table, in);
  }
  auto ev = table.take_events();
  EXPECT_EQ(std::count_if(ev.begin(), ev.end(), [](const Event& e) { return e.type == "irregularity.unknown_card"; }), 1) << test::dump(ev);
  const Event* e = test::first(ev, "irregularity.unknown_card");
  ASSERT_NE(e, nullptr) << test::dump(ev);
  EXPECT_EQ(e->seats, std::vector<cardtable::bridge::Seat>{cardtable::bridge::Seat::West});
  EXPECT_EQ(*e->find("zone"), "play:W");
  EXPECT_EQ(*e->find("unknown"), "1");
  ASSERT_NE(e->find_card("uids"), nullptr);
  EXPECT_EQ(*e->find_card("uids"), "04DEADBEEF0002");
  EXPECT_EQ(e->find("uids"), nullptr);
  EXPECT_EQ(e->message, "Board 3: a tag in West's play area is no card of the enrolled deck");
}

// Dummy's cards lie face up on the table, read by dummy's antenna; a stray tag among them (a card of
// another pack put down with dummy's hand) is irregularity.unknown_card in dummy's zone, once for the
// settled reading, its UID for the director only; dummy's own cards are read as they are.
TEST(UnknownCard, AStrayTagAmongDummysCardsIsReportedOnceWithItsUidForTheDirector) {
  const auto& master = test::master();
  auto entry = master.find("Spring Pairs", "1", 3);
  ASSERT_TRUE(entry);
  std::string lead;  // West's opening lead against 3NT by South: any card West holds
  master.board(*entry).deal.hand(cardtable::bridge::Seat::West).for_each_descending([&](cardtable::bridge::Card c) { lead = c.str(); });
  std::vector<ScenarioError> errors;
  auto sc = parse_scenario("master memory\nzones playing-table\n"
                           "at 0 board Spring Pairs/1/3\nat 0 pockets full\n"
                           "at 1 pocket N empty\nat 1 pocket S empty\nat 2 pocket E empty\nat 2 pocket W empty\n"
                           "at 3 contract 3NT S\nat 10 play W " + lead + "\n"
                           "at 11 dummy as master N\nend 20\n",
                           ".", [](const auto&) -> const cardtable::bridge::MasterRecord& { return test::master(); }, errors);
  ASSERT_TRUE(sc) << (errors.empty() ? "" : std::to_string(errors.front().line) + ": " + errors.front().message);
  ASSERT_TRUE(sc->config.has(Zone{ZoneKind::Dummy, cardtable::bridge::Seat::North}));
  // The stray tag lies among dummy's cards from the moment they are put down.
  for (ScenarioStep& step : sc->steps)
    if (step.kind == ScenarioStep::Kind::Read && step.zone.kind == ZoneKind::Dummy && !step.cards.empty()) step.unknown = 1;
  Table table(test::master(), sc->config);
  for (TableInput in : scenario_inputs(*sc)) {
    if (in.kind == TableInput::Kind::Observe && in.observation.unknown) in.observation.unknown_ids = {"04DEADBEEF0003"};
    apply(table, in);
  }
  auto ev = table.take_events();
  EXPECT_EQ(std::count_if(ev.begin(), ev.end(), [](const Event& e) { return e.type == "irregularity.unknown_card"; }), 1) << test::dump(ev);
  const Event* e = test::first(ev, "irregularity.unknown_card");
  ASSERT_NE(e, nullptr) << test::dump(ev);
  EXPECT_EQ(*e->find("zone"), "dummy");
  EXPECT_EQ(*e->find("unknown"), "1");
  ASSERT_NE(e->find_card("uids"), nullptr);
  EXPECT_EQ(*e->find_card("uids"), "04DEADBEEF0003");
  EXPECT_EQ(e->find("uids"), nullptr);
  EXPECT_NE(e->message.find("dummy"), std::string::npos) << e->message;
  // Dummy's own cards are read as they are: nothing else is irregular.
  for (const Event& x : ev) EXPECT_TRUE(!x.type.starts_with("irregularity.") || x.type == "irregularity.unknown_card") << test::dump(ev);
}
