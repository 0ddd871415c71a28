// libFuzzer target: the scenario parser must report, never crash or hang, on any text; and a scenario it
// accepts, played against a fresh table, must not crash the table either -- the readings and commands
// of a scenario are what the table gets from devices and operators, in any order nobody wrote.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "table/scenario.hpp"
#include "table_test_support.hpp"

using namespace cardtable;

namespace {

// A scenario may run 100,000 read periods (the parser's bound), each a reading of every zone: a long run
// by request, not a fault, but seconds an input. Played only up to 5 minutes at the usual 100 ms.
constexpr table::Millis kMostPeriods = 3000;

bool short_enough(const table::Scenario& sc) {
  const table::Millis last = sc.steps.empty() ? 0 : sc.steps.back().time;
  const table::Millis end = sc.end >= 0 ? sc.end : last + 10000;
  return end / sc.read_period <= kMostPeriods && sc.steps.size() <= 20000;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<table::ScenarioError> errors;
  // The tests' record ("Spring Pairs", "Autumn Teams"): the boards tests/scenarios, the seeds, name.
  const bridge::MasterRecord& master = table::test::master();
  auto sc = table::parse_scenario(text, ".", [&](const auto&) -> const bridge::MasterRecord& { return master; }, errors);
  if (sc && short_enough(*sc)) (void)table::run_scenario(*sc, master);
  return 0;
}
