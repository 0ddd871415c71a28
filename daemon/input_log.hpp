// The board in progress, kept across a restart: every input the table applied since the last board
// ended, in <state-dir>/board-in-progress.inputs (JSON lines). The table is deterministic given its
// inputs (observations, commands, ticks: time only from them), so replaying them at start rebuilds the
// board in play -- its cards, tricks and contract. Without it a restart mid-board (a watchdog, a power
// blip, an upgrade) forgot the cards played before, and the first card of a suit a player "still held"
// by the master deal was a false revoke (Laws 61-64) for the director.
//
// Small on purpose: readers poll every 20-50 ms and the loop ticks every 100 ms, for hours between
// boards. A run of identical readings of a zone is one record (a count and the last time) kept at the
// file's end and rewritten in place at most once a second; ticks that made the table say nothing are not
// written. The file starts afresh (a header) when a board ends: the table then needs no history.
// The header names the master record (a hash of its deals) and the zones: inputs are never replayed into
// another record or another table.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bridge/master_record.hpp"
#include "table/input.hpp"
#include "table/unshuffled.hpp"

namespace cardtable::daemon {

class InputLog {
 public:
  static constexpr int kVersion = 1;
  static constexpr std::size_t kMaxReadsPerRun =
      50;  // a run replayed: enough for stability (a few reads or a stretch of time)

  struct Identity {
    std::string record;              // record_hash() of the master record
    std::vector<std::string> zones;  // the table's zones, as Zone::str()
  };
  // What the last run left to replay.
  struct Resumed {
    std::vector<table::TableInput> inputs;  // runs expanded, in the order they were applied
    // walls[i]: the wall clock (s) when the last run applied inputs[i] (a run's reads: its last read's,
    // the only one of them that can have made the table say something; the run ends there).
    std::vector<double> walls;
    std::size_t records = 0;                // lines replayed (a run is one)
    table::Millis last_time = 0;            // the table's time of the last input
    double last_wall = 0;                   // the wall clock (s) when it was applied
    std::uint64_t first_seq = 0;            // the journal's first seq of the board in progress
    // The zones' stable readings when the last board ended, heard last at `held_at` (start's `held`):
    // given back to the table (Table::assume_readings) before the inputs.
    std::vector<table::Observation> held;
    table::Millis held_at = 0;
    // How the last board's cards were quitted (Table::previous_board, Law 6D2), when it was played out.
    std::optional<table::PreviousBoard> previous;
  };

  // The deals of a master record, hashed (FNV-1a): two records with the same boards hash alike.
  static std::string record_hash(const bridge::MasterRecord& master);

  InputLog(std::filesystem::path file, Identity identity);
  ~InputLog();
  InputLog(const InputLog&) = delete;
  InputLog& operator=(const InputLog&) = delete;

  // The file the last run left: nullopt when there is none, it holds nothing, or it cannot be replayed
  // here (another record, other zones, another format): `warnings` then say why. A cut last line (a
  // power cut) is skipped with a warning, the rest replayed.
  std::optional<Resumed> load(std::vector<std::string>& warnings);

  // A new file: truncated, the header (the journal's first seq of the next board). Call at start and
  // whenever a board ends, with what the zones read then (`held`, Table::stable_readings, at the table's
  // time `at`): a restart before the next board knows the cards still lying there were the last board's,
  // and how they were quitted (`previous`): a next deal dealt from them unshuffled is still told (Law 6D2).
  void start(std::uint64_t first_seq, double wall, const std::vector<table::Observation>& held = {},
             table::Millis at = 0, const std::optional<table::PreviousBoard>& previous = std::nullopt);
  // After a load() that was replayed: the file goes on after its last good record (a cut line goes).
  void continue_file();
  // An input the table applied, after its events were published (`emitted`: it made the table say something).
  void record(const table::TableInput& in, bool emitted, double wall);
  // The master record was reloaded: a different one makes the file unreplayable (never into the wrong
  // record).
  void record_changed(const std::string& hash);
  // Each loop pass: the runs at the end rewritten (at most once a second), fdatasync at most once a second.
  void poll();

  const std::filesystem::path& file() const { return file_; }
  std::uintmax_t size() const { return committed_ + tail_size_; }

 private:
  struct Run {
    table::Observation first;  // the reading (its time: the first read)
    std::uint64_t reads = 1;
    table::Millis last = 0;
    double wall = 0;
    table::Millis lag = 0;  // the input's time less the reading's (a device may stamp them apart)
    // Its first read's place among the inputs of its moment (step_place_): a replay puts the reads of one
    // moment back in the order they came, not the order the runs were written.
    std::uint32_t place = 0;
  };
  void append(const std::string& line);  // a record that stays
  void commit_runs();                    // the runs at the end stay as they are written; new ones follow
  static std::string line_of(const Run& run);
  void write_tail(
      const std::string& closed = {});  // `closed`: runs that ended, written before the open ones, to stay
  void close_run(std::vector<Run>::iterator run);
  void fail(const std::string& what);

  std::filesystem::path file_;
  Identity identity_;
  int fd_ = -1;
  bool failed_ = false;           // said once; the daemon runs on without the file
  std::uintmax_t committed_ = 0;  // bytes that stay
  std::uintmax_t tail_size_ = 0;  // the runs' lines after them, rewritten in place
  std::uintmax_t good_end_ = 0;   // load(): the end of the last record read whole
  std::vector<Run> runs_;         // open runs, in the order of their first read
  std::array<std::optional<table::Observation>, table::kZoneCount> last_{};  // each zone's last reading
  table::Millis step_time_ = -1;  // the moment (an input's time) of the last input recorded ...
  std::uint32_t step_place_ = 0;  // ... and how many inputs came before it at that moment
  bool tail_dirty_ = false;
  bool unsynced_ = false;
  std::chrono::steady_clock::time_point last_tail_{}, last_sync_{};
};

}  // namespace cardtable::daemon
