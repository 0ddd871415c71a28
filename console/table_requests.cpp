#include "table_requests.hpp"

#include <cerrno>

#include <zmq_addon.hpp>

namespace cardtable::console {
using json = nlohmann::json;

void apply_curve(zmq::socket_t& s, const Peer& peer) {
  if (peer.server_public.empty() || !peer.key) return;
  s.set(zmq::sockopt::curve_serverkey, peer.server_public);
  s.set(zmq::sockopt::curve_publickey, peer.key->public_key);
  s.set(zmq::sockopt::curve_secretkey, peer.key->secret_key);
}

void TableRequests::stop() {
  stopping_ = true;
  ctx_.shutdown();
}

json TableRequests::request(const Peer& peer, const json& req) const {
  bool sent = false;
  auto cut_short = [&] {
    return json{{"ok", false}, {"stopped", true}, {"sent", sent}, {"error", peer.endpoint + ": the console stopped before the reply"}};
  };
  if (stopping_) return cut_short();
  try {
    zmq::socket_t s(ctx_, zmq::socket_type::req);
    s.set(zmq::sockopt::linger, 0);
    s.set(zmq::sockopt::rcvtimeo, static_cast<int>(timeout_.count()));
    s.set(zmq::sockopt::sndtimeo, static_cast<int>(timeout_.count()));
    s.set(zmq::sockopt::maxmsgsize, static_cast<std::int64_t>(64) << 20);
    apply_curve(s, peer);
    s.connect(peer.endpoint);
    std::string body = req.dump();
    if (!s.send(zmq::buffer(body), zmq::send_flags::none))
      return {{"ok", false}, {"unreachable", true}, {"error", peer.endpoint + ": could not send the request"}};
    sent = true;
    zmq::message_t reply;
    if (!s.recv(reply))
      return {{"ok", false}, {"unreachable", true}, {"error", peer.endpoint + ": no reply within " + std::to_string(timeout_.count()) + " ms"}};
    json j = json::parse(reply.to_string_view(), nullptr, false);
    if (!j.is_object()) return {{"ok", false}, {"unreachable", true}, {"error", peer.endpoint + ": the reply is not a JSON object"}};
    return j;
  } catch (const zmq::error_t& e) {
    if (e.num() == ETERM || stopping_) return cut_short();
    return {{"ok", false}, {"unreachable", true}, {"error", peer.endpoint + ": " + e.what()}};
  }
}

std::optional<json> TableRequests::open_alerts(const Peer& table) const {
  json r = request(table, {{"command", "alerts"}});
  if (!ok_of(r)) return std::nullopt;  // a 1.0 daemon: "unknown command"
  json list = r.contains("alerts") ? r["alerts"] : r.value("events", json::array());
  if (!list.is_array()) return json::array();
  if (auto j = r.find("journal"); j != r.end() && j->is_string())
    for (json& e : list)
      if (e.is_object() && !e.contains("journal")) e["journal"] = *j;
  return list;
}

}  // namespace cardtable::console
