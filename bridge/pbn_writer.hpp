// PBN export: what other programs read (PBN 2.1 export format, UTF-8).
#pragma once

#include <string>
#include <vector>

#include "bridge/board_record.hpp"

namespace cardtable::bridge {

// One game in export form: the 15 mandatory tags in their order, then the others, the double-dummy
// tags, the Auction and the Play.
std::string write_pbn_game(const BoardRecord& record);
// A whole file: the "% PBN 2.1" and "% EXPORT" header, then games separated by empty lines.
std::string write_pbn(const std::vector<BoardRecord>& records);

// The import form dealing programs write: only the tags that have a value (Event, Board, Dealer,
// Vulnerable, Deal, and the others the record holds); half the size of the export form.
std::string write_pbn_compact(const std::vector<BoardRecord>& records);

}  // namespace cardtable::bridge
