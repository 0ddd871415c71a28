// The requests answered from the journals alone (replay, replay-live, snapshot, evidence): each becomes a
// function that the JournalReader's thread runs, reading only the journal files up to the seq written
// when the request came, so a flood of replays never stalls the loop (issue 8; bench/replay_flood.py).
#pragma once

#include <cstdint>
#include <functional>

#include <nlohmann/json.hpp>

#include "protocol/journal.hpp"
#include "protocol/requests.hpp"

namespace cardtable::daemon {

// A replay reply: at most 5000 events from `since`; the client asks again from the last seq + 1 while
// "more". Card detail is stripped: directors ask `evidence SEQ` for it.
nlohmann::json replay_reply(const protocol::Journal& journal, std::uint64_t since, std::uint64_t upto);
// `evidence SEQ` (directors only, protocol/requests.cpp): the journalled event with its card-level detail.
nlohmann::json evidence_reply(const protocol::Journal& journal, std::uint64_t seq, std::uint64_t upto);

struct JournalSources {
  const protocol::Journal& journal;
  const protocol::Journal& live_journal;
  std::uint64_t board_first_seq;             // where the board in progress starts (snapshot)
  std::function<nlohmann::json()> status;    // the status now, for snapshot (taken when the request comes)
};
// The read for `r`, capturing the seqs written so far; empty for a request that is not a journal read.
// The journals must outlive the function (the reader thread stops before they close).
std::function<nlohmann::json()> journal_read(const protocol::TypedRequest& r, const JournalSources& sources);

}  // namespace cardtable::daemon
