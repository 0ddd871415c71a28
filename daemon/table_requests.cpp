#include "daemon/table_requests.hpp"

#include "daemon/journal_requests.hpp"
#include "daemon/wire_conversion.hpp"
#include "protocol/control.hpp"

namespace cardtable::daemon {
using nlohmann::json;
using protocol::error_reply;
using protocol::ok_reply;

std::optional<json> TableRequests::route(const protocol::TypedRequest& r,
                                         const ControlServer::Caller& caller) {
  auto read = journal_read(r);
  if (!read || !caller.envelope) return dispatch(r, caller.role);
  // Journal reads go to the reader thread, a bounded number per client: the loop keeps publishing.
  if (auto why = reader_.refuse(caller.envelope->front()))
    return error_reply(std::string(protocol::command_name(r)) + ": refused: " + *why);
  reader_.submit({*caller.envelope, std::move(read)});
  return std::nullopt;
}

std::function<json()> TableRequests::journal_read(const protocol::TypedRequest& r) const {
  return daemon::journal_read(r, {publisher_.journal(), publisher_.live_journal(), table_.board_first_seq(),
                                  [this] { return table_.status(); }});
}

json TableRequests::dispatch(const protocol::TypedRequest& r, const std::string& role) {
  if (auto read = journal_read(r)) return read();  // a caller with no envelope (fuzz, tests): at once
  return std::visit(
      [&](const auto& request) -> json {
        if constexpr (requires { on(request, role); })
          return on(request, role);
        else
          return error_reply("no handler");  // never: every other request is a journal read
      },
      r);
}

json TableRequests::on(const protocol::VersionRequest&, const std::string&) {
  return ok_reply({{"proto_major", protocol::kProtoMajor},
                   {"proto_minor", protocol::kProtoMinor},
                   {"daemon", CARDTABLE_VERSION}});
}

json TableRequests::on(const protocol::StatusRequest&, const std::string&) {
  return ok_reply({{"status", table_.status()}});
}

json TableRequests::on(const protocol::AlertsRequest&, const std::string&) {
  json open = alerts_.open();
  return ok_reply({{"count", open.size()}, {"alerts", std::move(open)}, {"journal", publisher_.journal().id()}});
}

json TableRequests::table_command(table::Command cmd, const std::string& what) {
  // The table's own reason is the answer (a board not in the master record, a contract it cannot read).
  if (auto rejected = table_.command(cmd))
    return error_reply(what + ": the table rejected '" + cmd.text + "': " + *rejected + " (event " +
                       std::to_string(publisher_.journal().last_seq()) + ")");
  return ok_reply({{"last_seq", publisher_.journal().last_seq()}});
}

json TableRequests::on(const protocol::BoardRequest& r, const std::string&) {
  table::Command cmd;
  cmd.kind = table::Command::Kind::Board;
  cmd.text = r.label;
  json reply = table_command(cmd, "board");
  // The board.identified the label made is the reply's own seq, as contract's and ack's name theirs:
  // last_seq is the table's last event, which may be one the identification made after it (a deal that
  // does not match, an unshuffled deck). The label of the board in progress makes none (read again, it is
  // no news: table/table.cpp, label_names_board_in_progress): the reply names the board.identified that
  // identified it, still in force (no new field: `seq` is the board.identified of the board named).
  if (reply.value("ok", false) && table_.last_identified_seq() > 0) reply["seq"] = table_.last_identified_seq();
  return reply;
}

json TableRequests::on(const protocol::ContractRequest& r, const std::string& role) {
  table::Command cmd;
  cmd.kind = table::Command::Kind::Contract;
  cmd.text = r.contract;
  json reply = table_command(cmd, "contract");
  if (!reply.value("ok", false)) return reply;
  // Every director sees the contract a director gave (the console, watch), not only the one who gave it.
  auto e = daemon_event("director.contract", "info", "Contract " + r.contract + " given by the " + role,
                        options_, clock_.wall(), clock_.mono());
  if (int board = table_.board_in_play()) e.board = board;
  e.evidence = {{"contract", r.contract}};
  table_.publish(e);
  reply["seq"] = e.seq;
  reply["last_seq"] = e.seq;
  return reply;
}

json TableRequests::on(const protocol::AckRequest& r, const std::string&) {
  if (auto why = protocol::refuse_other_journal(r, publisher_.journal().id())) return error_reply(*why);
  if (r.seq > publisher_.journal().last_seq()) return error_reply("ack: no event " + std::to_string(r.seq));
  if (auto why = alerts_.refuse_ack(r.seq)) return error_reply("ack: " + *why);
  auto e = daemon_event("director.ack", "info", "Event " + std::to_string(r.seq) + " acknowledged by " + r.by,
                        options_, clock_.wall(), clock_.mono());
  e.evidence = {{"seq", std::to_string(r.seq)}, {"by", r.by}};
  table_.publish(e);
  // An acknowledgement confirmed is on the disk (fdatasync): a power cut after the reply keeps it and
  // every event before it (tests/integration/power_cut_test.cpp).
  publisher_.flush();
  return ok_reply({{"seq", e.seq}});
}

json TableRequests::on(const protocol::LoadRecordRequest& r, const std::string&) {
  try {
    table_.reload(r.paths.value_or(options_.masters));
  } catch (const std::exception& e) {
    table_.refuse_reload(e.what());
    return error_reply(std::string("load-record: ") + e.what() + "; the previous record stays");
  }
  return ok_reply({{"boards", table_.master_boards()}});
}

}  // namespace cardtable::daemon
