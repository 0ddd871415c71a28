#include "time_ordered_replay.hpp"
#include "protocol/json_fields.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <tuple>

namespace cardtable::tools {
using json = nlohmann::json;

namespace {
// One table's place in its journal: the page being shown and its next event.
struct Cursor {
  std::string table;
  std::uint64_t since;  // the first seq of the next page
  json events = json::array();
  std::size_t next = 0;
  bool more = false;
  // The next event's time and seq, its place in the merge. An event without a (finite) time keeps its
  // place after the one before it in its table rather than jumping to the start of the afternoon.
  double time = -std::numeric_limits<double>::infinity();
  std::uint64_t seq = 0;
  bool ended = false;  // nothing more to show here: whole, its page failed, or the watch was stopped

  void read_head() {
    const json& e = events[next];
    if (auto t = e.find("time"); t != e.end() && t->is_number() && std::isfinite(t->get<double>())) time = t->get<double>();
    seq = protocol::seq_field(e);
  }
  // Where a watch that goes on from here starts this table: the seq of the page's next event, or of the
  // next page.
  std::uint64_t first_not_shown() const {
    for (std::size_t i = next; i < events.size(); ++i)
      if (const std::uint64_t s = protocol::seq_field(events[i])) return s;
    return since;
  }
};
}  // namespace

TimeOrderedReplay::Outcome TimeOrderedReplay::run() {
  Outcome out;
  // Stopped with a table's next event unknown: nothing more can be shown in time order.
  bool halted = false;
  // The table's next page, the one before it let go first (one page a table at once): false when the
  // table has nothing more to show here (whole, its page failed, or the watch was stopped).
  auto turn_page = [&](Cursor& c) {
    c.events = json::array();
    c.next = 0;
    while (true) {
      std::optional<json> reply;
      if (!stopped_()) reply = page_(c.table, c.since);
      if (!reply) {
        // A page awaited when the stop came fails too: it is the stop's, not the table's.
        halted = stopped_();
        (halted ? out.stopped : out.failed)[c.table] = c.since;
        c.ended = true;
        return false;
      }
      if (auto e = reply->find("events"); e != reply->end() && e->is_array()) c.events = std::move(*e);
      const auto more = reply->find("more");  // a boolean, or not more: value() throws on another type
      c.more = more != reply->end() && *more == true;
      // The next page follows this page's last event: paging from the highest seq shown of any table,
      // through a hub, skipped this table's events.
      std::uint64_t last = 0;
      for (const auto& e : c.events)
        last = std::max(last, protocol::seq_field(e));
      // A page's damaged lines are its seqs too (said by journal_losses): a page of nothing else moves on.
      if (auto u = reply->find("unreadable"); u != reply->end() && u->is_array())
        for (const auto& s : *u)
          if (s.is_number_integer() && s.get<std::int64_t>() > 0) last = std::max(last, static_cast<std::uint64_t>(s.get<std::int64_t>()));
      if (last < c.since) c.more = false;  // a page that moved on no seq: asked again, it would come again
      c.since = std::max(c.since, last + 1);
      if (!c.events.empty()) return true;
      if (!c.more) {
        c.ended = true;
        return false;
      }
    }
  };
  std::vector<Cursor> cursors;
  cursors.reserve(tables_.size());
  for (const auto& [table, since] : tables_) cursors.push_back({table, since});
  const auto later = [&](std::size_t a, std::size_t b) {
    return std::tie(cursors[a].time, cursors[a].table, cursors[a].seq) > std::tie(cursors[b].time, cursors[b].table, cursors[b].seq);
  };
  std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heads(later);
  for (std::size_t i = 0; i < cursors.size() && !halted; ++i)
    if (turn_page(cursors[i])) {
      cursors[i].read_head();
      heads.push(i);
    }
  while (!halted && !heads.empty()) {
    const std::size_t i = heads.top();
    heads.pop();
    Cursor& c = cursors[i];
    show_(c.events[c.next]);
    if (++c.next == c.events.size() && (!c.more || !turn_page(c))) {
      c.events = json::array();
      c.ended = true;
      continue;
    }
    c.read_head();
    heads.push(i);
  }
  // Halted: each table not ended goes on from its first event not shown (its page's next, or its next page).
  if (halted)
    for (const Cursor& c : cursors)
      if (!c.ended) out.stopped[c.table] = c.first_not_shown();
  return out;
}

}  // namespace cardtable::tools
