#include "daemon/publisher.hpp"

#include "daemon/log.hpp"

namespace cardtable::daemon {

Publisher::Publisher(zmq::context_t& context, Config config)
    : config_(std::move(config)),
      journal_(std::make_unique<protocol::Journal>(config_.state_dir / "journal", config_.limits)),
      live_journal_(std::make_unique<protocol::Journal>(config_.state_dir / "live", config_.limits)),
      pub_(context, zmq::socket_type::pub),
      live_(context, zmq::socket_type::pub) {
  // A slow subscriber must neither stop publishing nor grow memory without bound: PUB drops at the
  // high-water mark (the subscriber sees the gap in seq and replays it).
  for (zmq::socket_t* s : {&pub_, &live_}) {
    s->set(zmq::sockopt::sndhwm, 100000);
    s->set(zmq::sockopt::linger, 1000);
  }
}

void Publisher::send(zmq::socket_t& s, const std::string& topic, const std::string& body) {
  s.send(zmq::buffer(topic), zmq::send_flags::sndmore | zmq::send_flags::dontwait);
  s.send(zmq::buffer(body), zmq::send_flags::dontwait);
}

void Publisher::publish(protocol::WireEvent& e, bool journal) {
  std::string body = journal ? journal_->append(e)  // journalled first: nothing published is ever lost
                             : protocol::to_json(e).dump();
  send(pub_, e.topic(), body);
  ++published_;
  log_event(e);
}

void Publisher::embargo(std::vector<protocol::WireEvent> board) {
  if (board.empty()) return;
  auto release = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(config_.embargo);
  embargoed_.push_back({release, std::move(board)});
}

std::vector<std::vector<protocol::WireEvent>> Publisher::release_due() {
  std::vector<std::vector<protocol::WireEvent>> released;
  auto now = std::chrono::steady_clock::now();
  while (!embargoed_.empty() && embargoed_.front().release <= now) {
    std::vector<protocol::WireEvent> board = std::move(embargoed_.front().events);
    embargoed_.pop_front();
    for (protocol::WireEvent& e : board) send(live_, e.topic(), live_journal_->append(e));  // journalled first
    released.push_back(std::move(board));
  }
  return released;
}

}  // namespace cardtable::daemon
