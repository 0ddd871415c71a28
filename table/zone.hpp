// Where a reading comes from on the table: a board's pocket, a player's play area, dummy, the scan slot
// of a board-checking station, or a fanned hand under a camera.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "bridge/card.hpp"

namespace cardtable::table {

using bridge::Seat;

enum class ZoneKind : std::uint8_t {
  Pocket,  // pocket:N — presence (some tag seen or not), with the cards when the reader can tell them
  Play,    // play:N   — the one card a player has faced
  Dummy,   // dummy    — dummy's cards on the table
  Scan,    // scan     — a slot cards are passed over one at a time (board-checking station, dealing)
  Hand,    // hand:N   — a pocket's cards fanned face up under a camera (board-checking station)
};

struct Zone {
  ZoneKind kind = ZoneKind::Scan;
  Seat seat = Seat::North;  // for Pocket, Play and Hand
  bool has_seat() const { return kind == ZoneKind::Pocket || kind == ZoneKind::Play || kind == ZoneKind::Hand; }
  std::string str() const;  // "pocket:N", "dummy"
  static std::optional<Zone> parse(std::string_view text);
  friend bool operator==(const Zone& a, const Zone& b) {
    return a.kind == b.kind && (!a.has_seat() || a.seat == b.seat);
  }
  // 0..14, for tables indexed by zone. Inline: the table looks up every zone's reading at every poll
  // (Table::tick), and the call cost more than the switch.
  constexpr int index() const {
    switch (kind) {
      case ZoneKind::Pocket: return bridge::index(seat);
      case ZoneKind::Play: return 4 + bridge::index(seat);
      case ZoneKind::Hand: return 8 + bridge::index(seat);
      case ZoneKind::Dummy: return 12;
      case ZoneKind::Scan: return 13;
    }
    return 14;
  }
};
inline constexpr int kZoneCount = 15;

}  // namespace cardtable::table
