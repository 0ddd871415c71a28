#include "devices/observe.hpp"

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
      // zones: cross-talk) from a second card of the same face from another pack (Law 13C).
      o.card_ids[match->card] = s.uid.str();
    } else {
      ++o.unknown;
      o.unknown_ids.push_back(s.uid.str());
      ++counters.unknown_tags;
    }
  }
  if (heard.uncertain) {
    o.confidence = 0.0;
    o.complete = false;
  }
  ++counters.observations;
  return o;
}

}  // namespace cardtable::devices
