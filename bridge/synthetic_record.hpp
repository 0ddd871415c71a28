// Synthetic master records: random deals numbered in sessions, for demos, tests and benchmarks.
#pragma once

#include <cstdint>
#include <string>

#include "bridge/master_record.hpp"
#include "bridge/pbn_reader.hpp"

namespace cardtable::bridge {

// `boards` records of event `event`, `per_session` boards a session (Round "1", "2", ...), board numbers
// restarting at 1 each session, dealer and vulnerability by board number. The same seed, the same deals.
void synthetic_records(int boards, int per_session, std::uint64_t seed, const std::string& event, const BoardSink& sink);
// The same records added to `master`: the record a test or a benchmark plays against.
void add_synthetic_records(MasterRecord& master, int boards, int per_session, std::uint64_t seed, const std::string& event);

}  // namespace cardtable::bridge
