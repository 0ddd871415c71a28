// The simulated table: --simulate FILE (a scenario, docs/scenarios.md) or --simulate-session EVENT/SESSION
// (generated from the master record, --foul, --session-contract), played by the device "sim" with
// --sim-faults at --speed. The scenario is parsed here, in the daemon: devices/ does not include the
// scenario parser (the sim is handed the inputs).
#pragma once

#include <optional>
#include <vector>

#include "bridge/master_record.hpp"
#include "daemon/options.hpp"
#include "devices/device.hpp"
#include "devices/sim/input_script.hpp"
#include "table/scenario.hpp"

namespace cardtable::daemon {

struct Simulation {
  table::TableConfig config;               // the scenario's settings are the table's
  devices::InputScript script;             // what the sim plays, made from the scenario as it plays
  devices::DeviceConfig device;            // the device "sim", its zones the scenario's
  bool real_clock = true;                  // false: a sped-up scenario brings its own ticks
};

// None without --simulate or --simulate-session; throws StartupError naming the scenario's errors.
std::optional<Simulation> prepare_simulation(const Options& options, const bridge::MasterRecord& master);

}  // namespace cardtable::daemon
