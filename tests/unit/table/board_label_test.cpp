// A board label without its event ("4", "1/4") at a station given the whole tournament's deal files:
// the board of the event being played, not of whichever event's file happened to load first. Autumn
// Teams' file loads before Spring Pairs' here, as the files of a folder do (by name), and both events
// have a session 1.
#include <gtest/gtest.h>

#include "bridge/synthetic_record.hpp"
#include "table/command.hpp"
#include "table/scenario.hpp"
#include "table_test_support.hpp"

using namespace cardtable::table;
using cardtable::bridge::MasterRecord;
using test::irregularities;
using Types = std::vector<std::string>;

namespace {
const MasterRecord& tournament() {
  static const MasterRecord m = [] {
    MasterRecord r;
    cardtable::bridge::add_synthetic_records(r, 4, 4, 9, "Autumn Teams");
    cardtable::bridge::add_synthetic_records(r, 16, 8, 7, "Spring Pairs");
    return r;
  }();
  return m;
}

std::uint32_t board(const std::string& event, const std::string& session, int number) {
  auto b = tournament().find(event, session, number);
  if (!b) throw std::runtime_error("no board " + event + "/" + session + "/" + std::to_string(number));
  return *b;
}

std::uint32_t session_of(std::uint32_t board) { return tournament().board(board).session; }

std::vector<Event> run_at_the_tournament(const std::string& script) {
  std::vector<ScenarioError> errors;
  auto sc = parse_scenario("master tournament\n" + script, ".", [](const auto&) -> const MasterRecord& { return tournament(); }, errors);
  if (!sc) throw std::runtime_error(errors.empty() ? "scenario error" : errors.front().message);
  return run_scenario(*sc, tournament());
}
}  // namespace

TEST(BoardLabel, SessionAndBoardMeanTheEventBeingPlayed) {
  auto playing = session_of(board("Spring Pairs", "1", 3));
  EXPECT_EQ(resolve_board_label(tournament(), "1/4", playing), board("Spring Pairs", "1", 4));
  EXPECT_EQ(resolve_board_label(tournament(), "2/4", playing), board("Spring Pairs", "2", 4));
  EXPECT_EQ(resolve_board_label(tournament(), "4", playing), board("Spring Pairs", "1", 4));
}

TEST(BoardLabel, AnotherEventIsNamedInFullOrHasTheOnlySessionOfThatName) {
  auto playing = session_of(board("Autumn Teams", "1", 1));
  EXPECT_EQ(resolve_board_label(tournament(), "Spring Pairs/1/4", playing), board("Spring Pairs", "1", 4));
  EXPECT_EQ(resolve_board_label(tournament(), "2/4", playing), board("Spring Pairs", "2", 4));  // Autumn Teams has no session 2
  EXPECT_EQ(resolve_board_label(tournament(), "1/7", playing), board("Spring Pairs", "1", 7));  // nor a board 7
}

TEST(BoardLabel, TheDirectorsSecondLabelStaysInTheEventBeingPlayed) {
  auto ev = run_at_the_tournament("zones station-hands\nat 0 board Spring Pairs/1/3\nat 1 board 1/4\nend 2\n");
  std::vector<std::string> named;
  for (const Event& e : ev)
    if (e.type == "board.identified") named.push_back(*e.find("board"));
  EXPECT_EQ(named, (Types{"Spring Pairs / 1, board 3", "Spring Pairs / 1, board 4"})) << test::dump(ev);
}

// Law 87A against Law 6D2: board 4 of this session in the pockets of board 3 is a wrong board, not a deal
// of another session, whatever else the station has loaded.
TEST(BoardLabel, BoardFourOfThisSessionInBoardThreeIsAWrongBoardNotAForeignSession) {
  std::string as4 = " as master board 1/4\n";
  auto ev = run_at_the_tournament("zones station-hands\nat 0 board Spring Pairs/1/3\nat 1 hand N" + as4 + "at 1 hand E" + as4 + "at 1 hand S" + as4 +
                                  "at 1 hand W" + as4 + "end 5\n");
  EXPECT_EQ(irregularities(ev), Types{"wrong_board"}) << test::dump(ev);
  EXPECT_EQ(*test::first(ev, "irregularity.wrong_board")->find("found"), "Spring Pairs / 1, board 4");
}

// Before any board, "1/4" could be Autumn Teams' or Spring Pairs' board 4: the order the files loaded in
// does not choose. Once a board is being played, its event does.
TEST(BoardLabel, WithNothingBeingPlayedALabelOfTwoEventsNamesBoth) {
  EXPECT_EQ(boards_named_by_label(tournament(), "1/4", std::nullopt),
            (std::vector<std::uint32_t>{board("Autumn Teams", "1", 4), board("Spring Pairs", "1", 4)}));
  EXPECT_EQ(resolve_board_label(tournament(), "1/4", std::nullopt), std::nullopt);
  EXPECT_EQ(resolve_board_label(tournament(), "2/4", std::nullopt), board("Spring Pairs", "2", 4));  // one event has a session 2
  EXPECT_EQ(resolve_board_label(tournament(), "1/7", std::nullopt), board("Spring Pairs", "1", 7));  // one has a board 7
  EXPECT_EQ(board_label_problem(tournament(), "1/4", boards_named_by_label(tournament(), "1/4", std::nullopt)),
            "Board '1/4' could be 2 boards of the master record (Autumn Teams / 1, board 4; Spring Pairs / 1, board 4) and nothing "
            "being played tells which: name its event and session, e.g. 'Autumn Teams/1/4'");
}

// Law 6D2 is for a deal of another session, not for a label the station could not place: the first board of
// Spring Pairs checked at a station that loaded Autumn Teams' file first is verified by its cards, and the
// session it names is the one later labels are read in.
TEST(BoardLabel, AnAmbiguousFirstLabelIsRefusedAndTheCardsNameTheBoard) {
  std::string as4 = " as master board Spring_Pairs/1/4\n", as5 = " as master board Spring_Pairs/1/5\n";
  auto ev = run_at_the_tournament("zones station-hands\nat 0 board 1/4\nat 1 hand N" + as4 + "at 1 hand E" + as4 + "at 1 hand S" + as4 +
                                  "at 1 hand W" + as4 + "at 5 board 1/5\nat 6 hand N" + as5 + "at 6 hand E" + as5 + "at 6 hand S" + as5 +
                                  "at 6 hand W" + as5 + "end 10\n");
  EXPECT_EQ(irregularities(ev), Types{}) << test::dump(ev);
  const Event* refused = test::first(ev, "table.command_rejected");
  ASSERT_NE(refused, nullptr) << test::dump(ev);
  EXPECT_NE(refused->message.find("Autumn Teams / 1, board 4; Spring Pairs / 1, board 4"), std::string::npos) << refused->message;
  std::vector<std::string> verified, named;
  for (const Event& e : ev) {
    if (e.type == "board.verified") verified.push_back(e.event_name + "/" + e.session + "/" + std::to_string(e.board));
    if (e.type == "board.identified") named.push_back(*e.find("board"));
  }
  EXPECT_EQ(verified, (Types{"Spring Pairs/1/4", "Spring Pairs/1/5"})) << test::dump(ev);
  EXPECT_EQ(named, (Types{"Spring Pairs / 1, board 4", "Spring Pairs / 1, board 5"})) << test::dump(ev);
  EXPECT_EQ(*test::first(ev, "board.identified")->find("how"), "all 52 cards read");
}

TEST(BoardLabel, AScenarioCannotDealFromAnAmbiguousLabel) {
  std::vector<ScenarioError> errors;
  auto sc = parse_scenario("master tournament\nzones station-hands\nat 1 hand N as master board 1/4\nend 2\n", ".",
                           [](const auto&) -> const MasterRecord& { return tournament(); }, errors);
  EXPECT_FALSE(sc);
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors.front().message.find("could be 2 boards"), std::string::npos) << errors.front().message;
}
