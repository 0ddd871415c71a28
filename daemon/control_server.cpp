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
  ++requests_;
  nlohmann::json reply;
  std::string command;
  try {
    protocol::Decoded d = protocol::decode_request(frame);
    command = d.command;
    if (!d.request) {
      reply = protocol::error_reply((command.empty() ? std::string() : command.substr(0, 40) + ": ") + d.error);
    } else if (!allowed(protocol::access_of(*d.request), role)) {
      reply = protocol::error_reply(command + ": not allowed for the " + (role.empty() ? "unknown" : role) + " role");
    } else {
      reply = dispatch_(*d.request, role);
    }
  } catch (const std::exception& e) {
    reply = protocol::error_reply(command + ": failed: " + e.what());
  } catch (...) {
    reply = protocol::error_reply(command + ": failed");
  }
  try {
    if (!reply.value("ok", false)) {
      ++errors_;
      // The client's text is escaped by dump(): a hostile frame cannot write control characters here.
      log(Priority::Notice, "control: " + role + " request refused: " + nlohmann::json(reply.value("error", std::string())).dump(-1, ' ', true,
                                                                                                           nlohmann::json::error_handler_t::replace));
    }
    return reply.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (...) {
    return R"({"ok":false,"error":"the reply could not be written"})";
  }
}

void ControlServer::handle() {
  // Whatever arrives -- a REQ's [id, "", body], a DEALER's [id, body], garbage -- gets a reply in the
  // same envelope. At most kBatch requests a call: the loop goes back to the devices and the publisher
  // in between, so a flood of replays delays live events by one batch, not by the whole flood.
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
    std::string body = answer(frames.back().to_string_view(), role);
    std::vector<zmq::const_buffer> out;
    for (std::size_t i = 0; i + 1 < frames.size(); ++i) out.emplace_back(frames[i].data(), frames[i].size());
    out.push_back(zmq::buffer(body));
    try {
      zmq::send_multipart(socket_, out, zmq::send_flags::dontwait);
    } catch (const zmq::error_t& e) {
      log(Priority::Warning, std::string("control reply: ") + e.what());
    }
  }
}

}  // namespace cardtable::daemon
