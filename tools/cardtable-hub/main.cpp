// cardtable-hub: gathers the events of many tables (their PUB endpoints connect to its upstream) and
// passes them on to subscribers (XSUB/XPUB), keeping each table's latest board for late joiners.
#include <boost/program_options.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "daemon/config_file.hpp"
#include "daemon/system_log.hpp"
#include "hub.hpp"

namespace po = boost::program_options;
using cardtable::daemon::Priority;

namespace {

// Failures go to the system log with their priority, as cardtabled's do (journald under systemd, "<N>"
// lines on a terminal).
int fail(Priority p, const std::string& why, int status) {
  cardtable::daemon::Logger("cardtable-hub").log(p, why);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  cardtable::hub::HubOptions o;
  std::string config;
  std::vector<std::string> table_controls;
  po::options_description opts("cardtable-hub: gathers many tables' events and serves them to subscribers");
  opts.add_options()("help,h", "this help")(
      "config", po::value(&config), "a config file: the same names, one \"name = value\" a line (cardtable-hub(8))")(
      "upstream", po::value(&o.upstream)->default_value(o.upstream), "XSUB endpoint the tables' cardtabled connect their --publish to")(
      "downstream", po::value(&o.downstream)->default_value(o.downstream), "XPUB endpoint subscribers connect to")(
      "control", po::value(&o.control)->default_value(o.control),
      "ROUTER endpoint: {\"command\":\"snapshot\"} gives every table's board in progress, {\"command\":\"alerts\"} every table's open alerts (oldest first); also status, version")(
      "curve-secret", po::value(&o.curve_secret), "the hub's CURVE keypair file (mode 0600, or 0640 with the hub's group): every endpoint encrypted")(
      "clients", po::value(&o.clients),
      "allowed keys: table/TOURNAMENT/SECTION/TABLE.pub may publish upstream, for that table only; director/, broadcaster/, hub/ may subscribe")(
      "plaintext", po::bool_switch(&o.plaintext), "allow unencrypted tcp (loopback addresses only)")(
      "table-control", po::value(&table_controls)->composing(),
      "TOURNAMENT/SECTION/TABLE=ENDPOINT, once per table: that table's control endpoint; the hub asks it for the table's open "
      "alerts when the table connects and whenever its heartbeat's count differs from the hub's list at that heartbeat, "
      "and for its snapshot when the hub first hears it or finds events of it missing (a seq skipped), so that a board begun before the hub, or cut short on the way, is held whole "
      "(with CURVE the hub's key must be in the table's clients/hub/)")(
      "silent-after", po::value(&o.silent_after)->default_value(o.silent_after),
      "seconds without a heartbeat or an event before a table is called silent (logged; status and alerts list it): "
      "its daemon stopped, its machine or network down; above the tables' --heartbeat");
  po::variables_map vm;
  try {
    // The command line first: what it gives wins over the config file (as cardtabled).
    // No positional arguments: a stray word was dropped without a word.
    po::store(po::command_line_parser(argc, argv).options(opts).positional({}).run(), vm);
    if (vm.count("config")) {
      if (auto why = cardtable::daemon::read_config_file(vm["config"].as<std::string>(), opts, vm)) return fail(Priority::Error, *why, 2);
    }
    po::notify(vm);
  } catch (const po::error& e) {
    return fail(Priority::Error, std::string(e.what()) + " (see cardtable-hub --help)", 2);
  }
  if (vm.count("help")) {
    std::cout << opts;
    return 0;
  }
  if (!(o.silent_after > 0)) return fail(Priority::Error, "--silent-after must be above 0 seconds", 2);
  for (const std::string& tc : table_controls) {
    auto eq = tc.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == tc.size())
      return fail(Priority::Error, "--table-control " + tc + ": expected TOURNAMENT/SECTION/TABLE=ENDPOINT, e.g. default/A/7=tcp://10.0.0.17:5552", 2);
    o.table_control[tc.substr(0, eq)] = tc.substr(eq + 1);
  }
  try {
    cardtable::hub::Hub hub(o);
    return hub.run();
  } catch (const cardtable::hub::HubStartupError& e) {
    return fail(Priority::Error, e.what(), 2);
  } catch (const std::exception& e) {
    return fail(Priority::Critical, e.what(), 1);
  }
}
