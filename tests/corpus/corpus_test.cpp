// Real tournament files: every deal loads, the PBN reference files behave, LIN agrees with PBN, and
// double-dummy analysis agrees with every DoubleDummyTricks tag.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "bridge/double_dummy.hpp"
#include "bridge/duplimate_formats.hpp"
#include "bridge/record_file.hpp"

using namespace cardtable::bridge;
namespace fs = std::filesystem;

namespace {

fs::path corpus() {
  if (const char* env = std::getenv("CARDTABLE_CORPUS"); env && *env) return env;
  return CARDTABLE_CORPUS_DIR;
}

#define REQUIRE_CORPUS()                                                                                      \
  if (corpus().empty() || !fs::is_directory(corpus() / "pbn"))                                               \
  GTEST_SKIP() << "no corpus: set CARDTABLE_CORPUS or -DCARDTABLE_CORPUS to shared/data/corpus (looked at '" \
               << corpus().string() << "')"

bool is_reference_error_file(const fs::path& p) { return p.filename().string().starts_with("errors_"); }

std::vector<fs::path> files_under(const fs::path& dir) {
  Diagnostics ignored;
  return record_files(dir, ignored);
}

}  // namespace

TEST(Corpus, EveryDealInEveryRealPbnAndLinFileLoadsAndIsValid) {
  REQUIRE_CORPUS();
  std::size_t files = 0, boards = 0, complete = 0;
  for (const char* dir : {"pbn", "lin"}) {
    for (const fs::path& f : files_under(corpus() / dir)) {
      if (is_reference_error_file(f)) continue;
      RecordSet s = read_record_file(f);
      ++files;
      EXPECT_FALSE(s.boards.empty()) << f;
      for (const Diagnostic& d : s.diagnostics) {
        // Problems of play or tags are reported, but no deal may be rejected.
        EXPECT_EQ(d.message.find("tag Deal"), std::string::npos) << d.str();
        EXPECT_FALSE(d.message.starts_with("md:")) << d.str();
      }
      for (const BoardRecord& r : s.boards) {
        ++boards;
        if (!r.deal) continue;
        EXPECT_TRUE(r.deal->consistent()) << r.place.str();
        complete += r.deal->valid() ? 1U : 0U;
      }
    }
  }
  std::cout << "[ corpus ] " << files << " PBN and LIN files, " << boards << " boards, " << complete << " complete deals\n";
  EXPECT_GT(complete, 3000u);
}

TEST(Corpus, PbnReferenceErrorFilesGiveErrorsAndCorrectFilesLoadClean) {
  REQUIRE_CORPUS();
  fs::path dir = corpus() / "pbn" / "pbn_reference_tests";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no " << dir;
  for (const fs::path& f : files_under(dir)) {
    RecordSet s = read_record_file(f);
    std::size_t errors = 0;
    for (const Diagnostic& d : s.diagnostics) errors += d.is_error() ? 1U : 0U;
    if (is_reference_error_file(f)) {
      EXPECT_GT(errors, 0u) << f;
      std::cout << "[ corpus ] " << f.filename().string() << ": " << errors << " errors reported\n";
    } else {
      EXPECT_EQ(errors, 0u) << f << ": " << (s.diagnostics.empty() ? "" : s.diagnostics[0].str());
    }
  }
}

TEST(Corpus, EachLinTableResultAgreesWithThePbnFileOfTheSameTournament) {
  REQUIRE_CORPUS();
  fs::path lin_dir = corpus() / "lin" / "bbo_skyclub_20130810";
  fs::path pbn = corpus() / "pbn" / "pbntools" / "sky_club_2196_pairs_sky_club_jackpot_2000.pbn";
  if (!fs::is_directory(lin_dir) || !fs::exists(pbn)) GTEST_SKIP() << "the Sky Club LIN/PBN pair is not in the corpus";
  // The PBN names the LIN file each record came from in its DealId tag.
  std::map<std::string, BoardRecord> by_lin;
  for (BoardRecord& r : read_record_file(pbn).boards)
    if (const std::string* id = r.tag("DealId")) by_lin[*id] = r;
  std::size_t compared = 0;
  for (const fs::path& f : files_under(lin_dir)) {
    RecordSet lin = read_record_file(f);
    ASSERT_EQ(lin.boards.size(), 1u) << f;
    auto it = by_lin.find(f.filename().string());
    ASSERT_NE(it, by_lin.end()) << f << " has no record in " << pbn;
    const BoardRecord& a = lin.boards[0];
    const BoardRecord& b = it->second;
    EXPECT_EQ(a.deal, b.deal) << f;
    EXPECT_EQ(a.board, b.board) << f;
    EXPECT_EQ(a.effective_dealer(), b.effective_dealer()) << f;
    EXPECT_EQ(a.effective_vulnerability(), b.effective_vulnerability()) << f;
    if (const std::string* contract = b.tag("Contract"); contract && a.tag("Contract")) {
      EXPECT_EQ(*a.tag("Contract"), *contract) << f;
    }
    ++compared;
  }
  std::cout << "[ corpus ] " << compared << " LIN files agree with " << pbn.filename().string() << '\n';
  EXPECT_EQ(compared, 44u);
}

TEST(Corpus, DuplimateDupAndDlmHoldTheSameDealsAsTheirPbn) {
  REQUIRE_CORPUS();
  fs::path dir = corpus() / "dup" / "big-deal_multiformat";
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no " << dir;
  RecordSet pbn = read_record_file(dir / "big-deal.pbn");
  RecordSet dup = read_record_file(dir / "big-deal.dup");
  RecordSet dlm = read_record_file(dir / "big-deal.dlm");
  EXPECT_TRUE(dup.diagnostics.empty());
  EXPECT_TRUE(dlm.diagnostics.empty()) << dlm.diagnostics[0].str();
  ASSERT_EQ(pbn.boards.size(), 2u);
  ASSERT_EQ(dup.boards.size(), 2u);
  ASSERT_EQ(dlm.boards.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(dup.boards[i].deal, pbn.boards[i].deal);
    EXPECT_EQ(dlm.boards[i].deal, pbn.boards[i].deal);
    EXPECT_EQ(dlm.boards[i].effective_vulnerability(), pbn.boards[i].effective_vulnerability());
  }
}

TEST(Corpus, DoubleDummyAnalysisAgreesWithEveryDoubleDummyTricksTag) {
  REQUIRE_CORPUS();
  std::vector<Deal> deals;
  std::vector<std::pair<DdTable, std::string>> tags;
  for (const fs::path& f : files_under(corpus() / "pbn"))
    for (const BoardRecord& r : read_record_file(f).boards)
      if (r.dd && r.deal && r.deal->valid()) {
        deals.push_back(*r.deal);
        tags.emplace_back(*r.dd, r.place.str());
      }
  ASSERT_GT(deals.size(), 400u);  // Camrose 2024 and the RealBridge example carry them
  std::vector<DdResult> results = solve_double_dummy(deals);
  std::size_t making_only = 0;
  for (std::size_t i = 0; i < deals.size(); ++i) {
    ASSERT_TRUE(results[i].table) << results[i].error;
    EXPECT_TRUE(tags[i].first.agrees_with(*results[i].table))
        << tags[i].second << ": tag " << tags[i].first.pbn() << ", libdds " << results[i].table->pbn();
    making_only += (tags[i].first.making_only_form() && tags[i].first != *results[i].table) ? 1U : 0U;
  }
  std::cout << "[ corpus ] " << deals.size() << " DoubleDummyTricks or OptimumResultTable tables agree (" << making_only
            << " list only making contracts)\n";
}
