// The quirk file (the shipped one parses cleanly) and the cross-talk rule.
#include <gtest/gtest.h>

#include "devices/crosstalk.hpp"
#include "devices/quirks.hpp"

namespace cardtable::devices {
namespace {

TEST(QuirkFile, TheShippedFileParsesWithoutProblems) {
  std::vector<QuirkProblem> problems;
  QuirkTable t = QuirkTable::load(CARDTABLE_SHIPPED_QUIRKS, problems);
  EXPECT_TRUE(problems.empty()) << problems[0].message;
  const ReaderQuirk* acr = t.by_usb(0x072F, 0x2200);
  ASSERT_NE(acr, nullptr);
  EXPECT_EQ(acr->protocol, "pn53x-ccid");
  EXPECT_TRUE(acr->has_bug("needs-power-on"));
  const ReaderQuirk* board = t.by_model("cardtable-board-v1");
  ASSERT_NE(board, nullptr);
  EXPECT_EQ(board->logical_antenna(0), 2);
  EXPECT_EQ(board->logical_antenna(3), 3);
}

TEST(QuirkFile, BadLinesAreNamedAndTheRestKept) {
  std::vector<QuirkProblem> problems;
  QuirkTable t = QuirkTable::parse("poll_ms = 5\n[x]\nusb = zz\nprotocol = pn53x-ccid\npoll_ms = 5\nantennas = 2\nantenna_order = 1\ncolour = red\n", problems);
  ASSERT_EQ(t.all().size(), 1u);
  EXPECT_EQ(t.all()[0].poll_ms, 100);  // the default stays
  std::vector<int> lines;
  for (auto& p : problems) lines.push_back(p.line);
  EXPECT_EQ(lines, (std::vector<int>{1, 3, 5, 8, 0}));
}

Uid u(const char* hex) { return *Uid::parse(hex); }

TEST(CrossTalk, ClearlyStrongestAntennaKeepsTheTagAlone) {
  std::vector<AntennaTags> a = {{0, {{u("01020304"), 200}}, false}, {1, {{u("01020304"), 150}}, false}};
  EXPECT_EQ(resolve_crosstalk(a, 6), 1);
  EXPECT_EQ(a[0].tags.size(), 1u);
  EXPECT_TRUE(a[1].tags.empty());
  EXPECT_FALSE(a[0].uncertain || a[1].uncertain);
}

TEST(CrossTalk, CloseOrUnknownStrengthsMakeBothAntennasUncertainAndNeitherHasTheCard) {
  for (int second : {198, 0}) {
    std::vector<AntennaTags> a = {{0, {{u("01020304"), 200}, {u("0A0B0C0D"), 90}}, false}, {1, {{u("01020304"), second}}, false}};
    EXPECT_EQ(resolve_crosstalk(a, 6), 1);
    EXPECT_EQ(a[0].tags.size(), 1u);  // the other tag stays
    EXPECT_TRUE(a[1].tags.empty());
    EXPECT_TRUE(a[0].uncertain && a[1].uncertain);
  }
}

}  // namespace
}  // namespace cardtable::devices
