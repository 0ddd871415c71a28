// `cardtablectl simulate`: runs the table over a scenario and prints the events — the same table code
// the daemon runs.
#pragma once

#include <string>
#include <vector>

namespace cardtable::tools {

int run_simulate(const std::vector<std::string>& args);

}  // namespace cardtable::tools
