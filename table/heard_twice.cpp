#include "table/heard_twice.hpp"

#include <algorithm>

namespace cardtable::table {
using namespace cardtable::bridge;

std::vector<HeardTwice> merge_heard_twice(std::array<Hand, 4>& hands, const std::array<const std::map<Card, std::string>*, 4>& ids,
                                          const std::array<int, 4>& extra, const std::optional<Deal>& deal) {
  std::vector<HeardTwice> out;
  Hand seen, twice;
  for (const Hand& h : hands) {
    twice |= seen & h;
    seen |= h;
  }
  twice.for_each_descending([&](Card c) {
    // Grouped by id: the same tag in several zones is one card; a different tag (another pack) is another
    // card and stays where it was read, for the surplus check to find.
    std::map<std::string, std::vector<Seat>> by_id;
    for (Seat s : kAllSeats) {
      auto si = static_cast<std::size_t>(index(s));
      if (!hands[si].contains(c) || !ids[si]) continue;
      auto id = ids[si]->find(c);
      if (id != ids[si]->end() && !id->second.empty()) by_id[id->second].push_back(s);
    }
    for (const auto& [id, seats] : by_id) {
      if (seats.size() < 2) continue;
      auto count = [&](Seat s) { return hands[static_cast<std::size_t>(index(s))].size() + extra[static_cast<std::size_t>(index(s))]; };
      Seat kept = *std::min_element(seats.begin(), seats.end(), [&](Seat a, Seat b) { return count(a) < count(b); });
      if (deal)
        if (auto owner = deal->holder(c); owner && std::find(seats.begin(), seats.end(), *owner) != seats.end()) kept = *owner;
      for (Seat s : seats)
        if (s != kept) hands[static_cast<std::size_t>(index(s))].remove(c);
      out.push_back({c, id, seats, kept});
    }
  });
  return out;
}

}  // namespace cardtable::table
