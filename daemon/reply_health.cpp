#include "daemon/reply_health.hpp"

namespace cardtable::daemon {

ReplyHealth::Reader& ReplyHealth::reader(const table::Observation& read) {
  auto [at, first] = readers_.try_emplace(read.source);
  if (first) at->second.judged = !(camera_ && camera_(read.source));
  at->second.zones.insert(read.zone.str());
  return at->second;
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
  for (const std::string& z : r.zones) c.zones += (c.zones.empty() ? "" : ",") + z;
  return c;
}

void ReplyHealth::pass(const table::Observation& read, const table::Table::ReaderReads& counts) {
  reader(read).start = counts;
}

}  // namespace cardtable::daemon
