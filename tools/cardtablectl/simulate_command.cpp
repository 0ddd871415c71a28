#include "simulate_command.hpp"

#include <boost/program_options.hpp>

#include <deque>
#include <fstream>
#include <iostream>
#include <sstream>

#include "bridge/master_record.hpp"
#include "event_json.hpp"
#include "records_command.hpp"
#include "table/scenario.hpp"

namespace cardtable::tools {
namespace po = boost::program_options;
namespace fs = std::filesystem;

int run_simulate(const std::vector<std::string>& args) {
  po::options_description opts("cardtablectl simulate [--master PATH...] SCENARIO [options]");
  opts.add_options()("help,h", "this help")("master,m", po::value<std::vector<std::string>>()->multitoken()->composing(),
                                            "master record files or folders (default: the scenario's 'master' lines)")(
      "json", "one JSON object per event and line")("scenario", po::value<std::string>(), "the scenario file (docs/scenarios.md)");
  po::positional_options_description pos;
  pos.add("scenario", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "cardtablectl simulate: " << e.what() << "\n(see cardtablectl simulate --help)\n";
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << opts << "\nRuns the table over a scenario and prints the events it publishes.\n";
    return kExitOk;
  }
  // "--master a.pbn b.pbn x.scn": --master takes several paths, so the scenario may arrive as its last one.
  std::vector<std::string> masters = vm.count("master") ? vm["master"].as<std::vector<std::string>>() : std::vector<std::string>{};
  std::string scenario_path = vm.count("scenario") ? vm["scenario"].as<std::string>() : std::string();
  if (scenario_path.empty() && !masters.empty() && fs::path(masters.back()).extension() == ".scn") {
    scenario_path = masters.back();
    masters.pop_back();
  }
  if (scenario_path.empty()) {
    std::cerr << "cardtablectl simulate: give a scenario file\n(see cardtablectl simulate --help)\n";
    return kExitUsage;
  }
  fs::path file = scenario_path;
  std::ifstream in(file);
  if (!in) {
    std::cerr << file.string() << ": cannot open the scenario\n";
    return kExitProblems;
  }
  std::stringstream text;
  text << in.rdbuf();

  bridge::MasterRecord master;
  bool loaded = false;
  bridge::Diagnostics master_problems;
  std::vector<fs::path> from_command_line(masters.begin(), masters.end());
  auto load = [&](const std::vector<fs::path>& paths) -> const bridge::MasterRecord& {
    if (!loaded) {
      master_problems = master.load(from_command_line.empty() ? paths : from_command_line);
      loaded = true;
    }
    return master;
  };
  std::vector<table::ScenarioError> errors;
  auto scenario = table::parse_scenario(text.str(), file.parent_path(), load, errors);
  for (const auto& d : master_problems)
    if (d.is_error()) std::cerr << d.str() << '\n';
  if (!scenario) {
    for (const auto& e : errors) std::cerr << file.string() << ":" << e.line << ": " << e.message << '\n';
    return kExitProblems;
  }
  if (!loaded) load(scenario->masters);
  // A 'reload' step loads the record again (or another one), as SIGHUP does; each stays alive to the end.
  std::deque<bridge::MasterRecord> reloaded;
  auto reload = [&](const std::vector<fs::path>& paths) -> const bridge::MasterRecord& {
    bridge::MasterRecord& r = reloaded.emplace_back();
    for (const auto& d : r.load(from_command_line.empty() ? paths : from_command_line))
      if (d.is_error()) std::cerr << d.str() << '\n';
    return r;
  };
  // Printed as the table publishes them: a long scenario's events are never all held at once.
  const bool json = vm.count("json") > 0;
  table::run_scenario(*scenario, master, reload, [json](table::Event&& e) {
    if (json) std::cout << to_json(e).dump() << '\n';
    else std::cout << e.str() << '\n';
  });
  return kExitOk;
}

}  // namespace cardtable::tools
