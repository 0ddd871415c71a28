// A deal: the four hands of a board, and what is wrong with it when it is not a deal.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bridge/hand.hpp"

namespace cardtable::bridge {

// One thing wrong with a deal. Laws 13 and 14 talk in exactly these terms.
struct DealProblem {
  enum class Kind { WrongCount, CardInTwoHands, MissingCard } kind;
  Seat seat = Seat::North;       // WrongCount: the hand; CardInTwoHands: the first holder
  Seat other_seat = Seat::North; // CardInTwoHands: the second holder
  Card card{};                   // CardInTwoHands, MissingCard
  int count = 0;                 // WrongCount: how many the hand holds
  std::string message() const;   // "West holds 14 cards", "SK is held by North and West", "C2 is in no hand"
  friend bool operator==(const DealProblem&, const DealProblem&) = default;
};

// A permutation of pockets: hand_of[s] = the seat of the reference deal whose cards seat s holds.
using SeatMap = std::array<Seat, kSeats>;
inline constexpr SeatMap kIdentitySeats = {Seat::North, Seat::East, Seat::South, Seat::West};
// The rotation by `steps` seats clockwise: what North should hold is now held by East when steps == 1.
SeatMap rotation_map(int steps);
// The number of seats a map turns the deal by (1..3), or nullopt when it is not a rotation.
std::optional<int> rotation_of(const SeatMap& map);
// "N<-E E<-S S<-W W<-N": each seat and whose cards it holds.
std::string describe(const SeatMap& map);

class Deal {
 public:
  Deal() = default;
  explicit Deal(std::array<Hand, kSeats> hands) : hands_(hands) {}

  const Hand& hand(Seat s) const { return hands_[static_cast<std::size_t>(index(s))]; }
  Hand& hand(Seat s) { return hands_[static_cast<std::size_t>(index(s))]; }
  const std::array<Hand, kSeats>& hands() const { return hands_; }

  // The seat that holds a card, if any (the first one when it is held twice).
  std::optional<Seat> holder(Card c) const;

  // Valid = 13 cards each, no card twice, all 52 present.
  bool valid() const;
  // Every problem, in a stable order: counts by seat, then cards held twice, then missing cards.
  std::vector<DealProblem> problems() const;
  // True when every hand is empty: the record gave no cards ("-" hands).
  bool empty() const;
  // True when each hand is either empty (unknown) or 13 cards, with no card twice.
  bool partial_valid() const;
  // True when no card is held twice and every hand given holds as many cards as the others: a deal, a
  // deal with unknown hands, or an end position (PBN allows all three).
  bool consistent() const;

  // The deal as seen when each seat s holds the hand of map[s] in this deal.
  Deal permuted(const SeatMap& map) const;
  Deal rotated(int steps) const { return permuted(rotation_map(steps)); }

  // PBN deal string "N:AJ9.K9542.Q.AK93 K.QJ76... ..." starting with `first`.
  std::string pbn(Seat first = Seat::North) const;
  // Parses a PBN deal string ("W:..." any first seat, ranks in any order, "-" for an unknown hand,
  // "10" accepted for the ten). On failure returns nullopt and a reason with a 0-based column in error.
  struct ParseError { std::size_t column = 0; std::string message; };
  static std::optional<Deal> parse_pbn(std::string_view text, ParseError* error = nullptr);

  friend bool operator==(const Deal&, const Deal&) = default;

 private:
  std::array<Hand, kSeats> hands_{};
};

// Pseudo-random deal from a 64-bit seed (splitmix64 + Fisher-Yates): synthetic records and tests.
Deal random_deal(std::uint64_t& state);

}  // namespace cardtable::bridge
