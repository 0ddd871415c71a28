// A table event in the wire's form (docs/protocol.md), before cardtabled adds the table's identity and
// the wall clock: seats and severity as text, the card detail kept apart, mono the table's own time.
// One conversion for cardtabled and for `cardtablectl simulate --json`, so both write an event alike.
#pragma once

#include "protocol/wire_event.hpp"
#include "table/event.hpp"

namespace cardtable::daemon {

protocol::WireEvent wire_of(const table::Event& e);

}  // namespace cardtable::daemon
