// Law 6D2: a deal that could only come from a pack "not randomized from its prior condition". The test
// recognises exactly the deals produced by dealing a pack in an order a manufacturer or a person gives
// it -- suit by suit (any order of the suits, each suit ascending or descending on its own, the ace low or
// high: new-deck orders and hands sorted by colour among them) or rank by rank -- cut anywhere, dealt one
// card at a time or in packets of 2, 3, 4 or 13, whatever seat received which hand. And the deals dealt
// from the previous board's quitted cards without a shuffle. docs/laws.md gives the orders and the exact
// false-positive bound; bench/unshuffled_bench.cpp measures it on ten million random deals.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bridge/deal.hpp"

namespace cardtable::table {

// The previous board played at this table: each seat's quitted cards in the order played.
struct PreviousBoard {
  std::string name;                                   // "Spring Pairs / 1, board 1"
  std::array<std::vector<bridge::Card>, 4> quitted;   // by seat, in the order played
  std::vector<bridge::Card> tricks;                   // every card, trick by trick, in the order played
};

class UnshuffledDeals {
 public:
  UnshuffledDeals();  // builds the set once (about 120,000 sets of hands, a few MB, well under a second)
  // How the deal was produced ("a pack in Bicycle/USPCC new-deck order, cut at card 17, dealt in
  // threes"), or nullopt when it is no such deal.
  std::optional<std::string> match(const bridge::Deal& deal) const;
  // A deal dealt without a shuffle from the previous board's quitted cards: each player's cards
  // gathered seat by seat (any order of the seats, each pile either way up), or the tricks gathered in
  // order; cut anywhere, dealt as above.
  static std::optional<std::string> match_previous(const bridge::Deal& deal, const PreviousBoard& previous);
  std::size_t size() const { return keys_.size(); }  // distinct sets of four hands accepted
  static std::size_t orders();                        // pack orders tried

 private:
  using Key = std::array<std::uint64_t, 4>;  // the four hands, sorted: the same whoever holds which
  static Key key_of(const bridge::Deal& d);
  std::vector<std::pair<Key, std::uint32_t>> keys_;  // sorted; value = construction number
  std::string describe(std::uint32_t construction) const;
};

// The shared instance (built on first use).
const UnshuffledDeals& unshuffled_deals();

}  // namespace cardtable::table
