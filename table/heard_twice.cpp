#include "table/heard_twice.hpp"

#include <algorithm>

#include "table/observation.hpp"

namespace cardtable::table {
using namespace cardtable::bridge;

Hand read_in_two(const std::array<Hand, 4>& hands) {
  Hand seen, twice;
  for (const Hand& h : hands) {
    twice |= seen & h;
    seen |= h;
  }
  return twice;
}

std::vector<HeardTwice> merge_heard_twice(std::array<Hand, 4>& hands, std::array<std::multimap<Card, std::string>, 4>& ids,
                                          const std::array<int, 4>& extra, const std::optional<Deal>& deal) {
  std::vector<HeardTwice> out;
  const Hand twice = read_in_two(hands);
  auto at = [](Seat s) { return static_cast<std::size_t>(index(s)); };
  twice.for_each_descending([&](Card c) {
    // Grouped by id: the same tag in several zones is one card; a different tag (another pack) is another
    // card and stays where it was read, for the surplus check to find.
    std::map<std::string, std::vector<Seat>> by_id;
    for (Seat s : kAllSeats) {
      if (!hands[at(s)].contains(c)) continue;
      for (auto [tag, end] = ids[at(s)].equal_range(c); tag != end; ++tag)
        if (!tag->second.empty()) by_id[tag->second].push_back(s);
    }
    for (const auto& group : by_id) {
      // Named, not a structured binding: clang 14 (the sanitizer build) cannot capture one in a lambda.
      const std::string& id = group.first;
      const std::vector<Seat>& seats = group.second;
      if (seats.size() < 2) continue;
      auto count = [&](Seat s) {
        return hands[at(s)].size() + extra[at(s)] + static_cast<int>(same_face(hands[at(s)], ids[at(s)]).size());
      };
      Seat kept = *std::min_element(seats.begin(), seats.end(), [&](Seat a, Seat b) { return count(a) < count(b); });
      if (deal)
        if (auto owner = deal->holder(c); owner && std::find(seats.begin(), seats.end(), *owner) != seats.end()) kept = *owner;
      for (Seat s : seats) {
        if (s == kept) continue;
        auto [tag, end] = ids[at(s)].equal_range(c);
        ids[at(s)].erase(std::find_if(tag, end, [&](const auto& e) { return e.second == id; }));
        if (!ids[at(s)].count(c)) hands[at(s)].remove(c);
      }
      out.push_back({c, id, seats, kept});
    }
  });
  return out;
}

}  // namespace cardtable::table
