// A hand is a set of cards: 52 bits, bit n set when Card::from_id(n) is held.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bridge/card.hpp"

namespace cardtable::bridge {

class Hand {
 public:
  constexpr Hand() = default;
  static constexpr Hand from_bits(std::uint64_t bits) { Hand h; h.bits_ = bits & kAllBits; return h; }
  static constexpr Hand full_deck() { return from_bits(kAllBits); }

  constexpr std::uint64_t bits() const { return bits_; }
  constexpr bool contains(Card c) const { return (bits_ >> c.id()) & 1U; }
  constexpr void add(Card c) { bits_ |= std::uint64_t{1} << c.id(); }
  constexpr void remove(Card c) { bits_ &= ~(std::uint64_t{1} << c.id()); }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr bool empty() const { return bits_ == 0; }

  // The cards of one suit, as 13 bits (bit 0 = the two).
  constexpr std::uint32_t suit_bits(Suit s) const {
    return static_cast<std::uint32_t>((bits_ >> (index(s) * kRanks)) & 0x1FFFU);
  }
  constexpr int length(Suit s) const { return std::popcount(suit_bits(s)); }

  constexpr Hand operator|(Hand o) const { return from_bits(bits_ | o.bits_); }
  constexpr Hand operator&(Hand o) const { return from_bits(bits_ & o.bits_); }
  constexpr Hand operator-(Hand o) const { return from_bits(bits_ & ~o.bits_); }
  constexpr Hand& operator|=(Hand o) { bits_ |= o.bits_; return *this; }
  friend constexpr bool operator==(Hand, Hand) = default;

  // Visits the cards from the highest (SA) down to the lowest (C2).
  template <typename F>
  constexpr void for_each_descending(F&& f) const {
    std::uint64_t b = bits_;
    while (b) {
      int top = 63 - std::countl_zero(b);
      f(Card::from_id(top));
      b &= ~(std::uint64_t{1} << top);
    }
  }

  // PBN form: suits S.H.D.C, ranks high to low, "T" for ten: "AJ9.K9542.Q.AK93".
  std::string pbn() const;
  // One suit's ranks, high to low, "T" for ten ("" when void).
  std::string suit_text(Suit s) const;
  // One suit for people: "A J 10 9" or "—" when void.
  std::string suit_display(Suit s) const;

 private:
  static constexpr std::uint64_t kAllBits = (std::uint64_t{1} << kCards) - 1;
  std::uint64_t bits_ = 0;
};

}  // namespace cardtable::bridge
