// Board numbers and what they fix: the dealer and the vulnerability (the standard 16-board cycle).
#pragma once

#include <optional>
#include <string_view>

#include "bridge/card.hpp"

namespace cardtable::bridge {

enum class Vulnerability : std::uint8_t { None = 0, NorthSouth = 1, EastWest = 2, Both = 3 };

// Law 2: board 1 is dealt by North, 2 by East, ...; the vulnerability follows the 16-board cycle.
Seat dealer_of_board(int board);
Vulnerability vulnerability_of_board(int board);

bool is_vulnerable(Vulnerability v, Side side);
// PBN spelling: "None", "NS", "EW", "All".
std::string_view pbn_name(Vulnerability v);
// Reads every spelling seen in real files: "None", "Love", "-", "NS", "N-S", "EW", "E-W", "All", "Both",
// any case, surrounding spaces ignored ("None ", "N-S ").
std::optional<Vulnerability> parse_vulnerability(std::string_view text);

}  // namespace cardtable::bridge
