// One reading of one zone, as a device reports it. Time is the injected clock's, in milliseconds.
#pragma once

#include <cstdint>
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
  // The same reading? (What stability compares: cards, unknown count.)
  bool same_reading(const Observation& o) const { return cards == o.cards && unknown == o.unknown; }
};

}  // namespace cardtable::table
