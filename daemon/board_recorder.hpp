// The board in progress as a record for the broadcast files: the deal from the master record, the
// contract when a director or the scenario gives it, and the tricks as the table reports them. What it
// builds is a bridge::BoardRecord: the broadcast writer gets the board, not event text.
#pragma once

#include <optional>
#include <string>

#include "bridge/board_record.hpp"
#include "bridge/master_record.hpp"
#include "table/command.hpp"
#include "table/event.hpp"

namespace cardtable::daemon {

class BoardRecorder {
 public:
  void on_event(const table::Event& e);          // play.trick: a trick, in seat order
  void on_contract(const table::ContractCommand& c);
  // The finished board: deal, dealer, vulnerability, the play, and Contract/Declarer/Result when the
  // contract is known. Forgets the board.
  bridge::BoardRecord finish(const bridge::MasterBoard& board, const std::string& event, const std::string& session,
                             const std::string& site);
  void reset();

 private:
  bridge::Play play_;
  bool have_leader_ = false;
  std::optional<table::ContractCommand> contract_;
};

}  // namespace cardtable::daemon
