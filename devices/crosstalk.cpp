#include "devices/crosstalk.hpp"

#include <algorithm>
#include <map>

namespace cardtable::devices {

int resolve_crosstalk(std::vector<AntennaTags>& antennas, int margin, std::set<AntennaGroup>* heard_together) {
  std::map<Uid, std::vector<std::pair<std::size_t, int>>> seen;  // uid → (antenna slot, strength)
  for (std::size_t a = 0; a < antennas.size(); ++a)
    for (const Sighting& s : antennas[a].tags) seen[s.uid].emplace_back(a, s.strength);
  int shared = 0;
  for (auto& [seen_uid, where] : seen) {
    if (where.size() < 2) continue;
    const Uid uid = seen_uid;  // a copy: lambdas may not capture structured bindings before C++20's fix in clang 16
    ++shared;
    if (heard_together) {
      AntennaGroup group;
      for (const auto& [slot, strength] : where) group.push_back(antennas[slot].antenna);
      std::sort(group.begin(), group.end());
      group.erase(std::unique(group.begin(), group.end()), group.end());
      heard_together->insert(std::move(group));
    }
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

std::string crosstalk_advice(const AntennaGroup& group, const std::map<int, table::Zone>& zones) {
  std::string names;
  for (std::size_t i = 0; i < group.size(); ++i) {
    const int a = group[i];
    const auto z = zones.find(a);
    names += (i == 0 ? "" : i + 1 == group.size() ? " and " : ", ") +
             (z == zones.end() ? "antenna" + std::to_string(a) : z->second.str() + " (antenna" + std::to_string(a) + ")");
  }
  // The distance: an ISO 14443-A tag answers an antenna up to about 10 cm away (docs/hardware.md), so
  // antennas closer than that can both power and hear one card lying between them.
  return names + " heard the same tag in one poll: one card, kept by the clearly stronger antenna, else read by neither " +
         "(their readings uncertain) -- move these antennas at least 10 cm apart (docs/hardware.md, \"Cross-talk\")";
}

}  // namespace cardtable::devices
