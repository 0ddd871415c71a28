#include "protocol/control.hpp"

namespace cardtable::protocol {

std::optional<Request> parse_request(std::string_view frame, std::string& error) {
  if (frame.size() > kMaxRequestBytes) {
    error = "request of " + std::to_string(frame.size()) + " bytes; at most " + std::to_string(kMaxRequestBytes) + " are read";
    return std::nullopt;
  }
  nlohmann::json j = nlohmann::json::parse(frame, nullptr, false);
  if (j.is_discarded()) {
    error = "the request is not JSON";
    return std::nullopt;
  }
  if (!j.is_object() || !j.contains("command") || !j["command"].is_string()) {
    error = "a request is a JSON object with a \"command\" string";
    return std::nullopt;
  }
  return Request{j["command"].get<std::string>(), j};
}

nlohmann::json error_reply(const std::string& message) { return {{"ok", false}, {"error", message}}; }

nlohmann::json ok_reply(nlohmann::json fields) {
  fields["ok"] = true;
  return fields;
}

}  // namespace cardtable::protocol
