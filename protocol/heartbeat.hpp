// The period of daemon.heartbeat: cardtabled sends one every --heartbeat seconds, and cardtablectl watch
// is told the same period to know when a daemon has fallen silent. One set of bounds for both, so a
// period the daemon runs with is never refused by the watch that follows it (or the other way round).
#pragma once

namespace cardtable::protocol {

inline constexpr double kHeartbeatDefaultSeconds = 5.0;
// At least a tenth of a second: the daemon's loop wakes every 100 ms (the table clock's tick), so a
// shorter period cannot be kept -- --heartbeat 1e-9 sent one at every wake-up, and a watch told such a
// period called the table silent between two of them.
inline constexpr double kHeartbeatMinSeconds = 0.1;
// At most an hour: a subscriber learns of a gap or a silence only through heartbeats, and longer than
// that a director would not hear that a table went quiet before the round ended.
inline constexpr double kHeartbeatMaxSeconds = 3600.0;

// Written as one range test so that nan is refused too.
constexpr bool heartbeat_in_bounds(double seconds) { return seconds >= kHeartbeatMinSeconds && seconds <= kHeartbeatMaxSeconds; }

// Said by both programs when the period is refused; each prefixes its own name and option.
inline constexpr const char* kHeartbeatBounds = "must be 0.1 to 3600 seconds";

}  // namespace cardtable::protocol
