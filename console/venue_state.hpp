// The venue as the console shows it: every table's board, phase, time on the board, devices and open
// alerts, folded from the events the tables publish. Two views leave it: the director's (no deal, no
// play, ever) and the broadcaster's (finished boards' hands, from the embargoed live.* events).
// Single-threaded: the gateway's I/O thread owns it.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "seq_ranges.hpp"

namespace cardtable::console {

struct TableView {
  std::string id;               // "tournament/section/table", as topics name it
  std::string phase = "idle";   // idle, ready (board on the table), auction, play, done
  int board = 0;
  std::string board_name;
  double board_since = 0;       // wall time the board arrived
  double board_ended = 0;       // wall time it was returned (0 while in progress)
  int tricks = 0;               // tricks played on the board (public: board.trick, board.returned)
  // Tricks won by each side: director-only detail of board.trick (the daemon's `evidence` reply), -1
  // until known. trick_seq: the board.trick they came from, so that a late reply never undoes a newer one.
  int tricks_ns = -1, tricks_ew = -1;
  std::uint64_t trick_seq = 0;
  // The period its heartbeats say (protocol 1.7; 0 until one has): a table beating every 30 s is lost
  // after three of them, not after --lost-after's 15 s, when it showed lost between every two.
  double heartbeat_every = 0;
  std::uint64_t last_seq = 0;
  // The identity of the journal the table's seqs belong to (protocol 1.4; empty: an older daemon, or not
  // heard yet). Another one means the table's journal started again at seq 1 (a state folder wiped, a
  // spare computer at the table): its seqs are new events, and the seq state here starts again.
  std::string journal;
  bool seqs_restarted = false;  // the journal was replaced and nothing of the new one is applied yet: a gap from 1
  std::set<std::string> replaced_journals;  // events still coming from these are stale (never applied)
  // Alerts open when their journal was replaced: the table can no longer acknowledge them (its seqs are
  // other events now), so they are shown as the replaced journal's, never dropped without a word.
  std::deque<nlohmann::json> replaced_alerts;
  // Events the console knows it missed and could not fetch (no control endpoint to replay from, a replay
  // given up after its retries, seqs rotated out of the table's journal or damaged in it), each seq once
  // (each heartbeat shows a gap again); one replayed later after all leaves the count. live_missed: the
  // same of the live journal (released hands a broadcaster's page lacks), whose seqs are their own.
  SeqRanges missed, live_missed;
  double last_heard = 0;        // wall time of the last message from the table (heartbeats included)
  double awaited_since = 0;     // a table named in the config: wall time the console began to wait for it
  std::map<std::string, std::string> devices;  // device or zone -> "ok", "uncertain", "lost"
  std::map<std::uint64_t, nlohmann::json> open_alerts;  // seq -> the alert (director view)
  // The seqs director.ack closed (the newest kAcksKept): an alert missed and replayed after its ack was
  // heard (both in a gap, the ack the event that showed it) stayed open for good, its Acknowledge refused.
  std::set<std::uint64_t> acked;
  std::deque<nlohmann::json> timeline;          // the last events (director view)
  std::deque<nlohmann::json> history;           // finished boards: board, seconds, slow
  // Broadcaster side: boards whose live.* events were released (after the embargo).
  std::map<std::string, nlohmann::json> live_boards;  // "session/board" -> {deal, dealer, tricks[], dd}
  // The live seqs applied (the newest kLiveSeqsKept): the stream and a replay of the live journal carry
  // the same events, and each is applied once. live_deal_seq: a board's newest play (its live.deal's
  // seq); the events of an older play of the same board (a board replayed) are not merged into it.
  std::set<std::uint64_t> live_seen;
  std::uint64_t live_last_seq = 0;
  std::map<std::string, std::uint64_t> live_deal_seq;
  std::string live_journal;  // the live journal's identity: another one starts the live seqs again
  std::set<std::string> replaced_live_journals;
};

// A table's journal replaced (VenueState::note_journal): for the caller's log.
struct JournalChange {
  std::string table, from, to;
  std::size_t alerts_replaced = 0;  // open alerts of the old journal, now shown as replaced
};

class VenueState {
 public:
  explicit VenueState(double allowance_s = 450, double lost_after_s = 15) : allowance_s_(allowance_s), lost_after_s_(lost_after_s) {}

  // Whether this message is the first seq the console hears from its table and shows events before it
  // (a seq past 1, a heartbeat's last_seq past 0): alerts may be open that no gap check can see.
  bool shows_unseen_history(const nlohmann::json& event) const;
  // Called with every event of the events endpoint (and every reply's journal) before anything else: when
  // it names another journal than the table's, the table's seq state starts again (last seq, missed
  // counts), its open alerts become replaced alerts (shown, not acknowledgeable), and the change is
  // returned for the log. Nothing when the event names no journal, the known one, or one replaced before.
  std::optional<JournalChange> note_journal(const nlohmann::json& event);
  // Whether the event comes from a journal the table has replaced (a stale reply; two daemons publishing
  // for one table): such an event is never applied.
  bool from_replaced_journal(const nlohmann::json& event) const;
  // The identity of the table's journal now (empty: unknown), and whether one was ever replaced here.
  std::string journal_of(const std::string& table) const;
  bool journal_replaced(const std::string& table) const;
  // Whether the event names no journal, or the table's (a reply of a journal not heard yet is not).
  bool of_current_journal(const nlohmann::json& event) const;
  std::string live_journal_of(const std::string& table) const;
  static constexpr std::size_t kReplacedAlertsKept = 200;
  // A director dismisses alerts of a replaced journal once handled by hand (the table cannot acknowledge
  // them, and they stayed until the console restarted): the one of `journal` and `seq`, or with seq 0
  // every one of the table (of `journal` only, when given). Returns the dismissed ({table, journal, seq}
  // each, for the pages); the table's timeline says who dismissed how many.
  nlohmann::json dismiss_replaced(const std::string& table, const std::string& journal, std::uint64_t seq, const std::string& by, double now);
  // An event from the events endpoint (hub). Returns the tables whose tile changed (empty: nothing did).
  // Events of class live, and play.* events, never enter the director's state.
  bool apply_event(const nlohmann::json& event, double now);
  // An event the table replayed to close a gap: older than what the tile shows, so it only opens or
  // closes alerts and joins the timeline.
  void apply_replayed(const nlohmann::json& event);
  // Whether the table shows the alert `seq` open (false once acknowledged, even if it came after its ack).
  bool alert_open(const std::string& table, std::uint64_t seq) const;
  // An event a director must see to (alert severity; a warning of an irregularity or of timing).
  static bool is_alert(const nlohmann::json& view);
  // Whether a reading.uncertain of this cause leaves its zone unread until a reading.resumed.
  static bool zone_goes_unread(const std::string& cause);
  static constexpr std::size_t kAcksKept = 1000;
  // The first seq missing at a table, when this event (or a heartbeat's last_seq) shows a gap; 0 if none.
  std::uint64_t gap_before(const nlohmann::json& event) const;
  // The last seq the table had published before this message: the event's seq - 1, a heartbeat's last_seq.
  static std::uint64_t published_before(const nlohmann::json& event);
  // Seqs first..last missed (nothing to replay them from, their replay given up, damaged): counted on the
  // tile. Returns the pieces not counted before (none when all were), so that the caller says each once.
  std::vector<SeqRanges::Range> mark_missed(const std::string& id, std::uint64_t first, std::uint64_t last);
  // Seqs first..last replayed after all: those counted as missed leave the count; returns how many did.
  std::uint64_t mark_recovered(const std::string& id, std::uint64_t first, std::uint64_t last);
  // The same of the table's live journal.
  std::vector<SeqRanges::Range> mark_live_missed(const std::string& id, std::uint64_t first, std::uint64_t last);
  std::uint64_t mark_live_recovered(const std::string& id, std::uint64_t first, std::uint64_t last);
  // A live.* event (broadcaster endpoint): the released hand and play of a finished board.
  bool apply_live(const nlohmann::json& event);
  // The first live seq missing at a table when this live event shows a gap (the live subscription
  // reconnecting while boards were released); 0 if none, or if no live event was heard from it yet.
  std::uint64_t live_gap_before(const nlohmann::json& event) const;
  std::uint64_t live_last_seq(const std::string& table) const;
  // Whether the table was heard (any event, heartbeats included) within `seconds` of `now`.
  bool heard_within(const std::string& table, double now, double seconds) const;
  static constexpr std::size_t kLiveSeqsKept = 100000;
  // The tricks won by each side, from the director-only detail of the board.trick event `seq`. False
  // when it is older than what the tile shows (or the table unknown).
  bool apply_trick_count(const std::string& id, std::uint64_t seq, const nlohmann::json& card_evidence);
  // Tables named in the config appear before they say anything; one still unheard `lost_after_s` after
  // `now` (when the console began to wait for it) shows as lost, as a table that fell silent does.
  void declare_table(const std::string& id, double now);

  // The tile of one table: what the grid needs (state, board, elapsed, alert count, devices).
  nlohmann::json tile(const std::string& id, double now) const;
  // Everything a director's page needs at connection time: tiles and open alerts (newest first).
  nlohmann::json director_snapshot(double now) const;
  // One table's detail: timeline and board history (director view).
  nlohmann::json table_detail(const std::string& id, double now) const;
  // Finished boards, hands and play, for the broadcaster's page.
  nlohmann::json broadcast_snapshot() const;
  nlohmann::json live_board(const std::string& table, const std::string& key) const;
  // Tables whose silence just crossed the "lost" threshold since the last call (for periodic ticks).
  std::vector<std::string> newly_silent(double now);

  // The director's view of an event: the fields a director reads, never a deal or a card of the play.
  // Returns null for an event a director must not see at all (live.*, play.*).
  static nlohmann::json director_view(const nlohmann::json& event);
  static std::string table_id(const nlohmann::json& event);
  // "session/board": a broadcaster's board within a table.
  static std::string live_key(const nlohmann::json& event);

  bool has_table(const std::string& id) const { return tables_.count(id) != 0; }
  std::size_t table_count() const { return tables_.size(); }

 private:
  std::string state_of(const TableView& t, double now) const;
  bool silent(const TableView& t, double now) const;
  TableView& table(const std::string& id);
  static void close_acknowledged(TableView& t, const nlohmann::json& ack);
  static void open_unless_acknowledged(TableView& t, const nlohmann::json& view);

  std::map<std::string, TableView> tables_;
  std::map<std::string, bool> silent_;
  double allowance_s_, lost_after_s_;
};

inline constexpr std::size_t kTimelineLength = 200;
inline constexpr std::size_t kHistoryLength = 100;

}  // namespace cardtable::console
