// What `watch --since` asks to be replayed before the live events. Seqs are per table (each table numbers
// its own journal), so through a hub one number cannot say where a director left every table: `--since N`
// is each table's journal from its seq N (1: the whole session), and `--since TABLE:SEQ` one table's from
// SEQ, winning over N for that table. A director resuming a watch gives each table the seq after the last
// one it saw: a watch given --since says them, as --since options, when it ends.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cardtable::tools {

class SincePlan {
 public:
  // Reads the --since values (N, or TOURNAMENT/SECTION/TABLE:SEQ); nullopt with the reason on a bad one.
  static std::optional<SincePlan> parse(const std::vector<std::string>& values, std::string& why);
  // The first seq wanted of this table's journal; nullopt: none asked for.
  std::optional<std::uint64_t> of(const std::string& table) const;
  bool empty() const { return !every_ && tables_.empty(); }
  // N of --since N: every table's journal is asked for.
  std::optional<std::uint64_t> every() const { return every_; }
  // The tables named with their own seq.
  const std::map<std::string, std::uint64_t>& tables() const { return tables_; }

 private:
  std::optional<std::uint64_t> every_;
  std::map<std::string, std::uint64_t> tables_;
};

// "--since 1 --since default/A/1:58 --since default/A/2:34": where the next watch goes on from each table
// (the seq after the last this one showed). The tables it showed nothing of keep what `plan` asked: their
// TABLE:SEQ, and --since N for every other (a watch stopped before a table's first page, or a table joining
// later, lost that table's afternoon when the line named only the tables shown). `not_shown`: each table's
// first seq said and never shown (a gap no endpoint replayed): its line starts there, not past it, so the
// next watch shows the gap (and again what this one showed after it) rather than never. Empty when `plan` is.
std::string resume_options(const SincePlan& plan, const std::map<std::string, std::uint64_t>& last_seqs,
                           const std::map<std::string, std::uint64_t>& not_shown = {});

}  // namespace cardtable::tools
