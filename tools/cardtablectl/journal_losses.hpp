// What a `replay` page says a table's journal no longer holds or cannot read (protocol.md, `replay`): the
// events from `since` up to where the page begins were rotated away (its `first_available` is past them),
// and `unreadable` names seqs whose journal lines are damaged on the disk. A watch that showed what came
// and said nothing of these let a director take a partial afternoon for the whole one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cardtable::tools {

// The losses a page of a journal asked for from seq `since` shows, each a sentence about "its journal"
// (the caller names the table); none when the page holds every seq it covers.
std::vector<std::string> journal_losses(const nlohmann::json& reply, std::uint64_t since);

}  // namespace cardtable::tools
