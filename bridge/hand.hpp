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
  constexpr int size() const { return count_bits(bits_); }
  constexpr bool empty() const { return bits_ == 0; }

  // The cards of one suit, as 13 bits (bit 0 = the two).
  constexpr std::uint32_t suit_bits(Suit s) const {
    return static_cast<std::uint32_t>((bits_ >> (index(s) * kRanks)) & 0x1FFFU);
  }
  constexpr int length(Suit s) const { return count_bits(suit_bits(s)); }

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
  // std::popcount without the popcnt instruction: gcc on x86-64 (no -march, the packages' baseline; the
  // daemon also runs on arm64 boards, so no -march flag) calls libgcc's __popcountdi2 through the PLT --
  // 11 % of a tagged station's time, every reading compared (Observation::tags_counted). The same count in
  // bit arithmetic is inlined; gcc 12 makes it the one instruction where the target has one (popcnt with
  // -mpopcnt, cnt + addv on arm64, as std::popcount); clang keeps the dozen instructions, inlined too.
  static constexpr int count_bits(std::uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555U;
    x = (x & 0x3333333333333333U) + ((x >> 2) & 0x3333333333333333U);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FU;
    return static_cast<int>((x * 0x0101010101010101U) >> 56);
  }
  static constexpr std::uint64_t kAllBits = (std::uint64_t{1} << kCards) - 1;
  std::uint64_t bits_ = 0;
};

}  // namespace cardtable::bridge
