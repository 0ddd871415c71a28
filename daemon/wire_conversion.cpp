#include "daemon/wire_conversion.hpp"

#include "daemon/table_event_wire.hpp"

namespace cardtable::daemon {

protocol::WireEvent to_wire(const table::Event& e, const Options& o, double wall) {
  protocol::WireEvent w = wire_of(e);
  w.tournament = o.tournament;
  w.section = o.section;
  w.table = o.table;
  w.time = wall;
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
