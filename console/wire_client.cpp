#include "wire_client.hpp"

#include <iostream>
#include <zmq_addon.hpp>

namespace cardtable::console {
using json = nlohmann::json;

WireClient::WireClient(zmq::context_t& ctx, std::vector<Peer> events, std::vector<Peer> live, Sink sink)
    : ctx_(ctx), sink_(std::move(sink)) {
  thread_ = std::thread([this, e = std::move(events), l = std::move(live)]() mutable { run(std::move(e), std::move(l)); });
}

WireClient::~WireClient() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void WireClient::run(std::vector<Peer> events, std::vector<Peer> live) {
  std::vector<zmq::socket_t> sockets;
  std::vector<bool> is_live;
  auto open = [&](const Peer& p, bool l) {
    try {
      zmq::socket_t s(ctx_, zmq::socket_type::sub);
      s.set(zmq::sockopt::linger, 0);
      s.set(zmq::sockopt::rcvhwm, 200000);
      s.set(zmq::sockopt::maxmsgsize, static_cast<std::int64_t>(1) << 20);
      apply_curve(s, p);
      s.set(zmq::sockopt::subscribe, "");
      s.connect(p.endpoint);
      sockets.push_back(std::move(s));
      is_live.push_back(l);
    } catch (const zmq::error_t& e) {
      std::cerr << "cardtable-console: " << p.endpoint << ": " << e.what() << std::endl;
    }
  };
  for (const auto& p : events) open(p, false);
  for (const auto& p : live) open(p, true);
  std::vector<zmq::pollitem_t> items;
  for (auto& s : sockets) items.push_back({s.handle(), 0, ZMQ_POLLIN, 0});
  std::vector<zmq::message_t> frames;
  while (!stop_) {
    if (items.empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      continue;
    }
    zmq::poll(items.data(), items.size(), std::chrono::milliseconds(200));
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!(items[i].revents & ZMQ_POLLIN)) continue;
      // Drain, but give the other sockets a turn after a batch.
      for (int n = 0; n < 1000; ++n) {
        frames.clear();
        if (!zmq::recv_multipart(sockets[i], std::back_inserter(frames), zmq::recv_flags::dontwait)) break;
        ++received_;
        json j = frames.size() == 2 ? json::parse(frames[1].to_string_view(), nullptr, false) : json();
        if (!j.is_object()) {
          // A hostile or broken publisher costs a counter, never the console.
          if (malformed_++ % 1000 == 0)
            std::cerr << "cardtable-console: a message that is not a topic and a JSON object, ignored" << std::endl;
          continue;
        }
        sink_(std::move(j), is_live[i]);
      }
    }
  }
}

}  // namespace cardtable::console
