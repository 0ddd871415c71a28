// The table's events in the wire's JSON form (docs/protocol.md): simulate --json prints exactly what
// cardtabled would publish, with the simulated clock as both time and mono.
#pragma once

#include <nlohmann/json.hpp>

#include "table/event.hpp"

namespace cardtable::tools {

nlohmann::json to_json(const table::Event& e);

}  // namespace cardtable::tools
