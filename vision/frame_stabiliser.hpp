// Temporal stability on the camera side: a zone's cards go to the table only once they have been read
// the same way in `frames` consecutive frames (one frame's misreading never reaches the table). The
// table's own StableReading then does the rest (its stability count, flicker -> reading.uncertain).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "table/observation.hpp"
#include "vision/recogniser.hpp"
#include "vision/zones_file.hpp"

namespace cardtable::vision {

// One frame's reading split by zone: the cards whose corner lies in each zone of the map.
std::map<int, table::Observation> observations_by_zone(const FrameReading& r, const ZoneMap& zones, table::Millis time,
                                                        const std::string& source);

class FrameStabiliser {
 public:
  explicit FrameStabiliser(int frames = 3) : frames_(frames < 1 ? 1 : frames) {}
  // One frame's per-zone observations in (zones absent from it are read as empty); out the zones whose
  // reading has just held for `frames` frames and differs from what was last sent.
  std::vector<table::Observation> feed(const std::map<int, table::Observation>& frame, const ZoneMap& zones,
                                       table::Millis time, const std::string& source);
  // What a device reports each frame, one observation for every zone of the map (a camera reports every
  // frame, as an RFID reader reports every poll): after feed(), a zone whose frame agrees with the
  // reading last sent is reported as that reading; a zone still changing (its frame's reading has not held
  // `frames` frames) is reported as the frame saw it at confidence 0, which the table counts as noise --
  // so a card flickering in and out never settles and the table marks the zone uncertain.
  std::vector<table::Observation> report(const ZoneMap& zones, table::Millis time) const;

 private:
  struct ZoneState {
    std::optional<table::Observation> candidate;
    int count = 0;
    std::optional<table::Observation> sent;
  };
  int frames_;
  std::map<int, ZoneState> state_;
};

}  // namespace cardtable::vision
