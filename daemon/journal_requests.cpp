#include "daemon/journal_requests.hpp"

#include <optional>

#include "protocol/card_seal.hpp"
#include "protocol/control.hpp"

namespace cardtable::daemon {
using nlohmann::json;
using protocol::error_reply;
using protocol::ok_reply;

json replay_reply(const protocol::Journal& journal, std::uint64_t since, std::uint64_t upto) {
  constexpr std::size_t kLimit = 5000;
  json events = json::array();
  json unreadable = json::array();  // seqs whose line is in the journal but damaged (a bad disk block)
  bool more = false;
  std::uint64_t previous = 0;
  journal.replay(
      since,
      [&](const std::string& line, std::uint64_t seq) {
        // Seqs are consecutive in the journal; a jump means files rotated away while this read went on.
        // Stop before it: the client asks again from there and first_available tells it what is gone.
        if (events.size() == kLimit || (previous != 0 && seq != previous + 1)) {
          more = true;
          return false;
        }
        previous = seq;
        if (auto j = json::parse(line, nullptr, false); j.is_object()) {
          protocol::strip_card_detail(j);  // replays never carry the card detail: directors ask `evidence SEQ`
          // A line journalled before identities existed names no journal: it is this one's all the same.
          if (!j.contains("journal")) j["journal"] = journal.id();
          events.push_back(std::move(j));
        } else {
          unreadable.push_back(seq);  // it was left out without a word: a gap no reply explained
        }
        return true;
      },
      upto);
  // Read after the events: a file rotated away meanwhile shows as a first_available above `since`.
  // `journal`: whose seqs these are; a client that asked another journal (the table's was replaced since)
  // must not take them for the ones it missed.
  json reply = {{"events", events}, {"more", more}, {"first_available", journal.first_seq()}, {"last_seq", upto}, {"journal", journal.id()}};
  if (!unreadable.empty()) reply["unreadable"] = unreadable;
  return reply;
}

json evidence_reply(const protocol::Journal& journal, std::uint64_t seq, std::uint64_t upto) {
  std::optional<json> found;
  journal.replay(
      seq,
      [&](const std::string& line, std::uint64_t s) {
        if (s == seq) found = json::parse(line, nullptr, false);
        return false;
      },
      upto);
  if (found && !found->is_object())
    return error_reply("evidence: event " + std::to_string(seq) + " is in the journal but its line is damaged (not JSON): it cannot be read");
  if (!found)
    return error_reply("evidence: no event " + std::to_string(seq) + " in the journal (it holds " + std::to_string(journal.first_seq()) +
                       " to " + std::to_string(upto) + ")");
  json event = *found;
  if (!event.contains("journal")) event["journal"] = journal.id();  // a line from before identities: this journal's
  json reply = {{"seq", seq}, {"event", event}};
  reply["card_message"] = event.value("card_message", event.value("message", ""));
  reply["card_evidence"] = event.contains("card_evidence") ? event["card_evidence"] : json::object();
  return ok_reply(reply);
}

std::function<json()> journal_read(const protocol::TypedRequest& r, const JournalSources& s) {
  const protocol::Journal& journal = s.journal;
  if (const auto* q = std::get_if<protocol::ReplayRequest>(&r))
    return [&journal, since = q->since, upto = journal.last_seq()] { return ok_reply(replay_reply(journal, since, upto)); };
  if (const auto* q = std::get_if<protocol::ReplayLiveRequest>(&r))
    return [&live = s.live_journal, since = q->since, upto = s.live_journal.last_seq()] { return ok_reply(replay_reply(live, since, upto)); };
  if (const auto* q = std::get_if<protocol::EvidenceRequest>(&r))
    return [&journal, seq = q->seq, upto = journal.last_seq()] { return evidence_reply(journal, seq, upto); };
  if (std::holds_alternative<protocol::SnapshotRequest>(r))
    return [&journal, since = s.board_first_seq, upto = journal.last_seq(), now = s.status()] {
      json reply = replay_reply(journal, since, upto);
      reply["status"] = now;
      return ok_reply(reply);
    };
  return {};
}

}  // namespace cardtable::daemon
