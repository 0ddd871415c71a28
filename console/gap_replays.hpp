// The gaps in each table's seqs that the console replays from the table's control endpoint, one replay
// in flight per table and the gaps seen meanwhile waiting their turn. A gap seen while a replay ran was
// skipped: a second gap of the same journal past the running one's end, or the whole of a new journal
// (a daemon restarted on an empty state folder during a replay of its old journal), was never replayed and
// its alerts never shown. One instance per stream: the events' journal (`replay`) and the live journal
// (`replay-live`), whose seqs are their own. A replay that fails (the table did not answer, refused) is
// asked again a bounded number of times after a growing wait, keeping its place: a gap shown by an event
// is never shown again (the event moved the table's last seq past it), so a failure dropped it for good.
// Single-threaded: the gateway's I/O thread owns it.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cardtable::console {

class GapReplays {
 public:
  // A failed replay is asked again `retries` times, `first_wait` after the first failure, the wait doubled
  // after each (2 s, 4 s, 8 s: a daemon restarting or a busy journal reader has time to come back, and the
  // table is not flooded), then given up (the caller says it and counts the seqs as missed).
  static constexpr unsigned kRetries = 3;
  static constexpr std::chrono::milliseconds kFirstWait{2000};
  explicit GapReplays(unsigned retries = kRetries, std::chrono::milliseconds first_wait = kFirstWait)
      : retries_(retries), first_wait_(first_wait) {}

  // Seqs since..until-1 of one journal (empty: a daemon older than protocol 1.4, whose events name none);
  // until kOpenEnded: every seq from since (the live journal's catch-up and poll, which no seq bounds).
  static constexpr std::uint64_t kOpenEnded = std::numeric_limits<std::uint64_t>::max();
  struct Gap {
    std::string journal;
    std::uint64_t since = 0, until = 0;
  };

  // A gap seen at a table: the part of it that no replay running or waiting covers waits (a heartbeat
  // shows the same gap every second until its replay is answered: it is asked for once). True when the
  // table has no replay running, so that the caller starts next().
  bool add(const std::string& table, const Gap& gap);
  // The gap to replay now at the table, marked running; nothing while one runs or none waits. A waiting
  // gap of another journal than `journal` (the table's now) can no longer be asked for (the table serves
  // its new journal): it goes to `replaced`, for the caller to say.
  std::optional<Gap> next(const std::string& table, const std::string& journal, std::vector<Gap>& replaced);
  // The running replay was answered (or given up): the table may start its next one.
  void finish(const std::string& table);
  // The running replay failed: the wait before asking it again (it stays running, so the gaps seen
  // meanwhile wait behind it and a heartbeat showing it again adds nothing), or nothing when it has been
  // retried enough: given up, finished, for the caller to say and count as missed.
  std::optional<std::chrono::milliseconds> failed(const std::string& table);
  unsigned tries() const { return retries_ + 1; }  // asked in all before a replay is given up
  // The rest of a gap longer than one answer (a replay answers at most 5,000 events): replayed first.
  void resume(const std::string& table, const Gap& rest);

 private:
  struct Table {
    std::optional<Gap> running;
    unsigned failures = 0;  // of the running replay
    std::deque<Gap> waiting;
  };
  unsigned retries_;
  std::chrono::milliseconds first_wait_;
  std::map<std::string, Table> tables_;
};

}  // namespace cardtable::console
