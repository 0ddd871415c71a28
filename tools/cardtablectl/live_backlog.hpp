// The live events a watch reads while it does something else first (a `--since` replay asks each table's
// journal page by page, for minutes at a large venue): read off its subscriber as they come, held here in
// the order they came, and shown after, through the live path (each one already replayed is not shown
// twice: ShownEvents). Left in the socket instead, they queued behind ZeroMQ's receive high-water mark,
// and past the publisher's they were dropped and replayed again as gaps, from journals that may have
// rotated them away. On a stop signal, the events the socket holds already are read here too, without
// waiting for more, so that none received is left unshown.
#pragma once

#include <cstddef>
#include <deque>
#include <string>

#include <zmq.hpp>

namespace cardtable::tools {

class LiveBacklog {
 public:
  // At most this many events held (a few hundred bytes each: tens of MB); past it they are let go and
  // counted, and their seqs come back as gaps, replayed from the journals as any gap is.
  static constexpr std::size_t kLimit = 100000;

  explicit LiveBacklog(zmq::socket_t& subscriber) : subscriber_(subscriber) {}
  // The subscriber, to poll with what the watch awaits.
  zmq::pollitem_t poll_item() const { return {subscriber_.handle(), 0, ZMQ_POLLIN, 0}; }
  // Reads every message the subscriber holds now, never waiting: each event's body kept (oldest first).
  void read();
  // The next event's body held, oldest first; false when none is.
  bool take(std::string& body);
  // Events let go past the limit since the last call (0: none), to be said once.
  std::size_t take_let_go();

 private:
  zmq::socket_t& subscriber_;
  std::deque<std::string> held_;
  std::size_t let_go_ = 0;
};

}  // namespace cardtable::tools
