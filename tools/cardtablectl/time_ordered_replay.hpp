// `watch --since` over a venue: every table's journal shown as one afternoon, oldest event first by its
// own `time` (ties: by table, then seq), not table after table (a director back from a break read table
// 1's whole afternoon before an alert at table 7 ten minutes ago). A k-way merge of the tables' pages:
// each table's next page is asked for only when its last one is shown, so at most one page of each table
// (5,000 events, protocol `replay`) is held at once, however long the afternoon.
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

  TimeOrderedReplay(Page page, Show show) : page_(std::move(page)), show_(std::move(show)) {}
  // A table's journal to replay from its seq `since`.
  void add(std::string table, std::uint64_t since) { tables_.push_back({std::move(table), since}); }
  // Shows every table's events, merged. A table keeps its own seq order even where its clock stepped
  // back (the merge only ever compares each table's next event), so that no seq is taken for shown twice.
  // Returns the tables whose page failed, each with the first seq not shown; the others were shown whole.
  std::map<std::string, std::uint64_t> run();

 private:
  struct Asked {
    std::string table;
    std::uint64_t since;
  };
  Page page_;
  Show show_;
  std::vector<Asked> tables_;
};

}  // namespace cardtable::tools
