// The quirk file (the shipped one parses cleanly, and is the default from the build tree) and the
// cross-talk rule.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "data_files/source_or_installed.hpp"
#include "devices/crosstalk.hpp"
#include "devices/quirks.hpp"
#include "devices/usb/board_reader.hpp"
#include "recording_sink.hpp"
#include "warning_log.hpp"

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
  EXPECT_EQ(data_files::source_or_installed(CARDTABLE_SHIPPED_QUIRKS, "/usr/share/cardtable/readers.quirk"), CARDTABLE_SHIPPED_QUIRKS);
  // An installed daemon on another machine: the path it was built at is not there.
  EXPECT_EQ(data_files::source_or_installed("/nonexistent/build/devices/quirks/readers.quirk", "/usr/share/cardtable/readers.quirk"),
            "/usr/share/cardtable/readers.quirk");
  EXPECT_EQ(data_files::source_or_installed("", "/usr/share/cardtable/readers.quirk"), "/usr/share/cardtable/readers.quirk");
}

TEST(QuirkFile, BadLinesAreNamedAndTheRestKept) {
  std::vector<QuirkProblem> problems;
  QuirkTable t = QuirkTable::parse("poll_ms = 5\n[x]\nusb = zz\nprotocol = pn53x-ccid\npoll_ms = 5\nantennas = 2\nantenna_order = 1\ncolour = red\n", problems);
  ASSERT_EQ(t.all().size(), 1u);
  EXPECT_EQ(t.all()[0].poll_ms, 100);  // the default stays
  std::vector<int> lines;
  for (auto& p : problems) lines.push_back(p.line);
  EXPECT_EQ(lines, (std::vector<int>{1, 3, 5, 8, 7}));
  EXPECT_TRUE(problems.back().fatal) << "antenna_order = 1 with antennas = 2";
}

// A quirk file of the test's own (each test its own file: a file's warnings are said once a process).
std::string quirk_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("quirks-" + std::to_string(::getpid()) + "-" + name + ".quirk");
  std::ofstream(path) << text;
  return path.string();
}

// What a board reader says at start with this quirk file (true: it started).
bool board_starts(const std::string& quirks, std::string& error) {
  DeviceEnvironment env;
  env.quirks_path = quirks;
  test::RecordingSink sink;
  BoardReader board(DeviceConfig{"board0", "cardtable-board", {}, {}}, env);
  return board.start(sink, error);
}

const char* const kBoardSection = "[cardtable-board-v1]\nusb = 1209:0001\nprotocol = cardtable-board\nantennas = 4\n";

// quirks.hpp: antenna_order maps each physical antenna to the logical antenna on the board's case. An
// order that names a logical antenna twice (0,0,1,2: physical 0 and 1 both feed antenna0, one of them
// never read, and antenna3 has none), or one the model does not have (0,1,2,9), loses readings without a
// word. The reader refuses it at start (the daemon exits 2), naming the file, the line and the problem.
TEST(QuirkFile, AnAntennaOrderThatRepeatsAnAntennaOrNamesOneOutOfRangeIsRefusedAtStart) {
  std::string error;
  const std::string twice = quirk_file("twice", std::string(kBoardSection) + "antenna_order = 0,0,1,2\n");
  EXPECT_FALSE(board_starts(twice, error));
  EXPECT_EQ(error, "board0: the quirk file " + twice + " line 5: [cardtable-board-v1] antenna_order lists antenna0 twice (each physical antenna is another logical one)");
  const std::string out = quirk_file("out", std::string(kBoardSection) + "antenna_order = 0,1,2,9\n");
  EXPECT_FALSE(board_starts(out, error));
  EXPECT_EQ(error, "board0: the quirk file " + out + " line 5: [cardtable-board-v1] antenna_order lists antenna9, but antennas = 4 (antenna0 to antenna3)");
  const std::string good = quirk_file("good", std::string(kBoardSection) + "antenna_order = 3,2,1,0\n");
  std::vector<QuirkProblem> problems;
  QuirkTable::load(good, problems);
  EXPECT_TRUE(problems.empty()) << problems[0].message;
  for (const auto& f : {twice, out, good}) std::filesystem::remove(f);
}

// An antenna_order shorter than `antennas` (2,0,1 with 4) leaves the last physical antennas to be read as
// their own numbers, so two physical antennas may feed one logical one; a longer one names antennas the
// model lacks. It was a warning, and the reader started with it: refused at start like the other orders
// that lose readings, naming the file, the line and the two counts.
TEST(QuirkFile, AnAntennaOrderShorterOrLongerThanTheAntennasIsRefusedAtStart) {
  std::string error;
  const std::string shorter = quirk_file("shorter", std::string(kBoardSection) + "antenna_order = 2,0,1\n");
  EXPECT_FALSE(board_starts(shorter, error));
  EXPECT_EQ(error, "board0: the quirk file " + shorter + " line 5: [cardtable-board-v1] antenna_order lists 3 antennas, but antennas = 4 "
                   "(one logical antenna for each physical one)");
  // antennas given after the order: the check is the section's, whatever the lines' order.
  const std::string longer = quirk_file("longer", "[cardtable-board-v1]\nusb = 1209:0001\nprotocol = cardtable-board\n"
                                                  "antenna_order = 1,0\nantennas = 1\n");
  EXPECT_FALSE(board_starts(longer, error));
  EXPECT_EQ(error, "board0: the quirk file " + longer + " line 4: [cardtable-board-v1] antenna_order lists 2 antennas, but antennas = 1 "
                   "(one logical antenna for each physical one)");
  for (const auto& f : {shorter, longer}) std::filesystem::remove(f);
}

// QuirkTable::by_usb takes the first section with a device's VID:PID: a second section with the same one
// (a section copied and left with another protocol) silently hid the board's own, and the board was never
// taken while the log said none was plugged in. Refused at start, naming both sections.
TEST(QuirkFile, TwoSectionsWithOneUsbIdAreRefusedAtStart) {
  std::string error;
  const std::string twins = quirk_file("twins", "[copy]\nusb = 1209:0001\nprotocol = pn53x-ccid\n\n" + std::string(kBoardSection));
  EXPECT_FALSE(board_starts(twins, error));
  EXPECT_EQ(error, "board0: the quirk file " + twins + " line 6: [cardtable-board-v1] has usb = 1209:0001, as [copy] (line 2) has: a device is one model");
  std::filesystem::remove(twins);
}

// A warning said neither which file (--quirks, the installed or the source tree's) nor was it said once:
// each configured USB reader loads the file and repeated every line.
TEST(QuirkFile, AWarningNamesTheFileAndIsSaidOnceForAllItsReaders) {
  const std::string path = quirk_file("warn", std::string(kBoardSection) + "retries = 0\n");
  test::WarningLog log;
  DeviceEnvironment env;
  env.quirks_path = path;
  BoardReader board0(DeviceConfig{"board0", "cardtable-board", {}, {}}, env), board1(DeviceConfig{"board1", "cardtable-board", {}, {}}, env);
  std::vector<std::string> lines;
  for (const auto& l : log.lines())
    if (l.find("retries") != std::string::npos) lines.push_back(l);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "board0: quirk file " + path + " line 5: retries must be a number from 1 to 100");
  std::filesystem::remove(path);
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

// The antennas that heard one tag are the ones to move apart: each group is named once, however many
// tags they shared, and an antenna that heard a tag alone is in none.
TEST(CrossTalk, TheAntennasThatHeardOneTagAreGivenAsAGroup) {
  std::vector<AntennaTags> a = {{2, {{u("01020304"), 200}, {u("0A0B0C0D"), 90}}, false},
                                {0, {{u("01020304"), 120}, {u("0A0B0C0D"), 0}}, false},
                                {3, {{u("11223344"), 80}}, false}};
  std::set<AntennaGroup> together;
  EXPECT_EQ(resolve_crosstalk(a, 6, &together), 2);
  EXPECT_EQ(together, (std::set<AntennaGroup>{{0, 2}}));
}

// A technician reading the log learns which zones hear each other and what to do: move them apart, by
// how much (docs/hardware.md, "Cross-talk").
TEST(CrossTalk, TheAdviceNamesTheZonesAndHowFarApartToMoveTheAntennas) {
  const std::map<int, Zone> zones = {{0, *Zone::parse("play:E")}, {2, *Zone::parse("play:N")}};
  const std::string line = crosstalk_advice({0, 2, 5}, zones);
  EXPECT_EQ(line.rfind("play:E (antenna0), play:N (antenna2) and antenna5 heard the same tag in one poll", 0), 0u) << line;
  EXPECT_NE(line.find("move these antennas at least 10 cm apart (docs/hardware.md, \"Cross-talk\")"), std::string::npos) << line;
}

}  // namespace
}  // namespace cardtable::devices
