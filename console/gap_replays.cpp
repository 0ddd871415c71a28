#include "gap_replays.hpp"

namespace cardtable::console {

namespace {

// `gap` less the seqs `covered` holds (of the same journal): none, one or two pieces.
std::vector<GapReplays::Gap> less_covered(const GapReplays::Gap& gap, const GapReplays::Gap& covered) {
  if (covered.journal != gap.journal || covered.until <= gap.since || covered.since >= gap.until) return {gap};
  std::vector<GapReplays::Gap> rest;
  if (gap.since < covered.since) rest.push_back({gap.journal, gap.since, covered.since});
  if (covered.until < gap.until) rest.push_back({gap.journal, covered.until, gap.until});
  return rest;
}

}  // namespace

bool GapReplays::add(const std::string& table, const Gap& gap) {
  Table& t = tables_[table];
  std::vector<Gap> pieces;
  if (gap.since < gap.until) pieces.push_back(gap);
  auto subtract = [&pieces](const Gap& covered) {
    std::vector<Gap> left;
    for (const Gap& p : pieces)
      for (Gap& q : less_covered(p, covered)) left.push_back(std::move(q));
    pieces = std::move(left);
  };
  if (t.running) subtract(*t.running);
  for (const auto* held : {&t.waiting, &t.due})
    for (const Gap& w : *held) subtract(w);
  for (const Table::GivenUp& g : t.given_up) subtract(g.gap);
  t.waiting.insert(t.waiting.end(), pieces.begin(), pieces.end());
  return !t.running;
}

std::optional<GapReplays::Gap> GapReplays::next(const std::string& table, const std::string& journal, std::vector<Gap>& replaced) {
  auto it = tables_.find(table);
  if (it == tables_.end() || it->second.running) return std::nullopt;
  Table& t = it->second;
  while (!t.waiting.empty()) {
    Gap gap = std::move(t.waiting.front());
    t.waiting.pop_front();
    // A gap of a daemon before 1.4 names no journal: its replay's events are checked one by one instead.
    if (!gap.journal.empty() && gap.journal != journal) {
      replaced.push_back(std::move(gap));
      continue;
    }
    t.running = gap;
    t.running_given_up = false;
    t.failures = 0;
    return gap;
  }
  while (!t.due.empty()) {
    Gap gap = std::move(t.due.front());
    t.due.pop_front();
    if (!gap.journal.empty() && gap.journal != journal) continue;  // said when given up, and the journal's change too
    t.running = gap;
    t.running_given_up = true;
    return gap;
  }
  return std::nullopt;
}

bool GapReplays::retry_given_up(const std::string& table, Clock::time_point given_up_by) {
  auto it = tables_.find(table);
  if (it == tables_.end()) return false;
  Table& t = it->second;
  // Oldest first (given up in turn; one grown keeps its first time): those given up since wait on.
  while (!t.given_up.empty() && t.given_up.front().at <= given_up_by) {
    t.due.push_back(std::move(t.given_up.front().gap));
    t.given_up.pop_front();
  }
  return !t.due.empty() && !t.running;
}

std::optional<GapReplays::Clock::time_point> GapReplays::oldest_given_up(const std::string& table) const {
  auto it = tables_.find(table);
  if (it == tables_.end() || it->second.given_up.empty()) return std::nullopt;
  return it->second.given_up.front().at;
}

void GapReplays::give_up(Table& t) {
  Gap gap = std::move(*t.running);
  t.running.reset();
  // The poll's or the start's (no end): the next poll asks again, and kept it would hold back every later one.
  if (gap.until == kOpenEnded) return;
  // A gap grown heartbeat by heartbeat stays one, asked again at the older part's time: one request, and
  // the older part never waits past its own wait (the newest part goes up to a wait sooner).
  if (!t.given_up.empty() && t.given_up.back().gap.journal == gap.journal && t.given_up.back().gap.until == gap.since)
    t.given_up.back().gap.until = gap.until;
  else
    t.given_up.push_back({std::move(gap), Clock::now()});
  if (t.given_up.size() > kGivenUpKept) t.given_up.pop_front();
}

void GapReplays::finish(const std::string& table) {
  if (auto it = tables_.find(table); it != tables_.end()) it->second.running.reset();
}

GapReplays::Failure GapReplays::failed(const std::string& table) {
  auto it = tables_.find(table);
  if (it == tables_.end() || !it->second.running) return {Failure::given_up, {}};
  Table& t = it->second;
  if (t.running_given_up || t.failures >= retries_) {
    const Failure::Kind kind = t.running_given_up ? Failure::still_missing : Failure::given_up;
    give_up(t);
    return {kind, {}};
  }
  return {Failure::ask_again, first_wait_ * (1u << t.failures++)};
}

void GapReplays::resume(const std::string& table, const Gap& rest) {
  if (rest.since < rest.until) tables_[table].waiting.push_front(rest);
}

}  // namespace cardtable::console
