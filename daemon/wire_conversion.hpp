// The table's events as the wire carries them: identity added, seats and severities as text.
#pragma once

#include "daemon/options.hpp"
#include "protocol/wire_event.hpp"
#include "table/event.hpp"

namespace cardtable::daemon {

protocol::WireEvent to_wire(const table::Event& e, const Options& identity, double wall_seconds);
protocol::WireEvent daemon_event(std::string type, std::string severity, std::string message, const Options& identity,
                                 double wall_seconds, double mono_seconds);

}  // namespace cardtable::daemon
