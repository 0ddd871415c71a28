// Counts and runs of seqs as watch says them on stderr, singular for one: "1 live events past #100 (#150
// to #150)" read as a slip to a director deciding whether a table's afternoon is whole. Every other count
// cardtablectl prints goes through counted() too ("hub: 1 tables heard" at a one-table venue, "1 open alerts").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cardtable::tools {

// "1 live event", "3 live events": `noun` takes an s past one.
std::string counted(std::uint64_t n, std::string_view noun);
// "#4", "#1 to #40".
std::string seq_run(std::uint64_t first, std::uint64_t last);
// "event #4", "events #1 to #40".
std::string events_numbered(std::uint64_t first, std::uint64_t last);

}  // namespace cardtable::tools
