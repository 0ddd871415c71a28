// The double-dummy helper: the real cardtablectl, found in the build tree, adds the table to a PBN file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "daemon/double_dummy_helper.hpp"

using namespace cardtable::daemon;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

TEST(DoubleDummyHelper, TheBuildTreeAndTheInstalledPlaceAreCandidates) {
  auto c = DoubleDummyHelper::candidates("/build/daemon/cardtabled");
  EXPECT_EQ(c.front(), fs::path(CARDTABLE_INSTALL_BINDIR) / "cardtablectl");
  EXPECT_NE(std::find(c.begin(), c.end(), fs::path("/build/tools/cardtablectl/cardtablectl")), c.end());
}

TEST(DoubleDummyHelper, FoundBesideTheDaemonInTheBuildTree) {
  // The daemon's build folder is daemon/; the helper is in tools/cardtablectl/ of the same build.
  DoubleDummyHelper h("", fs::path(CARDTABLED));
  ASSERT_TRUE(h.program());
  EXPECT_TRUE(fs::equivalent(*h.program(), CARDTABLECTL) || h.program()->string() == CARDTABLE_INSTALL_BINDIR "/cardtablectl");
}

TEST(DoubleDummyHelper, TheAnalysisRewritesThePbnWithTheTable) {
  fs::path dir = fs::temp_directory_path() / ("dd-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::path pbn = dir / "b.pbn";
  std::ofstream(pbn) << "[Event \"x\"]\n[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n"
                        "[Deal \"N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432\"]\n\n";
  DoubleDummyHelper h(CARDTABLECTL, "/nowhere");
  std::string error;
  ASSERT_TRUE(h.start(pbn, error)) << error;
  std::vector<std::string> problems;
  for (int i = 0; i < 300 && h.running(); ++i) {
    auto p = h.reap();
    problems.insert(problems.end(), p.begin(), p.end());
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_TRUE(problems.empty()) << problems.front();
  std::stringstream text;
  text << std::ifstream(pbn).rdbuf();
  EXPECT_NE(text.str().find("DoubleDummyTricks"), std::string::npos) << text.str();
  fs::remove_all(dir);
}

TEST(DoubleDummyHelper, AMissingProgramIsReportedNotFatal) {
  DoubleDummyHelper h("/nonexistent/cardtablectl", "/nowhere");
  std::string error;
  EXPECT_FALSE(h.start("/tmp/x.pbn", error));
  EXPECT_FALSE(error.empty());
}
