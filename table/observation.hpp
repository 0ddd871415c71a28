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
  // What identifies each card read, where the device can tell (the RFID drivers: the tag's UID; a camera
  // leaves it empty, it never hears one card twice). Only the tag tells one card heard by two readers at
  // once (cross-talk: the same UID in two zones) from two cards of the same face (a second ♠A from another
  // pack, Law 13C: another UID). Opaque text here, as unknown_ids.
  std::map<bridge::Card, std::string> card_ids;
  // The same reading? (What stability compares: cards, unknown count. Not the ids: a card is a card, and
  // the stable reading keeps the ids it was first read with.)
  bool same_reading(const Observation& o) const { return cards == o.cards && unknown == o.unknown; }
};

}  // namespace cardtable::table
