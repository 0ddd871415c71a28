#include "control_client.hpp"
#include "protocol/heartbeat.hpp"
#include "protocol/json_fields.hpp"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <ctime>
#include <optional>
#include <csignal>
#include <functional>
#include <iostream>

#include "bridge/board_record.hpp"
#include "counted_words.hpp"
#include "hand_diagram.hpp"
#include "journal_losses.hpp"
#include "live_backlog.hpp"
#include "number_args.hpp"
#include "protocol/curve_keys.hpp"
#include "protocol/requests.hpp"
#include "records_command.hpp"
#include "heard_tables.hpp"
#include "shown_events.hpp"
#include "since_plan.hpp"
#include "table_controls.hpp"
#include "terminal_text.hpp"
#include "venue_replay.hpp"

namespace cardtable::tools {
namespace po = boost::program_options;
using json = nlohmann::json;

namespace {

volatile std::sig_atomic_t g_stop = 0;

// CURVE on the client side: our keypair and the servers' public keys, read once, when the options are.
// watch speaks to two servers: its --endpoint (a hub's downstream, encrypted with the hub's key) and
// --control (the table's own daemon, its own key): one key for both made every status and replay question
// through a CURVE hub fail its handshake in silence, and no gap was ever filled.
struct Curve {
  std::string key_file, server_file, control_server_file;
  std::optional<cardtable::protocol::Keypair> mine;
  std::string server_public, control_public;  // --endpoint's (watch) and --control's (every request)
};
// Reads the files of --key, --server-key and (watch) --control-server-key: nullopt when all is well (or
// CURVE is not asked for), else the reason, which names the option and the file.
std::optional<std::string> load_curve(Curve& c, const po::variables_map& vm) {
  const bool key = vm.count("key") > 0, server = vm.count("server-key") > 0, control = vm.count("control-server-key") > 0;
  if (control && !(key && server)) return "--control-server-key goes with --key and --server-key";
  if (!key && !server) return std::nullopt;
  // Given empty ("--key=", a variable that was not set), it was no CURVE at all, without a word.
  if (key && c.key_file.empty()) return "--key names no file";
  if (server && c.server_file.empty()) return "--server-key names no file";
  if (!key || !server) return "CURVE needs both --key (yours) and --server-key (the daemon's .pub)";
  std::string error;
  // The key is a person's, like an ssh private key: its owner's alone, whatever the group. Others who
  // can read it can act as the director on the wire.
  c.mine = cardtable::protocol::read_secret_key_file(c.key_file, error, cardtable::protocol::SecretKeyReader::person);
  if (!c.mine) return "--key " + error;
  auto server_key = cardtable::protocol::read_key_file(c.server_file, error);
  if (!server_key) return "--server-key " + error;
  c.server_public = c.control_public = server_key->public_key;
  if (control) {
    if (c.control_server_file.empty()) return "--control-server-key names no file";
    auto control_key = cardtable::protocol::read_key_file(c.control_server_file, error);
    if (!control_key) return "--control-server-key " + error;
    c.control_public = control_key->public_key;
  }
  return std::nullopt;
}
// `server_public`: the key of the server this socket connects to (Curve::server_public or control_public).
void apply_curve(zmq::socket_t& s, const Curve& c, const std::string& server_public) {
  if (!c.mine) return;
  s.set(zmq::sockopt::curve_serverkey, server_public);
  s.set(zmq::sockopt::curve_publickey, c.mine->public_key);
  s.set(zmq::sockopt::curve_secretkey, c.mine->secret_key);
}
Curve g_curve;

std::string endpoint_address(std::string e) {
  if (e.starts_with("connect:")) e.erase(0, 8);
  if (e.starts_with("bind:")) e.erase(0, 5);
  return e;
}

// A live.deal as the hand diagram people know.
std::string deal_diagram(const json& e) {
  if (!e.contains("evidence")) return {};
  const json& ev = e["evidence"];
  auto deal = bridge::Deal::parse_pbn(ev.value("deal", ""));
  if (!deal) return {};
  bridge::BoardRecord r;
  r.deal = deal;
  r.board = e.value("board", 0);
  // The only text the diagram takes from the wire: escaped here, so that the diagram keeps its own line
  // breaks (escaping the whole diagram printed it as one line of \x0a).
  r.event = printable(e.value("event", ""));
  r.session = printable(e.value("session", ""));
  r.dealer = bridge::parse_seat(ev.value("dealer", ""));
  r.vulnerability = bridge::parse_vulnerability(ev.value("vulnerable", ""));
  return hand_diagram(r);
}

// The wall-clock time of an event, HH:MM:SS local time.
std::string clock_time(const json& e) {
  if (!e.contains("time") || !e["time"].is_number()) return "--:--:--";
  std::time_t t = static_cast<std::time_t>(e["time"].get<double>());
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
  return buf;
}

// One line for people: time, table, severity (alerts in red on a terminal), seq, board, message; a
// live.deal, the hand diagram. Every text from the wire goes through printable(): no control character
// reaches the terminal.
std::string human(const json& e, bool colour) {
  if (e.value("type", "") == "live.deal")
    if (std::string d = deal_diagram(e); !d.empty()) return d;
  std::string sev = e.value("severity", "info");
  std::string line = clock_time(e) + " " + printable(table_of(e)) + " ";
  if (const std::uint64_t seq = protocol::seq_field(e)) line += "#" + std::to_string(seq) + " ";
  if (e.contains("board") && e["board"].is_number_integer()) line += "[board " + std::to_string(e["board"].get<int>()) + "] ";
  std::string message = e.value("message", e.value("type", ""));
  line += printable(message);
  if (e.contains("laws") && e["laws"].is_array()) {
    std::string laws;
    for (const auto& l : e["laws"])
      if (l.is_string()) laws += (laws.empty() ? "" : ", ") + printable(l.get<std::string>());
    if (!laws.empty() && line.find("Law") == std::string::npos) line += " (Law " + laws + ")";
  }
  if (!colour) return (sev == "alert" ? "ALERT " : sev == "warning" ? "warn  " : "      ") + line;
  if (sev == "alert") return "\033[1;31m" + line + "\033[0m";
  if (sev == "warning") return "\033[33m" + line + "\033[0m";
  return line;
}

// An `evidence` reply for a director at a terminal: the event's line with its card detail (card_message),
// then what the line cannot say, one item a line: the seats, the event's own evidence (expected, observed,
// counts...) with the card detail over it where both name one thing (as the web console's Evidence box),
// and the journal `ack --journal` takes. Only the card detail was printed: for the alerts that name no card
// (a wrong count, a lead out of turn) that was the message again, and the seats and counts were lost.
std::string evidence_text(const json& reply, bool colour) {
  const json event = reply.contains("event") && reply["event"].is_object() ? reply["event"] : json::object();
  json line = event;
  if (const std::string card = reply.value("card_message", ""); !card.empty()) line["message"] = card;
  if (!line.contains("seq") && reply.contains("seq")) line["seq"] = reply["seq"];
  std::string out = human(line, colour) + '\n';
  if (event.contains("seats") && event["seats"].is_array() && !event["seats"].empty()) {
    std::string seats;
    for (const auto& s : event["seats"]) seats += (seats.empty() ? "" : ", ") + printable(s.is_string() ? s.get<std::string>() : s.dump());
    out += "  seats: " + seats + '\n';
  }
  json fields = event.contains("evidence") && event["evidence"].is_object() ? event["evidence"] : json::object();
  if (reply.contains("card_evidence") && reply["card_evidence"].is_object()) fields.update(reply["card_evidence"]);
  for (const auto& [k, v] : fields.items()) out += "  " + printable(k) + ": " + printable(v.is_string() ? v.get<std::string>() : v.dump()) + '\n';
  if (event.contains("journal") && event["journal"].is_string()) out += "  journal: " + printable(event["journal"].get<std::string>()) + '\n';
  return out;
}

// Polls the reply with the subscriber of `meanwhile` when there is one: what is published while the
// reply is awaited is read into it (a --since replay's pages take minutes at a large venue). A stop
// signal ends the wait (false): a director's Ctrl-C during a replay waited out the page's 3 s. Polled in
// slices, so that a signal that comes between the check and the poll is seen within one.
bool await_reply(zmq::socket_t& s, int timeout_ms, LiveBacklog* meanwhile) {
  constexpr std::chrono::milliseconds kSlice(100);
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  for (auto now = std::chrono::steady_clock::now(); now < end && !g_stop; now = std::chrono::steady_clock::now()) {
    std::array<zmq::pollitem_t, 2> items{zmq::pollitem_t{s.handle(), 0, ZMQ_POLLIN, 0}, meanwhile ? meanwhile->poll_item() : zmq::pollitem_t{}};
    try {
      zmq::poll(items.data(), meanwhile ? items.size() : 1, std::min(kSlice, std::chrono::duration_cast<std::chrono::milliseconds>(end - now)));
    } catch (const zmq::error_t&) {
      continue;  // interrupted: the time left is awaited, unless it was a stop
    }
    if (meanwhile && (items[1].revents & ZMQ_POLLIN)) meanwhile->read();
    if (items[0].revents & ZMQ_POLLIN) return true;
  }
  return false;
}

// `ctx`: the caller's, one for every request of a cardtablectl run: a context of its own per request
// started and stopped an I/O thread each time, once per page of 5,000 events of a --since replay (the
// caller's outlives this socket, closed here with linger 0, so its end never waits on one).
// `server_public`: the endpoint's CURVE key; --control's by default.
std::optional<json> request(zmq::context_t& ctx, const std::string& endpoint, const json& body, int timeout_ms, std::string& error,
                            const std::string& server_public = g_curve.control_public, LiveBacklog* meanwhile = nullptr) {
  zmq::socket_t s(ctx, zmq::socket_type::req);
  s.set(zmq::sockopt::linger, 0);
  apply_curve(s, g_curve, server_public);
  try {
    s.connect(endpoint_address(endpoint));
    s.send(zmq::buffer(body.dump()));
    zmq::message_t reply;
    if (!await_reply(s, timeout_ms, meanwhile) || !s.recv(reply, zmq::recv_flags::dontwait)) {
      error = "no reply from " + endpoint + " within " + std::to_string(timeout_ms) + " ms (is cardtabled, or the hub, running there?" +
              // A CURVE handshake with the wrong server key fails without a word: it looks the same.
              (g_curve.mine ? std::string(" with CURVE, is the server key given its own?") : std::string()) + ")";
      return std::nullopt;
    }
    json j = json::parse(reply.to_string_view(), nullptr, false);
    if (j.is_discarded()) {
      error = "the reply is not JSON";
      return std::nullopt;
    }
    return j;
  } catch (const zmq::error_t& e) {
    error = endpoint + ": " + e.what();
    return std::nullopt;
  }
}

}  // namespace

int run_watch(const std::vector<std::string>& args) {
  std::string endpoint, control;
  std::vector<std::string> filters;
  double seconds = 0, heartbeat = protocol::kHeartbeatDefaultSeconds;
  po::options_description opts("cardtablectl watch [options]");
  opts.add_options()("help,h", "this help")("endpoint,e", po::value(&endpoint)->default_value("tcp://127.0.0.1:5551"), "cardtabled's PUB endpoint, or a hub's downstream (every table's)")(
      "control,c", po::value(&control)->default_value("tcp://127.0.0.1:5552"), "its control endpoint, to replay what came before and gaps; through a hub, "
      "the hub's (it names each table's own endpoint and key from its --table-control: every such table's gaps are filled), or one "
      "table's (with CURVE its key in --control-server-key); the gaps of a table no endpoint serves are named on stderr")(
      "since", po::value<std::vector<std::string>>()->composing(),
      "first replay the journal from this seq (1 or more). Seqs are per table: through a hub (-c the hub's control endpoint), N is "
      "every table's journal from its seq N (1: the whole session), each from the table's own control endpoint as the hub names it; "
      "TOURNAMENT/SECTION/TABLE:SEQ (repeat for more) one table's from SEQ, over N for that table. The tables' events come "
      "merged oldest first by each event's own time (ties: by table, then seq), a page of each table's journal at a time, then "
      "the live ones (those published meanwhile read as they come and held, 100000 at most: past that, said on stderr and "
      "replayed as gaps). Events a table's journal no longer holds (rotated away) or cannot read (damaged lines) are said on "
      "stderr, with their seqs. A table the hub names no "
      "endpoint for is said on stderr, not replayed, and watch exits 1 at its end; a watch given --since says on stderr "
      "when it ends the --since options that go on from where it stopped. Stopped during the replay (SIGTERM, SIGINT), it "
      "asks for no more pages, shows those it has as far as every table's next event is known (the time order), says from "
      "which seq each table was not shown, shows the live events held that follow on from it, and exits 0: the next watch "
      "given those options shows exactly the rest; stopped after it with a table's gap not yet replayed, the gap and the "
      "events after it are left to the next watch (counted on stderr), whose options start at the gap. A gap said on stderr and "
      "not filled (no endpoint replays the table, or its replay failed) holds the table's option at the gap's first seq, as "
      "stderr says: the next watch shows the gap, and again the events this one showed past it")(
      "filter,f", po::value(&filters)->composing(), "topic prefix, e.g. irregularity/ (repeat for more; default: everything)")(
      "seconds", po::value(&seconds)->default_value(0), "stop after this many seconds (0: until interrupted); stopped (this, SIGTERM, SIGINT), the events received already "
      "are shown first")(
      "heartbeats", "show daemon.heartbeat events too")(
      "heartbeat", po::value(&heartbeat)->default_value(protocol::kHeartbeatDefaultSeconds), "seconds between the daemons' heartbeats (their --heartbeat), until a heartbeat says its own (protocol 1.7 and later): nothing heard "
      "for three of them, watch says so on stderr, once, and goes on listening; through a hub, of each table silent while others are heard")(
      "json", "one JSON event a line")(
      "live", "watch the live.* stream instead (the deal and the cards played, after the embargo; broadcasters)")(
      "key", po::value(&g_curve.key_file), "your CURVE keypair file (when the daemon encrypts): yours alone, mode 0600")(
      "server-key", po::value(&g_curve.server_file), "the public key file of --endpoint: the daemon's, or the hub's when watching through one")(
      "control-server-key", po::value(&g_curve.control_server_file),
      "the public key file of --control when it is not --server-key's: through a hub, the table's own (its daemon's .pub)");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "cardtablectl watch: " << e.what() << "\n(see cardtablectl watch --help)\n";
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << opts;
    return kExitOk;
  }
  if (auto why = load_curve(g_curve, vm)) {
    std::cerr << "cardtablectl watch: " << *why << "\n(see cardtablectl watch --help)\n";
    return kExitUsage;
  }
  if (!protocol::heartbeat_in_bounds(heartbeat)) {  // the daemon's own bounds
    std::cerr << "cardtablectl watch: --heartbeat " << protocol::kHeartbeatBounds << ", as cardtabled's\n(see cardtablectl watch --help)\n";
    return kExitUsage;
  }
  // Taken before anything is awaited: taken after the --since replay, a stop during it (Ctrl-C, systemd
  // stopping the unit) killed the watch, and the pages it had, the live events it held and the line that
  // says where to go on from were lost.
  std::signal(SIGINT, [](int) { g_stop = 1; });
  std::signal(SIGTERM, [](int) { g_stop = 1; });
  bool as_json = vm.count("json") > 0, colour = !as_json && ::isatty(1);
  bool heartbeats = vm.count("heartbeats") > 0;
  bool live = vm.count("live") > 0;
  if (live && vm["endpoint"].defaulted()) endpoint = "tcp://127.0.0.1:5553";
  const char* replay_command = live ? "replay-live" : "replay";
  ShownEvents shown([&](const json& e) { return as_json ? e.dump(-1, ' ', true, json::error_handler_t::replace) : human(e, colour); }, filters,
                    heartbeats);
  zmq::context_t ctx;
  zmq::socket_t sub(ctx, zmq::socket_type::sub);
  apply_curve(sub, g_curve, g_curve.server_public);
  try {
    sub.connect(endpoint_address(endpoint));
    if (filters.empty()) sub.set(zmq::sockopt::subscribe, "");
    for (const auto& f : filters) sub.set(zmq::sockopt::subscribe, f);
    sub.set(zmq::sockopt::subscribe, "daemon/");  // heartbeats tell the last seq: gaps are replayed
  } catch (const zmq::error_t& e) {
    std::cerr << "cardtablectl watch: " << endpoint << ": " << e.what() << '\n';
    return kExitProblems;
  }
  // Which control endpoint replays which table's journal: --control's own table, or through a hub (1.5)
  // every table it names. Asked without waiting (each blocking question froze the event stream 1 s every
  // 30 s while --control did not answer); only the first question is awaited, before any event is shown
  // (the subscription holds them), so that the first gaps are filled rather than named.
  const auto secure = [](zmq::socket_t& s, const std::string& key) { apply_curve(s, g_curve, key); };
  TableControls controls(ctx, endpoint_address(control), g_curve.control_public, secure);
  // Said once: a control endpoint that does not answer leaves every gap unfilled. With CURVE a wrong server
  // key looks the same as a daemon that is down (the handshake fails without a word).
  auto say_silence = [&](std::chrono::steady_clock::time_point now) {
    if (auto why = controls.silence(now))
      std::cerr << "cardtablectl watch: --control: " << printable(*why) << " (is cardtabled, or the hub, running there?"
                << (g_curve.mine ? " with CURVE, is the server key given its own?" : "") << "): gaps are named, not filled; "
                << (g_curve.mine && !vm.count("control-server-key")
                        ? "through a hub, --server-key is the hub's key and --control-server-key the table's (its daemon's .pub), "
                          "or -c is the hub's control endpoint; "
                        : "")
                << "asked again every 30 s\n";
  };
  controls.ask(std::chrono::steady_clock::now());
  while (controls.waiting() && !g_stop) {
    zmq::pollitem_t item{controls.waiting()->handle(), 0, ZMQ_POLLIN, 0};
    try {
      zmq::poll(&item, 1, std::chrono::milliseconds(50));
    } catch (const zmq::error_t&) {
      break;
    }
    if (item.revents & ZMQ_POLLIN) controls.take_answer();
    say_silence(std::chrono::steady_clock::now());
  }
  // What is published while the journals are asked (--since) is read as it comes and shown after.
  LiveBacklog backlog(sub);
  const auto ask = [&ctx, &backlog](const TableControl& to, const json& body, std::string& error) {
    return request(ctx, to.endpoint, body, 3000, error, to.server_key, &backlog);
  };
  VenueReplay venue(ctx, replay_command, controls, shown, ask, secure,
                    g_curve.mine ? " --key " + g_curve.key_file + " --server-key TABLE.pub" : std::string(), [] { return g_stop != 0; });
  std::string since_why;
  const auto since = SincePlan::parse(vm.count("since") ? vm["since"].as<std::vector<std::string>>() : std::vector<std::string>{}, since_why);
  if (!since) {
    std::cerr << "cardtablectl watch: " << since_why << "\n(see cardtablectl watch --help)\n";
    return kExitUsage;
  }
  if (!venue.replay_since(*since, control, {endpoint_address(control), g_curve.control_public})) return kExitProblems;
  const auto start = std::chrono::steady_clock::now();
  // A subscriber cannot tell a wrong endpoint or a stopped daemon from a quiet table: said (not on the
  // live endpoint: it carries no heartbeat, and a board's cards come only when it is finished).
  HeardTables heard(endpoint, !live, heartbeat, start);
  // One live event's body, shown as the live path shows it: its gap replayed first, a seq already
  // shown (by the replay) not shown again.
  const auto take_live = [&](std::string_view body, std::chrono::steady_clock::time_point now) {
    json e = json::parse(body, nullptr, false);
    if (!shown.well_formed(e)) return;  // not JSON, or of another shape: said
    const std::string table = table_of(e);
    if (heard.table(table, now)) venue.first_heard(table);
    // A heartbeat that says its period (protocol 1.7) is believed over --heartbeat, for that table.
    if (protocol::string_field(e, "type") == "daemon.heartbeat")
      if (const auto every = protocol::heartbeat_every(e)) heard.heartbeat_period(table, *every);
    venue.handle(std::move(e));
  };
  // What the backlog holds, oldest first (what came during --since; at a stop, what the socket held).
  const auto take_backlog = [&] {
    backlog.read();
    if (const std::size_t let_go = backlog.take_let_go())
      std::cerr << "cardtablectl watch: " << counted(let_go, "live event") << " came past the " << LiveBacklog::kLimit
                << " held while the journals were replayed: not held, their gaps are replayed as any gap is\n";
    for (std::string body; backlog.take(body);) take_live(body, std::chrono::steady_clock::now());
  };
  take_backlog();
  while (!g_stop) {
    const auto now = std::chrono::steady_clock::now();
    if (seconds > 0 && now - start > std::chrono::duration<double>(seconds)) break;
    heard.say_silent_tables(now);
    controls.ask(now);
    say_silence(now);
    // The events, --control's answer, and each page of a gap being replayed.
    std::vector<zmq::pollitem_t> items{{sub.handle(), 0, ZMQ_POLLIN, 0}, {nullptr, 0, 0, 0}};
    if (controls.waiting()) items[1] = {controls.waiting()->handle(), 0, ZMQ_POLLIN, 0};
    for (const auto& r : venue.poll_items()) items.push_back(r);
    try {
      zmq::poll(items.data(), items.size(), std::chrono::milliseconds(200));
    } catch (const zmq::error_t&) {
      break;  // interrupted
    }
    if (items[1].revents & ZMQ_POLLIN) controls.take_answer();
    venue.take(items.data() + 2, std::chrono::steady_clock::now());
    if (!(items[0].revents & ZMQ_POLLIN)) {
      heard.nothing(now);
      continue;
    }
    heard.message(now);
    std::vector<zmq::message_t> frames;
    if (!zmq::recv_multipart(sub, std::back_inserter(frames), zmq::recv_flags::dontwait) || frames.size() != 2) continue;
    take_live(frames[1].to_string_view(), now);
  }
  // Stopped (a signal, --seconds): the replays running end, then the events received already, queued in
  // the socket, are shown, not dropped (a gap among them is said, or left to the next watch); nothing more
  // is awaited.
  venue.stop();
  take_backlog();
  venue.say_left();
  // A director resuming: the next watch goes on from here, table by table (seqs are per table).
  if (!since->empty())
    if (std::string next = resume_options(*since, shown.last_seqs(), shown.first_not_shown()); !next.empty()) std::cerr << "cardtablectl watch: to go on from here: " << next << '\n';
  return venue.incomplete() ? kExitProblems : kExitOk;
}

namespace {

// What each control command takes: its arguments and options, for its own --help.
struct ControlCommand {
  const char* name;
  const char* usage;    // after "cardtablectl NAME"
  const char* summary;  // what it does
};
const ControlCommand kControlCommands[] = {
    {"status", "", "the table's state: phase, board, last seq, endpoints, open alerts; at a hub's control endpoint, the hub's counts and "
                   "its silent tables (exit 1 when one is)"},
    {"version", "", "the daemon's version and protocol version (or the hub's)"},
    {"snapshot", "", "the events of the board in progress (JSON): of the table, or of every table at a hub's control endpoint"},
    {"alerts", "", "unacknowledged alerts, oldest first: of the table, or of every table when --control is a hub's control endpoint "
                   "(exit 1 when the list is not whole there: a table silent, or incomplete)"},
    {"replay", "--since N", "the journalled events from seq N (N >= 1)"},
    {"replay-live", "--since N", "the released live.* events from seq N (broadcasters, directors)"},
    {"evidence", "SEQ", "event SEQ whole: its line with the cards it names, then its seats, its evidence (expected, observed, counts) "
                             "and its journal, one a line (directors only)"},
    {"ack", "SEQ [--by NAME] [--journal ID]", "acknowledge event SEQ (directors)"},
    {"board", "LABEL", "tell the table which board it is: \"7\", \"1/7\", \"Spring Pairs/1/7\" (directors)"},
    {"contract", "CONTRACT", "give the contract: \"4HX S\", \"3NT by W\", \"pass\" (directors)"},
    {"load-record", "[PATH...]", "reload the master record (default: the daemon's --master files) (directors)"},
};

}  // namespace

bool is_control_command(const std::string& name) {
  for (const auto& c : kControlCommands)
    if (name == c.name) return true;
  return false;
}

namespace {
// Whether a hub's reply (status, alerts) names a table it calls silent (its --silent-after): a problem
// found, exit 1 whatever the output, as a table's own endpoint would not answer at all.
bool names_silent_tables(const json& reply) {
  return reply.contains("silent") && reply["silent"].is_array() && !reply["silent"].empty();
}
// Whether a hub's alerts reply names a table whose own count differs from the hub's list: the list is not
// whole, and a director's script must be able to tell (it exited 0, as if every alert were listed).
bool names_incomplete_tables(const json& reply) {
  return reply.contains("incomplete") && reply["incomplete"].is_array() && !reply["incomplete"].empty();
}
// The exit statuses of the control commands, for their --help (and cardtablectl(1), EXIT STATUS).
constexpr const char* kControlExitStatus =
    "\nExit status: 0 all well; 1 a problem: the endpoint did not answer, or refused the request, or (status and\n"
    "alerts at a hub's control endpoint) a table there is silent, or (alerts there) incomplete: the hub has not\n"
    "seen all its open alerts, so the list is not whole; 2 wrong usage.\n";
// One line each on standard output, `detail` adding what the reply knows of the table.
void say_silent_tables(const json& reply, const std::function<std::string(const std::string&)>& detail) {
  if (!names_silent_tables(reply)) return;
  for (const auto& t : reply["silent"]) {
    if (!t.is_string()) continue;
    const std::string name = t.get<std::string>();
    std::cout << "table " << printable(name) << ": silent" << (reply.contains("tables") && reply["tables"].is_object() && reply["tables"].contains(name) ? detail(name) : "")
              << ": its daemon stopped, or its machine or network is down; no event or alert can come from it until it is back\n";
  }
}
}  // namespace

int run_control(const std::string& command, const std::vector<std::string>& args) {
  const ControlCommand* spec = nullptr;
  for (const auto& c : kControlCommands)
    if (command == c.name) spec = &c;
  std::string endpoint, by, journal;
  po::options_description opts(std::string("cardtablectl ") + command + (spec->usage[0] ? " " : "") + spec->usage + ": " + spec->summary);
  opts.add_options()("help,h", "this help")("control,c", po::value(&endpoint)->default_value("tcp://127.0.0.1:5552"),
                                             cardtable::protocol::answered_by_hub(command) ? "the table's control endpoint, or a hub's" : "the table's control endpoint (not a hub's)")(
      "json", "print the reply as JSON");
  if (command == "replay" || command == "replay-live") opts.add_options()("since", po::value<std::string>(), "the first seq wanted (1 or more)");
  if (command == "ack")
    opts.add_options()("by", po::value(&by), "who acknowledges (a name; default: director)")(
        "journal", po::value(&journal),
        "the journal the alert is of, as the alert names it (status and alerts show the table's): the table "
        "refuses the ack when its journal is another (it was replaced, and SEQ is another event there now)");
  opts.add_options()("key", po::value(&g_curve.key_file), "your CURVE keypair file (when the daemon encrypts): yours alone, mode 0600")(
      "server-key", po::value(&g_curve.server_file), "the public key file of --control: the daemon's, or the hub's");
  po::options_description hidden;
  hidden.add_options()("arg", po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(opts).add(hidden);
  po::positional_options_description pos;
  pos.add("arg", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "cardtablectl " << command << ": " << e.what() << "\n(see cardtablectl " << command << " --help)\n";
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << opts << kControlExitStatus;
    return kExitOk;
  }
  std::vector<std::string> rest = vm.count("arg") ? vm["arg"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (auto why = load_curve(g_curve, vm)) {
    std::cerr << "cardtablectl " << command << ": " << *why << "\n(see cardtablectl " << command << " --help)\n";
    return kExitUsage;
  }
  std::string joined;
  for (const auto& r : rest) joined += (joined.empty() ? "" : " ") + r;
  auto usage = [&](const std::string& why) {
    std::cerr << "cardtablectl " << command << ": " << why << "\n(see cardtablectl " << command << " --help)\n";
    return kExitUsage;
  };
  auto seq_arg = [&]() -> std::optional<std::uint64_t> { return rest.size() == 1 ? parse_seq(rest[0]) : std::nullopt; };
  bool takes_args = command == "ack" || command == "evidence" || command == "board" || command == "contract" || command == "load-record";
  if (!takes_args && !rest.empty()) return usage("takes no argument '" + rest[0] + "'");
  json body = {{"command", command}};
  if (command == "replay" || command == "replay-live") {
    const auto since = vm.count("since") ? parse_seq(vm["since"].as<std::string>()) : std::nullopt;
    if (!since) return usage("give --since N, the first seq wanted (1 or more)");
    body["since"] = *since;
  } else if (command == "ack" || command == "evidence") {
    auto seq = seq_arg();
    if (!seq) return usage("give the seq of the event (a positive integer)");
    body["seq"] = *seq;
    if (command == "ack" && vm.count("by")) body["by"] = by;
    if (command == "ack" && vm.count("journal")) body["journal"] = journal;
  } else if (command == "board" || command == "contract") {
    if (joined.empty()) return usage(command == "board" ? "give the board's label" : "give the contract, e.g. \"4HX S\"");
    body[command == "board" ? "label" : "contract"] = joined;
  } else if (command == "load-record" && !rest.empty()) {
    json paths = json::array();
    for (const auto& r : rest) paths.push_back(std::filesystem::absolute(r).string());  // the daemon's folder is not ours
    body["paths"] = paths;
  }
  std::string error;
  zmq::context_t ctx;
  auto reply = request(ctx, endpoint, body, 5000, error);
  if (!reply) {
    std::cerr << "cardtablectl " << command << ": " << printable(error) << '\n';
    return kExitProblems;
  }
  // A reply of another shape (another program's endpoint, another version) is said, never a crash:
  // nlohmann's value() throws on a field that is null.
  bool ok = false;
  try {
    if (!reply->is_object()) throw std::runtime_error("not a JSON object");
    ok = reply->value("ok", false);
    if (vm.count("json") || command == "snapshot") {
      std::cout << reply->dump(2, ' ', true, json::error_handler_t::replace) << '\n';  // ASCII: escapes every control character
    } else if (!ok) {
      // The daemon's errors name their request ("ack: no event 9"), as this line does already.
      std::string why = reply->value("error", "failed");
      if (why.starts_with(command + ": ")) why.erase(0, command.size() + 2);
      std::cerr << "cardtablectl " << command << ": " << printable(why) << '\n';
    } else if (command == "replay" || command == "replay-live") {
      for (const auto& e : (*reply)["events"]) std::cout << human(e, ::isatty(1)) << '\n';
      if ((*reply).value("more", false)) std::cout << "(more: ask again with --since " << (*reply)["events"].back().value("seq", 0) + 1 << ")\n";
      // What the journal no longer holds (rotated away) or cannot read (damaged lines), never left unsaid.
      for (const std::string& lost : journal_losses(*reply, body["since"].get<std::uint64_t>())) std::cout << "(" << lost << ")\n";
    } else if (command == "alerts") {
      if ((*reply)["alerts"].empty()) std::cout << "no open alerts\n";
      // Each with its journal: `ack SEQ --journal ID` needs it, and only --json showed it.
      for (const auto& e : (*reply)["alerts"])
        std::cout << human(e, ::isatty(1)) << (e.contains("journal") && e["journal"].is_string() ? " {journal " + printable(e["journal"].get<std::string>()) + "}" : "")
                  << '\n';
      // Through a hub: a table whose own count differs from the hub's at its last heartbeat (the hub started
      // after some alert).
      if (reply->contains("incomplete") && (*reply)["incomplete"].is_array())
        for (const auto& t : (*reply)["incomplete"])
          if (t.is_string())
            std::cout << "table " << printable(t.get<std::string>()) << ": the hub has not seen all its open alerts (it reports "
                      << printable((*reply)["tables"][t.get<std::string>()].value("at_table", "?")) << "); ask its own control endpoint\n";
      // Through a hub: a table not heard for the hub's --silent-after: no new alert can come from it.
      say_silent_tables(*reply, [&](const std::string& t) {
        return ", last heard " + printable((*reply)["tables"][t].value("heard_ago", json(0)).dump()) + " s ago";
      });
    } else if (command == "evidence") {
      std::cout << evidence_text(*reply, ::isatty(1));
    } else if (command == "version" && reply->contains("hub")) {
      std::cout << "cardtable-hub " << printable(reply->value("hub", "?")) << "; cardtablectl " CARDTABLE_VERSION "\n";
    } else if (command == "version") {
      std::cout << "cardtabled " << printable(reply->value("daemon", "?")) << ", protocol " << reply->value("proto_major", 0) << "."
                << reply->value("proto_minor", 0) << "; cardtablectl " CARDTABLE_VERSION "\n";
    } else if (command == "status" && !reply->contains("status") && reply->contains("forwarded")) {
      // A hub's control endpoint (operations.md points cardtablectl at it): the hub's own counts.
      // Singular for one ("1 tables heard" read as a slip to a director counting the venue's tables).
      std::cout << "hub: " << counted(reply->value("tables", std::uint64_t{0}), "table") << " heard, " << counted(reply->value("forwarded", std::uint64_t{0}), "event")
                << " forwarded, " << counted(reply->value("dropped", std::uint64_t{0}), "message") << " dropped";
      // 1.6: journalled events that never reached the hub (their seqs skipped); an older hub says nothing.
      if (const std::uint64_t missed = protocol::seq_field(*reply, "missed")) std::cout << ", " << counted(missed, "event") << " never reached it (seqs skipped)";
      std::cout << '\n';
      say_silent_tables(*reply, [](const std::string&) { return std::string(); });
    } else if (command == "status") {
      const json& s = (*reply)["status"];
      std::cout << "table " << printable(table_of(s)) << ": " << printable(s.value("phase", "")) << ", last seq " << s.value("last_seq", 0)
                << ", " << counted(s.value("master_boards", std::uint64_t{0}), "board") << " in the master record, "
                << counted(s.value("open_alerts", std::uint64_t{0}), "open alert");
      if (s.contains("journal") && s["journal"].is_string()) std::cout << ", journal " << printable(s["journal"].get<std::string>());
      if (s.contains("board") && s["board"].is_object()) std::cout << ", " << printable(s["board"].value("name", ""));
      std::cout << '\n';
      // One line per device: present or not, the zones it serves (antenna → zone), its error counters, and
      // (1.8) the table's count of its reads and of the replies it missed: no event says each one (a reader
      // missing many is device.health, 1.9, and what it last said is its health, 1.10).
      const json no_reads = json::object();
      const json& reads = s.contains("reads_by_device") && s["reads_by_device"].is_object() ? s["reads_by_device"] : no_reads;
      for (const json& d : s.value("devices", json::array())) {
        std::cout << "  " << printable(d.value("name", "")) << " (" << printable(d.value("driver", "")) << "): " << (d.value("present", false) ? "present" : "absent");
        for (const json& z : d.value("zones", json::array())) std::cout << ", antenna" << z.value("antenna", 0) << " " << printable(z.value("zone", ""));
        const json c = d.value("counters", json::object());
        std::cout << "; frames " << c.value("frames", 0) << ", garbage " << c.value("garbage", 0) << ", short " << c.value("short_frames", 0)
                  << ", crc " << c.value("crc_errors", 0) << ", out of sequence " << c.value("out_of_sequence", 0) << ", timeouts "
                  << c.value("timeouts", 0) << ", resets " << c.value("resets", 0);
        const auto r = reads.find(d.value("name", ""));
        if (r != reads.end() && r->is_object()) {
          const auto heard = r->value("heard", std::uint64_t{0}), missed = r->value("missed_replies", std::uint64_t{0});
          std::cout << "; reads " << r->value("reads", std::uint64_t{0}) << " (" << heard << " heard a card), missed replies " << missed;
          // The share a director compares with readers' 3 % and the daemon's --missed-replies-alert.
          if (heard) {
            char share[32];
            std::snprintf(share, sizeof share, " (%.1f %%)", 100.0 * static_cast<double>(missed) / static_cast<double>(heard));
            std::cout << share;
          }
          // 1.10: what device.health last said of a tag reader (a camera and an older daemon say nothing).
          if (r->contains("health") && (*r)["health"].is_string()) std::cout << ", health " << printable((*r)["health"].get<std::string>());
        }
        std::cout << '\n';
      }
    } else if (command == "load-record") {
      std::cout << "master record loaded: " << counted(reply->value("boards", std::uint64_t{0}), "board") << '\n';
    } else {
      // The event the request made: ack's, contract's and board's (1.5: its board.identified) reply name it
      // (seq); a daemon before 1.5 gives a board only its last event when it answers (last_seq).
      const char* field = reply->contains("seq") ? "seq" : command == "board" && reply->contains("last_seq") ? "last_seq" : nullptr;
      std::cout << "ok" << (field ? " (event " + std::to_string(reply->value(field, std::uint64_t{0})) + ")" : std::string()) << "\n";
    }
    if (names_silent_tables(*reply) || (command == "alerts" && names_incomplete_tables(*reply))) ok = false;
  } catch (const std::exception& e) {
    std::cerr << "cardtablectl " << command << ": " << endpoint << " answered in a form cardtablectl does not know (" << printable(e.what())
              << "); --json prints the reply as it came\n";
    return kExitProblems;
  }
  return ok ? kExitOk : kExitProblems;
}

}  // namespace cardtable::tools

namespace cardtable::tools {

int run_keygen(const std::vector<std::string>& args) {
  std::string dir = ".";
  po::options_description opts("cardtablectl keygen NAME [--dir DIR]");
  opts.add_options()("help,h", "this help")("dir,d", po::value(&dir)->default_value("."), "where to write NAME.key and NAME.pub")(
      "name", po::value<std::string>(), "");
  po::positional_options_description pos;
  pos.add("name", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "cardtablectl keygen: " << e.what() << '\n';
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << opts << "\nWrites a CURVE keypair: NAME.key (mode 0600, keep it secret) and NAME.pub (give it to the\n"
                         "other side: a client's .pub goes in cardtabled's --clients folder under its role). For cardtabled or\n"
                         "cardtable-hub under their units: chgrp cardtable NAME.key && chmod 0640 NAME.key.\n";
    return kExitOk;
  }
  if (!vm.count("name")) {
    std::cerr << "cardtablectl keygen: give the key's name, e.g. cardtablectl keygen td-laptop\n";
    return kExitUsage;
  }
  std::string name = vm["name"].as<std::string>();
  if (name.find('/') != std::string::npos || name.empty()) {
    std::cerr << "cardtablectl keygen: the name is a file name, without folders (use --dir)\n";
    return kExitUsage;
  }
  try {
    auto k = cardtable::protocol::write_keypair(dir, name);
    std::cout << "wrote " << (std::filesystem::path(dir) / (name + ".key")).string() << " (secret, 0600) and "
              << (std::filesystem::path(dir) / (name + ".pub")).string() << "\npublic key: " << k.public_key << '\n';
  } catch (const std::exception& e) {
    std::cerr << "cardtablectl keygen: " << e.what() << '\n';
    return kExitProblems;
  }
  return kExitOk;
}

}  // namespace cardtable::tools
