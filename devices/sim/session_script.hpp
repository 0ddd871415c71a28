// Whole sessions for the simulated table, generated from the master record: every board of a session as a
// scenario (docs/scenarios.md) -- it arrives, North-South then East-West take their cards out, the
// contract is given, all 52 cards are played, the board goes back -- with a fouled board where asked. The
// sim's own faults (misreads, dropped reads, flicker, an unplugged reader: SimFaults) then apply to what
// it plays, so the demo and the tests run a session through the paths real readers take.
// Scenario text, not parsed inputs: devices/ does not include the scenario parser (the daemon's script
// loader, or a test, parses it).
#pragma once

#include <optional>
#include <set>
#include <string>

#include "bridge/master_record.hpp"

namespace cardtable::devices {

struct SessionPlan {
  std::string event, session;      // which session of the master record ("Spring Pairs", "1")
  std::string contract = "3NT S";  // every board's contract; the play is the deal's legal play-out
  std::set<int> fouled;            // boards fouled before play: North's and East's hands exchanged
  int board_seconds = 80;          // from one board's arrival to the next (the play takes 65 s; the board lifted away 75 s in)
};

// The scenario, or nullopt with `error` (no such session, no contract).
std::optional<std::string> session_scenario(const bridge::MasterRecord& master, const SessionPlan& plan, std::string& error);

}  // namespace cardtable::devices
