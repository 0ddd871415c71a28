// What the simulated table plays: a script of table inputs made as it plays (the daemon makes it from a
// scenario, devices/ does not include the scenario parser). The daemon's clock reads its first input too.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "table/input.hpp"

namespace cardtable::devices {

// A script the sim plays, made as it plays: open() starts it again from its first input (each pass of a
// loop); the cursor gives its inputs in order, then null. A scenario's run is up to 100,000 read periods
// of a reading of each zone: made up front it was ~100 MB before the table started.
using InputCursor = std::function<std::optional<table::TableInput>()>;
using InputScript = std::function<InputCursor()>;
// A script of fixed inputs (tests; an empty script: none).
InputScript fixed_script(std::vector<table::TableInput> inputs);

}  // namespace cardtable::devices
