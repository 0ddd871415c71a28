// cardtabled: reads the cards at a bridge table and publishes what it sees over ZeroMQ.
#include <iostream>

#include "daemon/event_loop.hpp"
#include "daemon/log.hpp"
#include "daemon/startup_error.hpp"

int main(int argc, char** argv) {
  using cardtable::daemon::log;
  using cardtable::daemon::Priority;
  auto parsed = cardtable::daemon::parse_options(argc, argv);
  if (!parsed.options) {
    if (parsed.exit_code == 0) {
      std::cout << parsed.message << '\n';  // --help, --version
      return 0;
    }
    // A configuration error: err in the journal, "<3>" on a terminal. The message already names us.
    std::string_view m = parsed.message;
    if (m.starts_with("cardtabled: ")) m.remove_prefix(12);
    log(Priority::Error, m);
    return parsed.exit_code;
  }
  try {
    cardtable::daemon::EventLoop loop(std::move(*parsed.options));
    return loop.run();
  } catch (const cardtable::daemon::StartupError& e) {
    log(Priority::Error, e.what());
    return 2;
  } catch (const std::exception& e) {
    log(Priority::Critical, e.what());
    return 1;
  }
}
