#include "table/stable_reading.hpp"

namespace cardtable::table {

std::optional<Observation> StableReading::feed(const Observation& o, const TableConfig& config) {
  last_heard_ = o.time;
  heard_ = true;
  if (o.confidence < config.min_confidence) {  // noise: breaks a run, never starts one
    ++low_confidence_run_;
    candidate_.reset();
    count_ = 0;
    return std::nullopt;
  }
  low_confidence_run_ = 0;
  low_confidence_reported_ = false;
  if (candidate_ && candidate_->same_reading(o)) {
    ++count_;
  } else {
    if (candidate_) changes_.push_back(o.time);
    candidate_ = o;
    count_ = 1;
    candidate_since_ = o.time;
  }
  bool settled = count_ >= config.stable_reads || (count_ >= 2 && o.time - candidate_since_ >= config.stable_ms);
  if (!settled) return std::nullopt;
  changes_.clear();
  flicker_reported_ = false;
  if (stable_ && stable_->same_reading(*candidate_)) return std::nullopt;
  stable_ = candidate_;
  stable_->time = o.time;
  return stable_;
}

bool StableReading::low_confidence_started(const TableConfig& config) {
  if (low_confidence_reported_ || low_confidence_run_ < config.flicker_changes) return false;
  low_confidence_reported_ = true;
  return true;
}

bool StableReading::flicker_started(Millis now, const TableConfig& config) {
  while (!changes_.empty() && now - changes_.front() > config.flicker_window_ms) changes_.pop_front();
  if (flicker_reported_ || static_cast<int>(changes_.size()) < config.flicker_changes) return false;
  flicker_reported_ = true;
  return true;
}

}  // namespace cardtable::table
