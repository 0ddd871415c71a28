// Every control request the console sends to a table's daemon or the hub, in one place. The daemon stays
// the judge of who may act: `ack` goes with the console's director key, `replay-live` with its
// broadcaster key, and the table answers for itself. Requests of protocol 1.1 (`alerts`, `evidence`)
// are here too, so an older daemon's "unknown command" reply is handled in one file.
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>
#include <zmq.hpp>

#include "protocol/curve_keys.hpp"

namespace cardtable::console {

// Where a client connects, and as whom: the server's public key and our keypair (both empty: plain text).
struct Peer {
  std::string endpoint;          // tcp://HOST:PORT or ipc://PATH
  std::string server_public;     // Z85, empty for plain text
  const protocol::Keypair* key = nullptr;
};
// Whether a reply says ok; a reply is outside input: an "ok" that is no boolean is a failure, never a throw.
inline bool ok_of(const nlohmann::json& reply) {
  auto it = reply.find("ok");
  return reply.is_object() && it != reply.end() && it->is_boolean() && it->get<bool>();
}
// Sets CURVE on a client socket when the peer has a server key.
void apply_curve(zmq::socket_t& socket, const Peer& peer);

class TableRequests {
 public:
  explicit TableRequests(std::chrono::milliseconds timeout = std::chrono::milliseconds(3000)) : timeout_(timeout) {}

  // One request, one reply; {"ok":false,"error":...} when the peer does not answer in time. Thread-safe:
  // each call has its own socket. After stop(): {"ok":false,"stopped":true,"sent":...} at once.
  nlohmann::json request(const Peer& peer, const nlohmann::json& req) const;
  // The console is stopping (SIGTERM): every request waiting on a peer returns now, and any later one at
  // once. SIGTERM waited for them, each up to its timeout: the catch-up's one after another (12 s with a
  // silent hub and three silent tables), and systemd's stop with it.
  void stop();
  // A reply that says the request was cut short by stop(); "sent": whether it had left for the peer (an
  // ack that had may have been taken by the table, unconfirmed).
  static bool stopped(const nlohmann::json& reply) { return reply.value("stopped", false); }

  // journal: the identity of the journal the alert came from (protocol 1.4; empty: not said): the daemon
  // refuses the ack when its journal is another one, so an ack never reaches another journal's event.
  nlohmann::json ack(const Peer& table, std::uint64_t seq, const std::string& by, const std::string& journal = {}) const {
    nlohmann::json req = {{"command", "ack"}, {"seq", seq}, {"by", by}};
    if (!journal.empty()) req["journal"] = journal;
    return request(table, req);
  }
  // Protocol 1.1: the table's unacknowledged alerts, oldest first; null when the daemon predates it. Each
  // names the journal the reply came from (1.4), so an answer of a journal replaced meanwhile is told apart.
  std::optional<nlohmann::json> open_alerts(const Peer& table) const;
  // Protocol 1.1: the card-level detail of an irregularity, for directors only.
  nlohmann::json evidence(const Peer& table, std::uint64_t seq) const {
    return request(table, {{"command", "evidence"}, {"seq", seq}});
  }
  nlohmann::json replay_live(const Peer& table, std::uint64_t since) const {
    return request(table, {{"command", "replay-live"}, {"since", since}});
  }
  nlohmann::json hub_snapshot(const Peer& hub) const { return request(hub, {{"command", "snapshot"}}); }

 private:
  // The requests' own: stop() shuts it down (every blocking call on its sockets returns ETERM) without
  // touching the subscriptions' context.
  mutable zmq::context_t ctx_;
  std::chrono::milliseconds timeout_;
  std::atomic<bool> stopping_{false};
};

}  // namespace cardtable::console
