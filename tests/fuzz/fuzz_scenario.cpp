// libFuzzer target: the scenario parser must report, never crash or hang, on any text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bridge/synthetic_record.hpp"
#include "table/scenario.hpp"

using namespace cardtable;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bridge::MasterRecord master = [] {
    bridge::MasterRecord m;
    bridge::Diagnostics d;
    bridge::synthetic_records(16, 8, 1, "Fuzz", [&](bridge::BoardRecord&& b) { m.add(b, d); });
    return m;
  }();
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<table::ScenarioError> errors;
  (void)table::parse_scenario(text, ".", [](const auto&) -> const bridge::MasterRecord& { return master; }, errors);
  return 0;
}
