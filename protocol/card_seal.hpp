// Hand contents stay sealed until the embargo (docs/protocol.md, "Sealed until the embargo"): nothing a
// non-director receives before then may name a card of a hand in play. The table puts card-level detail
// in card_message/card_evidence; this is the wire's own guard behind it: any public evidence value or
// message that still names a card is moved to the director-only detail, and what stays public says how
// many cards, not which.
#pragma once

#include <cstddef>
#include <string_view>

#include "protocol/wire_event.hpp"

namespace cardtable::protocol {

// How many card identities a text names: "SA", "H10"/"HT", "♠A", "♥10", or a PBN hand ("AKQ.JT9.8.765").
std::size_t cards_named(std::string_view text);
// Moves every public field of `e` that names a card to the director-only detail. Returns true when it
// had to move something (the daemon logs it: the table should not have put a card there).
bool seal_card_detail(WireEvent& e);

}  // namespace cardtable::protocol
