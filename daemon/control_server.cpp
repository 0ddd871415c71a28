#include "daemon/control_server.hpp"

#include <zmq_addon.hpp>

#include "daemon/log.hpp"
#include "protocol/control.hpp"

namespace cardtable::daemon {

ControlServer::ControlServer(zmq::context_t& context, Dispatch dispatch, bool roles_from_curve)
    : socket_(context, zmq::socket_type::router), dispatch_(std::move(dispatch)), roles_from_curve_(roles_from_curve) {
  socket_.set(zmq::sockopt::maxmsgsize, static_cast<int64_t>(1 << 20));  // a larger frame disconnects its sender
  socket_.set(zmq::sockopt::linger, 0);
  // Each client's outstanding requests are bounded by the transport: ZeroMQ queues at most this many
  // from one peer; beyond it the client's own socket waits (a REQ has one outstanding anyway).
  socket_.set(zmq::sockopt::rcvhwm, kQueuedPerClient);
  // A reply that cannot be queued (the client reads none of them, and 1,000 wait) is counted and logged,
  // not dropped silently as a ROUTER would by default.
  socket_.set(zmq::sockopt::router_mandatory, 1);
}

bool ControlServer::allowed(protocol::Access access, const std::string& role) {
  switch (access) {
    case protocol::Access::Anyone: return true;
    case protocol::Access::Director: return role == "director";
    case protocol::Access::Broadcaster: return role == "broadcaster" || role == "director";
  }
  return false;
}

std::string ControlServer::answer(std::string_view frame, const std::string& role) noexcept {
  // No envelope: the dispatcher answers at once (it never defers a caller it cannot reply to later).
  auto body = answer(frame, Caller{role, nullptr});
  return body ? *body : R"({"ok":false,"error":"no reply"})";
}

std::optional<std::string> ControlServer::answer(std::string_view frame, const Caller& caller) noexcept {
  ++requests_;
  std::optional<nlohmann::json> reply;
  std::string command;
  const std::string& role = caller.role;
  try {
    protocol::Decoded d = protocol::decode_request(frame);
    command = d.command;
    if (!d.request) {
      reply = protocol::error_reply((command.empty() ? std::string() : command.substr(0, 40) + ": ") + d.error);
    } else if (!allowed(protocol::access_of(*d.request), role)) {
      reply = protocol::error_reply(command + ": not allowed for the " + (role.empty() ? "unknown" : role) + " role");
    } else {
      reply = dispatch_(*d.request, caller);
      if (!reply && !caller.envelope) reply = protocol::error_reply(command + ": no reply");
      if (!reply) return std::nullopt;  // answered later, through send_later()
    }
  } catch (const std::exception& e) {
    reply = protocol::error_reply(command + ": failed: " + e.what());
  } catch (...) {
    reply = protocol::error_reply(command + ": failed");
  }
  try {
    if (!reply->value("ok", false)) refused(role, reply->value("error", std::string()));
    return reply->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (...) {
    return R"({"ok":false,"error":"the reply could not be written"})";
  }
}

void ControlServer::flush_log() {
  if (const std::uint64_t held = log_budget_.roll())
    log(Priority::Notice, "control: " + std::to_string(held) + " more requests refused in the last second, not logged one by one");
}

void ControlServer::refused(const std::string& role, const std::string& error, const char* what) {
  ++errors_;
  try {
    flush_log();
    if (!log_budget_.take()) return;
    // The client's text is escaped by dump(): a hostile frame cannot write control characters here.
    log(Priority::Notice, "control: " + (role.empty() ? std::string() : role + " ") + what + ": " +
                              nlohmann::json(error).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace));
  } catch (...) {
  }
}

void ControlServer::send(const std::vector<std::string>& envelope, const std::string& body) {
  std::vector<zmq::const_buffer> out;
  for (const std::string& f : envelope) out.emplace_back(f.data(), f.size());
  out.push_back(zmq::buffer(body));
  std::string why;
  try {
    if (!zmq::send_multipart(socket_, out, zmq::send_flags::dontwait)) why = "the client reads no replies and its queue is full";
  } catch (const zmq::error_t& e) {
    why = e.num() == EHOSTUNREACH ? "the client has gone" : e.what();
  }
  if (why.empty()) return;
  ++dropped_;
  refused("", why, "reply dropped");
  --errors_;  // a lost reply is counted as such, not as a refused request
}

void ControlServer::send_later(const std::vector<std::string>& envelope, const std::string& body, bool ok, const std::string& error) {
  if (!ok) refused("", error);
  send(envelope, body);
}

void ControlServer::handle() {
  // Whatever arrives -- a REQ's [id, "", body], a DEALER's [id, body], garbage -- gets a reply in the
  // same envelope. At most kBatch requests a call: the loop goes back to the devices and the publisher
  // in between. Journal reads are answered by the reader thread (journal_reader.hpp), not here.
  for (int served = 0; served < kBatch; ++served) {
    std::vector<zmq::message_t> frames;
    zmq::recv_result_t got;
    try {
      got = zmq::recv_multipart(socket_, std::back_inserter(frames), zmq::recv_flags::dontwait);
    } catch (const zmq::error_t& e) {
      log(Priority::Warning, std::string("control: ") + e.what());
      return;
    }
    if (!got) return;
    if (frames.size() < 2) continue;  // an identity alone: nothing to answer
    std::string role = "director";
    if (roles_from_curve_) {
      try {
        role = frames.back().gets("User-Id");
      } catch (const zmq::error_t&) {
        role.clear();
      }
    }
    std::vector<std::string> envelope;
    for (std::size_t i = 0; i + 1 < frames.size(); ++i) envelope.push_back(frames[i].to_string());
    if (auto body = answer(frames.back().to_string_view(), Caller{role, &envelope})) send(envelope, *body);
  }
}

}  // namespace cardtable::daemon
