// The hub's kept board of one table (tools/cardtable-hub/kept_board.hpp): what the hub forwards, cut as
// the table's own snapshot is cut, and seeded from the table's own snapshot when the board began before
// the hub heard the table. Each event once, by seq, none missing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kept_board.hpp"

namespace {
using cardtable::hub::KeptBoard;
using nlohmann::json;

json event(std::uint64_t seq, const std::string& type) { return {{"seq", seq}, {"type", type}}; }

void forward(KeptBoard& k, std::uint64_t seq, const std::string& type) { k.on_event(seq, type, event(seq, type).dump()); }

std::vector<std::uint64_t> seqs(const KeptBoard& k) {
  std::vector<std::uint64_t> out;
  for (const std::string& body : k.events()) out.push_back(json::parse(body)["seq"].get<std::uint64_t>());
  return out;
}

TEST(KeptBoard, AHubThatHeardTheBoardMidwayHoldsNothingOfItUntilItIsSeeded) {
  KeptBoard k(500, 5000);
  forward(k, 12, "irregularity.card-count");  // the board began at 10, before the hub heard the table
  EXPECT_TRUE(k.events().empty());
}

TEST(KeptBoard, TheTablesAnswerThenWhatWasForwardedSinceTheQuestionEachOnce) {
  KeptBoard k(500, 5000);
  k.asked();
  forward(k, 12, "irregularity.card-count");  // in the answer already (its last_seq is 12)
  forward(k, 13, "irregularity.card-count");  // after it
  k.seed(json::array({event(10, "board.identified"), event(11, "board.arrived"), event(12, "irregularity.card-count")}), 12);
  forward(k, 14, "irregularity.card-count");
  EXPECT_EQ(seqs(k), (std::vector<std::uint64_t>{10, 11, 12, 13, 14}));
}

TEST(KeptBoard, ABoardVerifiedWhileTheQuestionWasOutIsNotKept) {
  KeptBoard k(500, 5000);
  k.asked();
  forward(k, 12, "board.verified");
  forward(k, 13, "record.refused");
  k.seed(json::array({event(10, "board.identified"), event(11, "board.arrived")}), 11);
  EXPECT_TRUE(k.events().empty());
}

TEST(KeptBoard, ABoardBegunAfterTheAnswerIsKeptFromItsFirstEvent) {
  KeptBoard k(500, 5000);
  k.asked();
  forward(k, 5, "board.identified");
  forward(k, 6, "board.arrived");
  k.seed(json::array(), 4);  // no board in progress at the table when it answered
  EXPECT_EQ(seqs(k), (std::vector<std::uint64_t>{5, 6}));
}

// Its cards after its label are the same board: the hub, which heard only the cards, took them for one
// that began there; the table's answer says where it began.
TEST(KeptBoard, CardsArrivedAfterALabelTheHubNeverHeardStayInTheLabelsBoard) {
  KeptBoard k(500, 5000);
  k.asked();
  forward(k, 11, "board.arrived");
  k.seed(json::array({event(10, "board.identified")}), 10);
  EXPECT_EQ(seqs(k), (std::vector<std::uint64_t>{10, 11}));
  forward(k, 12, "board.arrived");  // cards after cards: a new board at the station
  EXPECT_EQ(seqs(k), (std::vector<std::uint64_t>{12}));
}

TEST(KeptBoard, MoreForwardedWhileAskingThanItRemembersCannotBeJoinedToTheAnswer) {
  KeptBoard k(500, 2);
  k.asked();
  for (std::uint64_t s = 11; s <= 13; ++s) forward(k, s, "irregularity.card-count");
  EXPECT_TRUE(k.overflowed());
  k.asked();  // asked again: a fresh start
  EXPECT_FALSE(k.overflowed());
}

}  // namespace

// A table's snapshot answer is its own, but read as any message off the wire: an event whose type is not
// text ({"type": 5}) once threw out of the hub's loop. It is kept as an event of no known type.
TEST(KeptBoard, AnAnswersEventOfAnotherShapeNeverThrows) {
  KeptBoard k(500, 5000);
  k.asked();
  const json answer = json::parse(R"([{"seq": 10, "type": "board.identified"}, {"seq": 11, "type": 5}, "not an event"])");
  ASSERT_NO_THROW(k.seed(answer, 11));
  EXPECT_EQ(seqs(k), (std::vector<std::uint64_t>{10, 11}));
}
