// The board recorder: the tricks as the table reports them and the contract give the broadcast record,
// with Result counted from the tricks declarer's side won.
#include <gtest/gtest.h>

#include "daemon/board_recorder.hpp"

using namespace cardtable;

TEST(BoardRecorder, ThirteenTricksAndAContractGiveContractDeclarerAndResult) {
  bridge::MasterBoard b;
  auto deal = bridge::Deal::parse_pbn("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432");
  ASSERT_TRUE(deal);
  b.deal = *deal;
  b.board = 1;
  daemon::BoardRecorder rec;
  auto contract = table::parse_contract_command("7NT N");
  ASSERT_TRUE(contract);
  rec.on_contract(*contract);
  // North leads from the top of each suit and wins all thirteen tricks.
  const std::string north = "SA SK SQ SJ HA HK HQ DA DK DQ CA CK CQ", east = "ST S9 S8 S7 HJ HT H9 DJ DT D9 CJ CT C9",
                    south = "S6 S5 S4 S3 H8 H7 H6 D8 D7 D6 C8 C7 C6", west = "S2 H5 H4 H3 H2 D5 D4 D3 D2 C5 C4 C3 C2";
  for (int t = 0; t < 13; ++t) {
    auto card = [&](const std::string& hand) { return hand.substr(static_cast<std::size_t>(t) * 3, 2); };
    table::Event e;
    e.type = "play.trick";
    e.evidence = {{"trick", std::to_string(t + 1)},
                  {"cards", "N:" + card(north) + " E:" + card(east) + " S:" + card(south) + " W:" + card(west)},
                  {"leader", "N"}};
    rec.on_event(e);
  }
  bridge::BoardRecord r = rec.finish(b, "Club", "1", "t A table 1");
  ASSERT_NE(r.tag("Contract"), nullptr);
  EXPECT_EQ(*r.tag("Contract"), "7NT");
  EXPECT_EQ(*r.tag("Declarer"), "N");
  ASSERT_NE(r.tag("Result"), nullptr);
  EXPECT_EQ(*r.tag("Result"), "13");
  EXPECT_EQ(r.play->tricks.size(), 13u);
}

TEST(BoardRecorder, WithoutAContractThereIsNoResult) {
  bridge::MasterBoard b;
  b.deal = *bridge::Deal::parse_pbn("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432");
  daemon::BoardRecorder rec;
  bridge::BoardRecord r = rec.finish(b, "Club", "1", "site");
  EXPECT_EQ(r.tag("Contract"), nullptr);
  EXPECT_EQ(r.tag("Result"), nullptr);
  EXPECT_TRUE(r.deal);
}
