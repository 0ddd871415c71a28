#include "daemon/table_event_wire.hpp"

namespace cardtable::daemon {

protocol::WireEvent wire_of(const table::Event& e) {
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
  w.card_message = e.card_message;
  w.card_evidence = e.card_evidence;
  w.mono = static_cast<double>(e.time) / 1000.0;
  return w;
}

}  // namespace cardtable::daemon
