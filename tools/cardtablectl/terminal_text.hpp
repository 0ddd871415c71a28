// Text from the wire printed on a director's terminal: control characters (C0, DEL, C1) escaped, so that
// a hostile message cannot clear the screen or paint a fake "ALL CLEAR" (an ack's `by`, any message).
#pragma once

#include <string>
#include <string_view>

namespace cardtable::tools {

// "\x1b[2J" -> "\\x1b[2J"; valid UTF-8 otherwise kept, invalid bytes escaped.
std::string printable(std::string_view text);

}  // namespace cardtable::tools
