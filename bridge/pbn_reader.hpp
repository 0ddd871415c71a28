// PBN (Portable Bridge Notation 2.1) import: every file a person or program writes, not just the export form.
#pragma once

#include <functional>
#include <iosfwd>
#include <string_view>

#include "bridge/board_record.hpp"

namespace cardtable::bridge {

using BoardSink = std::function<void(BoardRecord&&)>;

// Reads PBN text; hands each good record to `sink` as soon as its game ends and appends every problem to
// `diagnostics` (file, line and column, what was expected). A bad game never stops the rest.
void read_pbn(std::string_view text, std::string_view file_name, const BoardSink& sink, Diagnostics& diagnostics);
RecordSet read_pbn(std::string_view text, std::string_view file_name);
// The same from a stream, a few megabytes at a time: memory stays flat whatever the file's size.
void read_pbn(std::istream& in, std::string_view file_name, const BoardSink& sink, Diagnostics& diagnostics,
              std::size_t chunk_bytes = std::size_t{4} << 20);

// The checks `records validate` adds on top of reading: Dealer and Vulnerable tags that disagree with
// the board number (Law 2 and the standard cycle), and deals that give fewer than four hands.
Diagnostics check_board_conventions(const BoardRecord& record);

}  // namespace cardtable::bridge
