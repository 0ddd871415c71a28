// cardtabled's log: one line per call, with its syslog priority and this table's name, to journald
// (structured fields) under systemd or "<N>" lines on stderr elsewhere (daemon/system_log.hpp). Lines
// are written whole: one never interleaves with another writer's line.
#pragma once

#include <string>
#include <string_view>

#include "daemon/system_log.hpp"
#include "protocol/wire_event.hpp"

namespace cardtable::daemon {

void log(std::string_view line);               // info
void log(Priority priority, std::string_view line);
// An event after it was journalled: its message, priority from its severity, and its fields (never a
// heartbeat nor live.*: no hand contents in the system log).
void log_event(const protocol::WireEvent& e);
// "tournament/section/table": set once at start; every later line names it.
void set_log_table(std::string table);

}  // namespace cardtable::daemon
