// Cross-talk: HF antennas a few centimetres apart can both hear one tag. A tag seen on several antennas in
// the same poll is one card, never two. The rule (docs/hardware.md, "Cross-talk"):
//   1. if every sighting reports a signal strength and the strongest leads the next by at least the
//      model's crosstalk_margin, the tag belongs to the strongest antenna only;
//   2. otherwise the tag is dropped from every antenna that saw it, and those antennas' readings are
//      uncertain for this poll (the table treats them as noise, so a flicker never becomes a play).
#pragma once

#include <set>
#include <vector>

#include "devices/uid.hpp"

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

// Applies the rule in place; returns how many tags were seen on more than one antenna.
int resolve_crosstalk(std::vector<AntennaTags>& antennas, int margin);

}  // namespace cardtable::devices
