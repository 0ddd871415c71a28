// Double-dummy analysis through libdds: the 20-number trick table and par for a deal.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bridge/board_record.hpp"

namespace cardtable::bridge {

struct Par {
  int score_ns = 0;                    // from North-South's view
  std::vector<std::string> contracts;  // "NS 4S", "EW 5HX-2", "NS 3NT+1"
  std::string pbn_contract() const;    // the ParContract tag: contracts joined with ", "
};

struct DdResult {
  std::optional<DdTable> table;
  std::string error;  // libdds' message when it failed
};

// One deal (must be valid). Thread-safe: libdds serialises its own calls.
DdResult solve_double_dummy(const Deal& deal);
// Many deals: libdds spreads each batch of tables over all cores.
std::vector<DdResult> solve_double_dummy(const std::vector<Deal>& deals);
// Par for the side that deals first (libdds DealerParBin): dealer and vulnerability matter.
std::optional<Par> par(const DdTable& table, Seat dealer, Vulnerability vulnerability);

}  // namespace cardtable::bridge
