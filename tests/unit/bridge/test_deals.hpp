// Deals the tests share.
#pragma once

#include "bridge/deal.hpp"

namespace cardtable::bridge::test {

// North holds every spade, East every heart, South every diamond, West every club.
inline Deal four_suits() {
  Deal d;
  for (int r = 0; r < kRanks; ++r) {
    d.hand(Seat::North).add(Card(Suit::Spades, static_cast<Rank>(r)));
    d.hand(Seat::East).add(Card(Suit::Hearts, static_cast<Rank>(r)));
    d.hand(Seat::South).add(Card(Suit::Diamonds, static_cast<Rank>(r)));
    d.hand(Seat::West).add(Card(Suit::Clubs, static_cast<Rank>(r)));
  }
  return d;
}

}  // namespace cardtable::bridge::test
