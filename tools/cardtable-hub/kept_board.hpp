// One table's board in progress as the hub keeps it for late joiners (the hub's `snapshot`,
// docs/protocol.md): the events it forwards, cut by the table's own rule (protocol/board_span.hpp), and,
// for a table whose board began before the hub heard it, seeded from the table's own `snapshot` reply.
// A hub started or restarted mid-board held nothing of that board until the next one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/board_span.hpp"

namespace cardtable::hub {

class KeptBoard {
 public:
  // At most `limit` events (the newest); at most `heard_limit` remembered while a snapshot question is out.
  KeptBoard(std::size_t limit, std::size_t heard_limit) : limit_(limit), heard_limit_(heard_limit) {}
  // A journalled event forwarded: its seq, its type ("board.arrived") and its body as it came.
  void on_event(std::uint64_t seq, std::string_view type, std::string body);
  // The table was asked for its snapshot: what is forwarded until the answer is laid over it.
  void asked();
  // The question given up (no answer, or the answer refused): nothing more is remembered for it.
  void given_up();
  // Whether more events came while the question was out than are remembered: its answer cannot be
  // joined to them without a gap; ask again.
  bool overflowed() const { return overflowed_; }
  // The table's answer: its board in progress up to `last_seq` (its own snapshot's events), then the
  // events forwarded since the question that are newer. Each event once, none missing, by seq.
  void seed(const nlohmann::json& events, std::uint64_t last_seq);
  // The table's journal replaced: its new journal's board begins at its own first event.
  void clear();
  const std::deque<std::string>& events() const { return events_; }

 private:
  void keep(std::string_view type, std::string body);
  struct Heard {
    std::uint64_t seq;
    std::string type, body;
  };
  std::size_t limit_, heard_limit_;
  std::deque<std::string> events_;
  protocol::BoardSpan board_;
  bool asking_ = false, overflowed_ = false;
  std::vector<Heard> since_asked_;
};

}  // namespace cardtable::hub
