#include "since_plan.hpp"

#include <algorithm>

#include "number_args.hpp"
#include "terminal_text.hpp"

namespace cardtable::tools {

std::optional<SincePlan> SincePlan::parse(const std::vector<std::string>& values, std::string& why) {
  SincePlan plan;
  for (const std::string& v : values) {
    const auto colon = v.rfind(':');
    if (colon == std::string::npos) {
      const auto seq = parse_seq(v);
      if (!seq) {
        why = "--since wants the first seq wanted (1 or more), or TOURNAMENT/SECTION/TABLE:SEQ, not '" + printable(v) + "'";
        return std::nullopt;
      }
      if (plan.every_ && *plan.every_ != *seq) {
        why = "--since " + std::to_string(*plan.every_) + " and --since " + std::to_string(*seq) + ": one seq for every table, or TABLE:SEQ for one";
        return std::nullopt;
      }
      plan.every_ = seq;
      continue;
    }
    const std::string table = v.substr(0, colon);
    const auto seq = parse_seq(v.substr(colon + 1));
    // The table as every event and the hub name it: three names, none empty.
    const bool named = std::count(table.begin(), table.end(), '/') == 2 && table.front() != '/' && table.back() != '/' &&
                       table.find("//") == std::string::npos;
    if (!named || !seq) {
      why = "--since '" + printable(v) + "': a table's is TOURNAMENT/SECTION/TABLE:SEQ, SEQ 1 or more (e.g. default/A/7:58)";
      return std::nullopt;
    }
    if (auto [at, fresh] = plan.tables_.emplace(table, *seq); !fresh && at->second != *seq) {
      why = "--since names " + printable(table) + " twice, from " + std::to_string(at->second) + " and from " + std::to_string(*seq);
      return std::nullopt;
    }
  }
  return plan;
}

std::optional<std::uint64_t> SincePlan::of(const std::string& table) const {
  if (auto t = tables_.find(table); t != tables_.end()) return t->second;
  return every_;
}

std::string resume_options(const SincePlan& plan, const std::map<std::string, std::uint64_t>& last_seqs,
                           const std::map<std::string, std::uint64_t>& not_shown) {
  if (plan.empty()) return {};
  std::map<std::string, std::uint64_t> first = plan.tables();  // each table's first seq the next watch wants
  for (const auto& [table, seq] : last_seqs)
    if (seq > 0) first[table] = seq + 1;
  for (const auto& [table, seq] : not_shown) {
    const auto at = first.find(table);
    if (at != first.end() ? seq < at->second : plan.every() != seq) first[table] = seq;  // --since N says N already
  }
  // Appended: gcc 12 at -O3 warns a false -Wrestrict on "..." + std::string (the const char* + string&&
  // operator), which a Release -DCARDTABLE_WERROR=ON build refuses.
  std::string out;
  const auto add = [&out](const std::string& value) {
    if (!out.empty()) out += ' ';
    out += "--since ";
    out += value;
  };
  if (plan.every()) add(std::to_string(*plan.every()));
  for (const auto& [table, seq] : first) {
    std::string value = printable(table);
    value += ':';
    value += std::to_string(seq);
    add(value);
  }
  return out;
}

}  // namespace cardtable::tools
