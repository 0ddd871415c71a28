// Law 6D2: a deal that could only come from an unshuffled (sorted) pack. The test recognises exactly the
// deals produced by dealing a sorted pack — any of 96 orders, cut anywhere, dealt one card at a time or
// in packets of 2, 3, 4 or 13 — whatever seat received which hand. docs/laws.md gives the orders and the
// false-positive bound; bench/table_bench.cpp measures it on ten million random deals.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bridge/deal.hpp"

namespace cardtable::table {

class UnshuffledDeals {
 public:
  UnshuffledDeals();  // builds the set once (about 25,000 deals, under 1 MB)
  // How the deal was produced ("spades-hearts-diamonds-clubs, ace first, cut at 17, dealt in threes"),
  // or nullopt when it is no such deal.
  std::optional<std::string> match(const bridge::Deal& deal) const;
  std::size_t size() const { return keys_.size(); }

 private:
  using Key = std::array<std::uint64_t, 4>;  // the four hands, sorted: the same whoever holds which
  static Key key_of(const bridge::Deal& d);
  std::vector<std::pair<Key, std::uint32_t>> keys_;  // sorted; value = construction number
  std::string describe(std::uint32_t construction) const;
};

// The shared instance (built on first use).
const UnshuffledDeals& unshuffled_deals();

}  // namespace cardtable::table
