#include "bridge/card.hpp"

#include <array>
#include <cctype>

namespace cardtable::bridge {
namespace {

constexpr std::array<char, kRanks> kRankChars = {'2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'};
constexpr std::array<std::string_view, kSuits> kSuitSymbols = {"\u2663", "\u2666", "\u2665", "\u2660"};
constexpr std::array<char, kSuits> kSuitLetters = {'C', 'D', 'H', 'S'};

// Reads one suit at the front of text (letter or symbol); returns bytes used, 0 if none.
std::size_t read_suit(std::string_view text, Suit& out) {
  if (text.empty()) return 0;
  for (int s = 0; s < kSuits; ++s) {
    if (text.starts_with(kSuitSymbols[static_cast<std::size_t>(s)])) {
      out = static_cast<Suit>(s);
      return kSuitSymbols[static_cast<std::size_t>(s)].size();
    }
    // The white (outline) symbols some programs use for hearts and diamonds.
  }
  if (text.starts_with("\u2661")) { out = Suit::Hearts; return 3; }
  if (text.starts_with("\u2662")) { out = Suit::Diamonds; return 3; }
  if (text.starts_with("\u2664")) { out = Suit::Spades; return 3; }
  if (text.starts_with("\u2667")) { out = Suit::Clubs; return 3; }
  if (auto s = parse_suit(text.substr(0, 1))) { out = *s; return 1; }
  return 0;
}

// Reads one rank at the front of text ("10" accepted); returns bytes used, 0 if none.
std::size_t read_rank(std::string_view text, Rank& out) {
  if (text.starts_with("10")) { out = Rank::Ten; return 2; }
  if (text.empty()) return 0;
  if (auto r = parse_rank_char(text[0])) { out = *r; return 1; }
  return 0;
}

}  // namespace

std::string Card::str() const { return {suit_letter(suit()), rank_char(rank())}; }

std::string Card::display() const {
  std::string out(suit_symbol(suit()));
  out += rank_display(rank());
  return out;
}

std::optional<Card> Card::parse(std::string_view text) {
  Suit s{};
  Rank r{};
  if (auto n = read_suit(text, s); n > 0) {
    if (auto m = read_rank(text.substr(n), r); m > 0 && n + m == text.size()) return Card(s, r);
  }
  if (auto m = read_rank(text, r); m > 0) {
    if (auto n = read_suit(text.substr(m), s); n > 0 && n + m == text.size()) return Card(s, r);
  }
  return std::nullopt;
}

char seat_letter(Seat s) { return "NESW"[index(s)]; }

std::string_view seat_name(Seat s) {
  constexpr std::array<std::string_view, 4> names = {"North", "East", "South", "West"};
  return names[static_cast<std::size_t>(index(s))];
}

std::optional<Seat> parse_seat(std::string_view text) {
  if (text.empty()) return std::nullopt;
  char c = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  std::optional<Seat> seat;
  switch (c) {
    case 'N': seat = Seat::North; break;
    case 'E': seat = Seat::East; break;
    case 'S': seat = Seat::South; break;
    case 'W': seat = Seat::West; break;
    default: return std::nullopt;
  }
  if (text.size() == 1) return seat;
  // The full name, in any case.
  std::string_view full = seat_name(*seat);
  if (text.size() != full.size()) return std::nullopt;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(full[i])))
      return std::nullopt;
  return seat;
}

std::string_view side_name(Side s) { return s == Side::NorthSouth ? "NS" : "EW"; }

char suit_letter(Suit s) { return kSuitLetters[static_cast<std::size_t>(index(s))]; }
std::string_view suit_symbol(Suit s) { return kSuitSymbols[static_cast<std::size_t>(index(s))]; }

std::optional<Suit> parse_suit(std::string_view text) {
  if (text.size() == 1) {
    switch (std::toupper(static_cast<unsigned char>(text[0]))) {
      case 'S': return Suit::Spades;
      case 'H': return Suit::Hearts;
      case 'D': return Suit::Diamonds;
      case 'C': return Suit::Clubs;
      default: return std::nullopt;
    }
  }
  Suit s{};
  if (read_suit(text, s) == text.size() && !text.empty()) return s;
  return std::nullopt;
}

char rank_char(Rank r) { return kRankChars[static_cast<std::size_t>(index(r))]; }

std::string_view rank_display(Rank r) {
  constexpr std::array<std::string_view, kRanks> names = {"2", "3", "4", "5", "6", "7", "8",
                                                          "9", "10", "J", "Q", "K", "A"};
  return names[static_cast<std::size_t>(index(r))];
}

std::optional<Rank> parse_rank_char(char c) {
  char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (int r = 0; r < kRanks; ++r)
    if (kRankChars[static_cast<std::size_t>(r)] == u) return static_cast<Rank>(r);
  return std::nullopt;
}

}  // namespace cardtable::bridge
