// A table's gap filled from its own journal without holding back the events of the other tables: watch
// waited for each page of a replay (up to 3 s, 5,000 events a page) before it read another event, so a
// big gap of one table froze every table's alerts on a director's screen for as long as the replay took.
// Now each table's replay asks one page at a time on a socket of its own, polled with the events; the live
// events of a table being replayed are held and shown after it, in seq order.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <zmq.hpp>

#include "table_controls.hpp"

namespace cardtable::tools {

class GapReplays {
 public:
  using Clock = std::chrono::steady_clock;
  // A page not answered within this is given up, and the table's replay with it.
  static constexpr auto kPageWithin = std::chrono::seconds(3);
  // A replay that ended: `failure` the reason when it stopped before the journal's end (the seqs from
  // `first_missing` to `wanted_to` not shown); `held` the table's live events that came meanwhile, oldest first.
  struct Ended {
    std::string table;
    std::optional<std::string> failure;
    std::uint64_t first_missing = 0, wanted_to = 0;
    std::vector<nlohmann::json> held;
  };

  // `command`: replay or replay-live; `secure` sets CURVE on a socket for a table's key.
  GapReplays(zmq::context_t& ctx, std::string command, TableControls::Secure secure);
  // Asks `from` for `table`'s events from seq `since` (the gap is up to `wanted_to`, for the failure's words).
  void start(const std::string& table, std::uint64_t since, std::uint64_t wanted_to, const TableControl& from, Clock::time_point now);
  bool replaying(const std::string& table) const { return replays_.count(table) > 0; }
  void hold(const std::string& table, nlohmann::json e) { replays_.at(table).held.push_back(std::move(e)); }
  // The sockets a page is awaited on, to poll; take() reads them in this order.
  std::vector<zmq::pollitem_t> poll_items() const;
  // One page of a table's journal asked for from `since`: the whole `replay` reply (its events, oldest
  // first, and what it says the journal no longer holds).
  using Page = std::function<void(const std::string& table, const nlohmann::json& reply, std::uint64_t since)>;
  // After a poll of poll_items(): each page that came goes to `page`, and the next one is asked for; the
  // replays that ended (the journal's end, a refusal, no answer in time).
  std::vector<Ended> take(const zmq::pollitem_t* polled, Clock::time_point now, const Page& page);
  // Every replay still running, ended for `why` (watch stops): their held events are not lost.
  std::vector<Ended> abandon(const std::string& why);

 private:
  struct Replay {
    TableControl from;
    std::unique_ptr<zmq::socket_t> socket;
    std::uint64_t since = 0, wanted_to = 0;
    Clock::time_point asked_at;
    std::vector<nlohmann::json> held;
  };
  // Sends the question for the page from r.since; the reason when it cannot.
  std::optional<std::string> ask(Replay& r, Clock::time_point now);
  zmq::context_t& ctx_;
  std::string command_;
  TableControls::Secure secure_;
  std::map<std::string, Replay> replays_;
};

}  // namespace cardtable::tools
