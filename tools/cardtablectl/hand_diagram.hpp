// Hand diagrams for people: the four hands around a table, with suit symbols.
#pragma once

#include <string>

#include "bridge/board_record.hpp"

namespace cardtable::tools {

// "Board 7 · Dealer South · All vulnerable" and the compass diagram; unknown hands are left blank.
std::string hand_diagram(const bridge::BoardRecord& record);
// Display width of UTF-8 text (one column per code point: suit symbols are narrow).
std::size_t display_width(std::string_view text);

}  // namespace cardtable::tools
