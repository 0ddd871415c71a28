// cardtable-hub: gathers the events of many tables (their PUB endpoints connect to its upstream) and
// passes them on to subscribers (XSUB/XPUB), keeping each table's latest board for late joiners.
#include <boost/program_options.hpp>

#include <iostream>

#include "hub.hpp"

namespace po = boost::program_options;

int main(int argc, char** argv) {
  cardtable::hub::HubOptions o;
  po::options_description opts("cardtable-hub: gathers many tables' events and serves them to subscribers");
  opts.add_options()("help,h", "this help")(
      "upstream", po::value(&o.upstream)->default_value(o.upstream), "XSUB endpoint the tables' cardtabled connect their --publish to")(
      "downstream", po::value(&o.downstream)->default_value(o.downstream), "XPUB endpoint subscribers connect to")(
      "control", po::value(&o.control)->default_value(o.control),
      "ROUTER endpoint: {\"command\":\"snapshot\"} gives every table's board in progress, {\"command\":\"alerts\"} every table's open alerts (oldest first); also status, version")(
      "curve-secret", po::value(&o.curve_secret), "the hub's CURVE keypair file (mode 0600): every endpoint encrypted")(
      "clients", po::value(&o.clients),
      "allowed keys: table/TOURNAMENT/SECTION/TABLE.pub may publish upstream, for that table only; director/, broadcaster/, hub/ may subscribe")(
      "plaintext", po::bool_switch(&o.plaintext), "allow unencrypted tcp (loopback addresses only)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, opts), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "cardtable-hub: " << e.what() << "\n(see cardtable-hub --help)\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << opts;
    return 0;
  }
  try {
    cardtable::hub::Hub hub(o);
    return hub.run();
  } catch (const cardtable::hub::HubStartupError& e) {
    std::cerr << "cardtable-hub: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "cardtable-hub: " << e.what() << "\n";
    return 1;
  }
}
