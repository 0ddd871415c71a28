#include <gtest/gtest.h>

#include "bridge/duplimate_formats.hpp"
#include "test_deals.hpp"

using namespace cardtable::bridge;

namespace {
std::vector<BoardRecord> boards(int n, int first = 1) {
  std::vector<BoardRecord> out;
  std::uint64_t seed = 42;
  for (int i = 0; i < n; ++i) {
    BoardRecord r;
    r.board = first + i;
    r.deal = random_deal(seed);
    out.push_back(r);
  }
  return out;
}
}  // namespace

TEST(Dup, IsOneHundredFiftySixBytesABoardWithCardNumbersAndSetUp) {
  auto in = boards(2);
  std::string bytes = write_dup(in);
  ASSERT_EQ(bytes.size(), 312u);
  // BRI: two-digit card numbers; set-up at bytes 146..155 of the first board.
  EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(bytes[0])));
  EXPECT_EQ(bytes.substr(146, 10), std::string("YN1  0 2  "));
  RecordSet out = read_dup(bytes, "x.dup");
  EXPECT_TRUE(out.diagnostics.empty());
  ASSERT_EQ(out.boards.size(), 2u);
  EXPECT_EQ(out.boards[1].deal, in[1].deal);
  EXPECT_EQ(out.boards[1].board, 2);
  EXPECT_EQ(out.boards[1].dealer, Seat::East);
}

TEST(Dup, BoardNumbersStartAtTheLowestBoardOfTheSet) {
  RecordSet out = read_dup(write_dup(boards(3, 17)), "x.dup");
  ASSERT_EQ(out.boards.size(), 3u);
  EXPECT_EQ(out.boards[0].board, 17);
  EXPECT_EQ(out.boards[2].board, 19);
}

TEST(Dup, DamagedFilesAreReported) {
  std::string bytes = write_dup(boards(2));
  RecordSet truncated = read_dup(bytes.substr(0, 200), "x.dup");
  EXPECT_EQ(truncated.boards.size(), 1u);
  EXPECT_EQ(truncated.diagnostics.size(), 1u);
  std::string bad = bytes;
  bad[160] = 'x';  // a card number of board 2
  RecordSet damaged = read_dup(bad, "x.dup");
  EXPECT_EQ(damaged.boards.size(), 1u);
  EXPECT_NE(damaged.diagnostics[0].message.find("board 2"), std::string::npos);
}

TEST(Dlm, TwoCardsALetterAndACheckNumber) {
  auto in = boards(3);
  std::string text = write_dlm(in);
  EXPECT_NE(text.find("[Document]\n"), std::string::npos);
  EXPECT_NE(text.find("From board=1\nTo board=3\n"), std::string::npos);
  RecordSet out = read_dlm(text, "x.dlm");
  EXPECT_TRUE(out.diagnostics.empty()) << out.diagnostics[0].str();
  ASSERT_EQ(out.boards.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(out.boards[static_cast<std::size_t>(i)].deal, in[static_cast<std::size_t>(i)].deal);
}

TEST(Dlm, LetterEncodingAsDuplimateWritesIt) {
  // North holds all spades, East all hearts, South all diamonds, West all clubs:
  // the pairs of cards are (N,N) = 'a' for spades, (E,E) = 'f', (S,S) = 'k', (W,W) = 'p', with the
  // seventh letter of each suit mixing the last card of one suit with the first of the next.
  BoardRecord r;
  r.board = 3;
  r.deal = test::four_suits();
  std::string text = write_dlm({r});
  // The filler deal Duplimate itself writes, with its check number 013 for board 3.
  EXPECT_NE(text.find("Board 03=aaaaaabffffffkkkkkklpppppp013\n"), std::string::npos) << text;
}

TEST(Dlm, BoardsOutsideFromToAreFillerAndBadLettersAreReported) {
  std::string text = "[Document]\nFrom board=1\nTo board=1\nBoard 01=aaaaaabffffffkkkkkklpppppp015\n"
                     "Board 02=aaaaaabffffffkkkkkklpppppp012\n";
  RecordSet out = read_dlm(text, "x.dlm");
  EXPECT_EQ(out.boards.size(), 1u);
  EXPECT_TRUE(out.diagnostics.empty()) << out.diagnostics[0].str();
  RecordSet bad = read_dlm("[Document]\nBoard 01=zaaaaabffffffkkkkkklpppppp015\nBoard 02=aaaa\n", "x.dlm");
  EXPECT_EQ(bad.boards.size(), 0u);
  EXPECT_EQ(bad.diagnostics.size(), 2u);
}
