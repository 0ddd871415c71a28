// Tricks won by each side are the board's result in the making: a director's tile shows them, but a
// broadcaster must not learn them before the embargo (another table may still play the board). From each
// live.trick (held under embargo) the tally makes the public board.trick, which says only how many tricks
// were played (board.returned says as much); the count per side is director-only detail, read with
// `evidence SEQ` like an irregularity's card detail.
#pragma once

#include <map>
#include <optional>

#include "daemon/options.hpp"
#include "protocol/wire_event.hpp"

namespace cardtable::daemon {

class TrickTally {
 public:
  // The board.trick event for a live.trick (its evidence: trick, winner); none when the trick or its
  // winner is missing. A trick re-decided (taken back and played again) replaces its earlier winner.
  std::optional<protocol::WireEvent> on_trick(const protocol::WireEvent& trick, const Options& identity, double wall_seconds);
  // A board arrives, is verified or goes back: the next one counts from 1.
  void clear() { sides_.clear(); }

 private:
  std::map<int, char> sides_;  // this board's tricks: number -> 'N' (North-South), 'E' (East-West), '?' (untold)
  int board_ = 0;              // the board those tricks belong to
};

}  // namespace cardtable::daemon
