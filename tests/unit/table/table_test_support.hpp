// Shared by the table tests: an in-memory master record and a way to run a scenario written inline.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "bridge/synthetic_record.hpp"
#include "table/scenario.hpp"

namespace cardtable::table::test {

// "Spring Pairs": sessions 1 and 2 of 8 boards; "Autumn Teams": session 1 of 4 boards.
inline const bridge::MasterRecord& master() {
  static const bridge::MasterRecord m = [] {
    bridge::MasterRecord r;
    bridge::Diagnostics d;
    bridge::synthetic_records(16, 8, 7, "Spring Pairs", [&](bridge::BoardRecord&& b) { r.add(b, d); });
    bridge::synthetic_records(4, 4, 9, "Autumn Teams", [&](bridge::BoardRecord&& b) { r.add(b, d); });
    return r;
  }();
  return m;
}

// Runs a scenario script (without 'master' lines: the in-memory record is used).
inline std::vector<Event> run(const std::string& script) {
  std::vector<ScenarioError> errors;
  auto sc = parse_scenario("master memory\n" + script, ".", [](const auto&) -> const bridge::MasterRecord& { return master(); }, errors);
  if (!sc) {
    std::string what;
    for (const auto& e : errors) what += "line " + std::to_string(e.line - 1) + ": " + e.message + "\n";
    throw std::runtime_error(what);
  }
  return run_scenario(*sc, master());
}

// The types of the events that are irregularities (what a director is alerted to), in order.
inline std::vector<std::string> irregularities(const std::vector<Event>& events) {
  std::vector<std::string> out;
  for (const Event& e : events)
    if (e.event_class() == "irregularity") out.push_back(e.type.substr(e.type.find('.') + 1));
  return out;
}

inline const Event* first(const std::vector<Event>& events, const std::string& type) {
  auto it = std::find_if(events.begin(), events.end(), [&](const Event& e) { return e.type == type; });
  return it == events.end() ? nullptr : &*it;
}

inline std::string dump(const std::vector<Event>& events) {
  std::string out;
  for (const Event& e : events) out += e.str() + "\n";
  return out;
}

}  // namespace cardtable::table::test
