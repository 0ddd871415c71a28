#include "table/table_config.hpp"

#include <algorithm>
#include <cctype>

#include "table/command.hpp"

namespace cardtable::table {

bool TableConfig::has(const Zone& z) const { return std::find(zones.begin(), zones.end(), z) != zones.end(); }

bool TableConfig::has_all(ZoneKind kind) const {
  for (Seat s : bridge::kAllSeats)
    if (!has(Zone{kind, s})) return false;
  return true;
}

TableConfig TableConfig::station_scan() {
  TableConfig c;
  c.zones = {Zone{ZoneKind::Scan, Seat::North}};
  return c;
}

TableConfig TableConfig::station_hands() {
  TableConfig c;
  for (Seat s : bridge::kAllSeats) c.zones.push_back(Zone{ZoneKind::Hand, s});
  return c;
}

TableConfig TableConfig::playing_table() {
  TableConfig c;
  for (Seat s : bridge::kAllSeats) c.zones.push_back(Zone{ZoneKind::Pocket, s});
  for (Seat s : bridge::kAllSeats) c.zones.push_back(Zone{ZoneKind::Play, s});
  c.zones.push_back(Zone{ZoneKind::Dummy, Seat::North});
  return c;
}

std::optional<std::uint32_t> resolve_board_label(const bridge::MasterRecord& master, const std::string& label,
                                                 std::optional<std::uint32_t> current_session) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    auto slash = label.find('/', start);
    parts.push_back(label.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  const std::string& last = parts.back();
  if (last.empty() || last.size() > 5 || last.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  int number = std::stoi(last);
  if (parts.size() == 3) return master.find(parts[0], parts[1], number);
  if (parts.size() > 3) return std::nullopt;
  // A label without its event is the current event's first: a station given the whole tournament's deal
  // files (Spring Pairs and Autumn Teams, each with a session 1) that checks Spring Pairs boards means
  // Spring Pairs / 1, board 4 by "1/4", not the board 4 of whichever event's file was loaded first.
  if (current_session && parts.size() <= 2) {
    const auto& s = master.session(*current_session);
    if (auto b = master.find(s.event, parts.size() == 1 ? s.session : parts[0], number)) return b;
  }
  for (std::uint32_t s = 0; s < master.session_count(); ++s)
    if (parts.size() == 1 || master.session(s).session == parts[0])
      if (auto b = master.find(master.session(s).event, master.session(s).session, number)) return b;
  return std::nullopt;
}

std::optional<ContractCommand> parse_contract_command(std::string_view text) {
  std::vector<std::string> words;
  std::string w;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!w.empty()) words.push_back(w);
      w.clear();
    } else {
      w += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  if (!w.empty()) words.push_back(w);
  if (words.size() == 1 && (words[0] == "PASS" || words[0] == "P")) return ContractCommand{true, {}};
  std::erase(words, "BY");
  if (words.size() == 3 && (words[1] == "X" || words[1] == "XX")) {  // "4H X N"
    words[0] += words[1];
    words.erase(words.begin() + 1);
  }
  if (words.size() != 2) return std::nullopt;
  auto seat = bridge::parse_seat(words[1]);
  if (!seat) return std::nullopt;
  auto c = bridge::parse_contract(words[0], *seat);
  if (!c) return std::nullopt;
  return ContractCommand{false, *c};
}

}  // namespace cardtable::table
