// The double-dummy helper: the real cardtablectl, found in the build tree, adds the table to a PBN file.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "daemon/double_dummy_helper.hpp"
#include "process_folder.hpp"
#include "protocol/journal.hpp"

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

// A daemon whose --analyzer names no program goes on without double-dummy tables: the board's file is
// broadcast without them, and the warning names the path and why it cannot be run. No child is left
// behind: under qemu-user (scripts/cross-check arm64) posix_spawn is a plain fork that does not report a
// failed exec, and the child lived on with the daemon's descriptors.
TEST(DoubleDummyHelper, AMissingProgramIsReportedNotFatal) {
  DoubleDummyHelper h("/nonexistent/cardtablectl", "/nowhere");
  std::string error;
  EXPECT_FALSE(h.start("/tmp/x.pbn", error));
  EXPECT_NE(error.find("/nonexistent/cardtablectl"), std::string::npos) << error;
  EXPECT_NE(error.find(std::strerror(ENOENT)), std::string::npos) << error;
  EXPECT_EQ(h.running(), 0u);
}

TEST(DoubleDummyHelper, AFileThatIsNotAProgramIsReportedNotStarted) {
  cardtable::test::ProcessFolder dir{"dd-not-a-program"};
  const fs::path text = dir.path() / "cardtablectl";
  std::ofstream(text) << "not a program\n";
  fs::permissions(text, fs::perms::owner_read | fs::perms::owner_write);  // no execute bit, for root too
  DoubleDummyHelper h(text.string(), "/nowhere");
  std::string error;
  EXPECT_FALSE(h.start(dir.path() / "b.pbn", error));
  EXPECT_NE(error.find(text.string()), std::string::npos) << error;
  EXPECT_NE(error.find(std::strerror(EACCES)), std::string::npos) << error;
  DoubleDummyHelper folder(dir.path().string(), "/nowhere");  // executable, but a folder
  error.clear();
  EXPECT_FALSE(folder.start(dir.path() / "b.pbn", error));
  EXPECT_NE(error.find("not a file"), std::string::npos) << error;
  EXPECT_EQ(h.running() + folder.running(), 0u);
}

// What RestartAnywhere does between its two runs, in small: the daemon stops (its journal closes) just
// after a board's analysis failed to start, and the next run opens the same state folder at once. The
// journal folder's lock must be free then (under qemu-user a helper that failed to start held it:
// "journal: in use by another process").
TEST(DoubleDummyHelper, AHelperThatCannotStartLeavesTheStateFolderFree) {
  cardtable::test::ProcessFolder dir{"dd-lock"};
  {
    cardtable::protocol::Journal journal(dir.path() / "journal", {});
    DoubleDummyHelper h("/nonexistent/cardtablectl", "/nowhere");
    std::string error;
    EXPECT_FALSE(h.start(dir.path() / "b.pbn", error));
  }
  EXPECT_NO_THROW(cardtable::protocol::Journal(dir.path() / "journal", {}));
}

// A bare name is looked up on PATH (posix_spawnp), not next to the daemon's working folder.
TEST(DoubleDummyHelper, ABareNameIsLookedUpOnThePath) {
  DoubleDummyHelper h("sh", "/nowhere");  // sh cannot open "records": it starts, and fails
  std::string error;
  ASSERT_TRUE(h.start("/nonexistent/x.pbn", error)) << error;
  std::vector<std::string> problems;
  for (int i = 0; i < 300 && h.running(); ++i) {
    auto p = h.reap();
    problems.insert(problems.end(), p.begin(), p.end());
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems.front().find("no double-dummy table (sh exited with"), std::string::npos) << problems.front();
}
