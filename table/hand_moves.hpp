// How hands and cards moved between seats, in a director's words: "North's and East's hands are
// swapped", "the board was turned 1 seat clockwise", "3 cards are in the wrong hands". Shared by the
// board-checking station (Laws 6, 87A) and the table in play (Laws 7, 87A).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "bridge/deal.hpp"

namespace cardtable::table {

// The 24 ways four hands can sit in four pockets, the identity first.
const std::array<bridge::SeatMap, 24>& all_seat_maps();

// A map (seat s holds the hand of map[s]) in words: "the board was turned 1 seat clockwise",
// "North's and East's hands are swapped", "North holds East's hand, East South's and South North's".
std::string map_words(const bridge::SeatMap& map);

// "as turned 1 seat clockwise", "with North's and East's hands swapped": the deal a map makes.
std::string map_as(const bridge::SeatMap& map);

// A card found in a seat that the reference deal gives to another.
struct Misplaced {
  bridge::Card card;
  bridge::Seat belongs_to;
  bridge::Seat found_in;
};
// "SQ:E->N SJ:E->N" (expected E, found N): the machines' list, for the director-only evidence.
std::string misplaced_list(const std::vector<Misplaced>& cards);
// "♠Q in North's pocket, not East's, ..." at most `shown`, then "and N more".
std::string misplaced_display(const std::vector<Misplaced>& cards, std::size_t shown = 4);
// The seats concerned, in the order first met.
std::vector<bridge::Seat> misplaced_seats(const std::vector<Misplaced>& cards);

// The reference deal under `map` with the most of these pockets' cards in place (each pocket checked
// against the hand the map puts there): the identity wins ties.
struct NearestMap {
  bridge::SeatMap map = bridge::kIdentitySeats;
  int in_place = 0;
};
NearestMap nearest_map(const std::array<bridge::Hand, 4>& pockets, const bridge::Deal& reference);

}  // namespace cardtable::table
