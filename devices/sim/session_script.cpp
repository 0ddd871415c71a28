#include "devices/sim/session_script.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

namespace cardtable::devices {

namespace {
// A board's timeline, in the scenario language's seconds from its arrival. "play all" takes 13 tricks of
// 5 s; back in its pockets, the board is lifted off the table 4 s later (moved on to the next table), and
// the next one laid there (docs/laws.md, "Between boards").
constexpr int kPlayStarts = 4;
constexpr int kReturned = kPlayStarts + 13 * 5 + 2;
constexpr int kLifted = kReturned + 4;
}  // namespace

std::optional<std::string> session_scenario(const bridge::MasterRecord& master, const SessionPlan& plan, std::string& error) {
  std::vector<int> boards;
  for (std::uint32_t i = 0; i < master.size(); ++i) {
    const bridge::MasterBoard& b = master.board(i);
    const bridge::SessionId& s = master.session(b.session);
    if (s.event == plan.event && s.session == plan.session) boards.push_back(b.board);
  }
  if (boards.empty()) {
    error = "no session '" + plan.session + "' of '" + plan.event + "' in the master record";
    return std::nullopt;
  }
  if (plan.contract.empty() || plan.contract == "pass") {
    error = "a session is played in a contract, not '" + plan.contract + "'";
    return std::nullopt;
  }
  std::sort(boards.begin(), boards.end());
  std::ostringstream out;
  out << "# " << plan.event << " / " << plan.session << ": " << boards.size() << " boards generated from the master record\n";
  out << "zones playing-table\n";
  int t = 0;
  for (int b : boards) {
    out << "at " << t << " board " << plan.event << "/" << plan.session << "/" << b << "\n"
        << "at " << t << " pockets full\n"
        << "at " << t + 1 << " pocket N empty\nat " << t + 1 << " pocket S empty\n"
        << "at " << t + 2 << " pocket E empty\nat " << t + 2 << " pocket W empty\n"
        << "at " << t + 3 << " contract " << plan.contract << "\n"
        << "at " << t + kPlayStarts << " play all as master" << (plan.fouled.count(b) ? " swap NE" : "") << " contract " << plan.contract << "\n"
        << "at " << t + kReturned << " pockets full\n";
    // A slot too short for the lift has none: the next board follows at once.
    if (kLifted < plan.board_seconds) out << "at " << t + kLifted << " pockets empty\n";
    t += plan.board_seconds;
  }
  out << "end " << t << "\n";
  return out.str();
}

}  // namespace cardtable::devices
