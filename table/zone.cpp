#include "table/zone.hpp"

namespace cardtable::table {

std::string Zone::str() const {
  switch (kind) {
    case ZoneKind::Pocket: return std::string("pocket:") + bridge::seat_letter(seat);
    case ZoneKind::Play: return std::string("play:") + bridge::seat_letter(seat);
    case ZoneKind::Hand: return std::string("hand:") + bridge::seat_letter(seat);
    case ZoneKind::Dummy: return "dummy";
    case ZoneKind::Scan: return "scan";
  }
  return "?";
}

std::optional<Zone> Zone::parse(std::string_view text) {
  if (text == "dummy") return Zone{ZoneKind::Dummy, Seat::North};
  if (text == "scan") return Zone{ZoneKind::Scan, Seat::North};
  auto colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  auto seat = bridge::parse_seat(text.substr(colon + 1));
  if (!seat) return std::nullopt;
  std::string_view kind = text.substr(0, colon);
  if (kind == "pocket") return Zone{ZoneKind::Pocket, *seat};
  if (kind == "play") return Zone{ZoneKind::Play, *seat};
  if (kind == "hand") return Zone{ZoneKind::Hand, *seat};
  return std::nullopt;
}

}  // namespace cardtable::table
