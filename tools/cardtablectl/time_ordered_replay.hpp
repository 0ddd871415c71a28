// `watch --since` over a venue: every table's journal shown as one afternoon, oldest event first by its
// own `time` (ties: by table, then seq), not table after table (a director back from a break read table
// 1's whole afternoon before an alert at table 7 ten minutes ago). A k-way merge of the tables' pages:
// each table's next page is asked for only when its last one is shown, so at most one page of each table
// (5,000 events, protocol `replay`) is held at once, however long the afternoon.
//
// Stopped (a director's Ctrl-C, systemd stopping the watch): no page is asked for any more, and the merge
// goes on through the pages in hand only as far as every table's next event is known. Once a table's page
// runs out, its next event is unknown and may be older than any other table's held: showing them would
// break the time order, so they are not shown, and each table not shown whole is named with its first seq
// not shown. A watch given those seqs goes on exactly from there: the two together show what one watch
// that was never stopped would have, in its order.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cardtable::tools {

class TimeOrderedReplay {
 public:
  // One page of `table`'s journal from seq `since`: the `replay` reply ({events, more}), or nullopt when
  // it failed (the caller says why).
  using Page = std::function<std::optional<nlohmann::json>(const std::string& table, std::uint64_t since)>;
  // One event, in time order.
  using Show = std::function<void(const nlohmann::json& event)>;
  // Whether the watch was stopped: asked before each page, and after a page that failed.
  using Stopped = std::function<bool()>;
  // What run() did not show, each table with the first seq not shown.
  struct Outcome {
    std::map<std::string, std::uint64_t> failed;   // its page failed; the other tables went on
    std::map<std::string, std::uint64_t> stopped;  // the watch was stopped first
  };

  TimeOrderedReplay(Page page, Show show, Stopped stopped = [] { return false; })
      : page_(std::move(page)), show_(std::move(show)), stopped_(std::move(stopped)) {}
  // A table's journal to replay from its seq `since`.
  void add(std::string table, std::uint64_t since) { tables_.push_back({std::move(table), since}); }
  // Shows every table's events, merged. A table keeps its own seq order even where its clock stepped
  // back (the merge only ever compares each table's next event), so that no seq is taken for shown twice.
  // The tables named in neither of Outcome's maps were shown whole.
  Outcome run();

 private:
  struct Asked {
    std::string table;
    std::uint64_t since;
  };
  Page page_;
  Show show_;
  Stopped stopped_;
  std::vector<Asked> tables_;
};

}  // namespace cardtable::tools
