// PBN -> LIN -> PBN, PBN -> DUP -> PBN and PBN -> DLM -> PBN keep deals, dealers and vulnerabilities.
#include <gtest/gtest.h>

#include "bridge/duplimate_formats.hpp"
#include "bridge/lin_format.hpp"
#include "bridge/pbn_writer.hpp"

using namespace cardtable::bridge;

namespace {

// A session of 48 boards as PBN text, deals random, dealer and vulnerability by board number.
std::string session_pbn() {
  std::vector<BoardRecord> rs;
  std::uint64_t seed = 2024;
  for (int b = 1; b <= 48; ++b) {
    BoardRecord r;
    r.event = "Round trip";
    r.board = b;
    r.dealer = dealer_of_board(b);
    r.vulnerability = vulnerability_of_board(b);
    r.deal = random_deal(seed);
    rs.push_back(r);
  }
  return write_pbn(rs);
}

void expect_same_boards(const RecordSet& a, const RecordSet& b) {
  EXPECT_TRUE(b.diagnostics.empty()) << b.diagnostics[0].str();
  ASSERT_EQ(a.boards.size(), b.boards.size());
  for (std::size_t i = 0; i < a.boards.size(); ++i) {
    EXPECT_EQ(a.boards[i].board, b.boards[i].board);
    EXPECT_EQ(a.boards[i].deal, b.boards[i].deal) << "board " << a.boards[i].board;
    EXPECT_EQ(a.boards[i].effective_dealer(), b.boards[i].effective_dealer());
    EXPECT_EQ(a.boards[i].effective_vulnerability(), b.boards[i].effective_vulnerability());
  }
}

}  // namespace

TEST(RoundTrip, PbnToLinToPbn) {
  RecordSet pbn = read_pbn(session_pbn(), "s.pbn");
  ASSERT_EQ(pbn.boards.size(), 48u);
  RecordSet lin = read_lin(write_lin(pbn.boards), "s.lin");
  RecordSet back = read_pbn(write_pbn(lin.boards), "back.pbn");
  expect_same_boards(pbn, lin);
  expect_same_boards(pbn, back);
}

TEST(RoundTrip, PbnToDupToPbn) {
  RecordSet pbn = read_pbn(session_pbn(), "s.pbn");
  RecordSet dup = read_dup(write_dup(pbn.boards), "s.dup");
  RecordSet back = read_pbn(write_pbn(dup.boards), "back.pbn");
  expect_same_boards(pbn, dup);
  expect_same_boards(pbn, back);
}

TEST(RoundTrip, PbnToDlmToPbn) {
  RecordSet pbn = read_pbn(session_pbn(), "s.pbn");
  RecordSet dlm = read_dlm(write_dlm(pbn.boards), "s.dlm");
  RecordSet back = read_pbn(write_pbn(dlm.boards), "back.pbn");
  expect_same_boards(pbn, dlm);
  expect_same_boards(pbn, back);
}

TEST(RoundTrip, AuctionAndPlaySurvivePbnToLinToPbn) {
  std::string in = "[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n"
                   "[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n"
                   "[Auction \"N\"]\n1D 1S Pass 2S\n5D Pass Pass Pass\n[Play \"E\"]\nSA S3 S2 D7\nC6 CK C8 C2\n*\n";
  RecordSet a = read_pbn(in, "a.pbn");
  ASSERT_TRUE(a.diagnostics.empty()) << a.diagnostics[0].str();
  RecordSet lin = read_lin(write_lin(a.boards), "a.lin");
  RecordSet b = read_pbn(write_pbn(lin.boards), "b.pbn");
  ASSERT_EQ(b.boards.size(), 1u);
  EXPECT_TRUE(b.diagnostics.empty()) << b.diagnostics[0].str();
  ASSERT_TRUE(b.boards[0].auction && b.boards[0].play);
  EXPECT_EQ(b.boards[0].auction->calls, a.boards[0].auction->calls);
  EXPECT_EQ(b.boards[0].play->tricks, a.boards[0].play->tricks);
  EXPECT_EQ(b.boards[0].play->leader, Seat::East);
}
