#include "table/hand_moves.hpp"

#include <algorithm>

namespace cardtable::table {
using namespace cardtable::bridge;

const std::array<SeatMap, 24>& all_seat_maps() {
  static const std::array<SeatMap, 24> maps = [] {
    std::array<SeatMap, 24> out{};
    SeatMap m = kIdentitySeats;
    for (auto& slot : out) {
      slot = m;
      std::next_permutation(m.begin(), m.end());
    }
    return out;
  }();
  return maps;
}

std::string map_words(const SeatMap& map) {
  if (auto r = rotation_of(map)) return "the board was turned " + std::to_string(*r) + (*r == 1 ? " seat" : " seats") + " clockwise";
  std::vector<Seat> moved;
  for (Seat s : kAllSeats)
    if (map[static_cast<std::size_t>(index(s))] != s) moved.push_back(s);
  auto name = [](Seat s) { return std::string(seat_name(s)); };
  auto holds = [&](Seat s) { return map[static_cast<std::size_t>(index(s))]; };
  // One or two swaps.
  bool swaps = std::all_of(moved.begin(), moved.end(), [&](Seat s) { return holds(holds(s)) == s; });
  if (swaps) {
    std::string out;
    for (Seat s : moved) {
      if (index(holds(s)) < index(s)) continue;
      out += (out.empty() ? "" : "; ") + name(s) + "'s and " + name(holds(s)) + "'s hands are swapped";
    }
    return out;
  }
  std::string out;
  for (std::size_t i = 0; i < moved.size(); ++i)
    out += (i == 0 ? "" : i + 1 == moved.size() ? " and " : ", ") + name(moved[i]) + (i == 0 ? " holds " : " ") + name(holds(moved[i])) +
           (i == 0 ? "'s hand" : "'s");
  return out;
}

std::string map_as(const SeatMap& map) {
  if (auto r = rotation_of(map)) return "as turned " + std::to_string(*r) + (*r == 1 ? " seat" : " seats") + " clockwise";
  return "with " + map_words(map);
}

std::string misplaced_list(const std::vector<Misplaced>& cards) {
  std::string out;
  for (const Misplaced& m : cards)
    out.append(out.empty() ? "" : " ").append(m.card.str()).append(":").append(1, seat_letter(m.belongs_to)).append("->").append(1, seat_letter(m.found_in));
  return out;
}

std::string misplaced_display(const std::vector<Misplaced>& cards, std::size_t shown) {
  std::string out;
  for (std::size_t i = 0; i < cards.size() && i < shown; ++i)
    out += (i ? ", " : "") + cards[i].card.display() + " in " + std::string(seat_name(cards[i].found_in)) + "'s pocket, not " +
           std::string(seat_name(cards[i].belongs_to)) + "'s";
  if (cards.size() > shown) out += " and " + std::to_string(cards.size() - shown) + " more";
  return out;
}

std::vector<Seat> misplaced_seats(const std::vector<Misplaced>& cards) {
  std::vector<Seat> out;
  for (const Misplaced& m : cards)
    for (Seat s : {m.belongs_to, m.found_in})
      if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  return out;
}

NearestMap nearest_map(const std::array<Hand, 4>& pockets, const Deal& reference) {
  // in[p][h]: cards of pocket p that reference hand h holds; the best map is a 4x4 assignment.
  std::array<std::array<int, 4>, 4> in{};
  for (std::size_t p = 0; p < 4; ++p)
    for (std::size_t h = 0; h < 4; ++h) in[p][h] = (pockets[p] & reference.hands()[h]).size();
  NearestMap best;
  best.in_place = -1;
  for (const SeatMap& m : all_seat_maps()) {
    int n = 0;
    for (std::size_t p = 0; p < 4; ++p) n += in[p][static_cast<std::size_t>(index(m[p]))];
    if (n > best.in_place) best = {m, n};
  }
  return best;
}

}  // namespace cardtable::table
