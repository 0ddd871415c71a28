// Readings are noisy: a zone's reading counts only once it is stable, the same over several reads or
// over a stretch of time. A reading that keeps changing without settling is flicker: uncertain.
#pragma once

#include <deque>
#include <optional>

#include "table/observation.hpp"
#include "table/table_config.hpp"

namespace cardtable::table {

class StableReading {
 public:
  // One raw reading in; the new stable reading out when it differs from the last stable one.
  std::optional<Observation> feed(const Observation& o, const TableConfig& config);
  // True once per episode when the zone has been changing without settling (flicker).
  bool flicker_started(Millis now, const TableConfig& config);
  // True once per episode when readings keep coming below the confidence floor.
  bool low_confidence_started(const TableConfig& config);
  const std::optional<Observation>& stable() const { return stable_; }
  Millis last_heard() const { return last_heard_; }
  bool heard() const { return heard_; }
  // The device went silent: forget the stable reading (the zone is unknown until heard again).
  void forget() { stable_.reset(); candidate_.reset(); count_ = 0; }

 private:
  std::optional<Observation> stable_;
  std::optional<Observation> candidate_;
  int count_ = 0;
  Millis candidate_since_ = 0;
  Millis last_heard_ = 0;
  bool heard_ = false;
  std::deque<Millis> changes_;
  bool flicker_reported_ = false;
  int low_confidence_run_ = 0;
  bool low_confidence_reported_ = false;
};

}  // namespace cardtable::table
