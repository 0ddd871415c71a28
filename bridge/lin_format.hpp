// BBO's LIN: "key|value|" pairs. One file may hold one hand (a table result) or a whole vugraph session.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bridge/pbn_reader.hpp"

namespace cardtable::bridge {

// md (dealer digit 1=S 2=W 3=N 4=E, hands S W N E, the fourth may be left out), sv (o 0 n e b), ah, qx, pn,
// mb, an, pc, mc, vg, rs; every other key is kept as a tag ("lin:<key>") or skipped, never fatal.
void read_lin(std::string_view text, std::string_view file_name, const BoardSink& sink, Diagnostics& diagnostics);
RecordSet read_lin(std::string_view text, std::string_view file_name);

// One line per board: qx, pn, md, sv, ah, the auction (mb) and the play (pc).
std::string write_lin(const std::vector<BoardRecord>& records);

}  // namespace cardtable::bridge
