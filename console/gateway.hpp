// The gateway: HTTP(S) for browsers on one side (Boost.Beast, one I/O thread), the venue's state and the
// tables' control endpoints on the other. It routes each request (login, the page, the live streams, an
// acknowledgement) by the session's role, and fans every event out to the streams of the roles that may
// see it.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/http.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "gap_replays.hpp"
#include "logins.hpp"
#include "table_requests.hpp"
#include "venue_state.hpp"

namespace cardtable::console {

namespace http = boost::beast::http;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

// A connection as the router sees it: it can answer once, or become an event stream.
class Responder {
 public:
  virtual ~Responder() = default;
  virtual void respond(Response response) = 0;
  virtual void start_stream(const std::string& role, std::string first_message) = 0;
  virtual void push(const std::shared_ptr<const std::string>& message) = 0;  // once a stream
  virtual void end_stream() = 0;  // the login behind the stream ended (logout, expiry): closes it
  virtual const std::string& client_address() const = 0;
  virtual bool secure() const = 0;
};

struct GatewayLimits {
  // Beyond this a newcomer closes the connection waiting longest for a request (waiting_connections.hpp),
  // or is closed at once when none waits.
  std::size_t max_connections = 512;
  // From one client address: one machine on the venue's network (slowloris, a connection flood) cannot
  // take every connection and shut the directors out. A browser opens 6 to a host.
  std::size_t max_connections_per_address = 32;
  std::size_t max_streams = 64;           // open event streams (pages)
  std::size_t max_header_bytes = 8192;    // a bigger request head gets 431
  std::size_t max_body_bytes = 16384;     // a bigger body gets 413
  std::size_t max_stream_backlog = 4u << 20;  // a page that does not read this much is dropped (it reconnects)
  std::chrono::seconds read_timeout{15};  // a request must arrive whole within this (slowloris)
  std::chrono::seconds write_timeout{30};
  // A failed replay of a table's missing seqs is asked again this many times, after this wait, doubled
  // each time (GapReplays: 2 s, 4 s, 8 s), then given up and counted as missed on the tile.
  unsigned replay_retries = GapReplays::kRetries;
  std::chrono::milliseconds replay_retry_wait = GapReplays::kFirstWait;
  // A gap given up is asked again, one try at a time, this long after it was given up (GapReplays::kGivenUpWait:
  // a minute).
  std::chrono::milliseconds replay_given_up_wait = GapReplays::kGivenUpWait;
};

class Gateway {
 public:
  Gateway(boost::asio::io_context& io, VenueState& venue, Logins logins, TableRequests& requests,
          std::map<std::string, Peer> table_control, std::filesystem::path www, GatewayLimits limits = {},
          std::map<std::string, Peer> live_replay = {});
  ~Gateway();
  Gateway(const Gateway&) = delete;
  Gateway& operator=(const Gateway&) = delete;

  const GatewayLimits& limits() const { return limits_; }
  // Routes one request; answers now or later through the responder (kept alive by the shared_ptr).
  void route(Request request, const std::shared_ptr<Responder>& responder);
  // An event from the wire, on the I/O thread.
  void on_event(const nlohmann::json& event, bool live);
  // Once a second: tables gone silent, keep-alives; every kLivePollTicks, the released hands of each table
  // heard lately that the live stream did not bring (boards released while it was reconnecting).
  void tick();
  // The count of logins refused as busy and not logged one by one, once their window is over (at once
  // when closing); the caller's tick, and shutdown.
  void say_held_refusals(bool closing) { logins_.say_held_refusals(closing); }
  // The hands already released at every table (a console that starts late), from its control endpoint.
  void catch_up_live();
  static constexpr unsigned kLivePollTicks = 60;

  void stream_opened(const std::shared_ptr<Responder>& r, const std::string& role);
  void stream_closed(Responder* r);
  // Open streams of a role: each role has --max-streams of its own, so that one broadcaster login
  // opening pages cannot shut every director out.
  std::size_t open_streams(const std::string& role);
  // Adds the security headers every response carries.
  static void secure_headers(Response& r, bool tls);

 private:
  Response reply(const Request& req, http::status status, nlohmann::json body) const;
  Response static_file(const Request& req) const;
  static void head_only(const Request& req, Response& r);
  std::optional<Session> session_of(const Request& req);
  void broadcast(const std::string& role, const std::string& event, const nlohmann::json& data);
  void apply(const nlohmann::json& event, bool live);
  // The two journals a table's seqs are replayed from, each with its own GapReplays: the events'
  // (`replay`, director key: table_control_) and the live one (`replay-live`, broadcaster key: live_replay_).
  enum class Stream { events, live };
  GapReplays& replays(Stream stream);
  const std::map<std::string, Peer>& peers(Stream stream) const;  // the tables each stream is replayed from, and how
  std::string journal_now(Stream stream, const std::string& table) const;
  // Seqs since..until-1 of the table's journal now are missing: replayed now, or after the replay running.
  void replay_gap(const std::string& table, std::uint64_t since, std::uint64_t until);
  void queue_replay(Stream stream, const std::string& table, const GapReplays::Gap& gap);
  void start_next_replay(Stream stream, const std::string& table);
  void send_replay(Stream stream, const std::string& table, const GapReplays::Gap& gap);
  // Asked again after GapReplays' wait, or given up: said, and its seqs counted as missed on the tile;
  // then asked again quietly replay_given_up_wait after each give-up while it is missing.
  void replay_failed(Stream stream, const std::string& table, const GapReplays::Gap& gap, const std::string& why);
  void retry_given_up_later(Stream stream, const std::string& table);
  // Seqs first..last lost for good: said once (the log) and counted on the tile, never dropped silently.
  void say_missed(Stream stream, const std::string& table, std::uint64_t first, std::uint64_t last, const std::string& why);
  std::vector<SeqRanges::Range> mark_missed(Stream stream, const std::string& table, std::uint64_t first, std::uint64_t last);
  // Seqs a replay brought: those counted as missed before (a gap given up, replayed once the table answered
  // again) leave the tile's count, and the log says so, as it said them missed.
  void say_recovered(Stream stream, const std::string& table, const std::vector<std::uint64_t>& seqs);
  // Seqs a replay's answer names `unreadable` (damaged in the table's journal): said once and counted as missed.
  void say_damaged(Stream stream, const std::string& table, const std::string& journal, const std::vector<std::uint64_t>& seqs);
  static std::string seqs_of(Stream stream, const GapReplays::Gap& gap);  // "events 4 to 9", for the log
  // What of the gap an answer (its events first..last within the gap, 0 for none) leaves out for good
  // (rotated away, cut short, damaged: its `unreadable`), or its rest asked next when it has `more`.
  void say_left_out(Stream stream, const std::string& table, const GapReplays::Gap& gap, const nlohmann::json& reply, std::uint64_t first,
                    std::uint64_t last);
  void apply_replay(const std::string& table, const GapReplays::Gap& gap, const nlohmann::json& reply);
  void apply_live_replay(const std::string& table, const GapReplays::Gap& gap, const nlohmann::json& reply);
  void show_replayed(const std::string& table, const nlohmann::json& event, double now);  // to every director page
  void replay_live_from(const std::string& table, std::uint64_t since);  // every live seq from `since`
  void fetch_trick_count(const std::string& table, std::uint64_t seq);
  void fetch_open_alerts(const std::string& table);
  void dismiss_replaced(const Request& req, const Session& session, const std::shared_ptr<Responder>& r);

  boost::asio::io_context& io_;
  VenueState& venue_;
  Logins logins_;
  TableRequests& requests_;
  std::map<std::string, Peer> table_control_;
  std::map<std::string, Peer> live_replay_;  // a table's control endpoint, with the broadcaster key: replay-live
  std::map<std::string, std::pair<std::string, std::string>> files_;  // path -> content type, body
  GatewayLimits limits_;
  boost::asio::thread_pool control_pool_{2};  // control requests wait on tables, never on the I/O thread
  struct OpenStream {
    std::weak_ptr<Responder> responder;
    std::string role;
    std::string token;  // the session it was opened with: its logout or expiry ends the stream
  };
  std::map<Responder*, OpenStream> streams_;
  void end_streams_without_session();
  void start_stream(const std::shared_ptr<Responder>& r, const std::string& role, const std::string& token, std::string first);
  // Per table: the replay in flight (or waiting to be asked again), and the gaps seen meanwhile.
  GapReplays gap_replays_, live_replays_;
  std::map<std::string, boost::asio::steady_timer> retry_timers_;  // "replay TABLE", "replay-live TABLE": a failed replay's wait
  std::map<std::string, boost::asio::steady_timer> given_up_timers_;  // the same keys: the wait before the gaps given up are asked again
  std::set<std::string> alerts_asked_;  // tables first heard with a history, whose open alerts were asked for
  unsigned ticks_ = 0;
  std::uint64_t rejected_ = 0, trick_errors_ = 0, stale_ = 0;
};

}  // namespace cardtable::console
