// A restart mid-board resumes it: the last run's inputs go back into the table once, are not kept a second
// time while they do, and a board that ended leaves nothing to resume.
#include "daemon/board_resume.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace fs = std::filesystem;

namespace cardtable::daemon {
namespace {

class BoardResumeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("board-resume-test-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override { fs::remove_all(dir); }

  static table::TableInput contract(const std::string& text, table::Millis t) {
    table::TableInput in;
    in.kind = table::TableInput::Kind::Command;
    in.command.kind = table::Command::Kind::Contract;
    in.command.text = text;
    in.command.time = t;
    in.time = t;
    return in;
  }
  // What a restart replays: the commands given to `apply`, and whether each came while replaying.
  std::vector<std::string> replayed_by_a_restart(std::uint64_t first_seq = 1) {
    BoardResume again(file(), identity);
    std::vector<std::string> texts;
    again.resume(first_seq, 2000.0, nothing_held, [&](const table::TableInput& in, double) {
      EXPECT_TRUE(again.replaying());
      texts.push_back(in.command.text);
    });
    EXPECT_FALSE(again.replaying());
    return texts;
  }
  fs::path file() const { return dir / "board-in-progress.inputs"; }
  // A board in progress since the daemon started: no zone read anything when a board before it ended.
  static void nothing_held(const std::vector<table::Observation>& held, table::Millis,
                           const std::optional<table::PreviousBoard>& previous) {
    EXPECT_TRUE(held.empty()) << "readings held where no board ended";
    EXPECT_FALSE(previous) << "a previous board where none ended";
  }
  InputLog::Identity identity{"0123abcd/2", {"play:N"}};
  fs::path dir;
};

TEST_F(BoardResumeTest, WithNothingLeftByTheLastRunNothingIsReplayed) {
  BoardResume resume(file(), identity);
  bool applied = false;
  EXPECT_FALSE(resume.resume(1, 1000.0, nothing_held, [&](const table::TableInput&, double) { applied = true; }));
  EXPECT_FALSE(applied);
  EXPECT_TRUE(fs::exists(file())) << "a fresh file for the board to come";
}

// The cards played before a restart are held again by the replay and reach broadcasters after the embargo:
// they carried the restart's wall time, not the time they were played. Each replayed input comes with the
// wall time the last run applied it at.
TEST_F(BoardResumeTest, EachReplayedInputComesWithTheWallTimeTheLastRunAppliedItAt) {
  {
    BoardResume resume(file(), identity);
    resume.resume(7, 1000.0, nothing_held, [](const table::TableInput&, double) {});
    resume.logged(contract("4H S", 100), true, std::nullopt, 7, 1000.1);
    table::TableInput card;
    card.kind = table::TableInput::Kind::Observe;
    card.observation.zone = *table::Zone::parse("play:N");
    card.observation.cards = bridge::Hand::from_bits(1);
    for (table::Millis t : {150, 170, 190}) {  // a run of one reading: the last read made the table speak
      card.time = card.observation.time = t;
      resume.logged(card, t == 190, std::nullopt, 7, 1000.0 + static_cast<double>(t) / 1000.0);
    }
  }
  BoardResume again(file(), identity);
  std::vector<double> walls;
  ASSERT_TRUE(again.resume(9, 5000.0, nothing_held, [&](const table::TableInput&, double wall) { walls.push_back(wall); }));
  ASSERT_EQ(walls.size(), 4u);
  EXPECT_DOUBLE_EQ(walls[0], 1000.1) << "the contract, when it was given";
  EXPECT_DOUBLE_EQ(walls[3], 1000.19) << "the read that made the table speak, when it was read";
  for (double w : walls) EXPECT_LT(w, 5000.0) << "never the restart's time";
}

TEST_F(BoardResumeTest, TheInputsOfTheBoardInProgressAreReplayedOnceAtStart) {
  {
    BoardResume resume(file(), identity);
    resume.resume(7, 1000.0, nothing_held, [](const table::TableInput&, double) {});
    resume.logged(contract("4H S", 100), true, std::nullopt, 7, 1000.1);
    resume.logged(contract("3NT N", 200), true, std::nullopt, 7, 1000.2);
  }
  {
    BoardResume again(file(), identity);
    std::vector<std::string> texts;
    auto resumed = again.resume(9, 2000.0, nothing_held, [&](const table::TableInput& in, double) {
      // The loop applies the replayed input and logs it as any other: kept once only.
      texts.push_back(in.command.text);
      again.logged(in, true, std::nullopt, 9, 2000.0);
    });
    ASSERT_TRUE(resumed);
    EXPECT_EQ(texts, (std::vector<std::string>{"4H S", "3NT N"}));
    EXPECT_EQ(resumed->first_seq, 7u);
    EXPECT_EQ(resumed->last_time, 200);
    EXPECT_DOUBLE_EQ(resumed->last_wall, 1000.2);
    again.logged(contract("4S E", 300), true, std::nullopt, 9, 2000.3);  // this run's go on after them
  }
  // A second restart replays each input once.
  EXPECT_EQ(replayed_by_a_restart(), (std::vector<std::string>{"4H S", "3NT N", "4S E"}));
}

TEST_F(BoardResumeTest, ABoardThatEndedLeavesNothingToResume) {
  {
    BoardResume resume(file(), identity);
    resume.resume(1, 1000.0, nothing_held, [](const table::TableInput&, double) {});
    resume.logged(contract("4H S", 100), true, std::nullopt, 1, 1000.1);
    resume.logged(contract("pass", 200), true, BoardResume::Ended{}, 12, 1000.2);  // board.returned: the next starts afresh
  }
  EXPECT_TRUE(replayed_by_a_restart().empty());
}

// Between boards the file holds what the zones read when the last board ended: the last trick still in
// the play areas is that board's, and a restart gives it back to the table before anything else, even
// when nothing was read since (a restart at once).
TEST_F(BoardResumeTest, WhatTheZonesReadWhenABoardEndedIsGivenBackFirst) {
  table::Observation trick;
  trick.zone = *table::Zone::parse("play:N");
  trick.cards = bridge::Hand::from_bits(0x40000000000ULL);
  trick.card_ids.emplace(*bridge::Card::parse("S5"), "04a1b2c3");
  trick.time = 39'900;
  {
    BoardResume resume(file(), identity);
    resume.resume(1, 1000.0, nothing_held, [](const table::TableInput&, double) {});
    resume.logged(contract("4H S", 100), true, BoardResume::Ended{{trick}, 40'200}, 12, 1000.2);
  }
  BoardResume again(file(), identity);
  std::vector<table::Observation> held;
  table::Millis heard = 0;
  std::size_t applied = 0;
  auto resumed = again.resume(
      13, 2000.0,
      [&](const std::vector<table::Observation>& h, table::Millis at, const std::optional<table::PreviousBoard>&) {
        EXPECT_TRUE(again.replaying());
        held = h;
        heard = at;
      },
      [&](const table::TableInput&, double) { ++applied; });
  ASSERT_TRUE(resumed) << "the readings held are something to resume";
  EXPECT_EQ(applied, 0u);
  ASSERT_EQ(held.size(), 1u);
  EXPECT_EQ(held[0].zone.str(), "play:N");
  EXPECT_EQ(held[0].cards.bits(), trick.cards.bits());
  EXPECT_EQ(held[0].card_ids, trick.card_ids) << "with its tag, as the live table held it";
  EXPECT_EQ(heard, 40'200) << "last heard when the board ended";
  EXPECT_EQ(resumed->first_seq, 12u);
  EXPECT_EQ(resumed->last_time, 40'200) << "the table's clock goes on from there";
  EXPECT_DOUBLE_EQ(resumed->last_wall, 1000.2);
}

TEST_F(BoardResumeTest, AnotherTablesInputsAreNeverReplayedHere) {
  {
    BoardResume resume(file(), identity);
    resume.resume(1, 1000.0, nothing_held, [](const table::TableInput&, double) {});
    resume.logged(contract("4H S", 100), true, std::nullopt, 1, 1000.1);
  }
  identity.zones = {"play:N", "play:E"};
  EXPECT_TRUE(replayed_by_a_restart().empty());
}

// Law 6D2: how the last board's cards were quitted is kept between boards, each card with the seat that
// played it, so that a next deal dealt from them unshuffled is still told after a restart.
TEST_F(BoardResumeTest, HowTheLastBoardsCardsWereQuittedIsGivenBackFirst) {
  table::PreviousBoard played;
  played.name = "Spring Pairs / 1, board 1";
  for (const char* c : {"HA", "H2", "H3", "H4", "SK", "S2"}) played.tricks.push_back(*bridge::Card::parse(c));
  played.quitted[static_cast<std::size_t>(bridge::index(bridge::Seat::West))] = {played.tricks[0]};
  played.quitted[static_cast<std::size_t>(bridge::index(bridge::Seat::North))] = {played.tricks[1], played.tricks[5]};
  played.quitted[static_cast<std::size_t>(bridge::index(bridge::Seat::East))] = {played.tricks[2]};
  played.quitted[static_cast<std::size_t>(bridge::index(bridge::Seat::South))] = {played.tricks[3], played.tricks[4]};
  {
    BoardResume resume(file(), identity);
    resume.resume(1, 1000.0, nothing_held, [](const table::TableInput&, double) {});
    resume.logged(contract("4H S", 100), true, BoardResume::Ended{{}, 40'200, played}, 12, 1000.2);
  }
  BoardResume again(file(), identity);
  std::optional<table::PreviousBoard> given;
  auto resumed = again.resume(
      13, 2000.0,
      [&](const std::vector<table::Observation>&, table::Millis, const std::optional<table::PreviousBoard>& previous) { given = previous; },
      [](const table::TableInput&, double) {});
  ASSERT_TRUE(resumed) << "the previous board is something to resume";
  ASSERT_TRUE(given);
  EXPECT_EQ(given->name, played.name);
  EXPECT_EQ(given->tricks, played.tricks);
  EXPECT_EQ(given->quitted, played.quitted) << "each seat's pile in the order it played";
}

}  // namespace
}  // namespace cardtable::daemon
