// A table's open alerts: every journalled event of severity "alert" until a director acknowledges it.
// The daemon rebuilds its book from the journal at start, so a restart forgets no open alert; an
// acknowledgement is itself a journalled event (director.ack), and a second one for the same event is
// refused, naming the first. The hub keeps one book per table from the events it forwards.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "protocol/journal.hpp"

namespace cardtable::protocol {

class AlertBook {
 public:
  // max_acks: the acknowledgements remembered, the newest (0: all -- the daemon, which refuses any second
  // ack of its journal; the hub bounds its own).
  explicit AlertBook(std::size_t max_acks = 0) : max_acks_(max_acks) {}
  // The journal as it is at start. `also` sees each of its events too, in order: a caller rebuilding
  // more of its state from them (the daemon, each reader's last device.health) reads the journal once.
  void load(const Journal& journal, const std::function<void(const nlohmann::json&)>& also = {});
  void on_published(const nlohmann::json& event);              // every journalled event, public JSON
  // Why this ack cannot be made (already acknowledged: by whom, in which event); nullopt: it can.
  std::optional<std::string> refuse_ack(std::uint64_t seq) const;
  nlohmann::json open() const;  // the open alerts, oldest first
  // The table's own list (its `alerts` reply) replaces the open alerts; events published since the
  // question was asked are then given to on_published again, in order.
  void replace_open(const nlohmann::json& alerts);
  std::size_t acks_kept() const { return acked_.size(); }
  std::size_t open_count() const { return open_.size(); }
  // The open alerts as this book held them just after event `seq` (a heartbeat's last_seq): the alerts
  // made since left out, those it held and saw acknowledged since counted again. A heartbeat sent before
  // an alert or an ack is behind the book, not the book short of an alert.
  std::size_t open_count_at(std::uint64_t seq) const;

 private:
  std::map<std::uint64_t, nlohmann::json> open_;               // seq -> the alert
  struct Ack {
    std::string by;
    std::uint64_t ack_seq = 0;
    bool was_open = false;  // the alert was in this book when acknowledged (the hub may never have seen it)
  };
  std::map<std::uint64_t, Ack> acked_;                         // seq acknowledged -> by whom
  std::deque<std::uint64_t> ack_order_;                        // acked_'s keys, oldest first (the bound)
  std::size_t max_acks_ = 0;
};

}  // namespace cardtable::protocol
