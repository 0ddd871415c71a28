// The console's subscriptions, on a thread of their own: the hub's (or a daemon's) events endpoint with
// the director key, and each table's live endpoint with the broadcaster key. Each message is handed,
// parsed, to a callback; the gateway moves it to its I/O thread.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>
#include <zmq.hpp>

#include "table_requests.hpp"

namespace cardtable::console {

class WireClient {
 public:
  // live: true for a message of a live endpoint. Called on the wire thread.
  using Sink = std::function<void(nlohmann::json event, bool live)>;

  WireClient(zmq::context_t& ctx, std::vector<Peer> event_sources, std::vector<Peer> live_sources, Sink sink);
  ~WireClient();
  WireClient(const WireClient&) = delete;
  WireClient& operator=(const WireClient&) = delete;

  std::uint64_t received() const { return received_.load(); }
  std::uint64_t malformed() const { return malformed_.load(); }

 private:
  void run(std::vector<Peer> events, std::vector<Peer> live);

  zmq::context_t& ctx_;
  Sink sink_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> received_{0}, malformed_{0};
  std::thread thread_;
};

}  // namespace cardtable::console
