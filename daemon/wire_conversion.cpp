#include "daemon/wire_conversion.hpp"

namespace cardtable::daemon {

protocol::WireEvent to_wire(const table::Event& e, const Options& o, double wall) {
  protocol::WireEvent w;
  w.type = e.type;
  w.severity = std::string(table::severity_name(e.severity));
  w.laws = e.laws;
  w.tournament = o.tournament;
  w.section = o.section;
  w.table = o.table;
  w.event = e.event_name;
  w.session = e.session;
  w.board = e.board;
  for (auto s : e.seats) w.seats.emplace_back(1, bridge::seat_letter(s));
  w.evidence = e.evidence;
  w.message = e.message;
  w.card_message = e.card_message;
  w.card_evidence = e.card_evidence;
  w.time = wall;
  w.mono = static_cast<double>(e.time) / 1000.0;
  return w;
}

protocol::WireEvent daemon_event(std::string type, std::string severity, std::string message, const Options& o, double wall,
                                 double mono) {
  protocol::WireEvent w;
  w.type = std::move(type);
  w.severity = std::move(severity);
  w.message = std::move(message);
  w.tournament = o.tournament;
  w.section = o.section;
  w.table = o.table;
  w.time = wall;
  w.mono = mono;
  return w;
}

}  // namespace cardtable::daemon
