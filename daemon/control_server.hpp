// The control endpoint (ROUTER): each request is decoded into its type (protocol/requests.hpp), checked
// against the sender's role, and handed to the dispatcher; every failure -- a frame that is not JSON, a
// field of the wrong type, a role not allowed, a handler that throws -- is answered with an error that
// says why, and logged. Nothing a client sends gets past answer().
#pragma once

#include <cstdint>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <zmq.hpp>

#include "protocol/log_budget.hpp"
#include "protocol/requests.hpp"

namespace cardtable::daemon {

class ControlServer {
 public:
  // Who asked: the role, and the envelope its reply goes back under (routing id first). The envelope is
  // null when answer() is called directly (fuzz, tests): the request must then be answered at once.
  struct Caller {
    std::string role;
    const std::vector<std::string>* envelope = nullptr;
  };
  // The reply, or nullopt when the dispatcher took the request to answer later through send_later()
  // (a journal read, served by another thread).
  using Dispatch = std::function<std::optional<nlohmann::json>(const protocol::TypedRequest& request, const Caller& caller)>;
  // `roles_from_curve`: the role is the User-Id the ZAP handler gave the sender; without CURVE (ipc or
  // loopback, where the machine's users are trusted) every client is a director.
  ControlServer(zmq::context_t& context, Dispatch dispatch, bool roles_from_curve);

  zmq::socket_t& socket() { return socket_; }
  static constexpr int kBatch = 8;             // requests answered per handle() call
  static constexpr int kQueuedPerClient = 32;  // requests ZeroMQ queues from one client
  void handle();  // answers up to kBatch of the requests waiting on the socket
  // One request frame from a client of `role`, answered: the reply's JSON text. Never throws.
  std::string answer(std::string_view frame, const std::string& role) noexcept;
  // A reply made later (see Dispatch), sent under its envelope; a refusal is counted and logged.
  // Writes the count of refusals not logged one by one, once their second is over (the loop calls it).
  void flush_log();
  void send_later(const std::vector<std::string>& envelope, const std::string& body, bool ok, const std::string& error);
  static bool allowed(protocol::Access access, const std::string& role);

  std::uint64_t requests() const { return requests_; }
  std::uint64_t errors() const { return errors_; }
  std::uint64_t replies_dropped() const { return dropped_; }

 private:
  std::optional<std::string> answer(std::string_view frame, const Caller& caller) noexcept;
  void refused(const std::string& role, const std::string& error, const char* what = "request refused");
  void send(const std::vector<std::string>& envelope, const std::string& body);
  zmq::socket_t socket_;
  Dispatch dispatch_;
  // Refusals are logged, at most 20 a second: a flood of bad requests must not flood the log.
  protocol::LogBudget log_budget_{20};
  bool roles_from_curve_;
  std::uint64_t requests_ = 0, errors_ = 0, dropped_ = 0;
};

}  // namespace cardtable::daemon
