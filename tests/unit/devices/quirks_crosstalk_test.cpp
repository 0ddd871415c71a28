// The quirk file (the shipped one parses cleanly, and is the default from the build tree) and the
// cross-talk rule.
#include <gtest/gtest.h>

#include "devices/crosstalk.hpp"
#include "devices/data_files.hpp"
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

// A daemon run from the build tree, as the README's examples run it before any package is installed,
// found no quirk file with no --quirks and refused every RFID reader ("names no reader model").
TEST(QuirkFile, WithNoneNamedTheBuildTreeReadsTheSourceTreesFile) {
  EXPECT_EQ(QuirkTable::default_path(), CARDTABLE_SHIPPED_QUIRKS);
  std::vector<QuirkProblem> problems;
  EXPECT_FALSE(QuirkTable::load(QuirkTable::default_path(), problems).by_protocol("cardtable-board").empty());
}

TEST(DataFiles, TheSourceTreesCopyWhileItIsThereElseTheInstalledOne) {
  EXPECT_EQ(source_or_installed(CARDTABLE_SHIPPED_QUIRKS, "/usr/share/cardtable/readers.quirk"), CARDTABLE_SHIPPED_QUIRKS);
  // An installed daemon on another machine: the path it was built at is not there.
  EXPECT_EQ(source_or_installed("/nonexistent/build/devices/quirks/readers.quirk", "/usr/share/cardtable/readers.quirk"),
            "/usr/share/cardtable/readers.quirk");
  EXPECT_EQ(source_or_installed("", "/usr/share/cardtable/readers.quirk"), "/usr/share/cardtable/readers.quirk");
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
