// The control endpoint (ROUTER): each request is decoded into its type (protocol/requests.hpp), checked
// against the sender's role, and handed to the dispatcher; every failure -- a frame that is not JSON, a
// field of the wrong type, a role not allowed, a handler that throws -- is answered with an error that
// says why, and logged. Nothing a client sends gets past answer().
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>
#include <zmq.hpp>

#include "protocol/requests.hpp"

namespace cardtable::daemon {

class ControlServer {
 public:
  using Dispatch = std::function<nlohmann::json(const protocol::TypedRequest& request, const std::string& role)>;
  // `roles_from_curve`: the role is the User-Id the ZAP handler gave the sender; without CURVE (ipc or
  // loopback, where the machine's users are trusted) every client is a director.
  ControlServer(zmq::context_t& context, Dispatch dispatch, bool roles_from_curve);

  zmq::socket_t& socket() { return socket_; }
  void handle();  // answers every request waiting on the socket
  // One request frame from a client of `role`, answered: the reply's JSON text. Never throws.
  std::string answer(std::string_view frame, const std::string& role) noexcept;
  static bool allowed(protocol::Access access, const std::string& role);

  std::uint64_t requests() const { return requests_; }
  std::uint64_t errors() const { return errors_; }

 private:
  zmq::socket_t socket_;
  Dispatch dispatch_;
  bool roles_from_curve_;
  std::uint64_t requests_ = 0, errors_ = 0;
};

}  // namespace cardtable::daemon
