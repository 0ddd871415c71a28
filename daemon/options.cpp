#include "daemon/options.hpp"

#include <boost/program_options.hpp>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "daemon/config_file.hpp"
#include "protocol/wire_event.hpp"

namespace cardtable::daemon {
namespace po = boost::program_options;

ParseResult parse_options(int argc, const char* const* argv) {
  Options o;
  std::string config, publish, control, live;
  po::options_description identity("Identity");
  identity.add_options()
      ("tournament", po::value(&o.tournament)->default_value(o.tournament), "the tournament, as topics and events name it")
      ("section", po::value(&o.section)->default_value(o.section), "the section")
      ("table", po::value(&o.table)->default_value(o.table), "this table");
  po::options_description record("Master record and devices");
  record.add_options()
      ("master", po::value(&o.masters)->composing(), "a master record file or folder (PBN, LIN, DUP, DLM); repeat for more; reloaded on SIGHUP")
      ("simulate", po::value(&o.simulate), "a scenario file (docs/scenarios.md): the simulated table replays it")
      ("simulate-session", po::value(&o.simulate_session), "EVENT/SESSION, e.g. \"Spring Pairs/1\": the simulated table plays every board of that session of the master record (generated: the pockets emptied, the contract, the deal played out, the board returned and lifted away for the next; 80 s a board at --speed 1)")
      ("session-contract", po::value(&o.session_contract)->default_value(o.session_contract), "the contract of every board of --simulate-session, e.g. \"4S N\"")
      ("foul", po::value<std::string>(), "BOARD[,BOARD...]: boards of --simulate-session fouled before play (North's and East's hands exchanged: the table must report them)")
      ("sim-faults", po::value(&o.sim_faults), "KEY=VALUE,...: faults of the simulated table (--simulate or --simulate-session): drop=P (a reading lost), misread=P (a reading names another card), flicker=P (a reading empty for one poll), probabilities 0..1; unplug=AT+FOR (the reader away from AT ms for FOR ms, scenario time); seed=N")
      ("speed", po::value(&o.speed)->default_value(o.speed), "simulation speed, 0.001..10000: 1 is real time, 10 ten times faster")
      ("loop", po::bool_switch(&o.loop), "replay the scenario again and again")
      ("device", po::value(&o.devices)->composing(), "NAME=DRIVER[:KEY=VALUE,...]: a device, e.g. north=acr122u:port=1-1 or board0=cardtable-board (drivers: sim, acr122u, cardtable-board, camera; docs/hardware.md); a camera, e.g. cam0=camera:source=v4l2:/dev/video0,zones=/etc/cardtable/zones.txt, takes its zones from its calibration file")
      ("zone", po::value(&o.zones)->composing(), "ZONE=DEVICE[/antennaN]: which device (and antenna) serves a zone (pocket:N, play:W, dummy, scan, hand:E), e.g. play:N=board0/antenna2; default: the scenario's zones, served by sim")
      ("decks", po::value(&o.decks), "folder of deck files (UID -> card, docs/hardware.md), loaded at start and on SIGHUP")
      ("quirks", po::value(&o.quirks), "the reader quirk file (default: the installed readers.quirk; the source tree's, run from the build tree)")
      ("missed-replies-alert", po::value(&o.missed_replies_alert)->default_value(o.missed_replies_alert), "PERCENT: a reader missing this share of its replies over 400 reads that heard a card is device.health (state \"missing replies\"; readers miss about 3 %; from about 12 % the table begins to read wrongly), said again (\"good\") under half of it; 0: never");
  po::options_description timing("The table's timeouts (seconds; default: the scenario's, else the value shown)");
  timing.add_options()
      ("silence", po::value<double>(), "a zone not heard from for this long is unknown (reading.uncertain, cause silent); at least 1, and three polls of every reader [5]")
      ("pocket-gap", po::value<double>(), "at the station, a pause this long between cards starts the next pocket [2]")
      ("return-settle", po::value<double>(), "a board back with a pocket read in full under 13 cards is judged once no pocket's reading has changed for this long (a hand put away a few cards at a time; Law 7C) [3]")
      ("board-allowance", po::value<double>(), "a board still in play after this long is timing.slow_board [450]");
  po::options_description wire("Endpoints and state");
  wire.add_options()
      ("publish", po::value(&publish)->default_value("bind:tcp://127.0.0.1:5551"), "the PUB endpoint for events: [bind:|connect:]tcp://HOST:PORT or ipc://PATH")
      ("control", po::value(&control)->default_value("bind:tcp://127.0.0.1:5552"), "the control endpoint (ROUTER) for commands")
      ("live", po::value(&live)->default_value("bind:tcp://127.0.0.1:5553"), "the PUB endpoint for live.* events (the deal, the cards played): broadcasters only, after the embargo")
      ("embargo", po::value(&o.embargo)->default_value(o.embargo), "seconds after a board is finished at this table before its live.* events are released")
      ("analyzer", po::value(&o.analyzer), "cardtablectl, run as a short-lived process to add the double-dummy table to broadcast PBN files (default: where the package installs it, then beside cardtabled or in its build tree; a bare name is looked up on PATH)")
      ("plaintext", po::bool_switch(&o.plaintext), "allow unencrypted tcp (loopback addresses only); with no keys there are no roles: every client acts as a director")
      ("curve-secret", po::value(&o.curve_secret), "the daemon's CURVE keypair file (cardtablectl keygen): encrypt every endpoint")
      ("clients", po::value(&o.clients), "the allowed clients: a folder with director/, broadcaster/ and hub/ folders of .pub files")
      ("hub-key", po::value(&o.hub_key), "the hub's public key file: endpoints given as connect: are CURVE clients of the hub")
      ("state-dir", po::value(&o.state_dir)->default_value(o.state_dir), "where the event journal lives")
      ("journal-file-mb", po::value(&o.journal_file_mb)->default_value(o.journal_file_mb), "rotate the journal after this many MB")
      ("journal-files", po::value(&o.journal_files)->default_value(o.journal_files), "keep this many journal files")
      ("heartbeat", po::value(&o.heartbeat)->default_value(o.heartbeat), "seconds between daemon.heartbeat events");
  po::options_description general("General");
  general.add_options()("help,h", "this help")("version", "the version and the protocol version")(
      "config", po::value(&config), "a config file: the same names, one \"name = value\" a line");
  po::options_description all("cardtabled: reads the cards at a bridge table and publishes what it sees over ZeroMQ");
  all.add(general).add(identity).add(record).add(timing).add(wire);

  ParseResult r;
  po::variables_map vm;
  try {
    // No positional arguments: a stray word ("cardtabled north") was dropped without a word.
    po::store(po::command_line_parser(argc, argv).options(all).positional({}).run(), vm);
    if (vm.count("config")) {
      if (auto why = read_config_file(vm["config"].as<std::string>(), all, vm)) {
        r.exit_code = 2;
        r.message = "cardtabled: " + *why;
        return r;
      }
    }
    po::notify(vm);
  } catch (const po::error& e) {
    r.exit_code = 2;
    r.message = std::string("cardtabled: ") + e.what() + "\n(see cardtabled --help)";
    return r;
  }
  if (vm.count("help")) {
    std::ostringstream s;
    s << all;
    r.message = s.str();
    return r;
  }
  if (vm.count("version")) {
    r.message = "cardtabled " CARDTABLE_VERSION " (protocol " + std::to_string(protocol::kProtoMajor) + "." +
                std::to_string(protocol::kProtoMinor) + ")";  // it said 1.0 while daemon.version said 1.2
    return r;
  }
  auto fail = [&](const std::string& why) {
    r.exit_code = 2;
    r.message = "cardtabled: " + why + "\n(see cardtabled --help)";
    return r;
  };
  if (o.masters.empty()) return fail("give the master record with --master PATH");
  if (!o.simulate.empty() && !o.simulate_session.empty()) return fail("--simulate and --simulate-session: give one (the sim plays one script)");
  if (!o.simulate_session.empty()) {
    auto slash = o.simulate_session.rfind('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == o.simulate_session.size())
      return fail("--simulate-session " + o.simulate_session + ": expected EVENT/SESSION, e.g. \"Spring Pairs/1\"");
  }
  if (vm.count("foul")) {
    if (o.simulate_session.empty()) return fail("--foul needs --simulate-session (it fouls boards of the generated session)");
    std::istringstream list(vm["foul"].as<std::string>());
    for (std::string b; std::getline(list, b, ',');) {
      int n = 0;
      auto [end, ec] = std::from_chars(b.data(), b.data() + b.size(), n);
      if (ec != std::errc{} || end != b.data() + b.size() || n < 1) return fail("--foul " + vm["foul"].as<std::string>() + ": board numbers, e.g. 3,7");
      o.foul.push_back(n);
    }
  }
  if (!o.sim_faults.empty()) {
    if (o.simulate.empty() && o.simulate_session.empty()) return fail("--sim-faults needs --simulate or --simulate-session");
    std::istringstream list(o.sim_faults);
    for (std::string kv; std::getline(list, kv, ',');) {
      auto eq = kv.find('=');
      std::string key = kv.substr(0, eq);
      if (eq == std::string::npos || (key != "drop" && key != "misread" && key != "flicker" && key != "unplug" && key != "seed"))
        return fail("--sim-faults: '" + kv + "' is not one of drop=P, misread=P, flicker=P, unplug=AT+FOR, seed=N");
    }
  }
  if (!(o.speed >= 0.001 && o.speed <= 10000)) return fail("--speed must be 0.001..10000 (the simulated table's range)");
  if (o.speed != 1.0 && !o.devices.empty())
    return fail("--speed other than 1 runs the scenario's own clock; devices (--device) need the daemon's real clock");
  // The identity makes the topic class/TOURNAMENT/SECTION/TABLE/type: a '/' would add a part, and a
  // control character would reach a director's terminal.
  for (auto [name, value] : {std::pair{"--tournament", &o.tournament}, {"--section", &o.section}, {"--table", &o.table}}) {
    if (value->empty()) return fail(std::string(name) + " must not be empty");
    if (value->size() > 64) return fail(std::string(name) + " '" + value->substr(0, 64) + "...': at most 64 characters");
    for (char ch : *value)
      if (auto c = static_cast<unsigned char>(ch); c == '/' || c < 0x20 || c == 0x7f)
        return fail(std::string(name) + " '" + *value + "': no '/' and no control characters (it is a part of every topic)");
  }
  for (auto [name, into] : {std::pair{"silence", &o.silence}, {"pocket-gap", &o.pocket_gap}, {"return-settle", &o.return_settle},
                                 {"board-allowance", &o.board_allowance}}) {
    if (!vm.count(name)) continue;
    double v = vm[name].as<double>();
    // Above 0 (a timeout of nothing fires on every tick), at most a day (the scenarios' own bound).
    if (!(v > 0 && v <= 86400)) return fail(std::string("--") + name + " must be above 0 and at most 86400 seconds");
    *into = v;
  }
  // A zone is silent when its reader has missed many polls (50-100 ms each), not one late reply:
  // --silence 0.0001 (0 ms) called every zone silent at each tick and heard again at its next read,
  // 480 lines in 4 s on the demo table, and the director's screen full of "No reading from pocket:W".
  if (o.silence && *o.silence < 1) return fail("--silence must be at least 1 second (ten reader polls): a shorter silence is a late reply, not a silent reader");
  // Written as !(inside) so that nan is refused too.
  if (!(o.missed_replies_alert >= 0 && o.missed_replies_alert <= 100)) return fail("--missed-replies-alert must be a percent, 0 to 100 (0: never)");
  if (o.journal_files < 1) return fail("--journal-files must be 1 or more (the journal is where replays come from)");
  if (o.journal_file_mb < 1) return fail("--journal-file-mb must be 1 or more");
  if (o.journal_file_mb > 4096) return fail("--journal-file-mb: at most 4096");
  // Written as !(inside) so that nan is refused too: --embargo nan held every board for ever.
  if (!protocol::heartbeat_in_bounds(o.heartbeat)) return fail(std::string("--heartbeat ") + protocol::kHeartbeatBounds + " (subscribers see gaps through it)");
  if (!(o.embargo >= 0 && o.embargo <= 7 * 86400)) return fail("--embargo must be 0 to 604800 seconds (a week)");
  for (auto [name, text, into] : {std::tuple{"--publish", &publish, &o.publish}, {"--control", &control, &o.control}, {"--live", &live, &o.live}}) {
    std::string error;
    auto e = protocol::parse_endpoint(*text, error);
    if (!e) return fail(std::string(name) + ": " + error);
    *into = *e;
  }
  if (!o.curve_secret.empty() && o.clients.empty()) return fail("--curve-secret needs --clients: the folder of allowed client keys");
  if (o.curve_secret.empty() && !o.clients.empty()) return fail("--clients needs --curve-secret: the daemon's own keypair");
  // Named, as the hub names its own: a default endpoint the user never typed (--live's port 5553)
  // is otherwise a riddle.
  for (auto [name, e] : {std::pair{"--publish", &o.publish}, {"--control", &o.control}, {"--live", &o.live}})
    if (auto why = protocol::check_endpoint_security(*e, o.plaintext, !o.curve_secret.empty())) return fail(std::string(name) + ": " + *why);
  for (auto [name, e] : {std::pair{"--publish", &o.publish}, {"--control", &o.control}, {"--live", &o.live}})
    if (auto why = protocol::check_ipc_free(*e)) return fail(std::string(name) + ": " + *why);
  if (auto why = protocol::check_distinct_endpoints({{"--publish", o.publish}, {"--control", o.control}, {"--live", o.live}})) return fail(*why);
  r.options = o;
  return r;
}

}  // namespace cardtable::daemon
