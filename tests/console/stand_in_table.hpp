// A stand-in table for the console's gap replay tests: its control endpoint is a ROUTER on an ipc socket
// that holds each request (`replay`, `replay-live`) until the test answers it (a table reading a long
// journal from a slow disk, or not answering at all), and a Console whose Gateway asks it over a real
// ZeroMQ socket, its completions run on the test's I/O loop. The table's events and its journal as the
// daemon holds them are made here too.
#pragma once

#include "console/gateway.hpp"
#include "tests/console/console_folder.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <zmq_addon.hpp>

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

namespace cardtable::console::stand_in {

namespace net = boost::asio;
using json = nlohmann::json;
using namespace std::chrono_literals;

inline const std::string kTable = "t/A/7", kOld = "aaaaaaaaaaaaaaaa", kNew = "bbbbbbbbbbbbbbbb";

inline json event(const std::string& journal, const std::string& type, std::uint64_t seq, const std::string& severity = "info", json evidence = nullptr) {
  json e = {{"seq", seq}, {"class", type.substr(0, type.find('.'))}, {"type", type}, {"severity", severity}, {"time", 1000.0},
            {"mono", 0.0}, {"message", type}, {"tournament", "t"}, {"section", "A"}, {"table", "7"}, {"board", 3}, {"journal", journal}};
  if (!evidence.is_null()) e["evidence"] = evidence;
  if (type == "daemon.heartbeat") e.erase("seq");
  return e;
}

inline json heartbeat(const std::string& journal, std::uint64_t last_seq) {
  return event(journal, "daemon.heartbeat", 0, "info", {{"last_seq", std::to_string(last_seq)}});
}

// The table's journal as its daemon holds it: every event from seq 1, an alert (a card short) at `alert`.
inline std::vector<json> journal_of(const std::string& journal, std::uint64_t last, std::uint64_t alert) {
  std::vector<json> events;
  for (std::uint64_t seq = 1; seq <= last; ++seq)
    events.push_back(seq == alert ? event(journal, "irregularity.wrong_count", seq, "alert", {{"observed", "N=12"}})
                                  : event(journal, "board.progress", seq));
  return events;
}

// The table's live journal (embargoed hands, released): a card of board 3 at every seq from 1.
inline std::vector<json> live_journal_of(const std::string& journal, std::uint64_t last) {
  std::vector<json> events;
  for (std::uint64_t seq = 1; seq <= last; ++seq)
    events.push_back({{"seq", seq}, {"class", "live"}, {"type", "live.card"}, {"severity", "info"}, {"time", 1000.0}, {"tournament", "t"},
                      {"section", "A"}, {"table", "7"}, {"session", "s1"}, {"board", 3}, {"seats", {"N"}},
                      {"evidence", {{"card", "S" + std::to_string(seq)}, {"trick", "1"}}}, {"journal", journal}});
  return events;
}

// The table's control endpoint: a request waits until the test answers it.
struct StandInTable {
  explicit StandInTable(const std::string& endpoint) { router.bind(endpoint); }

  struct Asked {
    std::vector<zmq::message_t> envelope;  // the client's identity and the empty delimiter
    json request;
  };

  // The next request the console sends, its I/O thread run meanwhile; nothing within `within`.
  std::optional<Asked> next_request(net::io_context& io, std::chrono::milliseconds within) {
    for (auto end = std::chrono::steady_clock::now() + within; std::chrono::steady_clock::now() < end;) {
      io.poll();
      zmq::pollitem_t item{router.handle(), 0, ZMQ_POLLIN, 0};
      if (zmq::poll(&item, 1, 10ms) == 0) continue;
      std::vector<zmq::message_t> parts;
      if (!zmq::recv_multipart(router, std::back_inserter(parts))) continue;
      Asked asked{{}, json::parse(parts.back().to_string_view())};
      parts.pop_back();
      asked.envelope = std::move(parts);
      return asked;
    }
    return std::nullopt;
  }

  // A replay answered as the daemon does: every event of its journal from `since` on.
  void answer_replay(Asked& asked, const std::vector<json>& journal) {
    json events = json::array();
    for (const json& e : journal)
      if (e["seq"].get<std::uint64_t>() >= asked.request["since"].get<std::uint64_t>()) events.push_back(e);
    const std::string journal_id = journal.empty() ? std::string() : journal.front()["journal"].get<std::string>();
    answer(asked, {{"ok", true}, {"events", events}, {"more", false}, {"first_available", 1}, {"journal", journal_id}});
  }

  // A page of a journal that rotated: `first_available` is where it starts now, `events` what it gives.
  void answer_page(Asked& asked, const std::vector<json>& events, bool more, std::uint64_t first_available) {
    answer(asked, {{"ok", true}, {"events", events}, {"more", more}, {"first_available", first_available}, {"journal", kOld}});
  }

  // Every try of the replay from `since` refused (a busy journal reader), its retries too; false when one
  // was never asked.
  bool refuse_every_try(net::io_context& io, std::uint64_t since, unsigned tries) {
    for (unsigned attempt = 1; attempt <= tries; ++attempt) {
      auto asked = next_request(io, 2s);
      if (!asked || asked->request.value("since", std::uint64_t{0}) != since) return false;
      answer(*asked, {{"ok", false}, {"error", "refused: busy"}});
    }
    return true;
  }

  void answer(Asked& asked, const json& reply) {
    for (auto& part : asked.envelope) router.send(part, zmq::send_flags::sndmore);
    router.send(zmq::buffer(reply.dump()), zmq::send_flags::none);
  }

  zmq::context_t ctx;
  zmq::socket_t router{ctx, zmq::socket_type::router};
};

struct Console {
  // The table's control endpoint serves both replays (`replay` and `replay-live`), as a daemon's does.
  explicit Console(GatewayLimits limits = {})
      : folder(std::filesystem::temp_directory_path() / ("gap-replay-queue-" + std::to_string(::getpid()))),
        table(control_endpoint(folder)),
        gateway(io, venue, test_folder::one_director_logins(folder), requests, {{kTable, Peer{control_endpoint(folder), "", nullptr}}},
                test_folder::one_page_www(folder), limits, {{kTable, Peer{control_endpoint(folder), "", nullptr}}}) {}
  ~Console() { std::filesystem::remove_all(folder); }

  static std::string control_endpoint(const std::filesystem::path& folder) {
    std::filesystem::create_directories(folder);
    return "ipc://" + (folder / "control").string();
  }

  void hear(const json& e) { gateway.on_event(e, false); }
  void hear_live(const json& e) { gateway.on_event(e, true); }
  // Hears `before`, then `after` past a gap: the replay the console asks for it.
  std::optional<StandInTable::Asked> hear_gap(const json& before, const json& after, bool live = false) {
    gateway.on_event(before, live);
    gateway.on_event(after, live);
    return table.next_request(io, 2s);
  }
  // What the table's tile says (its missed counts).
  json tile() const { return venue.tile(kTable, 1000); }

  // Runs the console's I/O thread until `done` holds (a replay's answer is handled there).
  bool run_until(const std::function<bool()>& done) {
    for (auto end = std::chrono::steady_clock::now() + 3s; std::chrono::steady_clock::now() < end;) {
      if (done()) return true;
      io.run_one_for(10ms);
    }
    return done();
  }

  // The open alert (not one of a replaced journal) of journal `journal` at `seq`.
  bool shows_open_alert(const std::string& journal, std::uint64_t seq) {
    const json snapshot = venue.director_snapshot(1000);  // held: a range over a temporary's member dangles
    for (const json& a : snapshot["alerts"])
      if (a.value("journal", "") == journal && a.value("seq", std::uint64_t{0}) == seq && !a.value("replaced", false)) return true;
    return false;
  }

  // How often the table's timeline shows the event `seq` of `journal`.
  std::size_t shown(const std::string& journal, std::uint64_t seq) {
    std::size_t n = 0;
    const json detail = venue.table_detail(kTable, 1000);
    for (const json& e : detail["timeline"])
      n += e.value("journal", "") == journal && e.value("seq", std::uint64_t{0}) == seq;
    return n;
  }

  std::filesystem::path folder;
  net::io_context io{1};
  // The loop waits for the replies the control pool posts to it: without work it would stop at once.
  net::executor_work_guard<net::io_context::executor_type> keep_running{io.get_executor()};
  VenueState venue;
  TableRequests requests;
  StandInTable table;
  Gateway gateway;
};

inline std::uint64_t since_of(const StandInTable::Asked& asked) { return asked.request.value("since", std::uint64_t{0}); }

}  // namespace cardtable::console::stand_in
