// cardtablectl's side of the wire: watch (SUB), and the control commands (status, snapshot, replay, ack,
// board, contract).
#pragma once

#include <string>
#include <vector>

namespace cardtable::tools {

int run_watch(const std::vector<std::string>& args);
// status, version, snapshot, alerts, replay, replay-live, evidence, ack, board, contract, load-record: one
// request to the control endpoint.
bool is_control_command(const std::string& name);
int run_control(const std::string& command, const std::vector<std::string>& args);
// keygen NAME [--dir DIR]: a CURVE keypair, NAME.key (0600) and NAME.pub.
int run_keygen(const std::vector<std::string>& args);

}  // namespace cardtable::tools
