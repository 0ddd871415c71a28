// The four pockets' readings side by side, one zone a seat, as the checks that look at all four at once
// take them: at the station (a reader or camera under each pocket, or the scan slot pocket by pocket) and
// at the board's return (the stable pocket readings). Gathered once, in one shape, for both: one tag
// heard by two readers (merge_heard_twice) and the counts of Laws 7, 13 and 14.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bridge/deal.hpp"
#include "bridge/hand.hpp"
#include "table/board_check.hpp"
#include "table/heard_twice.hpp"
#include "table/observation.hpp"

namespace cardtable::table {

struct FourPockets {
  std::array<bridge::Hand, 4> hands{};                              // the faces read in each pocket
  std::array<std::multimap<bridge::Card, std::string>, 4> ids{};  // each pocket's tags (Observation::card_ids)
  std::array<int, 4> unknown{};                                     // tags that are no card of the deck
  std::array<std::vector<std::string>, 4> unknown_ids{};
  std::array<std::string, 4> readers{};                             // the device that read each pocket

  void add(bridge::Seat seat, const Observation& reading);
  void add(bridge::Seat seat, const PocketRead& read);
  // One tag read in two of the pockets counted in one (heard_twice.hpp); what was merged, for the technician.
  std::vector<HeardTwice> merge_heard_twice(const std::optional<bridge::Deal>& deal);
};

}  // namespace cardtable::table
