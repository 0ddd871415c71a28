// Where a late joiner's snapshot begins and ends (docs/protocol.md, `snapshot`), by event type alone: the
// one rule the daemon and the hub both keep.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/board_span.hpp"

using cardtable::protocol::BoardSpan;
using Step = BoardSpan::Step;

namespace {

std::vector<Step> steps(const std::vector<std::string>& types) {
  BoardSpan span;
  std::vector<Step> out;
  for (const auto& t : types) out.push_back(span.on_event(t));
  return out;
}

}  // namespace

TEST(BoardSpan, TheDaemonsStartIsNoBoardsUntilOneBegins) {
  EXPECT_EQ(steps({"daemon.version", "record.loaded", "table.capabilities", "device.added", "board.identified"}),
            (std::vector<Step>{Step::Outside, Step::Outside, Step::Outside, Step::Outside, Step::Begins}));
}

TEST(BoardSpan, ABoardNamedBeforeItsCardsCameIsOneBoardFromItsLabel) {
  EXPECT_EQ(steps({"board.identified", "board.arrived", "board.identified", "director.contract"}),
            (std::vector<Step>{Step::Begins, Step::Within, Step::Within, Step::Within}));
}

TEST(BoardSpan, CardsAfterCardsAreANewBoardAtTheStation) {
  EXPECT_EQ(steps({"board.arrived", "board.identified", "board.arrived"}), (std::vector<Step>{Step::Begins, Step::Within, Step::Begins}));
}

TEST(BoardSpan, AReturnOrAVerificationEndsTheBoardAndWhatFollowsIsNoBoardsUntilTheNext) {
  EXPECT_EQ(steps({"board.arrived", "board.returned", "record.refused", "board.identified", "board.verified", "director.ack"}),
            (std::vector<Step>{Step::Begins, Step::Ends, Step::Outside, Step::Begins, Step::Ends, Step::Outside}));
  BoardSpan span;
  span.on_event("board.arrived");
  EXPECT_TRUE(span.begun());
  span.on_event("board.verified");
  EXPECT_FALSE(span.begun());
}
