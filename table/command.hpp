// What a person (director, operator) or the daemon tells the table.
#pragma once

#include <optional>
#include <string>

#include "bridge/board_record.hpp"
#include "bridge/master_record.hpp"
#include "table/observation.hpp"

namespace cardtable::table {

struct Command {
  enum class Kind : std::uint8_t {
    Board,     // text: the board label: "7", "2/7" (session/board) or "Event/2/7"
    Contract,  // text: "4HX N", "3NT by W", "pass" (passed out)
    Pocket,    // seat: the pocket the scan slot reads next (board-checking station)
    Check,     // evaluate the board read so far at the station now
  } kind = Kind::Board;
  std::string text;
  Seat seat = Seat::North;
  Millis time = 0;
};

// "4HX N", "4H X by N", "3NT W", "pass": nullopt contract for pass; error text when unreadable.
struct ContractCommand {
  bool passed_out = false;
  bridge::Contract contract;
};
std::optional<ContractCommand> parse_contract_command(std::string_view text);

// The board a label names: "7" (in `current_session` when it has one, else another session of its event
// with a board 7, else the only session of the record that has one), "2/7" (session 2 of the current
// session's event when it has one, else the only event with a session 2 and a board 7) or "Event/2/7".
// nullopt when it names none, or more than one and nothing being played tells which.
std::optional<std::uint32_t> resolve_board_label(const bridge::MasterRecord& master, const std::string& label,
                                                 std::optional<std::uint32_t> current_session);
// Every board the label could name by the rules above (one, none, or several when it is ambiguous).
std::vector<std::uint32_t> boards_named_by_label(const bridge::MasterRecord& master, const std::string& label,
                                                 std::optional<std::uint32_t> current_session);
// Why a label named no single board, for a director: "No board 'X' in the master record", or the boards
// it could be and the full label that would name one.
std::string board_label_problem(const bridge::MasterRecord& master, const std::string& label, const std::vector<std::uint32_t>& named);

}  // namespace cardtable::table
