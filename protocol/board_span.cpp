#include "protocol/board_span.hpp"

namespace cardtable::protocol {

BoardSpan::Step BoardSpan::on_event(std::string_view type) {
  if (type == "board.returned" || type == "board.verified") {
    begun_ = Begun::None;
    return Step::Ends;
  }
  if (type == "board.identified") {
    if (begun_ != Begun::None) return Step::Within;
    begun_ = Begun::Identified;  // a session's board, named before its cards came (or without them)
    return Step::Begins;
  }
  if (type == "board.arrived") {
    // Its cards after its label: the same board. Cards after cards: a new board at the station.
    const bool named = begun_ == Begun::Identified;
    begun_ = Begun::Arrived;
    return named ? Step::Within : Step::Begins;
  }
  return begun() ? Step::Within : Step::Outside;
}

}  // namespace cardtable::protocol
