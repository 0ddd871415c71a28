#include "event_json.hpp"

namespace cardtable::tools {

nlohmann::json to_json(const table::Event& e) {
  nlohmann::json j = {{"class", e.event_class()}, {"type", e.type}, {"severity", std::string(table::severity_name(e.severity))},
                      {"time", static_cast<double>(e.time) / 1000.0}, {"message", e.message}};
  if (!e.laws.empty()) j["laws"] = e.laws;
  if (!e.event_name.empty()) j["event"] = e.event_name;
  if (!e.session.empty()) j["session"] = e.session;
  if (e.board > 0) j["board"] = e.board;
  if (!e.seats.empty()) {
    j["seats"] = nlohmann::json::array();
    for (auto s : e.seats) j["seats"].push_back(std::string(1, bridge::seat_letter(s)));
  }
  if (!e.evidence.empty()) {
    j["evidence"] = nlohmann::json::object();
    for (const auto& [k, v] : e.evidence) j["evidence"][k] = v;
  }
  return j;
}

}  // namespace cardtable::tools
