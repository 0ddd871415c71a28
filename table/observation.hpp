// One reading of one zone, as a device reports it. Time is the injected clock's, in milliseconds.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bridge/hand.hpp"
#include "table/zone.hpp"

namespace cardtable::table {

using Millis = std::int64_t;

// A card for each further tag of a face in `cards`: each tag is a card, and a Hand holds a face once.
inline std::vector<bridge::Card> same_face(const bridge::Hand& cards, const std::multimap<bridge::Card, std::string>& ids) {
  std::vector<bridge::Card> out;
  for (auto it = ids.begin(); it != ids.end(); it = ids.upper_bound(it->first))
    if (cards.contains(it->first)) out.insert(out.end(), ids.count(it->first) - 1, it->first);
  return out;
}

struct Observation {
  Zone zone;
  bridge::Hand cards;       // the cards the device identified
  int unknown = 0;          // tags or images that map to no card of the enrolled deck
  bool complete = true;     // the device claims it saw everything in the zone
  double confidence = 1.0;  // 0..1; below the configured floor a reading counts as noise
  std::string source;       // the device, e.g. "rfid0"
  Millis time = 0;
  // What identifies each unknown tag, where the device can tell (an RFID UID as upper-case hex): a
  // director finds the stray tag by it. Opaque text here; table/ knows nothing of USB or tags.
  std::vector<std::string> unknown_ids;
  // What identifies each card read, one entry a tag, where the device can tell (the RFID drivers: the tag's
  // UID; a camera leaves it empty, it never hears one card twice). Only the tag tells one card heard by two
  // readers at once (cross-talk: the same UID in two zones) from two cards of the same face (a second ♠A
  // from another pack, Law 13C: another UID) -- in two zones or in one: a face with two tags here is two
  // cards, though `cards` (a Hand) holds it once. Opaque text here, as unknown_ids.
  std::multimap<bridge::Card, std::string> card_ids;
  // same_face(), counted once where the reading is built with its tags (count_tags: devices::observe, the
  // scenario's reader) rather than at each comparison: stability compares every poll's reading, 13 tags
  // a pocket. A reading built without it (a replayed input log) is counted as it enters StableReading, and
  // same_face() and count() count it themselves.
  std::vector<bridge::Card> again;

  void count_tags() { again = table::same_face(cards, card_ids); }
  // `again` fits the tags: every face read by tag has one tag in `cards` and each further one in `again`.
  bool tags_counted() const { return card_ids.empty() || card_ids.size() == static_cast<std::size_t>(cards.size()) + again.size(); }
  // A card for each further tag of a face already in `cards` (a pocket holding its ♠A and another pack's
  // reads ♠A here once: 14 cards, not 13), in card order. Empty without ids. Counted now if it was not.
  std::vector<bridge::Card> same_face() const { return tags_counted() ? again : table::same_face(cards, card_ids); }
  // How many cards the zone holds: each face once, each further tag of a face again, and the unknown tags.
  // (Counted: `again`'s size, no copy of it -- count() runs at every poll of a scan slot.)
  int count() const {
    const std::size_t further = tags_counted() ? again.size() : table::same_face(cards, card_ids).size();
    return cards.size() + static_cast<int>(further) + unknown;
  }
  // The same reading? (What stability compares: cards, the further tags of a face, unknown count -- 13 tags
  // and 14 with a second ♠A are different readings. Not the ids: a card is a card, and the stable reading
  // keeps the ids it was first read with -- except at the scan slot, see tags_are_cards.)
  bool same_reading(const Observation& o) const {
    return cards == o.cards && unknown == o.unknown &&
           (tags_counted() && o.tags_counted() ? again == o.again : same_face() == o.same_face()) &&
           (!tags_are_cards() || card_ids == o.card_ids);
  }
  // At the scan slot each reading is one card passing over it: another tag of the face is another card
  // passed -- another pack's ♠A right after this pack's, the slot empty between them for less than a
  // stable reading (Law 13C) -- not the same card read on.
  bool tags_are_cards() const { return zone.kind == ZoneKind::Scan; }
};

}  // namespace cardtable::table
