// cardtablectl's side of the wire: watch (SUB), and the control commands (status, snapshot, replay, ack,
// board, contract).
#pragma once

#include <string>
#include <vector>

namespace cardtable::tools {

int run_watch(const std::vector<std::string>& args);
// status, snapshot, replay, ack, board, contract: one request to the control endpoint.
int run_control(const std::string& command, const std::vector<std::string>& args);
// keygen NAME [--dir DIR]: a CURVE keypair, NAME.key (0600) and NAME.pub.
int run_keygen(const std::vector<std::string>& args);

}  // namespace cardtable::tools
