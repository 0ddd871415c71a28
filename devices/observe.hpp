// Turning what an antenna heard into what the table reads: one Observation per served zone per poll.
#pragma once

#include "devices/crosstalk.hpp"
#include "devices/deck.hpp"
#include "devices/device.hpp"

namespace cardtable::devices {

// Tags that a deck knows become cards; the others are counted as unknown (and in counters.unknown_tags), their
// UIDs in Observation::unknown_ids (a director looks for the stray tag by it: irregularity.unknown_card);
// each card's UID is in Observation::card_ids (the table tells cross-talk between readers by it, and a
// second card of a face -- another tag -- in the same zone: Law 13C's surplus card, counted), and those
// further tags are counted once here (Observation::count_tags), not at each of the table's comparisons.
// An uncertain antenna (collision, field error, unresolved cross-talk) reads with confidence 0 and
// incomplete, which the table takes for noise rather than a change.
table::Observation observe(const Zone& zone, const AntennaTags& heard, const DeckLibrary* decks, const std::string& source,
                           Millis time, DeviceCounters& counters);

}  // namespace cardtable::devices
