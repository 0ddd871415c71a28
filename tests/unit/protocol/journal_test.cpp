// The journal: every event numbered, kept across restarts, rotated, replayed from any seq still kept.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "protocol/journal.hpp"

using namespace cardtable::protocol;
namespace fs = std::filesystem;

namespace {
fs::path fresh_dir(const char* name) {
  fs::path p = fs::temp_directory_path() / ("journal-test-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(p);
  return p;
}
WireEvent event(const std::string& message) {
  WireEvent e;
  e.type = "board.arrived";
  e.tournament = "t";
  e.message = message;
  return e;
}
std::vector<std::uint64_t> replayed(const Journal& j, std::uint64_t since) {
  std::vector<std::uint64_t> out;
  j.replay(since, [&](const std::string& line, std::uint64_t seq) {
    EXPECT_EQ(nlohmann::json::parse(line)["seq"], seq);
    out.push_back(seq);
    return true;
  });
  return out;
}
}  // namespace

TEST(Journal, SeqIsGapFreeAndContinuesAfterARestart) {
  fs::path dir = fresh_dir("restart");
  {
    Journal j(dir, {});
    for (int i = 0; i < 5; ++i) {
      WireEvent e = event("x");
      j.append(e);
      EXPECT_EQ(e.seq, static_cast<std::uint64_t>(i + 1));
    }
  }
  Journal j(dir, {});
  EXPECT_EQ(j.last_seq(), 5u);
  WireEvent e = event("after the restart");
  j.append(e);
  EXPECT_EQ(e.seq, 6u);
  EXPECT_EQ(replayed(j, 1), (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(replayed(j, 4), (std::vector<std::uint64_t>{4, 5, 6}));
  fs::remove_all(dir);
}

TEST(Journal, RotatesBySizeAndKeepsALimitedNumberOfFiles) {
  fs::path dir = fresh_dir("rotate");
  Journal j(dir, {2000, 3});  // tiny files: a few events each
  for (int i = 0; i < 200; ++i) {
    WireEvent e = event(std::string(100, 'x'));
    j.append(e);
  }
  std::size_t files = 0;
  for (const auto& f : fs::directory_iterator(dir)) files += f.path().extension() == ".jsonl" ? 1U : 0U;
  EXPECT_LE(files, 4u);  // the limit, plus the file just opened
  std::uint64_t first = j.first_seq();
  EXPECT_GT(first, 1u);
  auto all = replayed(j, 1);  // from the oldest still kept
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all.front(), first);
  EXPECT_EQ(all.back(), 200u);
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_EQ(all[i], all[i - 1] + 1);
  fs::remove_all(dir);
}

TEST(Journal, ALineCutShortByACrashIsSkipped) {
  fs::path dir = fresh_dir("crash");
  {
    Journal j(dir, {});
    for (int i = 0; i < 3; ++i) {
      WireEvent e = event("x");
      j.append(e);
    }
  }
  for (const auto& f : fs::directory_iterator(dir)) std::ofstream(f.path(), std::ios::app) << "{\"seq\":4,\"cla";  // no newline
  Journal j(dir, {});
  EXPECT_EQ(j.last_seq(), 3u);  // the cut line does not count: its number is given again, no gap
  WireEvent e = event("y");
  j.append(e);
  EXPECT_EQ(e.seq, 4u);
  EXPECT_EQ(replayed(j, 1), (std::vector<std::uint64_t>{1, 2, 3, 4}));
  fs::remove_all(dir);
}

TEST(WireEvent, UnsetFieldsAreLeftOutNeverNull) {
  WireEvent e = event("m");
  auto j = to_json(e);
  EXPECT_FALSE(j.contains("board"));
  EXPECT_FALSE(j.contains("laws"));
  EXPECT_FALSE(j.contains("seq"));
  EXPECT_EQ(j["class"], "board");
  EXPECT_EQ(e.topic(), "board/t///board.arrived");
  std::string error;
  auto back = from_json(j, &error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->message, "m");
  EXPECT_FALSE(from_json(nlohmann::json::array(), &error));
}

namespace {
std::size_t journal_files_in(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& f : fs::directory_iterator(dir)) n += f.path().extension() == ".jsonl" ? 1U : 0U;
  return n;
}
}  // namespace

// Each restart opened a file of its own, and files are kept by count: with --journal-files 3, three
// restarts took the whole history (the unacknowledged alert in it too). The newest file goes on.
TEST(Journal, ARestartAppendsToTheNewestFileAndCostsNoFileOfTheHistory) {
  fs::path dir = fresh_dir("restarts");
  for (int restart = 0; restart < 10; ++restart) {
    Journal j(dir, {1u << 20, 3});
    WireEvent e = event("x");
    j.append(e);
  }
  EXPECT_EQ(journal_files_in(dir), 1u);
  Journal j(dir, {1u << 20, 3});
  EXPECT_EQ(j.first_seq(), 1u);
  EXPECT_EQ(replayed(j, 1).size(), 10u);
  fs::remove_all(dir);
}

// An operator's copy beside the files ("journal-backup.jsonl") sorted last: it gave the sequence its
// last seq, its torn line was cut, and seqs were given twice. Only journal-<20 digits>.jsonl counts.
TEST(Journal, AFileThatIsNotNamedAsTheJournalsIsIgnoredAndSaid) {
  fs::path dir = fresh_dir("stray");
  {
    Journal j(dir, {});
    for (int i = 0; i < 3; ++i) {
      WireEvent e = event("x");
      j.append(e);
    }
  }
  const fs::path copy = dir / "journal-backup.jsonl";
  fs::copy_file(dir / "journal-00000000000000000001.jsonl", copy);
  std::ofstream(copy, std::ios::app) << "{\"seq\":1";  // torn, as a copy taken mid-write would be
  const auto copy_size = fs::file_size(copy);
  Journal j(dir, {});
  ASSERT_EQ(j.ignored_files().size(), 1u);
  EXPECT_EQ(j.ignored_files()[0], copy.string());
  EXPECT_EQ(j.last_seq(), 3u);
  WireEvent e = event("y");
  j.append(e);
  EXPECT_EQ(e.seq, 4u);
  EXPECT_EQ(replayed(j, 1), (std::vector<std::uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(fs::file_size(copy), copy_size) << "the copy is left as it was";
  fs::remove_all(dir);
}

// Two daemons on one --state-dir both ran and wrote the same seqs into one journal.
TEST(Journal, ASecondJournalOnTheSameFolderIsRefusedWhileTheFirstIsOpen) {
  fs::path dir = fresh_dir("twice");
  {
    Journal first(dir, {});
    try {
      Journal second(dir, {});
      ADD_FAILURE() << "a second journal on the same folder opened";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(dir.string() + ": in use by another process"), std::string::npos) << e.what();
    }
  }
  Journal again(dir, {});  // the first gone, the folder is free
  fs::remove_all(dir);
}

// A full disk threw out of append() and the daemon exited (systemd started it into the same wall). The
// journal now gives the line back unjournalled, says why, and writes again once it can: the seqs go on
// without a gap on the wire, and the ones not written are named. /dev/full answers every write ENOSPC.
TEST(Journal, AWriteThatFailsIsSaidAndTheJournalWritesAgainWhenItCan) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "needs /dev/full";
  fs::path dir = fresh_dir("full");
  fs::create_directories(dir);
  const fs::path file = dir / "journal-00000000000000000001.jsonl";
  fs::create_symlink("/dev/full", file);
  Journal j(dir, {});
  for (std::uint64_t seq = 1; seq <= 3; ++seq) {
    WireEvent e = event("on a full disk");
    const std::string line = j.append(e);
    EXPECT_EQ(e.seq, seq);
    EXPECT_TRUE(line.starts_with("{\"seq\":" + std::to_string(seq) + ","));
  }
  EXPECT_NE(j.failing().find(file.string() + ": write: No space left on device"), std::string::npos) << j.failing();
  EXPECT_EQ(j.unjournalled(), 3u);
  fs::remove(file);  // room again: the next write opens the file afresh
  WireEvent e = event("room again");
  j.append(e);
  EXPECT_EQ(e.seq, 4u);
  EXPECT_TRUE(j.failing().empty()) << j.failing();
  EXPECT_EQ(j.first_unjournalled(), 1u);
  EXPECT_EQ(j.last_unjournalled(), 3u);
  EXPECT_EQ(replayed(j, 1), (std::vector<std::uint64_t>{4}));
  fs::remove_all(dir);
}

// The journal's identity: kept across restarts (the same journal goes on), another one for a journal that
// starts again at seq 1, so that subscribers never take its seqs for the old journal's events.
TEST(JournalIdentity, KeptAcrossRestartsAndNewForAJournalStartedAgain) {
  fs::path dir = fresh_dir("identity");
  std::string first;
  {
    Journal j(dir, {});
    first = j.id();
    EXPECT_EQ(first.size(), 16u);
    EXPECT_EQ(first.find_first_not_of("0123456789abcdef"), std::string::npos) << first;
    EXPECT_NE(j.id_made_because().find("a new journal"), std::string::npos) << j.id_made_because();
    WireEvent e = event("x");
    const std::string line = j.append(e);
    EXPECT_EQ(e.journal, first) << "every journalled event names its journal";
    EXPECT_EQ(nlohmann::json::parse(line)["journal"], first);
  }
  {
    Journal j(dir, {});
    EXPECT_EQ(j.id(), first) << "a restart on the same state folder: the same journal";
    EXPECT_TRUE(j.id_made_because().empty());
    EXPECT_EQ(j.last_seq(), 1u);
  }
  fs::path other = fresh_dir("identity-other");
  {
    Journal j(other, {});
    EXPECT_NE(j.id(), first) << "another journal, another identity";
  }
  // The journal's files removed, its identity file left behind: the seqs start again, so must the id.
  for (const auto& f : fs::directory_iterator(dir))
    if (f.path().extension() == ".jsonl") fs::remove(f.path());
  {
    Journal j(dir, {});
    EXPECT_EQ(j.last_seq(), 0u);
    EXPECT_NE(j.id(), first);
    EXPECT_NE(j.id_made_because().find("without a journal file"), std::string::npos) << j.id_made_because();
  }
  fs::remove_all(dir);
  fs::remove_all(other);
}

TEST(JournalIdentity, AJournalWrittenBeforeIdentitiesGetsOneAndGoesOn) {
  fs::path dir = fresh_dir("identity-legacy");
  {
    Journal j(dir, {});
    for (int i = 0; i < 3; ++i) {
      WireEvent e = event("x");
      j.append(e);
    }
  }
  fs::remove(dir / Journal::kIdentityFile);  // as a journal of an older daemon has it
  std::string id;
  {
    Journal j(dir, {});
    id = j.id();
    EXPECT_EQ(id.size(), 16u);
    EXPECT_NE(j.id_made_because().find("before identities"), std::string::npos) << j.id_made_because();
    EXPECT_EQ(j.last_seq(), 3u) << "its seqs go on";
  }
  EXPECT_EQ(Journal(dir, {}).id(), id) << "written down: the next start keeps it";
  // A damaged identity file: replaced, and said why.
  std::ofstream(dir / Journal::kIdentityFile) << "not an id\n";
  {
    Journal j(dir, {});
    EXPECT_NE(j.id(), id);
    EXPECT_NE(j.id_made_because().find("not an identity"), std::string::npos) << j.id_made_because();
    EXPECT_EQ(j.last_seq(), 3u);
  }
  fs::remove_all(dir);
}
