// The control endpoint's requests and replies (docs/protocol.md): one JSON object each way.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace cardtable::protocol {

inline constexpr std::size_t kMaxRequestBytes = 64 * 1024;

struct Request {
  std::string command;  // version, status, snapshot, replay, load-record, board, contract, ack
  nlohmann::json args;  // the whole request object
};

// Parses a request frame; on failure the reason, ready for an error reply.
std::optional<Request> parse_request(std::string_view frame, std::string& error);
nlohmann::json error_reply(const std::string& message);
nlohmann::json ok_reply(nlohmann::json fields = nlohmann::json::object());

}  // namespace cardtable::protocol
