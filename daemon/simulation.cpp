#include "daemon/simulation.hpp"

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "daemon/startup_error.hpp"
#include "devices/sim/session_script.hpp"

namespace cardtable::daemon {
namespace fs = std::filesystem;

std::optional<Simulation> prepare_simulation(const Options& options, const bridge::MasterRecord& master) {
  if (options.simulate.empty() && options.simulate_session.empty()) return std::nullopt;
  std::string text, name = options.simulate;
  fs::path base = fs::path(options.simulate).parent_path();
  if (!options.simulate.empty()) {
    std::ifstream in(options.simulate);
    if (!in) throw StartupError("--simulate " + options.simulate + ": cannot read the scenario");
    std::stringstream all;
    all << in.rdbuf();
    text = all.str();
  } else {
    const std::string& es = options.simulate_session;
    devices::SessionPlan plan;
    plan.event = es.substr(0, es.rfind('/'));
    plan.session = es.substr(es.rfind('/') + 1);
    plan.contract = options.session_contract;
    plan.fouled.insert(options.foul.begin(), options.foul.end());
    std::string error;
    auto generated = devices::session_scenario(master, plan, error);
    if (!generated) throw StartupError("--simulate-session " + es + ": " + error);
    text = *std::move(generated);
    name = "session " + es;
    base = ".";
  }
  std::vector<table::ScenarioError> errors;
  auto scenario = table::parse_scenario(text, base, [&master](const auto&) -> const bridge::MasterRecord& { return master; }, errors);
  if (!scenario) {
    std::string all;
    for (const auto& e : errors) all += "\n  " + name + ":" + std::to_string(e.line) + ": " + e.message;
    throw StartupError("the scenario has errors:" + all);
  }
  Simulation sim;
  sim.config = scenario->config;
  // Made as the sim plays, never all at once: memory stays flat in the scenario's length.
  auto played = std::make_shared<const table::Scenario>(*std::move(scenario));
  // Its zones from the steps: a pass through it to learn them would make every reading at the sim's start.
  sim.script = devices::InputScript(
      [played]() -> devices::InputCursor {
        return [played, inputs = table::ScenarioInputs(*played)]() mutable { return inputs.next(); };
      },
      table::scenario_read_zones(*played));
  sim.real_clock = options.speed == 1.0;
  sim.device = {"sim", "sim", {}, {{"script", name}, {"loop", options.loop ? "yes" : "no"}, {"clock", sim.real_clock ? "daemon" : "script"}}};
  std::ostringstream speed;
  speed << options.speed;
  sim.device.options["speed"] = speed.str();
  // The faults (checked by parse_options: only the sim's keys): the sim driver reads them (devices/sim).
  std::istringstream faults(options.sim_faults);
  for (std::string kv; std::getline(faults, kv, ',');)
    if (auto eq = kv.find('='); eq != std::string::npos) sim.device.options[kv.substr(0, eq)] = kv.substr(eq + 1);
  return sim;
}

}  // namespace cardtable::daemon
