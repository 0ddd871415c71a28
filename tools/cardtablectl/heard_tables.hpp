// When a watch last heard its endpoint and each table through it. A subscriber cannot tell a wrong
// endpoint or a stopped daemon from a quiet table, but a daemon's heartbeat comes every --heartbeat
// seconds (5 by default; through a hub too), and says so (protocol 1.7): three missed, and watch says
// so, once, then goes on listening. A fixed 15 s called every daemon run with --heartbeat 30 silent,
// every 15 s; watch's own --heartbeat serves until a heartbeat has said its period. Through a hub the
// other tables' heartbeats keep coming when one table stops: that table's silence is said on its own, once,
// and again when it is heard again (a table killed went unnoticed on the screen).
#pragma once

#include <chrono>
#include <map>
#include <set>
#include <string>

namespace cardtable::tools {

class HeardTables {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr int kMissed = 3;  // heartbeats missed before a silence is said

  // `heartbeats_expected`: false on the live endpoint (no heartbeat; a board's cards come minutes apart).
  // `heartbeat`: the daemons' --heartbeat, seconds between heartbeats.
  HeardTables(std::string endpoint, bool heartbeats_expected, double heartbeat, Clock::time_point start);
  // Says each table not heard for three heartbeats while others are, once per silence.
  void say_silent_tables(Clock::time_point now);
  // Nothing came in this poll: the endpoint quiet for three heartbeats is said, once until something comes.
  void nothing(Clock::time_point now);
  // Something came from the endpoint (an event or not).
  void message(Clock::time_point now);
  // An event of `table` came: true when the table is heard for the first time (a table silent is said heard again).
  bool table(const std::string& table, Clock::time_point now);
  // A heartbeat of `table` said its period (protocol 1.7, evidence `every`): from now on that table is
  // silent after three of its own heartbeats, and the endpoint after three of the longest period heard,
  // whatever --heartbeat says (a daemon run with --heartbeat 30 was called silent every 15 s).
  void heartbeat_period(const std::string& table, double every);

 private:
  // The period a table's silence is counted in: its heartbeats' own, else --heartbeat.
  double period_of(const std::string& table) const;
  // The endpoint's: the longest period its heartbeats said, else --heartbeat.
  double endpoint_period() const;

  std::string endpoint_;
  bool heartbeats_expected_;
  double heartbeat_;  // --heartbeat
  std::map<std::string, double> periods_;  // what each table's heartbeats say
  Clock::time_point last_heard_;
  bool quiet_said_ = false;
  std::map<std::string, Clock::time_point> table_heard_;
  std::set<std::string> tables_silent_;
};

}  // namespace cardtable::tools
