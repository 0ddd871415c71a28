#include "devices/crosstalk.hpp"

#include <algorithm>
#include <map>

namespace cardtable::devices {

int resolve_crosstalk(std::vector<AntennaTags>& antennas, int margin) {
  std::map<Uid, std::vector<std::pair<std::size_t, int>>> seen;  // uid → (antenna slot, strength)
  for (std::size_t a = 0; a < antennas.size(); ++a)
    for (const Sighting& s : antennas[a].tags) seen[s.uid].emplace_back(a, s.strength);
  int shared = 0;
  for (auto& [seen_uid, where] : seen) {
    if (where.size() < 2) continue;
    const Uid uid = seen_uid;  // a copy: lambdas may not capture structured bindings before C++20's fix in clang 16
    ++shared;
    std::sort(where.begin(), where.end(), [](auto& x, auto& y) { return x.second > y.second; });
    bool all_known = std::all_of(where.begin(), where.end(), [](auto& w) { return w.second > 0; });
    bool clear_winner = all_known && where[0].second - where[1].second >= margin;
    for (std::size_t k = 0; k < where.size(); ++k) {
      if (clear_winner && k == 0) continue;
      AntennaTags& at = antennas[where[k].first];
      std::erase_if(at.tags, [&](const Sighting& s) { return s.uid == uid; });
      if (!clear_winner) at.uncertain = true;
    }
  }
  return shared;
}

}  // namespace cardtable::devices
