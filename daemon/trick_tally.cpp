#include "daemon/trick_tally.hpp"

#include <cstdlib>
#include <string>

#include "daemon/wire_conversion.hpp"

namespace cardtable::daemon {

std::optional<protocol::WireEvent> TrickTally::on_trick(const protocol::WireEvent& trick, const Options& identity, double wall_seconds) {
  int number = 0;
  char side = 0;
  for (const auto& [k, v] : trick.evidence) {
    if (k == "trick") number = std::atoi(v.c_str());
    // A winner the table could not tell (the last trick, no trump known, a ruff) counts for neither side.
    if (k == "winner") side = v == "N" || v == "S" ? 'N' : v == "E" || v == "W" ? 'E' : '?';
  }
  if (number <= 0 || !side) return std::nullopt;
  // A new board starts its count afresh. Not every board begins with board.arrived (a session's next board
  // is identified as its pockets are read, with no moment when all four are full): the board number is what
  // tells, else board 2's first trick read "13 tricks played".
  if (trick.board != board_) sides_.clear();
  board_ = trick.board;
  sides_[number] = side;
  int ns = 0, ew = 0;
  for (const auto& [n, s] : sides_) {
    if (s == 'N') ++ns;
    if (s == 'E') ++ew;
  }
  int played = static_cast<int>(sides_.size());
  std::string board = trick.board ? "Board " + std::to_string(trick.board) : std::string("The board");
  auto w = daemon_event("board.trick", "info", board + ": " + std::to_string(played) + (played == 1 ? " trick" : " tricks") + " played",
                        identity, wall_seconds, trick.mono);
  w.event = trick.event;
  w.session = trick.session;
  w.board = trick.board;
  w.evidence = {{"tricks", std::to_string(played)}};
  w.card_message = board + ": trick " + std::to_string(number) + " to " +
                   (side == 'N' ? "North-South" : side == 'E' ? "East-West" : "a side the table could not tell") +
                   "; North-South " + std::to_string(ns) + ", East-West " + std::to_string(ew);
  w.card_evidence = {{"trick", std::to_string(number)}, {"ns", std::to_string(ns)}, {"ew", std::to_string(ew)}};
  return w;
}

}  // namespace cardtable::daemon
