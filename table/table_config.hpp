// A deployment's description of the table: which zones exist, and the thresholds that make a reading
// stable. Defaults suit RFID readers polled every 100 ms.
#pragma once

#include <vector>

#include "table/observation.hpp"

namespace cardtable::table {

struct TableConfig {
  std::vector<Zone> zones;             // the zones this table has; checks needing others are reported as unavailable
  int stable_reads = 3;                // the same reading this many times in a row is stable ...
  Millis stable_ms = 300;              // ... or the same reading for this long (at least two reads)
  double min_confidence = 0.5;         // readings below count as noise
  Millis flicker_window_ms = 1000;     // this many changes within the window, never stable: uncertain
  int flicker_changes = 4;
  Millis silence_ms = 5000;            // a zone not heard from for this long is unknown (device silent)
  Millis pocket_gap_ms = 2000;         // station: a pause this long between cards starts the next pocket
  Millis board_allowance_ms = 7 * 60 * 1000 + 30 * 1000;  // 7.5 minutes a board
  std::size_t infer_limit = 4096;      // infer a board from the cards played among at most this many boards

  bool has(const Zone& z) const;
  bool has_all(ZoneKind kind) const;   // all four seats of a seated kind
  // The usual deployments.
  static TableConfig station_scan();   // a scan slot
  static TableConfig station_hands();  // four hand: zones (a camera over the fanned pockets)
  static TableConfig playing_table();  // pockets, play areas, dummy
};

}  // namespace cardtable::table
