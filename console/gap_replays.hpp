// The gaps in each table's seqs that the console replays from the table's control endpoint, one replay
// in flight per table and the gaps seen meanwhile waiting their turn. A gap seen while a replay ran was
// skipped: a second gap of the same journal past the running one's end, or the whole of a new journal
// (a daemon restarted on an empty state folder during a replay of its old journal), was never replayed and
// its alerts never shown. One instance per stream: the events' journal (`replay`) and the live journal
// (`replay-live`), whose seqs are their own. A replay that fails (the table did not answer, refused) is
// asked again a bounded number of times after a growing wait, keeping its place: a gap shown by an event
// is never shown again (the event moved the table's last seq past it), so a failure dropped it for good.
// Given up, it is kept: asked again a minute after it was given up (each gap its own minute), never afresh
// when a heartbeat shows it again.
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
  // A gap given up is kept (said and counted once) and asked again, one try at a time, this long after it
  // was given up (the caller's timer: retry_given_up; a gap given up while the timer ran for an older one
  // waits its own wait, not the rest of the older one's): a table whose control endpoint comes back (its daemon restarted,
  // its cable back in) gets its missed events replayed, and one that never answers costs a request a
  // minute. Given up and forgotten, the same range shown again by every heartbeat started a fresh round
  // of 4 tries and 4 log lines about every 26 s for as long as the table ran.
  static constexpr std::chrono::milliseconds kGivenUpWait{60000};
  // The gaps given up kept per table, the oldest let go first (still counted as missed, no longer asked
  // again): a table missing events for hours cannot grow the console's memory without end.
  static constexpr std::size_t kGivenUpKept = 1000;
  explicit GapReplays(unsigned retries = kRetries, std::chrono::milliseconds first_wait = kFirstWait)
      : retries_(retries), first_wait_(first_wait) {}

  // Seqs since..until-1 of one journal (empty: a daemon older than protocol 1.4, whose events name none);
  // until kOpenEnded: every seq from since (the live journal's catch-up and poll, which no seq bounds).
  static constexpr std::uint64_t kOpenEnded = std::numeric_limits<std::uint64_t>::max();
  struct Gap {
    std::string journal;
    std::uint64_t since = 0, until = 0;
  };

  // A gap seen at a table: the part of it that no replay running, waiting or given up covers waits (a
  // heartbeat shows the same gap every second until its replay is answered: it is asked for once). True
  // when the table has no replay running, so that the caller starts next().
  bool add(const std::string& table, const Gap& gap);
  // The gap to replay now at the table, marked running; nothing while one runs or none waits. A waiting
  // gap of another journal than `journal` (the table's now) can no longer be asked for (the table serves
  // its new journal): it goes to `replaced`, for the caller to say. The gaps given up that retry_given_up()
  // made due come after the waiting ones, once each (one of a replaced journal is let go: said before).
  std::optional<Gap> next(const std::string& table, const std::string& journal, std::vector<Gap>& replaced);
  // The running replay was answered (or given up): the table may start its next one.
  void finish(const std::string& table);
  // The running replay failed: asked again after `wait` (it stays running, so the gaps seen meanwhile
  // wait behind it and a heartbeat showing it again adds nothing); or retried enough: given up, finished,
  // for the caller to say and count as missed and to call retry_given_up() after kGivenUpWait; or, a gap
  // given up asked again, still missing: back with those given up, for the caller to wait again, quietly.
  struct Failure {
    enum Kind { ask_again, given_up, still_missing } kind;
    std::chrono::milliseconds wait;
  };
  Failure failed(const std::string& table);
  // The gaps given up at the table at or before `given_up_by` are due to be asked again (next() gives
  // them); those given up since wait on. True when the table has one due and no replay running, so that
  // the caller starts next().
  using Clock = std::chrono::steady_clock;
  bool retry_given_up(const std::string& table, Clock::time_point given_up_by);
  // When the oldest gap given up at the table (not yet due) was given up; none when none is: the caller's
  // timer is armed for it, kGivenUpWait after.
  std::optional<Clock::time_point> oldest_given_up(const std::string& table) const;
  unsigned tries() const { return retries_ + 1; }  // asked in all before a replay is given up
  // The rest of a gap longer than one answer (a replay answers at most 5,000 events): replayed first.
  void resume(const std::string& table, const Gap& rest);

 private:
  struct Table {
    std::optional<Gap> running;
    bool running_given_up = false;  // the running replay is a gap given up, asked again: one try
    unsigned failures = 0;          // of the running replay
    std::deque<Gap> waiting;
    struct GivenUp {
      Gap gap;
      Clock::time_point at;  // when given up (or, asked again, given up again): its wait starts there
    };
    std::deque<GivenUp> given_up;  // said and counted as missed; never asked afresh, only by retry_given_up()
    std::deque<Gap> due;       // given up, to be asked again once no gap waits
  };
  void give_up(Table& t);
  unsigned retries_;
  std::chrono::milliseconds first_wait_;
  std::map<std::string, Table> tables_;
};

}  // namespace cardtable::console
