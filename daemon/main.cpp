// cardtabled: reads the cards at a bridge table and publishes what it sees over ZeroMQ.
#include <iostream>

#include "daemon/event_loop.hpp"

int main(int argc, char** argv) {
  auto parsed = cardtable::daemon::parse_options(argc, argv);
  if (!parsed.options) {
    (parsed.exit_code ? std::cerr : std::cout) << parsed.message << '\n';
    return parsed.exit_code;
  }
  try {
    cardtable::daemon::EventLoop loop(std::move(*parsed.options));
    return loop.run();
  } catch (const cardtable::daemon::StartupError& e) {
    std::cerr << "cardtabled: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "cardtabled: " << e.what() << '\n';
    return 1;
  }
}
