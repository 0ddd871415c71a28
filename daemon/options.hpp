// cardtabled's options: the same names on the command line and in the config file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "protocol/endpoint.hpp"
#include "protocol/heartbeat.hpp"

namespace cardtable::daemon {

using protocol::Endpoint;  // protocol/endpoint.hpp: the same rules as the hub's

struct Options {
  std::string tournament = "default", section = "A", table = "1";
  std::vector<std::string> masters;
  std::string simulate;            // a scenario file: the device "sim" replays it
  // A whole session generated from the master record (devices/sim/session_script.hpp) for the sim:
  // "EVENT/SESSION", its contract, the boards fouled (North's and East's hands exchanged).
  std::string simulate_session;
  std::string session_contract = "3NT S";
  std::vector<int> foul;
  std::string sim_faults;          // the sim's faults, "drop=P,misread=P,flicker=P,unplug=AT+FOR,seed=N"
  double speed = 1.0;
  bool loop = false;
  std::vector<std::string> devices;  // "NAME=DRIVER[:KEY=VALUE,...]" (daemon/device_manager.hpp)
  std::vector<std::string> zones;    // "ZONE=DEVICE[/antennaN]"; default: the scenario's zones, served by "sim"
  std::string decks;                 // folder of deck files (UID -> card), loaded at start and on SIGHUP
  std::string quirks;                // the reader quirk file; empty: the installed one
  double missed_replies_alert = 15;  // percent of a reader's replies missed that is device.health; 0: never
  // The table's timeouts in seconds (table/table_config.hpp); unset: the scenario's, else the defaults.
  std::optional<double> silence, pocket_gap, return_settle, board_allowance;
  Endpoint publish{true, "tcp://127.0.0.1:5551"};
  Endpoint control{true, "tcp://127.0.0.1:5552"};
  Endpoint live{true, "tcp://127.0.0.1:5553"};  // live.* (hand contents) for broadcasters, after the embargo
  double embargo = 0;              // seconds after the board is finished at this table
  std::string analyzer;            // cardtablectl, for the double-dummy tags of broadcast PBN files
  bool plaintext = false;
  std::string curve_secret;        // the daemon's CURVE keypair file: every endpoint encrypted
  std::string clients;             // folder of allowed client keys: director/*.pub, broadcaster/*.pub, hub/*.pub
  std::string hub_key;             // the hub's public key, for endpoints that connect to a hub with CURVE
  std::string state_dir = "/var/lib/cardtable";
  int journal_file_mb = 16;
  int journal_files = 16;
  double heartbeat = protocol::kHeartbeatDefaultSeconds;
};

struct ParseResult {
  std::optional<Options> options;  // nullopt: exit with `exit_code` after printing `message`
  int exit_code = 0;
  std::string message;             // --help text, or the error
};

ParseResult parse_options(int argc, const char* const* argv);

}  // namespace cardtable::daemon
