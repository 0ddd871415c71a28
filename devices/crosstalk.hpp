// Cross-talk: HF antennas a few centimetres apart can both hear one tag. A tag seen on several antennas in
// the same poll is one card, never two. The rule (docs/hardware.md, "Cross-talk"):
//   1. if every sighting reports a signal strength and the strongest leads the next by at least the
//      model's crosstalk_margin, the tag belongs to the strongest antenna only;
//   2. otherwise the tag is dropped from every antenna that saw it, and those antennas' readings are
//      uncertain for this poll (the table treats them as noise, so a flicker never becomes a play).
// Either way the antennas are too close: crosstalk_advice says so, and what to do, for the technician.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "devices/uid.hpp"
#include "table/zone.hpp"

namespace cardtable::devices {

struct Sighting {
  Uid uid;
  int strength = 0;  // 0: unknown
};
struct AntennaTags {
  int antenna = 0;
  std::vector<Sighting> tags;
  bool uncertain = false;  // set by resolve_crosstalk, or by the reader (collision, field error)
};

// Antenna numbers that heard one tag in the same poll, ascending.
using AntennaGroup = std::vector<int>;

// Applies the rule in place; returns how many tags were seen on more than one antenna. `heard_together`,
// when given, gets each group of antennas that shared a tag.
int resolve_crosstalk(std::vector<AntennaTags>& antennas, int margin, std::set<AntennaGroup>* heard_together = nullptr);

// The technician's line for antennas that heard one tag: which zones, what it costs, and to move them apart
// by the distance docs/hardware.md gives ("Cross-talk"). `zones` names the zone each antenna serves (an
// antenna serving none is named alone).
std::string crosstalk_advice(const AntennaGroup& group, const std::map<int, table::Zone>& zones);

}  // namespace cardtable::devices
