// The zones a scenario reads, from its steps alone, are the zones a pass through its inputs reads, in the
// order it first reads them: the simulator serves them when given none, without playing the scenario at
// its start (up to 100,000 read periods of readings).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "table/scenario.hpp"

using namespace cardtable::table;
namespace fs = std::filesystem;

namespace {

// What a whole pass reads: the oracle, made the slow way on purpose.
std::vector<Zone> zones_of_a_pass(const Scenario& sc) {
  std::vector<Zone> out;
  ScenarioInputs inputs(sc);
  while (const auto in = inputs.next())
    if (in->kind == TableInput::Kind::Observe && std::find(out.begin(), out.end(), in->observation.zone) == out.end())
      out.push_back(in->observation.zone);
  return out;
}

std::vector<std::string> names(const std::vector<Zone>& zones) {
  std::vector<std::string> out;
  for (const Zone& z : zones) out.push_back(z.str());
  return out;
}

Scenario parsed(const std::string& text) {
  std::vector<ScenarioError> errors;
  cardtable::bridge::MasterRecord none;
  auto sc = parse_scenario(text, ".", [&none](const auto&) -> const cardtable::bridge::MasterRecord& { return none; }, errors);
  EXPECT_TRUE(sc) << (errors.empty() ? "" : errors.front().message);
  return sc ? *std::move(sc) : Scenario{};
}

}  // namespace

TEST(ScenarioReadZones, InTheOrderFirstReadNotFirstNamed) {
  // play:N is named first but reads only from 2 s; a silent zone and one read and silenced within one read
  // period are never read; a reading after the end is never made.
  const Scenario sc = parsed(
      "zones play:N play:E play:S play:W dummy\n"
      "at 0 silent play:W\n"
      "at 1 silent play:N\n"
      "at 1.5 read play:E SA\n"
      "at 1.51 read dummy SK\n"
      "at 1.52 silent dummy\n"
      "at 2 read play:N SQ\n"
      "at 3 read play:S SJ\n"
      "end 2.99\n");
  EXPECT_EQ(names(scenario_read_zones(sc)), (std::vector<std::string>{"play:E", "play:N"}));
  EXPECT_EQ(scenario_read_zones(sc), zones_of_a_pass(sc));
}

TEST(ScenarioReadZones, EveryScenarioShippedReadsTheZonesAPassReads) {
  int checked = 0;
  for (const auto& e : fs::directory_iterator(SCENARIO_DIR)) {
    if (e.path().extension() != ".scn") continue;
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    cardtable::bridge::MasterRecord master;
    bool loaded = false;
    auto load = [&](const std::vector<fs::path>& paths) -> const cardtable::bridge::MasterRecord& {
      if (!loaded) master.load(paths);
      loaded = true;
      return master;
    };
    std::vector<ScenarioError> errors;
    auto sc = parse_scenario(text.str(), e.path().parent_path(), load, errors);
    ASSERT_TRUE(sc) << e.path() << ": " << (errors.empty() ? "" : errors.front().message);
    EXPECT_EQ(names(scenario_read_zones(*sc)), names(zones_of_a_pass(*sc))) << e.path();
    ++checked;
  }
  EXPECT_GT(checked, 50);
}
