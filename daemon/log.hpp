// cardtabled's log: one line per call on stderr, written whole (a line never interleaves with another
// writer's line on the same terminal).
#pragma once

#include <string_view>

namespace cardtable::daemon {

void log(std::string_view line);

}  // namespace cardtable::daemon
