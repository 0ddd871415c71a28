#include "event_json.hpp"

#include "protocol/wire_event.hpp"

namespace cardtable::tools {

nlohmann::json to_json(const table::Event& e) {
  protocol::WireEvent w;
  w.type = e.type;
  w.severity = std::string(table::severity_name(e.severity));
  w.laws = e.laws;
  w.event = e.event_name;
  w.session = e.session;
  w.board = e.board;
  for (auto s : e.seats) w.seats.emplace_back(1, bridge::seat_letter(s));
  w.evidence = e.evidence;
  w.message = e.message;
  w.mono = static_cast<double>(e.time) / 1000.0;
  w.time = w.mono;  // no wall clock in a simulation
  return protocol::to_json(w);
}

}  // namespace cardtable::tools
