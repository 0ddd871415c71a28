#include "gap_replays.hpp"

#include "protocol/json_fields.hpp"

namespace cardtable::tools {
using json = nlohmann::json;

GapReplays::GapReplays(zmq::context_t& ctx, std::string command, TableControls::Secure secure)
    : ctx_(ctx), command_(std::move(command)), secure_(std::move(secure)) {}

void GapReplays::start(const std::string& table, std::uint64_t since, std::uint64_t wanted_to, const TableControl& from, Clock::time_point now) {
  Replay& r = replays_[table];
  r.from = from;
  r.since = since;
  r.wanted_to = wanted_to;
  if (auto why = ask(r, now)) r.socket.reset();  // said when take() ends it (at once: no socket to wait on)
}

std::optional<std::string> GapReplays::ask(Replay& r, Clock::time_point now) {
  r.asked_at = now;
  try {
    if (!r.socket) {
      r.socket = std::make_unique<zmq::socket_t>(ctx_, zmq::socket_type::req);
      r.socket->set(zmq::sockopt::linger, 0);
      secure_(*r.socket, r.from.server_key);
      r.socket->connect(r.from.endpoint);
    }
    const std::string q = json{{"command", command_}, {"since", r.since}}.dump();
    if (!r.socket->send(zmq::buffer(q), zmq::send_flags::dontwait)) return "its control endpoint " + r.from.endpoint + " is not reachable";
  } catch (const zmq::error_t& e) {
    return r.from.endpoint + ": " + e.what();
  }
  return std::nullopt;
}

std::vector<zmq::pollitem_t> GapReplays::poll_items() const {
  std::vector<zmq::pollitem_t> items;
  for (const auto& [table, r] : replays_)
    if (r.socket) items.push_back({r.socket->handle(), 0, ZMQ_POLLIN, 0});
  return items;
}

std::vector<GapReplays::Ended> GapReplays::take(const zmq::pollitem_t* polled, Clock::time_point now, const Page& page) {
  std::vector<Ended> ended;
  std::size_t i = 0;
  for (auto it = replays_.begin(); it != replays_.end();) {
    Replay& r = it->second;
    std::optional<std::string> failure;
    bool done = false;
    if (!r.socket) {
      failure = "its control endpoint " + r.from.endpoint + " could not be asked";
    } else if (polled[i++].revents & ZMQ_POLLIN) {
      zmq::message_t m;
      json reply = r.socket->recv(m, zmq::recv_flags::dontwait) ? json::parse(m.to_string_view(), nullptr, false) : json();
      if (!reply.is_object() || !protocol::is_true(reply, "ok") || !reply.contains("events") || !reply["events"].is_array()) {
        failure = "replay from " + r.from.endpoint + ": " + (reply.is_object() ? protocol::string_field(reply, "error", "?") : std::string("not a reply"));
      } else {
        page(it->first, reply, r.since);
        // The next page follows this one's last event.
        std::uint64_t page_last = r.since;
        for (const json& e : reply["events"])
          page_last = std::max(page_last, protocol::seq_field(e));
        if (protocol::is_true(reply, "more")) {
          r.since = page_last + 1;
          failure = ask(r, now);
        } else {
          done = true;
        }
      }
    } else if (now - r.asked_at > kPageWithin) {
      failure = "no reply from " + r.from.endpoint + " within " + std::to_string(std::chrono::milliseconds(kPageWithin).count()) + " ms";
    }
    if (!done && !failure) {
      ++it;
      continue;
    }
    ended.push_back({it->first, failure, r.since, r.wanted_to, std::move(r.held)});
    it = replays_.erase(it);
  }
  return ended;
}

std::vector<GapReplays::Ended> GapReplays::abandon(const std::string& why) {
  std::vector<Ended> ended;
  for (auto& [table, r] : replays_) ended.push_back({table, why, r.since, r.wanted_to, std::move(r.held)});
  replays_.clear();
  return ended;
}

}  // namespace cardtable::tools
