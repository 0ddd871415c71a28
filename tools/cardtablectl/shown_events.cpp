#include "shown_events.hpp"
#include "protocol/json_fields.hpp"

#include <algorithm>
#include <iostream>

#include "protocol/wire_event.hpp"
#include "table_controls.hpp"
#include "terminal_text.hpp"

namespace cardtable::tools {
using json = nlohmann::json;

ShownEvents::ShownEvents(Line line, std::vector<std::string> filters, bool heartbeats)
    : line_(std::move(line)), filters_(std::move(filters)), heartbeats_(heartbeats) {}

ShownEvents::JournalSeen ShownEvents::journal_of(const json& e) {
  auto j = e.find("journal");
  if (j == e.end() || !j->is_string() || j->get_ref<const std::string&>().empty()) return JournalSeen::Same;
  const std::string id = j->get<std::string>(), table = table_of(e);
  if (replaced_journals_.count(table + "#" + id)) return JournalSeen::Stale;
  std::string& known = journals_[table];
  if (known.empty() || known == id) {
    known = id;
    return JournalSeen::Same;
  }
  std::cerr << "cardtablectl watch: table " << printable(table) << ": its journal was replaced (" << printable(known) << " by "
            << printable(id) << "): its seqs start again at 1" << std::endl;
  replaced_journals_.insert(table + "#" + known);
  known = id;
  last_seqs_[table] = 0;
  not_shown_.erase(table);  // the old journal's seqs: no watch can ask it for them any more
  return JournalSeen::Replaced;
}

void ShownEvents::show(const json& e) {
  if (e.value("type", "") == "daemon.heartbeat" && !heartbeats_) return;
  if (journal_of(e) == JournalSeen::Stale) {
    std::cout << line_(e) << std::endl;
    return;
  }
  if (const std::uint64_t s = protocol::seq_field(e)) {
    std::uint64_t& seen = last_seqs_[table_of(e)];
    if (s <= seen) return;  // already shown (replayed)
    seen = s;
    if (auto n = not_shown_.find(table_of(e)); n != not_shown_.end() && n->second == s) not_shown_.erase(n);
  }
  std::cout << line_(e) << std::endl;
}

void ShownEvents::not_shown(const std::string& table, std::uint64_t first) {
  if (auto [at, fresh] = not_shown_.emplace(table, first); !fresh) at->second = std::min(at->second, first);
}

bool ShownEvents::well_formed(const json& e) const {
  std::string why;
  if (protocol::from_json(e, &why)) {
    if (auto c = e.find("class"); c == e.end() || c->is_string()) return true;
    why = "a field has the wrong type: \"class\" is not text";
  }
  std::cerr << "cardtablectl watch: an event of another shape, not shown (" << printable(why) << "): "
            << printable(e.dump(-1, ' ', true, json::error_handler_t::replace).substr(0, 200)) << std::endl;
  return false;
}

void ShownEvents::show_replayed(const json& e) {
  if (!well_formed(e)) return;
  std::string topic = e.value("class", "") + "/";
  bool wanted = filters_.empty();
  for (const auto& f : filters_) wanted = wanted || (e.value("class", "") + "/" + e.value("tournament", "") + "/").starts_with(f) || f == topic;
  if (wanted) show(e);
}

std::uint64_t ShownEvents::show_page(const json& events, std::uint64_t since) {
  std::uint64_t page_last = since;
  for (const auto& e : events) {
    show_replayed(e);
    page_last = std::max(page_last, protocol::seq_field(e));
  }
  return page_last;
}

}  // namespace cardtable::tools
