// The table: observations and commands in, events out. One state machine for the board-checking
// station and the table in play; time comes only from the observations, commands and ticks it is given
// (an injected clock), so a test controls every timeout.
#pragma once

#include <array>
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

class Table {
 public:
  // The master record must outlive the table.
  Table(const bridge::MasterRecord& master, TableConfig config);

  void observe(const Observation& o);
  void command(const Command& c);
  // Time passes with nothing read: silent devices, pauses between pockets, slow boards.
  void tick(Millis now);
  // The events published since the last call, in order.
  std::vector<Event> take_events();

  // What the table knows now (for status and snapshots).
  std::optional<std::uint32_t> board() const { return board_; }
  std::string phase_name() const;

 private:
  enum class Phase : std::uint8_t { Waiting, Auction, Play, Over };
  struct Trick {
    Seat leader = Seat::North;
    std::array<std::optional<bridge::Card>, 4> cards{};
    int count = 0;
    std::optional<Seat> winner;
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
  std::optional<std::uint32_t> resolve_label(const std::string& label) const;

  // Stable readings by kind of zone.
  void on_stable(const Observation& o);
  void on_scan(const Observation& o);
  void on_hand(const Observation& o);
  void on_pocket(const Observation& o);
  void on_play(const Observation& o);
  void on_dummy(const Observation& o);
  bool check_two_zones(const Observation& o);  // true when the reading contradicts another zone

  // Board-checking station.
  void station_start_board(Millis t);
  void station_evaluate(Millis t);
  bool station_has_cards() const;

  // Play.
  void start_auction(Seat withdrawn, Millis t);
  void card_played(Seat seat, bridge::Card card, Millis t, std::optional<bridge::Card> replaces);
  void close_trick(Millis t);  // the last trick, complete, gets its winner when the trump is known
  void card_withdrawn(Seat seat, bridge::Card card, Millis t);
  void finish_trick(std::size_t index, Seat winner, bool inferred, Millis t);
  void check_ownership(Seat seat, bridge::Card card, Millis t);
  void check_revoke(Seat seat, bridge::Card card, Millis t);
  void check_established(Seat seat, Millis t);
  void infer_board(Millis t);
  void dummy_known(Seat dummy, Millis t);
  void board_returned(Millis t);
  void reset_board();
  std::optional<Seat> declarer() const;
  std::optional<bridge::Suit> trump() const;
  bridge::Hand remaining(Seat s) const;  // the master hand less the cards played (board known)

  const bridge::MasterRecord& master_;
  TableConfig config_;
  std::vector<Event> out_;
  std::array<StableReading, kZoneCount> readings_{};
  std::array<bool, kZoneCount> silent_{};          // heard before, then nothing for silence_ms
  std::array<bool, kZoneCount> stray_reported_{};  // a reading from a zone the table does not have, reported
  Millis now_ = 0;

  // The board.
  std::optional<std::uint32_t> board_;
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
  std::optional<ContractCommand> contract_;
  std::optional<Seat> opening_leader_;
  std::optional<Seat> dummy_;
  bool dummy_checked_ = false;
  std::vector<Trick> tricks_;
  std::array<std::vector<bridge::Card>, 4> played_{};
  std::array<std::optional<bridge::Card>, 4> faced_{};  // the card each play area shows
  std::vector<Revoke> revokes_;
  std::array<std::array<int, 4>, 4> shown_out_{};  // [seat][suit]: trick+1 where the seat showed out, 0 if never
  bool ownership_reported_ = false;
  bool inference_failed_ = false;
};

}  // namespace cardtable::table
