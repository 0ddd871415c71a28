#include "hand_diagram.hpp"

#include <array>

namespace cardtable::tools {
using namespace cardtable::bridge;

std::size_t display_width(std::string_view text) {
  std::size_t n = 0;
  for (char c : text)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

namespace {

std::string pad(std::string s, std::size_t width) {
  std::size_t w = display_width(s);
  if (w < width) s.append(width - w, ' ');
  return s;
}

std::array<std::string, 4> hand_lines(const Hand& h) {
  std::array<std::string, 4> out;
  if (h.empty()) return out;
  for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = std::string(suit_symbol(kDisplaySuits[i])) + " " + h.suit_display(kDisplaySuits[i]);
  return out;
}

std::string vulnerability_text(Vulnerability v) {
  switch (v) {
    case Vulnerability::None: return "None vulnerable";
    case Vulnerability::NorthSouth: return "N-S vulnerable";
    case Vulnerability::EastWest: return "E-W vulnerable";
    case Vulnerability::Both: return "All vulnerable";
  }
  return {};
}

}  // namespace

std::string hand_diagram(const BoardRecord& r) {
  std::string out = "Board " + (r.board > 0 ? std::to_string(r.board) : std::string("?")) + " \u00b7 Dealer " +
                    std::string(seat_name(r.effective_dealer())) + " \u00b7 " + vulnerability_text(r.effective_vulnerability());
  std::string where = r.session.empty() ? r.event : r.event + " / " + r.session;
  if (!where.empty()) out += "  (" + where + ")";
  out += '\n';
  if (!r.deal) return out + "  (no deal in the record)\n";
  const Deal& d = *r.deal;
  constexpr std::size_t kCol = 24;
  auto north = hand_lines(d.hand(Seat::North));
  auto south = hand_lines(d.hand(Seat::South));
  auto west = hand_lines(d.hand(Seat::West));
  auto east = hand_lines(d.hand(Seat::East));
  auto centre = [&](const std::array<std::string, 4>& lines) {
    for (const std::string& l : lines) out += std::string(kCol, ' ') + l + '\n';
  };
  centre(north);
  for (std::size_t i = 0; i < 4; ++i) {
    std::string mid = i == 1 ? "      N" : i == 2 ? "  W       E" : "";
    if (i == 3) mid = "      S";
    std::string line = pad(west[i], kCol) + pad(mid, kCol) + east[i];
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + '\n';
  }
  centre(south);
  return out;
}

}  // namespace cardtable::tools
