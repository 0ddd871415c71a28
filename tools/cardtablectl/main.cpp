// cardtablectl: the command-line face of cardtable.
#include <iostream>
#include <string>
#include <vector>

#include "records_command.hpp"
#include "control_client.hpp"
#include "enroll_command.hpp"
#include "simulate_command.hpp"

namespace {
constexpr const char* kUsage =
    "usage: cardtablectl <command> [options]\n"
    "\n"
    "commands:\n"
    "  records   validate, show, convert, look up and analyse master-record files (PBN, LIN, DUP, DLM)\n"
    "  simulate  run the table over a scenario and print the events it publishes\n"
    "  watch     show what a running cardtabled publishes (--json for machines)\n"
    "  status, version, snapshot, alerts, replay --since N, replay-live --since N, evidence SEQ,\n"
    "  ack SEQ [--by NAME] [--journal ID], board LABEL, contract \"4HX S\", load-record [PATH...]\n"
    "            ask a running cardtabled through its control endpoint; status, version, snapshot and\n"
    "            alerts also a hub's (every table's), the others only a table's own\n"
    "  keygen    write a CURVE keypair (NAME.key, NAME.pub)\n"
    "  enroll    learn a pack of RFID cards at the scan reader and write its deck file\n"
    "\n"
    "cardtablectl <command> --help tells more. Exit status: 0 all well, 1 problems found, 2 wrong usage.\n";
}

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return cardtable::tools::kExitUsage;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage;
    return cardtable::tools::kExitOk;
  }
  if (args[0] == "--version") {
    std::cout << "cardtablectl " CARDTABLE_VERSION "\n";
    return cardtable::tools::kExitOk;
  }
  if (args[0] == "records") return cardtable::tools::run_records({args.begin() + 1, args.end()});
  if (args[0] == "simulate") return cardtable::tools::run_simulate({args.begin() + 1, args.end()});
  if (args[0] == "watch") return cardtable::tools::run_watch({args.begin() + 1, args.end()});
  if (args[0] == "enroll") return cardtable::tools::run_enroll({args.begin() + 1, args.end()});
  if (args[0] == "keygen") return cardtable::tools::run_keygen({args.begin() + 1, args.end()});
  if (cardtable::tools::is_control_command(args[0])) return cardtable::tools::run_control(args[0], {args.begin() + 1, args.end()});
  std::cerr << "cardtablectl: unknown command '" << args[0] << "'\n\n" << kUsage;
  return cardtable::tools::kExitUsage;
}
