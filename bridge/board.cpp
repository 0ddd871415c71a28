#include "bridge/board.hpp"

#include <array>
#include <cctype>
#include <string>

namespace cardtable::bridge {

Seat dealer_of_board(int board) {
  return static_cast<Seat>(((board - 1) % 4 + 4) % 4);
}

Vulnerability vulnerability_of_board(int board) {
  using V = Vulnerability;
  // Boards 1..16; the cycle repeats from 17.
  constexpr std::array<V, 16> cycle = {V::None, V::NorthSouth, V::EastWest, V::Both, V::NorthSouth, V::EastWest,
                                       V::Both, V::None,       V::EastWest, V::Both, V::None,       V::NorthSouth,
                                       V::Both, V::None,       V::NorthSouth, V::EastWest};
  return cycle[static_cast<std::size_t>(((board - 1) % 16 + 16) % 16)];
}

bool is_vulnerable(Vulnerability v, Side side) {
  if (v == Vulnerability::Both) return true;
  if (v == Vulnerability::None) return false;
  return (v == Vulnerability::NorthSouth) == (side == Side::NorthSouth);
}

std::string_view pbn_name(Vulnerability v) {
  constexpr std::array<std::string_view, 4> names = {"None", "NS", "EW", "All"};
  return names[static_cast<std::size_t>(v)];
}

std::optional<Vulnerability> parse_vulnerability(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  std::string t;
  for (char c : text)
    if (c != '-' && c != '/' && c != ' ') t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // Single letters ("E", "b") are LIN's spellings, not PBN's: the LIN reader maps those itself.
  if (text == "-" || t == "none" || t == "love") return Vulnerability::None;
  if (t == "ns" || t == "northsouth") return Vulnerability::NorthSouth;
  if (t == "ew" || t == "eastwest") return Vulnerability::EastWest;
  if (t == "all" || t == "both") return Vulnerability::Both;
  return std::nullopt;
}

}  // namespace cardtable::bridge
