#include "devices/observe.hpp"

#include <algorithm>

namespace cardtable::devices {

table::Observation observe(const Zone& zone, const AntennaTags& heard, const DeckLibrary* decks, const std::string& source,
                           Millis time, DeviceCounters& counters) {
  table::Observation o;
  o.zone = zone;
  o.source = source;
  o.time = time;
  for (const Sighting& s : heard.tags) {
    auto match = decks ? decks->find(s.uid) : std::nullopt;
    if (match) {
      o.cards.add(match->card);
      // The tag's UID with its card: only it tells one card heard by two readers (the same UID in two
      // zones: cross-talk) from a second card of the same face from another pack (Law 13C) -- in another
      // zone, or in this one: ♠A of this pack and ♠A of another in one pocket are two cards, 14 not 13.
      // One tag is one card however often it is listed; a face's tags in UID order, so that the same tags
      // read in another order are the same reading.
      const std::string id = s.uid.str();
      auto [first, last] = o.card_ids.equal_range(match->card);
      auto at = std::find_if(first, last, [&](const auto& e) { return e.second >= id; });
      if (at == last || at->second != id) o.card_ids.emplace_hint(at, match->card, id);
    } else {
      ++o.unknown;
      o.unknown_ids.push_back(s.uid.str());
      ++counters.unknown_tags;
    }
  }
  o.count_tags();  // once here, not at each of the table's comparisons of this reading
  if (heard.uncertain) {
    o.confidence = 0.0;
    o.complete = false;
  }
  ++counters.observations;
  return o;
}

}  // namespace cardtable::devices
