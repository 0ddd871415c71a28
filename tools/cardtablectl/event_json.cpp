#include "event_json.hpp"

#include "daemon/table_event_wire.hpp"

namespace cardtable::tools {

nlohmann::json to_json(const table::Event& e) {
  protocol::WireEvent w = daemon::wire_of(e);
  w.time = w.mono;  // no wall clock in a simulation
  return protocol::to_json(w);  // as published: the card detail stays out
}

}  // namespace cardtable::tools
