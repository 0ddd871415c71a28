// A power cut can leave the journal's newest file cut at any byte of its last line. Whatever the byte,
// the journal reopens with the complete lines only: no torn line is counted, replayed or built upon.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "protocol/journal.hpp"

using namespace cardtable::protocol;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Events whose JSON has "}" inside the line (the evidence object), so that a cut can leave a prefix
// that ends with "}" and still is no event.
WireEvent event(int i) {
  WireEvent e;
  e.type = "irregularity.wrong_count";
  e.severity = "alert";
  e.tournament = "t";
  e.board = i;
  e.evidence = {{"expected", "13"}, {"observed", std::to_string(10 + i)}};
  e.message = "board " + std::to_string(i);
  return e;
}

}  // namespace

TEST(JournalPowerCut, CutAtEveryByteOfTheLastLineTheJournalReopensWithTheCompleteLinesOnly) {
  fs::path dir = fs::temp_directory_path() / ("journal-power-cut-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  {
    Journal j(dir, {});
    for (int i = 1; i <= 3; ++i) {
      WireEvent e = event(i);
      j.append(e);
    }
  }
  fs::path file;  // the journal's one file (its identity file lies beside it)
  for (const auto& f : fs::directory_iterator(dir))
    if (f.path().extension() == ".jsonl") file = f.path();
  const std::string whole = read(file);
  const std::size_t last_line = whole.rfind('\n', whole.size() - 2) + 1;
  for (std::size_t cut = last_line; cut < whole.size(); ++cut) {
    SCOPED_TRACE("cut at byte " + std::to_string(cut) + " of " + std::to_string(whole.size()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::ofstream(file, std::ios::binary) << whole.substr(0, cut);
    Journal j(dir, {});
    EXPECT_EQ(j.last_seq(), 2u);
    std::vector<std::string> lines;
    j.replay(1, [&](const std::string& line, std::uint64_t) {
      lines.push_back(line);
      return true;
    });
    ASSERT_EQ(lines.size(), 2u);
    for (const auto& l : lines) EXPECT_FALSE(nlohmann::json::parse(l, nullptr, false).is_discarded()) << l;
    WireEvent next = event(9);
    j.append(next);
    EXPECT_EQ(next.seq, 3u);
    std::uint64_t expect = 1;
    j.replay(1, [&](const std::string& line, std::uint64_t seq) {
      EXPECT_EQ(seq, expect++);
      EXPECT_EQ(nlohmann::json::parse(line)["seq"], seq);
      return true;
    });
    EXPECT_EQ(expect, 4u);
    // The torn line is cut off the file, not left inside it: the next event (appended to the same file,
    // the newest) starts on a line of its own right after the complete lines.
    const std::string after = read(file);
    EXPECT_EQ(after.substr(0, last_line), whole.substr(0, last_line));
    EXPECT_TRUE(after.substr(last_line).starts_with("{\"seq\":3,")) << after.substr(last_line, 40);
  }
  fs::remove_all(dir);
}
