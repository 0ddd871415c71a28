// The table: observations and commands in, events out. One state machine for the board-checking
// station and the table in play; time comes only from the observations, commands and ticks it is given
// (an injected clock), so a test controls every timeout.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bridge/master_record.hpp"
#include "table/board_check.hpp"
#include "table/command.hpp"
#include "table/event.hpp"
#include "table/stable_reading.hpp"
#include "table/table_config.hpp"

namespace cardtable::table {

struct HeardTwice;   // table/heard_twice.hpp
struct FourPockets;  // table/four_pockets.hpp

class Table {
 public:
  // The master record must outlive the table (or be replaced with reload_master before it goes).
  Table(const bridge::MasterRecord& master, TableConfig config);

  // A new master record (SIGHUP, load-record) in the middle of a board: the board in progress keeps its
  // cards, tricks, contract and times. It is re-identified in the new record when its deal is still
  // there; otherwise the table says so once and goes on checking the board against the deal it had.
  void reload_master(const bridge::MasterRecord& master);

  void observe(const Observation& o);
  void command(const Command& c);
  // Time passes with nothing read: silent devices, pauses between pockets, slow boards.
  void tick(Millis now);
  // The events published since the last call, in order.
  std::vector<Event> take_events();

  // What each zone reads now, stable: after a board ends the cards still lying in a play area (the last
  // trick, a card left face up) or in the pockets are the board just played, not a new one. A restart
  // between boards gives them back with assume_readings, or a fresh table takes them for cards played.
  std::vector<Observation> stable_readings() const;
  // The zones' readings as the last run's table held them (stable_readings) when its board ended, last
  // heard at `heard`: known from the start, so reading them again is no change. Nothing is said. Four
  // pockets full with no board in play are a board lying here between boards (judge_pockets_out).
  void assume_readings(const std::vector<Observation>& readings, Millis heard);
  // How the last board played out here was quitted (Law 6D2: the next deal must not be dealt from those
  // cards unshuffled); a restart between boards gives it back with assume_previous_board.
  const std::optional<PreviousBoard>& previous_board() const { return previous_; }
  void assume_previous_board(PreviousBoard previous) { previous_ = std::move(previous); }

  // What the table knows now (for status and snapshots).
  std::optional<std::uint32_t> board() const { return board_; }
  // By reader (an observation's source): the reads it gave, those that heard a card (at or above the
  // confidence floor: a miss shows only where there is a card to miss), and how often it heard again tags
  // it had missed for a read or more. A reply missed is no change of reading and nothing is said of each
  // one (the table keeps the card: stable_reading.hpp); these counts are how a director sees a reader
  // that misses more than readers do: missed_replies / heard is about its share of replies missed, by
  // which whoever holds the table may judge each reader.
  struct ReaderReads {
    std::uint64_t reads = 0;
    std::uint64_t heard = 0;
    std::uint64_t missed_replies = 0;
  };
  const std::map<std::string, ReaderReads>& reader_reads() const { return reader_reads_; }
  std::string phase_name() const;

 private:
  enum class Phase : std::uint8_t { Waiting, Auction, Play, Over };
  struct Trick {
    Seat leader = Seat::North;
    std::array<std::optional<bridge::Card>, 4> cards{};
    int count = 0;
    std::optional<Seat> winner;
    Millis started = 0;  // its first card
  };
  // The board being played or checked, copied out of the master record so that a reload cannot pull it
  // from under the table.
  struct BoardInfo {
    std::optional<std::uint32_t> entry;  // in the current master record; empty after a reload lost it
    int number = 0;
    std::string event_name, session, description;
    Seat dealer = Seat::North;
    bridge::Deal deal;
  };
  struct Revoke {
    Seat seat;
    std::size_t trick;       // index of the trick the revoke was made in
    bridge::Card card;
    bool established = false;
  };

  void emit(Event e);
  void emit_capabilities();
  Event make(std::string type, Severity sev, std::vector<std::string> laws, std::string message) const;
  std::string board_text() const;
  void set_board(std::uint32_t entry, const std::string& how, const std::string& certainty);
  bool label_names_board_in_progress(std::uint32_t entry) const;  // the same label read again: nothing new
  bool label_read_late(std::uint32_t entry) const;  // the label of the unnamed board being scanned

  // Stable readings by kind of zone.
  void on_stable(const Observation& o);
  void on_scan(const Observation& o);
  void passed_twice(bridge::Card c, const std::string& id, Seat counted_in);  // the same tag over the scan slot again
  void on_hand(const Observation& o);
  void on_pocket(const Observation& o);
  void on_play(const Observation& o);
  void unknown_in_play(const Observation& o);
  void on_dummy(const Observation& o);
  bool check_two_zones(const Observation& o);  // true when the reading contradicts another zone

  // Board-checking station.
  void station_start_board(Millis t);
  void station_evaluate(Millis t);
  bool station_has_cards() const;

  // Play.
  void start_auction(Seat withdrawn, Millis t);
  void board_on_the_pockets();  // board.arrived, once a board
  // Between boards, with pockets out: the board lifted (the four went together), an auction period (the
  // pockets went one by one, or a card is faced), or not yet known.
  void judge_pockets_out();
  bool pocket_reader_noisy() const;  // a pocket's reader missing replies lately, or not yet steady (observe)
  // How close four pockets' last tags must be to be a lift (judge_pockets_out): board_lift_ms, or
  // board_lift_noisy_ms where a pocket's reader misses replies and the board is the one just returned (a
  // board laid after a lift is there to be played: board_lift_ms).
  Millis lift_window() const;
  // The four pockets present again at once (back_spread within relaid_window), no card played, in a period
  // that began between boards: the board was lifted away (taken for a period) and the next one laid here.
  // Not a board passed out.
  bool next_board_laid() const;
  // board_lift_ms, or board_relaid_noisy_ms where a pocket's reader misses replies: narrower than
  // laid_window, for a period begun between boards is expected to end in hands put back.
  Millis relaid_window() const;
  // After a lift, the four pockets back: a board laid lands them together, players putting their hands
  // back after four passes do it one after another (on_pocket). The window is board_lift_ms, or
  // board_laid_noisy_ms where a pocket's reader misses replies (its first tag may come many polls late).
  Millis laid_window() const;
  // How far apart the four pockets' first tags came since each was read empty (back_heard_); none while a
  // pocket has not been read empty, or has heard no tag since. The one measure of "four back together"
  // for a board laid after a lift (laid_window) and after a period begun between boards (next_board_laid).
  std::optional<Millis> back_spread() const;
  void card_played(Seat seat, bridge::Card card, Millis t, std::optional<bridge::Card> replaces);
  void close_trick(Millis t);  // the last trick, complete, gets its winner when the trump is known
  void card_withdrawn(Seat seat, bridge::Card card, Millis t);
  void finish_trick(std::size_t index, Seat winner, bool inferred, Millis t);
  void check_ownership(Seat seat, bridge::Card card, Millis t);
  struct Cause {
    std::string words;                // "the board was turned 1 seat clockwise"
    std::optional<bridge::Deal> held; // the hands as the cause makes them (none for a fouled board)
    std::string kind;                 // "board turned", "hands in the wrong pockets", "wrong board", "fouled board"
  };
  std::optional<Cause> likely_cause() const;  // what the cards played so far show, if anything yet
  void find_cause();                       // publishes the cause of cards from another hand once known
  void publish_cause(const std::string& cause, std::optional<bridge::Deal> held, const std::string& kind);
  bool lead_withdrawn(Seat seat, Millis t);
  // Law 53-56 at a trick's lead: `seat` led to trick `index` (0-based); `want` won the last trick.
  void trick_lead_out_of_turn(Seat seat, Seat want, std::size_t index);
  bool leader_card_came_first(Seat want, Seat seat) const;
  const StableReading& play_reading(Seat seat) const;  // the seat's play area's reading
  const StableReading& pocket_reading(Seat seat) const;  // the seat's pocket's reading
  void settle_pending_lead();  // the wait for the leader's card is over: the lead out of turn stands
  bool quitted_with_a_card_unread(std::optional<Seat> next, Millis t);  // a trick quitted with its fourth card never read
  void opening_lead_check(Seat leader);    // Laws 54 and 24: the opening lead from the wrong seat  // a lead taken back and another seat leading instead
  void check_revoke(Seat seat, bridge::Card card, Millis t);
  void check_established(Seat seat, Millis t);
  void infer_board(Millis t);
  void dummy_known(Seat dummy, Millis t);
  void board_returned(Millis t);
  bool pockets_filling() const;  // read in full, one short of 13: a hand may still be going in (Law 7C)
  // Law 7C: the pockets read in full at return -- counts, a card twice, unknown tags, cards in no pocket.
  void returned_count(const FourPockets& pockets, const std::array<std::vector<bridge::Card>, 4>& again, bridge::Hand together,
                      bridge::Hand twice);
  // One tag read in two pockets at the return (merge_heard_twice): said to the technician, not the director.
  // `kind`: the pockets' zones -- pocket:N at the board's return, hand:N at a station with a reader a pocket.
  void heard_by_two_readers(const HeardTwice& h, const std::array<std::string, 4>& readers, ZoneKind kind);
  void station_merge_heard_twice();
  void reset_board();
  std::optional<Seat> declarer() const;
  std::optional<bridge::Suit> trump() const;
  bridge::Hand remaining(Seat s) const;  // the hand held (held_ known) less the cards played

  const bridge::MasterRecord* master_;
  TableConfig config_;
  std::vector<Event> out_;
  std::array<StableReading, kZoneCount> readings_{};
  std::array<bool, kZoneCount> silent_{};          // heard before, then nothing for silence_ms
  std::map<std::string, Millis> missed_replies_;   // by reader (source): when it last missed tags that were there
  std::array<bool, kZoneCount> noisy_{};           // the zone's reader was missing replies at its last read
  std::map<std::string, int> reads_heard_;         // by reader: its reads that heard a tag, up to steady_after_reads
  std::map<std::string, ReaderReads> reader_reads_;
  std::array<bool, kZoneCount> stray_reported_{};  // a reading from a zone the table does not have, reported
  Millis now_ = 0;

  // The board.
  std::optional<std::uint32_t> board_;    // the entry in the master record
  std::optional<BoardInfo> info_;          // the board, as long as it is being played or checked
  std::optional<std::uint32_t> session_;  // the session being played or checked

  // Station.
  std::array<PocketRead, 4> pockets_{};
  int pocket_ = -1;           // the pocket being read from the scan slot
  bool pocket_by_command_ = false;
  Millis last_card_ = 0;
  std::optional<bridge::Card> scan_card_;  // the card on the slot now

  // Play.
  Phase phase_ = Phase::Waiting;
  std::array<std::optional<bool>, 4> present_{};  // pocket presence, when known
  std::array<bool, 4> arrived_{};
  bool board_arrived_ = false;
  Millis board_start_ = 0;
  bool slow_reported_ = false;
  std::optional<Millis> return_pending_;  // all four pockets back, one short: since when no pocket changed
  // Between boards: a board returned, and no auction period started since. The pockets taken out then
  // are judged together (judge_pockets_out): one pocket read empty is no auction period by itself (a
  // reader missing a full pocket's replies); four that went together are the board lifted away, not four
  // players (Law 17A); pockets that went one by one start the period, from the first (first_out_).
  bool between_boards_ = false;
  struct PocketOut {
    Seat seat;
    Millis time;
  };
  std::optional<PocketOut> first_out_;
  std::array<bool, 4> pockets_out_{};  // the pockets read empty since first_out_
  std::optional<PocketOut> lifted_;   // the four went together: the board lifted, from its first pocket
  // The last tag the lifted board's pockets were heard with: a pocket heard after it holds the board laid
  // there next, stable or not (start_auction).
  std::optional<Millis> lifted_at_;
  // The first tag each pocket heard since it was last read empty (back_spread): a board laid lands its four
  // pockets together, four players put their hands back one after another. Cleared at a lift, at the start
  // of a period and at a board reset: a tag heard before them is no coming back.
  std::array<std::optional<Millis>, 4> back_heard_{};
  bool auction_between_boards_ = false;  // the period in progress began between boards (judge_pockets_out)
  std::optional<ContractCommand> contract_;
  std::optional<Seat> opening_leader_;
  std::optional<Seat> dummy_;
  bool dummy_checked_ = false;
  std::vector<Trick> tricks_;
  std::array<std::vector<bridge::Card>, 4> played_{};
  std::array<std::optional<bridge::Card>, 4> faced_{};  // the card each play area shows
  std::vector<Revoke> revokes_;
  std::array<std::array<int, 4>, 4> shown_out_{};  // [seat][suit]: trick+1 where the seat showed out, 0 if never
  // Who holds which cards, as far as the table knows: the master deal, or the master deal as a reported
  // cause (a turned board, a wrong board, an exchanged dummy) makes it; empty while the cards are in
  // doubt (a card from another hand, cause not known): checks that need the hands wait, so one cause
  // gives one alert and not a revoke for every card of a disturbed board.
  std::optional<bridge::Deal> held_;
  std::string cause_;                             // the cause published for cards from another hand
  std::vector<std::pair<Seat, bridge::Card>> foreign_;  // cards played that the master gives to another seat
  std::array<bool, 4> taken_back_{};              // the seat's card of the open trick left its play area
  // Cards each seat played that were never read steadily (a trick quitted three cards read): which
  // they were is not known, so a card of a suit the seat "still holds" may be one of them (no revoke).
  std::array<int, 4> unread_{};
  std::optional<PreviousBoard> previous_;          // the last board played out here (Law 6D2, quitted cards)
  std::optional<std::size_t> lead_alerted_;       // the trick (index) whose lead out of turn was reported
  // A trick led by another seat than the one on lead, while the leader's play area was already hearing a
  // card it had not yet read steadily: the first card on the table leads, not the first read steadily.
  // The alert waits for the leader's card (lead_wait_ms at most); see card_played.
  struct PendingLead {
    Seat seat;          // whose card settled first
    Seat want;          // on lead, its card heard first
    std::size_t trick;  // the trick's index
    Millis since;
  };
  std::optional<PendingLead> pending_lead_;
  bool ownership_reported_ = false;
  bool inference_failed_ = false;
};

}  // namespace cardtable::table
