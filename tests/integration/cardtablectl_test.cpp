// The real cardtablectl binary: exit codes, output people read, output machines read, files it writes.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <sstream>

#include "bridge/record_file.hpp"
#include "test_folder.hpp"

namespace fs = std::filesystem;
using namespace cardtable::bridge;

namespace {

struct CtlRun {
  int status = -1;
  std::string out;
};

// Runs cardtablectl with arguments (already shell-quoted), standard error folded into the output.
CtlRun ctl(const std::string& args) {
  CtlRun r;
  std::string cmd = std::string(CARDTABLECTL) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

class Cardtablectl : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir / name, std::ios::binary) << text;
    return "'" + (dir / name).string() + "'";
  }
  cardtable::test::TestFolder folder{"cardtablectl-test"};
  fs::path dir = folder.path();
  const std::string sample = "'" SAMPLE_DIR "/sample-pairs.pbn'";
};

}  // namespace

TEST_F(Cardtablectl, ValidateACleanRecordExitsZero) {
  CtlRun r = ctl("records validate " + sample);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("32 boards, 32 complete deals, 0 problems, 0 duplicate deals"), std::string::npos) << r.out;
}

TEST_F(Cardtablectl, ValidateReportsEveryProblemWithItsPlaceAndExitsOne) {
  std::string f = write("bad.pbn",
                        "[Board \"1\"]\n[Dealer \"E\"]\n[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n\n"
                        "[Board \"2\"]\n[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.852\"]\n\n"
                        "[Board \"3\"]\n[Deal \"E:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n");
  CtlRun r = ctl("records validate " + f);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("bad.pbn:6:8: error: tag Deal: West holds 14 cards"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Dealer is East but board 1 is dealt by North"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("board 3 holds the same deal as"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("turned 1 seat clockwise"), std::string::npos) << r.out;
}

TEST_F(Cardtablectl, ValidateJsonIsMachineReadable) {
  CtlRun r = ctl("records validate --json " + sample);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("\"ok\": true"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"valid_deals\": 32"), std::string::npos) << r.out;
}

TEST_F(Cardtablectl, WrongUsageExitsTwoAndSaysWhy) {
  EXPECT_EQ(ctl("").status, 2);
  EXPECT_EQ(ctl("nonsense").status, 2);
  CtlRun r = ctl("records convert " + sample + " --to xml");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("unknown format 'xml'"), std::string::npos) << r.out;
  EXPECT_EQ(ctl("records show --no-such-option x").status, 2);
  EXPECT_EQ(ctl("records lookup --master " + sample + " 'N:AKQ'").status, 2);
  EXPECT_EQ(ctl("records --help").status, 0);
  EXPECT_EQ(ctl("records validate --help").status, 0);
}

TEST_F(Cardtablectl, GenerateGivesTheSameDealsForTheSameSeedAndRefusesASeedThatIsNotANumber) {
  CtlRun a = ctl("records generate --boards 3 --seed 0"), b = ctl("records generate --boards 3 --seed 0");
  ASSERT_EQ(a.status, 0) << a.out;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out.find("[Board \"3\"]"), std::string::npos) << a.out;
  EXPECT_NE(ctl("records generate --boards 3 --seed 1").out, a.out);
  // Boost's unsigned parser took -1 as 2^64-1 and dealt from there without a word.
  for (const char* bad : {"-1", "1x", "99999999999999999999", ""}) {
    CtlRun r = ctl(std::string("records generate --boards 1 --seed '") + bad + "'");
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.out.find("--seed must be a whole number, 0 or more"), std::string::npos) << r.out;
  }
}

// A FIFO given as a record file was read as one: the reader waited for a writer, and the daemon's loop
// with it (load-record). Only regular files are read.
TEST_F(Cardtablectl, APipeGivenAsARecordFileIsAProblemNotAWait) {
  const fs::path fifo = dir / "master.pbn";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  CtlRun r = ctl("records validate '" + fifo.string() + "'");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(fifo.string() + ": error: not a regular file (a pipe, a device...): not read"), std::string::npos) << r.out;
}

TEST_F(Cardtablectl, MissingFileIsAProblemNotACrash) {
  CtlRun r = ctl("records validate /no/such/file.pbn");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("/no/such/file.pbn: error: no such file or folder"), std::string::npos) << r.out;
}

TEST_F(Cardtablectl, ShowDrawsTheHandDiagramWithSuitSymbols) {
  CtlRun r = ctl("records show " + sample + " --board 1");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("Board 1 \u00b7 Dealer North \u00b7 None vulnerable"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\u2660"), std::string::npos);
  EXPECT_NE(r.out.find("\u2663"), std::string::npos);
}

// A board or session that is not there is said with what was asked and what the records hold (it was
// a bare "no such board in the records", which does not tell a wrong number from a wrong session).
TEST_F(Cardtablectl, ShowOfABoardThatIsNotThereSaysWhatTheRecordsHold) {
  CtlRun r = ctl("records show " + sample + " --board 99");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("no board 99 in the records (32 boards; sessions '1', '2')"), std::string::npos) << r.out;
  r = ctl("records show " + sample + " --board 7 --session 3");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("no board 7 of session '3' in the records"), std::string::npos) << r.out;
}

TEST_F(Cardtablectl, ConvertToEveryFormatAndBackKeepsTheDeals) {
  RecordSet original = read_record_file(fs::path(SAMPLE_DIR) / "sample-pairs.pbn");
  for (const char* fmt : {"lin", "dup", "dlm", "pbn"}) {
    fs::path out = dir / (std::string("out.") + fmt);
    CtlRun r = ctl("records convert " + sample + " --to " + fmt + " -o '" + out.string() + "'");
    ASSERT_EQ(r.status, 0) << fmt << ": " << r.out;
    RecordSet back = read_record_file(out);
    EXPECT_TRUE(back.diagnostics.empty()) << fmt;
    ASSERT_EQ(back.boards.size(), original.boards.size()) << fmt;
    // DUP and DLM number boards straight through; the sample's two sessions restart at 1 — compare deals.
    for (std::size_t i = 0; i < back.boards.size(); ++i) EXPECT_EQ(back.boards[i].deal, original.boards[i].deal) << fmt << " " << i;
  }
}

TEST_F(Cardtablectl, LookupFindsARotatedBoard) {
  RecordSet s = read_record_file(fs::path(SAMPLE_DIR) / "sample-pairs.pbn");
  Deal turned = s.boards[6].deal->rotated(2);
  CtlRun r = ctl("records lookup --master " + sample + " '" + turned.pbn() + "'");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cardtable sample pairs / 1, board 7: turned 2 seats clockwise"), std::string::npos) << r.out;
  std::uint64_t seed = 77;
  CtlRun miss = ctl("records lookup --master " + sample + " '" + random_deal(seed).pbn() + "'");
  EXPECT_EQ(miss.status, 1);
  EXPECT_NE(miss.out.find("not in the master record (32 boards)"), std::string::npos) << miss.out;
}

TEST_F(Cardtablectl, AnalyzeWritesDoubleDummyTagsAndCheckAgrees) {
  fs::path out = dir / "analysed.pbn";
  std::string first_board = write("one.pbn", "[Board \"1\"]\n[Deal \"N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85\"]\n");
  CtlRun r = ctl("records analyze " + first_board + " -o '" + out.string() + "'");
  ASSERT_EQ(r.status, 0) << r.out;
  RecordSet s = read_record_file(out);
  ASSERT_EQ(s.boards.size(), 1u);
  ASSERT_TRUE(s.boards[0].dd);
  EXPECT_TRUE(s.boards[0].optimum_score_ns);
  CtlRun check = ctl("records analyze --check '" + out.string() + "'");
  EXPECT_EQ(check.status, 0) << check.out;
  EXPECT_NE(check.out.find("checked 1 DoubleDummyTricks and 1 OptimumScore tags over 1 deal: 0 disagreements"), std::string::npos)
      << check.out;
  // A tag that is wrong is reported, and the exit status says so.
  std::string text;
  {
    std::ifstream in(out);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto at = text.find("[DoubleDummyTricks \"") + 20;
  text[at] = text[at] == '9' ? '8' : '9';
  std::string wrong = write("wrong.pbn", text);
  CtlRun bad = ctl("records analyze --check " + wrong);
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.out.find(": 1 disagreement\n"), std::string::npos) << "one, said as one:\n" << bad.out;
}

TEST_F(Cardtablectl, SimulatePrintsEventsAsJsonLinesWithTheMasterFromTheCommandLine) {
  std::string master = "'" SCENARIO_DIR "/master/spring-pairs.pbn'";
  std::string scenario = write("s.scn", "zones station-hands\nat 0 board 1/3\nat 1 hand N as master\nat 1 hand E as master\n"
                                        "at 1 hand S as master\nat 1 hand W as master -SA\nend 3\n");
  CtlRun r = ctl("simulate --json --master " + master + " " + scenario);
  ASSERT_EQ(r.status, 0) << r.out;
  std::istringstream lines(r.out);
  std::vector<nlohmann::json> events;
  for (std::string line; std::getline(lines, line);) events.push_back(nlohmann::json::parse(line));
  ASSERT_GE(events.size(), 4u);
  EXPECT_EQ(events[0]["type"], "table.capabilities");
  bool missing = false;
  for (const auto& e : events)
    if (e["type"] == "irregularity.missing_card") {
      missing = true;
      EXPECT_EQ(e["class"], "irregularity");
      EXPECT_EQ(e["laws"][0], "14");
      EXPECT_EQ(e["board"], 3);
      EXPECT_EQ(e["evidence"]["missing"], "1");  // how many: the card itself is director-only (issue 7)
      EXPECT_FALSE(e.contains("session") && e["session"].is_null());
    }
  EXPECT_TRUE(missing) << r.out;
}

TEST_F(Cardtablectl, SimulateReportsScenarioErrorsWithTheirLine) {
  std::string scenario = write("bad.scn", "zones station-scan\nat 1 scan ZZ\n");
  CtlRun r = ctl("simulate " + scenario);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("bad.scn:2: 'ZZ' is not a card"), std::string::npos) << r.out;
}
