// The board in progress as a late joiner's `snapshot` holds it (docs/protocol.md): from the board's first
// event -- its label identified, or its cards arrived -- to the last; nothing once it is returned or
// verified, nor after a start until a board begins. Decided by the events' types alone, once: the daemon
// finds where its snapshot starts in the journal with it, the hub keeps each table's events with it, so
// that a late joiner through the hub sees what a late joiner of the table sees.
#pragma once

#include <string_view>

namespace cardtable::protocol {

class BoardSpan {
 public:
  enum class Step {
    Outside,  // no board has begun: the daemon's start, or what comes between two boards
    Begins,   // the board's first event: nothing before it is the board's
    Within,   // an event of the board in progress
    Ends,     // its return or verification: the board is over, and this event is no longer its
  };
  // Each journalled event, in seq order, by its type ("board.arrived").
  Step on_event(std::string_view type);
  bool begun() const { return begun_ != Begun::None; }

 private:
  enum class Begun { None, Identified, Arrived } begun_ = Begun::None;
};

}  // namespace cardtable::protocol
