// The hub's loop: XSUB from the tables, XPUB to subscribers, a ROUTER for late joiners, and the ZAP
// handler. A table key speaks for one table only: its place under clients/table/ names it
// (table/TOURNAMENT/SECTION/TABLE.pub), and a message whose topic names another table is dropped and
// logged.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <zmq.hpp>

#include "claim_judge.hpp"
#include "kept_board.hpp"
#include "protocol/alert_book.hpp"
#include "protocol/log_budget.hpp"
#include "protocol/zap_authenticator.hpp"

namespace cardtable::hub {

struct HubStartupError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct HubOptions {
  std::string upstream = "tcp://127.0.0.1:5560", downstream = "tcp://127.0.0.1:5561", control = "tcp://127.0.0.1:5562";
  std::string curve_secret, clients;
  bool plaintext = false;
  // "tournament/section/table" -> that table's control endpoint ("tcp://10.0.0.11:5552"): the hub asks it
  // for the table's open alerts (`alerts`), so its list holds alerts made before the hub saw them, and for
  // its `snapshot`, so that a board begun before the hub heard the table is held from its first event.
  std::map<std::string, std::string> table_control;
  // Seconds without a word from a table (a heartbeat or an event) before the hub calls it silent: its
  // daemon killed, its machine off, its network cut. Its alerts stay listed; a director is told it is gone.
  double silent_after = 15;
};

// Acknowledgements the hub remembers per table (the newest): enough to tell an acknowledged alert from
// an open one among the events it keeps, bounded whatever the session's length.
constexpr std::size_t kAcksKeptPerTable = 1000;
// Alerts of a replaced journal kept per table for the alerts reply (the newest).
constexpr std::size_t kReplacedKeptPerTable = 100;
// Events of the board in progress kept per table for the snapshot (the newest).
constexpr std::size_t kKeptPerTable = 500;
// Events forwarded while a table's snapshot question is out, remembered to be laid over its answer: past
// that (500 a second for the 10 s it may take), the answer is given up and the table asked again.
constexpr std::size_t kHeardWhileAskingPerTable = 5000;
// Questions for a table's snapshot that get no usable answer before the hub keeps only what it hears.
constexpr int kSnapshotTries = 6;

// The table keys: clients/table/T/S/N.pub speaks for table "T/S/N"; throws naming the bad file.
std::map<std::string, protocol::ClientKey> read_table_keys(const std::string& clients);

class Hub {
 public:
  explicit Hub(const HubOptions& o);  // throws HubStartupError
  int run();
  // One control request answered (the reply's JSON text); never throws.
  std::string answer(std::string_view frame) noexcept;
  // Whether a message with this topic from a client with this User-Id may pass upstream -> downstream.
  static bool may_publish(const std::string& user_id, const std::string& topic, bool curve);

 private:
  void forward_upstream();
  void drop(const std::string& why);  // counted, and logged within the log budget
  std::string snapshot() const;
  nlohmann::json dispatch(const std::string& command);
  struct TableState {
    KeptBoard board{kKeptPerTable, kHeardWhileAskingPerTable};  // the board in progress, for the snapshot
    nlohmann::json last_heartbeat;
    protocol::AlertBook alerts{kAcksKeptPerTable};  // the table's own list when asked, then the events forwarded
    // Asking the table's control endpoint for its open alerts (HubOptions::table_control).
    std::unique_ptr<zmq::socket_t> control;
    bool asking = false, asked_ever = false;
    std::chrono::steady_clock::time_point asked_at;
    std::vector<nlohmann::json> since_asked;  // journalled events forwarded while the question was out
    // Asking the table's control endpoint for its own snapshot once the hub follows its journal (its
    // first word, or a replaced journal): the board in progress may have begun before the hub heard it.
    // A socket of its own: the table answers journal reads from another thread, in any order with alerts.
    std::unique_ptr<zmq::socket_t> snapshot_control;
    enum class Seed { Unasked, Asking, Done } seed = Seed::Unasked;
    int seed_tries = 0;  // questions given up, kSnapshotTries at most
    std::chrono::steady_clock::time_point seed_asked_at;
    bool seed_asked_ever = false;
    // What the seqs it claims (heartbeats, events) mean for `missed` (claim_judge.hpp); asks the table's
    // snapshot when the hub does (HubOptions::table_control).
    ClaimJudge claims;
    std::uint64_t missing_until = 0;  // the newest seq found missing while a snapshot question was out
    // The identity of the table's journal (protocol 1.4; empty: an older daemon). Another one means the
    // journal started again at seq 1: the book of the old one is closed (see replace_journal).
    std::string journal;
    std::set<std::string> replaced_journals;
    std::deque<nlohmann::json> replaced;  // alerts open when their journal was replaced (the newest kept)
    std::chrono::steady_clock::time_point last_heard;  // its last message (heartbeat or event)
    bool silent = false;                               // said silent in the log, until heard again
    double heartbeat_every = 0;                        // the period its heartbeats say (protocol 1.7); 0: not said
  };
  // Tables not heard for silent_after: logged once when they fall silent (and when heard again).
  void check_silent();
  bool is_silent(const TableState& t, std::chrono::steady_clock::time_point now) const;
  // The table's journal replaced: its old open alerts leave the book with a logged reason and are kept as
  // "replaced" (the table numbers other events with their seqs now); the book and the board start again.
  void replace_journal(const std::string& name, TableState& t, const std::string& journal);
  // A DEALER to the table's control endpoint (with CURVE, as the hub to that table's key); throws zmq::error_t.
  std::unique_ptr<zmq::socket_t> open_control(const std::string& name, const std::string& endpoint);
  void maybe_ask_alerts(const std::string& name, TableState& t);
  void maybe_ask_snapshot(const std::string& name, TableState& t);
  void take_snapshot_reply(const std::string& name, TableState& t);
  void snapshot_failed(const std::string& name, TableState& t, const std::string& why);
  // Seq `seq` heard from the table: an event's own (through_heartbeat false) or a heartbeat's last_seq,
  // judged by its ClaimJudge; what it decides is said, counted and asked here.
  void heard_seq(const std::string& name, TableState& t, std::uint64_t seq, bool through_heartbeat);
  // The table's snapshot answered `answered` as its last seq: what its ClaimJudge disowns is said and
  // taken back from `missed`.
  void disown_claim(const std::string& name, TableState& t, std::uint64_t answered);
  // The table's snapshot asked for again (--table-control) because its journal may hold seqs up to `to`
  // that the hub has not heard; a question out is answered again if its answer comes short of `to`.
  void ask_snapshot_again(TableState& t, std::uint64_t to);
  // Events #from to #to of the table's journal never reached the hub: said, counted, and its snapshot
  // asked for again (--table-control), so that its kept board in progress is whole.
  void events_missed(const std::string& name, TableState& t, std::uint64_t from, std::uint64_t to);
  // Each round: snapshot questions due (a retry, a gap found) or overdue, whatever the tables send.
  void follow_snapshots();
  void take_alerts_reply(const std::string& name, TableState& t);
  nlohmann::json alerts() const;
  nlohmann::json controls() const;  // status's "controls": table -> its control endpoint and key
  zmq::context_t ctx_;
  std::unique_ptr<protocol::ZapAuthenticator> zap_;
  zmq::socket_t xsub_, xpub_, ctl_;
  int signal_fd_ = -1;
  protocol::LogBudget drop_log_{20};
  std::map<std::string, TableState> tables_;  // "tournament/section/table" -> state
  std::map<std::string, std::string> table_control_, table_keys_;  // table -> control endpoint, its public key
  std::map<std::string, std::string> bound_;  // "upstream" -> the address bound (an ephemeral port read back)
  std::string public_key_, secret_key_;  // the hub's own: a CURVE client of the tables' control endpoints
  std::uint64_t forwarded_ = 0, dropped_ = 0, stale_ = 0;
  std::uint64_t missed_ = 0;  // journalled events that never reached the hub, found by their seqs
  protocol::LogBudget gap_log_{20};
  bool curve_ = false;
  double silent_after_ = 15;  // HubOptions::silent_after
};

}  // namespace cardtable::hub
