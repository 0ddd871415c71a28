// The board in progress across a restart (a watchdog, a power blip, an upgrade mid-board): without it the
// table forgot the cards played before, and the first card of a suit a player "still held" by the master
// deal was a false revoke (Laws 61-64) for the director. This holds the InputLog (input_log.hpp: what it
// keeps and how) and whether the loop is replaying it: at start the last run's inputs go back into the
// table through the loop's own apply, and while they do nothing is logged again (their events are in the
// journal already). Afterwards each input the table applied is kept until a board ends, when the file
// starts afresh.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "daemon/input_log.hpp"

namespace cardtable::daemon {

class BoardResume {
 public:
  BoardResume(std::filesystem::path file, InputLog::Identity identity)
      : log_(std::move(file), std::move(identity)) {}

  // At start: the last run's board in progress. The zones' readings when the board before it ended go
  // to `assume` first (Table::assume_readings); then each input to `apply` with the wall clock (s) when
  // the last run applied it (replaying() is true meanwhile), the file then going on after them. Nothing
  // to resume (none, or a file that cannot be replayed here, the warnings logged): nullopt, and a fresh
  // file for the board whose first event will be `first_seq`.
  // `previous`: how that board's cards were quitted (Table::assume_previous_board), when it was played out.
  using Assume = std::function<void(const std::vector<table::Observation>&, table::Millis heard,
                                    const std::optional<table::PreviousBoard>& previous)>;
  using Apply = std::function<void(const table::TableInput&, double wall)>;
  std::optional<InputLog::Resumed> resume(std::uint64_t first_seq, double wall, const Assume& assume, const Apply& apply);
  bool replaying() const { return replaying_; }

  // After the table applied an input and its events went out (`emitted`: it said something): kept. A
  // board that ended (returned or verified) needs no history: `ended` holds what the zones read then
  // (Table::stable_readings), and a fresh file begins with them for the next board, whose first event
  // will be `next_first_seq`. Nothing while replaying.
  struct Ended {
    std::vector<table::Observation> held;
    table::Millis at = 0;  // the table's time of the input that ended it
    std::optional<table::PreviousBoard> previous = std::nullopt;  // Table::previous_board (Law 6D2)
  };
  void logged(const table::TableInput& in, bool emitted, const std::optional<Ended>& ended, std::uint64_t next_first_seq,
              double wall);
  // The master record was reloaded (InputLog::record_changed).
  void record_changed(const std::string& hash) { log_.record_changed(hash); }
  void poll() { log_.poll(); }  // each loop pass

 private:
  InputLog log_;
  bool replaying_ = false;
};

}  // namespace cardtable::daemon
