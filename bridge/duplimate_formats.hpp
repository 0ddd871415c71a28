// Duplimate dealing-machine files: DUP (binary, 156 bytes a board) and DLM (text, two cards a letter).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bridge/board_record.hpp"

namespace cardtable::bridge {

// DUP: per board 78 bytes "BRI" (N, E, S as 13 two-digit card numbers, 01 = SA .. 52 = C2), 68 bytes "DGE"
// (four hands as suit symbols and ranks) and 10 bytes of set-up (random?, backwards?, lowest board,
// copies, highest board). Board numbers count from the lowest board of the first block.
RecordSet read_dup(std::string_view bytes, std::string_view file_name);
std::string write_dup(const std::vector<BoardRecord>& records);

// DLM: "[Document]" keys, then "Board NN=" 26 letters a..p (each letter the seats of two cards, in the
// order SA SK .. C2; N=0 E=1 S=2 W=3) and a three-digit check number (board number XOR the letters).
RecordSet read_dlm(std::string_view text, std::string_view file_name);
std::string write_dlm(const std::vector<BoardRecord>& records);

}  // namespace cardtable::bridge
