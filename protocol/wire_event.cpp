#include "protocol/wire_event.hpp"

namespace cardtable::protocol {

std::string WireEvent::topic() const { return event_class() + "/" + tournament + "/" + section + "/" + table + "/" + type; }

nlohmann::json to_json(const WireEvent& e, bool with_card_detail) {
  nlohmann::json j = {{"class", e.event_class()}, {"type", e.type}, {"severity", e.severity}, {"time", e.time},
                      {"mono", e.mono}, {"message", e.message}};
  if (e.seq) j["seq"] = e.seq;
  if (!e.journal.empty()) j["journal"] = e.journal;
  if (!e.laws.empty()) j["laws"] = e.laws;
  for (const auto& [k, v] : {std::pair{"tournament", &e.tournament}, {"section", &e.section}, {"table", &e.table},
                             {"event", &e.event}, {"session", &e.session}})
    if (!v->empty()) j[k] = *v;
  if (e.board > 0) j["board"] = e.board;
  if (!e.seats.empty()) j["seats"] = e.seats;
  if (!e.evidence.empty()) {
    j["evidence"] = nlohmann::json::object();
    for (const auto& [k, v] : e.evidence) j["evidence"][k] = v;
  }
  if (!e.hands.empty()) j["hands"] = e.hands;
  if (with_card_detail && !e.card_message.empty()) j["card_message"] = e.card_message;
  if (with_card_detail && !e.card_evidence.empty()) {
    j["card_evidence"] = nlohmann::json::object();
    for (const auto& [k, v] : e.card_evidence) j["card_evidence"][k] = v;
  }
  return j;
}

void strip_card_detail(nlohmann::json& event) {
  if (!event.is_object()) return;
  event.erase("card_message");
  event.erase("card_evidence");
}

std::optional<WireEvent> from_json(const nlohmann::json& j, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<WireEvent> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  if (!j.is_object()) return fail("an event is a JSON object");
  if (!j.contains("type") || !j["type"].is_string()) return fail("no \"type\"");
  WireEvent e;
  try {
    e.type = j["type"].get<std::string>();
    e.severity = j.value("severity", "info");
    e.seq = j.value("seq", std::uint64_t{0});
    e.journal = j.value("journal", "");
    e.laws = j.value("laws", std::vector<std::string>{});
    e.tournament = j.value("tournament", "");
    e.section = j.value("section", "");
    e.table = j.value("table", "");
    e.event = j.value("event", "");
    e.session = j.value("session", "");
    e.board = j.value("board", 0);
    e.seats = j.value("seats", std::vector<std::string>{});
    e.message = j.value("message", "");
    e.time = j.value("time", 0.0);
    e.mono = j.value("mono", 0.0);
    if (j.contains("evidence") && j["evidence"].is_object())
      for (const auto& [k, v] : j["evidence"].items()) e.evidence.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
    e.card_message = j.value("card_message", "");
    if (j.contains("hands") && j["hands"].is_object()) e.hands = j["hands"].get<std::map<std::string, std::vector<std::string>>>();
    if (j.contains("card_evidence") && j["card_evidence"].is_object())
      for (const auto& [k, v] : j["card_evidence"].items()) e.card_evidence.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
  } catch (const nlohmann::json::exception& ex) {
    return fail(std::string("a field has the wrong type: ") + ex.what());
  }
  return e;
}

}  // namespace cardtable::protocol
