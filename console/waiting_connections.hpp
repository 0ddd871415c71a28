// The connections waiting for a request: a TLS handshake not finished, a request arriving, a keep-alive
// connection between requests. When --max-connections are open, a newcomer closes the one that has waited
// longest and takes its place. Many addresses (each within --max-connections-per-address) could fill the
// cap with connections that never send a whole request, and every director was refused 503 until they
// timed out, again at each attempt; a connection that is waiting costs its client nothing to lose (a
// browser opens another), while an open page (an event stream) or a request being answered is never in
// here, so it is never closed for room. One I/O thread: no locking.
#pragma once

#include <cstdint>
#include <functional>
#include <map>

namespace cardtable::console {

class WaitingConnections {
 public:
  using Ticket = std::uint64_t;
  // close: closes the connection; false when it had gone already (nothing freed).
  Ticket add(std::function<bool()> close) {
    waiting_.emplace(next_, std::move(close));
    return next_++;
  }
  void remove(Ticket ticket) { waiting_.erase(ticket); }
  // Closes the connection that has waited longest (the oldest ticket): false when none waits.
  bool close_longest_waiting() {
    while (!waiting_.empty()) {
      auto close = std::move(waiting_.begin()->second);
      waiting_.erase(waiting_.begin());  // first: closing it removes its ticket again
      if (close()) return true;
    }
    return false;
  }
  std::size_t size() const { return waiting_.size(); }

 private:
  std::map<Ticket, std::function<bool()>> waiting_;
  Ticket next_ = 1;
};

}  // namespace cardtable::console
