#include <gtest/gtest.h>

#include "bridge/pbn_reader.hpp"
#include "bridge/pbn_writer.hpp"

using namespace cardtable::bridge;

TEST(PbnWriter, ExportFormStartsTheDealWithTheDealerAndKeepsTagsAndSections) {
  std::string in = "[Event \"Cup\"]\n[Board \"2\"]\n[West \"Anna \\\"A\\\"\"]\n[Dealer \"E\"]\n[Vulnerable \"NS\"]\n"
                   "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n[Contract \"6D\"]\n"
                   "[Declarer \"N\"]\n[Room \"Open\"]\n[Auction \"E\"]\nPass 1S =1= X Pass\n[Note \"1:five\"]\n[Play \"E\"]\nSA - - -\n*\n";
  RecordSet a = read_pbn(in, "in.pbn");
  ASSERT_EQ(a.boards.size(), 1u);
  std::string out = write_pbn(a.boards);
  EXPECT_NE(out.find("% PBN 2.1\n% EXPORT\n"), std::string::npos);
  EXPECT_NE(out.find("[Deal \"E:A8654.KQ5.T.QJT6 "), std::string::npos);
  EXPECT_NE(out.find("[West \"Anna \\\"A\\\"\"]"), std::string::npos);
  EXPECT_NE(out.find("[Room \"Open\"]"), std::string::npos);
  RecordSet b = read_pbn(out, "out.pbn");
  ASSERT_EQ(b.boards.size(), 1u);
  EXPECT_TRUE(b.diagnostics.empty()) << b.diagnostics[0].str();
  EXPECT_EQ(b.boards[0].deal, a.boards[0].deal);
  EXPECT_EQ(b.boards[0].dealer, Seat::East);
  EXPECT_EQ(b.boards[0].vulnerability, Vulnerability::NorthSouth);
  EXPECT_EQ(*b.boards[0].tag("West"), "Anna \"A\"");
  EXPECT_EQ(b.boards[0].auction->calls.size(), 4u);
  EXPECT_EQ(b.boards[0].auction->calls[1].note, "five");
  EXPECT_EQ(b.boards[0].play->card_count(), 1);
}

TEST(PbnWriter, DoubleDummyTagsRoundTrip) {
  BoardRecord r;
  r.board = 1;
  r.deal = *Deal::parse_pbn("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85");
  r.dd = DdTable::parse_pbn("54555546658977889778");
  r.optimum_score_ns = -140;
  r.par_contract = "EW 1S+2";
  RecordSet b = read_pbn(write_pbn({r}), "out.pbn");
  ASSERT_EQ(b.boards.size(), 1u);
  EXPECT_TRUE(b.diagnostics.empty()) << b.diagnostics[0].str();
  EXPECT_EQ(b.boards[0].dd, r.dd);
  EXPECT_EQ(b.boards[0].optimum_score_ns, -140);
  EXPECT_EQ(b.boards[0].par_contract, "EW 1S+2");
}
