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

// One frame's reading split by zone: the cards whose corner lies in each zone of the map, and in
// `unknown` the indices seen there but refused (not read). The stabiliser keeps that count as part of the
// reading and never hands it to the table as unknown cards (see for_table).
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
  // A zone whose reading holds a refused index goes to the table at confidence 0 and with no unknown
  // card: the camera saw a corner it could not read, which is uncertainty (a run of it is
  // reading.uncertain), not a stray card. The table's `unknown` means a tag of no enrolled card, and in a
  // play area it is irregularity.unknown_card -- raised for a card the network was merely unsure of, with
  // an RFID reader's wording ("2 tags ... no card of the enrolled deck") and advice.
  static table::Observation for_table(table::Observation o);

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
