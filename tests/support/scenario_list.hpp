// The shipped scenarios (tests/scenarios/*.scn), listed once for every test that runs each of them: the
// golden event streams, the restart-anywhere property test, the sealed-hands embargo test.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cardtable::test {

// The scenarios' names (file stems), sorted so test names come in the same order on every machine.
inline std::vector<std::string> scenario_names(const std::filesystem::path& dir = SCENARIO_DIR) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".scn") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

// A scenario's name as a GoogleTest parameter name, which allows no '-'.
inline std::string scenario_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param;
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
}

}  // namespace cardtable::test
