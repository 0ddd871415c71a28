// The gaps in each table's seqs that the console replays from the table's control endpoint, one replay
// in flight per table and the gaps seen meanwhile waiting their turn. A gap seen while a replay ran was
// skipped: a second gap of the same journal past the running one's end, or the whole of a new journal
// (a daemon restarted on an empty state folder during a replay of its old journal), was never replayed and
// its alerts never shown. Single-threaded: the gateway's I/O thread owns it.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cardtable::console {

class GapReplays {
 public:
  // Seqs since..until-1 of one journal (empty: a daemon older than protocol 1.4, whose events name none).
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
  // The running replay was answered (or failed): the table may start its next one.
  void finish(const std::string& table);
  // The rest of a gap longer than one answer (a replay answers at most 5,000 events): replayed first.
  void resume(const std::string& table, const Gap& rest);

 private:
  struct Table {
    std::optional<Gap> running;
    std::deque<Gap> waiting;
  };
  std::map<std::string, Table> tables_;
};

}  // namespace cardtable::console
