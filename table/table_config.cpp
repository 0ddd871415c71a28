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

std::vector<std::uint32_t> boards_named_by_label(const bridge::MasterRecord& master, const std::string& label,
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
  if (last.empty() || last.size() > 5 || last.find_first_not_of("0123456789") != std::string::npos) return {};
  int number = std::stoi(last);
  if (parts.size() > 3) return {};
  if (parts.size() == 3) {
    if (auto b = master.find(parts[0], parts[1], number)) return {*b};
    return {};
  }
  // A label without its event is the current event's first: a station given the whole tournament's deal
  // files (Spring Pairs and Autumn Teams, each with a session 1) that checks Spring Pairs boards means
  // Spring Pairs / 1, board 4 by "1/4", not the board 4 of whichever event's file was loaded first.
  // Then the other sessions of the current event ("30" when this session ends at 24), then every event.
  std::vector<std::uint32_t> named;
  auto gather = [&](const std::string* event) {
    for (std::uint32_t s = 0; s < master.session_count(); ++s) {
      const auto& id = master.session(s);
      if (event && id.event != *event) continue;
      if (parts.size() == 2 && id.session != parts[0]) continue;
      if (auto b = master.find(id.event, id.session, number)) named.push_back(*b);
    }
  };
  if (current_session) {
    const auto& s = master.session(*current_session);
    if (auto b = master.find(s.event, parts.size() == 1 ? s.session : parts[0], number)) return {*b};
    // "2/7" names its session: the find above was the current event's only candidate.
    if (parts.size() == 1) {
      gather(&s.event);
      if (!named.empty()) return named;
    }
  }
  // Nothing being played tells which event or session is meant: every board the label fits. More than one
  // is for the caller to refuse, never to pick by the order the files were loaded in (a Law 6D2 alert on a
  // correct board, and the wrong session kept for every board after it).
  gather(nullptr);
  return named;
}

std::optional<std::uint32_t> resolve_board_label(const bridge::MasterRecord& master, const std::string& label,
                                                 std::optional<std::uint32_t> current_session) {
  auto named = boards_named_by_label(master, label, current_session);
  if (named.size() != 1) return std::nullopt;
  return named.front();
}

std::string board_label_problem(const bridge::MasterRecord& master, const std::string& label, const std::vector<std::uint32_t>& named) {
  if (named.empty()) return "No board '" + label + "' in the master record";
  std::string which;
  for (std::uint32_t b : named) which += (which.empty() ? "" : "; ") + master.describe(b);
  const auto& first = master.session(master.board(named.front()).session);
  return "Board '" + label + "' could be " + std::to_string(named.size()) + " boards of the master record (" + which +
         ") and nothing being played tells which: name its event and session, e.g. '" + first.event + "/" + first.session + "/" +
         std::to_string(master.board(named.front()).board) + "'";
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
