#include "vision/frame_stabiliser.hpp"

#include <algorithm>

namespace cardtable::vision {

std::map<int, table::Observation> observations_by_zone(const FrameReading& r, const ZoneMap& zones, table::Millis time,
                                                        const std::string& source) {
  std::map<int, table::Observation> out;
  auto obs = [&](const table::Zone& z) -> table::Observation& {
    auto [it, fresh] = out.try_emplace(z.index());
    if (fresh) {
      it->second.zone = z;
      it->second.time = time;
      it->second.source = source;
      it->second.confidence = 1.0;
    }
    return it->second;
  };
  for (const auto& c : r.cards) {
    const auto z = zones.zone_at({c.box.x + c.box.width / 2, c.box.y + c.box.height / 2});
    if (!z) continue;  // off every zone: the edge of the table, a player's hand
    auto& o = obs(*z);
    o.cards.add(c.card);
    o.confidence = std::min(o.confidence, c.confidence);
  }
  for (const auto& i : r.indices) {
    if (!i.refused) continue;
    const auto z = zones.zone_at({i.box.x + i.box.width / 2, i.box.y + i.box.height / 2});
    if (z) ++obs(*z).unknown;  // seen but not read: never guessed (for_table makes it noise to the table)
  }
  return out;
}

std::vector<table::Observation> FrameStabiliser::feed(const std::map<int, table::Observation>& frame, const ZoneMap& zones,
                                                      table::Millis time, const std::string& source) {
  std::vector<table::Observation> out;
  for (const auto& region : zones.regions) {
    const int idx = region.zone.index();
    table::Observation o;
    if (auto it = frame.find(idx); it != frame.end()) {
      o = it->second;
    } else {
      o.zone = region.zone;
      o.time = time;
      o.source = source;
    }
    auto& s = state_[idx];
    if (s.candidate && s.candidate->same_reading(o)) {
      ++s.count;
      s.candidate->confidence = std::min(s.candidate->confidence, o.confidence);
    } else {
      s.candidate = o;
      s.count = 1;
    }
    if (s.count == frames_ && !(s.sent && s.sent->same_reading(*s.candidate))) {
      table::Observation send = *s.candidate;
      send.time = time;
      s.sent = send;
      out.push_back(for_table(std::move(send)));
    }
  }
  return out;
}

std::vector<table::Observation> FrameStabiliser::report(const ZoneMap& zones, table::Millis time) const {
  std::vector<table::Observation> out;
  for (const auto& region : zones.regions) {
    auto it = state_.find(region.zone.index());
    if (it == state_.end() || !it->second.candidate) continue;  // not fed yet
    const ZoneState& s = it->second;
    table::Observation o;
    if (s.sent && s.sent->same_reading(*s.candidate) && s.count >= frames_) {
      o = *s.sent;
      o.confidence = s.candidate->confidence;
    } else {
      o = *s.candidate;
      o.confidence = 0;  // unsettled: noise to the table, and a run of it is reading.uncertain
    }
    o.time = time;
    out.push_back(for_table(std::move(o)));
  }
  return out;
}

table::Observation FrameStabiliser::for_table(table::Observation o) {
  if (o.unknown > 0) {
    o.unknown = 0;
    o.confidence = 0;
  }
  return o;
}

}  // namespace cardtable::vision
