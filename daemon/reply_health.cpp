#include "daemon/reply_health.hpp"

namespace cardtable::daemon {

ReplyHealth::Reader& ReplyHealth::reader(const std::string& device) {
  auto [at, first] = readers_.try_emplace(device);
  if (first) at->second.judged = !(camera_ && camera_(device));
  return at->second;
}

// Every read of every zone comes here: a bit set, no string built, until a change is said.
ReplyHealth::Reader& ReplyHealth::reader(const table::Observation& read) {
  Reader& r = reader(read.source);
  const int i = read.zone.index();
  if (!r.zones.test(static_cast<std::size_t>(i))) {
    r.zones.set(static_cast<std::size_t>(i));
    r.zone[static_cast<std::size_t>(i)] = read.zone;
  }
  return r;
}

std::optional<ReplyHealth::Change> ReplyHealth::on_read(const table::Observation& read,
                                                        const table::Table::ReaderReads& counts) {
  if (alert_share_ <= 0) return std::nullopt;
  Reader& r = reader(read);
  if (!r.judged) return std::nullopt;
  // Counts that went back (a table made again) start the window again.
  if (counts.heard < r.start.heard || counts.missed_replies < r.start.missed_replies) r.start = counts;
  const std::uint64_t heard = counts.heard - r.start.heard;
  if (heard < kWindow) return std::nullopt;
  const std::uint64_t missed = counts.missed_replies - r.start.missed_replies;
  r.start = counts;
  const double share = static_cast<double>(missed) / static_cast<double>(heard);
  const bool missing = r.missing ? share >= alert_share_ / 2 : share >= alert_share_;
  if (missing == r.missing) return std::nullopt;
  r.missing = missing;
  Change c{read.source, {}, missing, heard, missed};
  // In the table's order of zones (pockets, play areas, hands, dummy, scan).
  for (std::size_t i = 0; i < r.zone.size(); ++i)
    if (r.zones.test(i)) c.zones += (c.zones.empty() ? "" : ",") + r.zone[i].str();
  return c;
}

void ReplyHealth::pass(const table::Observation& read, const table::Table::ReaderReads& counts) {
  reader(read).start = counts;
}

void ReplyHealth::recall(const std::string& device, bool missing) {
  if (alert_share_ <= 0) return;
  Reader& r = reader(device);
  if (r.judged) r.missing = missing;
}

std::optional<std::string> ReplyHealth::state(const std::string& device) const {
  if (alert_share_ <= 0) return std::nullopt;
  const auto r = readers_.find(device);
  if (r == readers_.end() || !r->second.judged) return std::nullopt;
  return r->second.missing ? "missing replies" : "good";
}

}  // namespace cardtable::daemon
