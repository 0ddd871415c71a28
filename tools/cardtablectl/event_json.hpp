// Events as JSON objects (fields that are unset are left out, never null).
#pragma once

#include <nlohmann/json.hpp>

#include "table/event.hpp"

namespace cardtable::tools {

nlohmann::json to_json(const table::Event& e);

}  // namespace cardtable::tools
