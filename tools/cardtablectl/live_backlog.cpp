#include "live_backlog.hpp"

#include <iterator>
#include <utility>
#include <vector>

#include <zmq_addon.hpp>

namespace cardtable::tools {

void LiveBacklog::read() {
  while (true) {
    std::vector<zmq::message_t> frames;
    try {
      if (!zmq::recv_multipart(subscriber_, std::back_inserter(frames), zmq::recv_flags::dontwait)) return;
    } catch (const zmq::error_t&) {
      return;  // interrupted (a stop signal): the caller reads again
    }
    if (frames.size() != 2) continue;  // topic and body: another shape is no event
    if (held_.size() < kLimit)
      held_.emplace_back(frames[1].to_string_view());
    else
      ++let_go_;
  }
}

bool LiveBacklog::take(std::string& body) {
  if (held_.empty()) return false;
  body = std::move(held_.front());
  held_.pop_front();
  return true;
}

std::size_t LiveBacklog::take_let_go() { return std::exchange(let_go_, 0); }

}  // namespace cardtable::tools
