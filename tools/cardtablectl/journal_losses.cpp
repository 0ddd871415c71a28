#include "journal_losses.hpp"

#include <algorithm>
#include <limits>

#include "counted_words.hpp"
#include "protocol/json_fields.hpp"

namespace cardtable::tools {
using json = nlohmann::json;

namespace {
// A seq, or 0 for anything else (a negative number, text): a reply of another shape is never a crash.
// An unreadable entry is a seq, or an event with one.
std::uint64_t seq_of(const json& j) { return j.is_object() ? protocol::seq_field(j) : protocol::positive_number(j); }
// "event #4 is" / "events #1 to #40 are"
std::string seqs_are(std::uint64_t first, std::uint64_t last) { return events_numbered(first, last) + (first == last ? " is" : " are"); }
}  // namespace

std::vector<std::string> journal_losses(const json& reply, std::uint64_t since) {
  std::vector<std::string> said;
  if (!reply.is_object() || since == 0) return said;
  std::vector<std::uint64_t> damaged;
  if (auto u = reply.find("unreadable"); u != reply.end() && u->is_array())
    for (const json& s : *u)
      if (std::uint64_t seq = seq_of(s)) damaged.push_back(seq);
  // The first seq the page covers: its first event's, or a damaged line's before it. Seqs are consecutive
  // in a journal; a page that begins past `since` begins where the journal now does.
  std::uint64_t covered = std::numeric_limits<std::uint64_t>::max();
  if (auto ev = reply.find("events"); ev != reply.end() && ev->is_array())
    for (const json& e : *ev)
      if (std::uint64_t seq = seq_of(e)) covered = std::min(covered, seq);
  for (std::uint64_t seq : damaged) covered = std::min(covered, seq);
  const std::uint64_t first_available = protocol::seq_field(reply, "first_available"), last_seq = protocol::seq_field(reply, "last_seq");
  if (covered == std::numeric_limits<std::uint64_t>::max()) {
    // Nothing in the page: lost only if the journal went on past `since` and now starts after it.
    if (first_available > since && last_seq >= since) covered = std::min(first_available, last_seq + 1);
  }
  if (covered != std::numeric_limits<std::uint64_t>::max() && covered > since)
    said.push_back(seqs_are(since, covered - 1) + " no longer in its journal (rotated away, its journal starts at #" +
                   std::to_string(std::max(first_available, covered)) + "): not shown");
  if (!damaged.empty()) {
    std::string list;
    for (std::uint64_t seq : damaged) list += (list.empty() ? "#" : ", #") + std::to_string(seq);
    said.push_back((damaged.size() == 1 ? "event " : "events ") + list + (damaged.size() == 1 ? " is" : " are") +
                   " damaged in its journal on the disk, not readable: not shown");
  }
  return said;
}

}  // namespace cardtable::tools
