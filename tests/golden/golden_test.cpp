// Each scenario's events, as `cardtablectl simulate` prints them, must equal its golden file.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenario_list.hpp"

namespace fs = std::filesystem;

namespace {

std::string run(const fs::path& scenario, int& status) {
  std::string cmd = std::string(CARDTABLECTL) + " simulate '" + scenario.string() + "' 2>&1";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int st = pclose(p);
  status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return out;
}

class Golden : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(Golden, EventStreamMatches) {
  fs::path scn = fs::path(SCENARIO_DIR) / (GetParam() + ".scn");
  fs::path golden = fs::path(SCENARIO_DIR) / (GetParam() + ".events");
  int status = -1;
  std::string got = run(scn, status);
  ASSERT_EQ(status, 0) << got;
  if (const char* update = std::getenv("CARDTABLE_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    std::ofstream(golden, std::ios::binary) << got;
    GTEST_SKIP() << "rewrote " << golden;
  }
  std::ifstream in(golden, std::ios::binary);
  ASSERT_TRUE(in) << "no golden file " << golden << " (run with CARDTABLE_UPDATE_GOLDEN=1 to write it)";
  std::stringstream want;
  want << in.rdbuf();
  // Line by line, so that a failure shows the first line that differs.
  std::istringstream a(want.str()), b(got);
  std::string la, lb;
  int line = 0;
  while (true) {
    bool ha = static_cast<bool>(std::getline(a, la)), hb = static_cast<bool>(std::getline(b, lb));
    ++line;
    if (!ha && !hb) break;
    ASSERT_EQ(ha ? la : "<end>", hb ? lb : "<end>") << golden.filename().string() << " line " << line;
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, Golden, ::testing::ValuesIn(cardtable::test::scenario_names()),
                         cardtable::test::scenario_test_name);
