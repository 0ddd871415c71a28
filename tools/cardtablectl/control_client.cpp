#include "control_client.hpp"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#include <chrono>
#include <csignal>
#include <iostream>

#include "bridge/board_record.hpp"
#include "hand_diagram.hpp"
#include "protocol/curve_keys.hpp"
#include "records_command.hpp"

namespace cardtable::tools {
namespace po = boost::program_options;
using json = nlohmann::json;

namespace {

volatile std::sig_atomic_t g_stop = 0;

// CURVE on the client side: our keypair and the daemon's public key, when both are given.
struct Curve {
  std::string key_file, server_file;
};
std::optional<std::string> apply_curve(zmq::socket_t& s, const Curve& c) {
  if (c.key_file.empty() && c.server_file.empty()) return std::nullopt;
  if (c.key_file.empty() || c.server_file.empty()) return "CURVE needs both --key (yours) and --server-key (the daemon's .pub)";
  std::string error;
  auto mine = cardtable::protocol::read_key_file(c.key_file, error);
  if (!mine || mine->secret_key.empty()) return mine ? c.key_file + ": holds no secret key" : error;
  auto server = cardtable::protocol::read_key_file(c.server_file, error);
  if (!server) return error;
  s.set(zmq::sockopt::curve_serverkey, server->public_key);
  s.set(zmq::sockopt::curve_publickey, mine->public_key);
  s.set(zmq::sockopt::curve_secretkey, mine->secret_key);
  return std::nullopt;
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
  r.event = e.value("event", "");
  r.session = e.value("session", "");
  r.dealer = bridge::parse_seat(ev.value("dealer", ""));
  r.vulnerability = bridge::parse_vulnerability(ev.value("vulnerable", ""));
  return hand_diagram(r);
}

// One line for people: time, severity (alerts in red on a terminal), board, message.
std::string human(const json& e, bool colour) {
  if (e.value("type", "") == "live.deal")
    if (std::string d = deal_diagram(e); !d.empty()) return d;
  std::string sev = e.value("severity", "info");
  std::string line;
  if (e.contains("seq")) line += "#" + std::to_string(e["seq"].get<std::uint64_t>()) + " ";
  if (e.contains("board")) line += "[board " + std::to_string(e["board"].get<int>()) + "] ";
  line += e.value("message", e.value("type", ""));
  if (e.contains("laws")) {
    std::string laws;
    for (const auto& l : e["laws"]) laws += (laws.empty() ? "" : ", ") + l.get<std::string>();
    if (line.find("Law") == std::string::npos) line += " (Law " + laws + ")";
  }
  if (!colour) return (sev == "alert" ? "ALERT " : sev == "warning" ? "warn  " : "      ") + line;
  if (sev == "alert") return "\033[1;31m" + line + "\033[0m";
  if (sev == "warning") return "\033[33m" + line + "\033[0m";
  return line;
}

std::optional<json> request(const std::string& endpoint, const json& body, int timeout_ms, std::string& error) {
  zmq::context_t ctx;
  zmq::socket_t s(ctx, zmq::socket_type::req);
  s.set(zmq::sockopt::linger, 0);
  s.set(zmq::sockopt::rcvtimeo, timeout_ms);
  if (auto why = apply_curve(s, g_curve)) {
    error = *why;
    return std::nullopt;
  }
  try {
    s.connect(endpoint_address(endpoint));
    s.send(zmq::buffer(body.dump()));
    zmq::message_t reply;
    if (!s.recv(reply)) {
      error = "no reply from " + endpoint + " within " + std::to_string(timeout_ms) + " ms (is cardtabled running?)";
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
  double seconds = 0;
  po::options_description opts("cardtablectl watch [options]");
  opts.add_options()("help,h", "this help")("endpoint,e", po::value(&endpoint)->default_value("tcp://127.0.0.1:5551"), "cardtabled's PUB endpoint")(
      "control,c", po::value(&control)->default_value("tcp://127.0.0.1:5552"), "its control endpoint, to replay what came before")(
      "since", po::value<std::uint64_t>(), "first replay the journal from this seq")(
      "filter,f", po::value(&filters)->composing(), "topic prefix, e.g. irregularity/ (repeat for more; default: everything)")(
      "seconds", po::value(&seconds)->default_value(0), "stop after this many seconds (0: until interrupted)")(
      "heartbeats", "show daemon.heartbeat events too")("json", "one JSON event a line")(
      "live", "watch the live.* stream instead (the deal and the cards played, after the embargo; broadcasters)")(
      "key", po::value(&g_curve.key_file), "your CURVE keypair file (when the daemon encrypts)")(
      "server-key", po::value(&g_curve.server_file), "the daemon's public key file");
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
  bool as_json = vm.count("json") > 0, colour = !as_json && ::isatty(1);
  bool heartbeats = vm.count("heartbeats") > 0;
  bool live = vm.count("live") > 0;
  if (live && vm["endpoint"].defaulted()) endpoint = "tcp://127.0.0.1:5553";
  const char* replay_command = live ? "replay-live" : "replay";
  std::uint64_t last_seq = 0;
  auto show = [&](const json& e) {
    if (e.value("type", "") == "daemon.heartbeat" && !heartbeats) return;
    if (e.contains("seq")) {
      std::uint64_t s = e["seq"].get<std::uint64_t>();
      if (s <= last_seq) return;  // already shown (replayed)
      last_seq = s;
    }
    std::cout << (as_json ? e.dump() : human(e, colour)) << std::endl;
  };
  zmq::context_t ctx;
  zmq::socket_t sub(ctx, zmq::socket_type::sub);
  if (auto why = apply_curve(sub, g_curve)) {
    std::cerr << "cardtablectl watch: " << *why << '\n';
    return kExitUsage;
  }
  try {
    sub.connect(endpoint_address(endpoint));
    if (filters.empty()) sub.set(zmq::sockopt::subscribe, "");
    for (const auto& f : filters) sub.set(zmq::sockopt::subscribe, f);
    sub.set(zmq::sockopt::subscribe, "daemon/");  // heartbeats tell the last seq: gaps are replayed
  } catch (const zmq::error_t& e) {
    std::cerr << "cardtablectl watch: " << endpoint << ": " << e.what() << '\n';
    return kExitProblems;
  }
  auto replay_from = [&](std::uint64_t since) {
    std::string error;
    while (true) {
      auto r = request(control, {{"command", replay_command}, {"since", since}}, 3000, error);
      if (!r || !r->value("ok", false)) {
        std::cerr << "cardtablectl watch: replay: " << (r ? r->value("error", "?") : error) << '\n';
        return;
      }
      for (const auto& e : (*r)["events"]) {
        std::string topic = e.value("class", "") + "/";
        bool wanted = filters.empty();
        for (const auto& f : filters) wanted = wanted || (e.value("class", "") + "/" + e.value("tournament", "") + "/").starts_with(f) || f == topic;
        if (wanted) show(e);
        else if (e.contains("seq")) last_seq = std::max(last_seq, e["seq"].get<std::uint64_t>());
      }
      if (!(*r)["more"].get<bool>()) return;
      since = last_seq + 1;
    }
  };
  if (vm.count("since")) replay_from(vm["since"].as<std::uint64_t>());
  std::signal(SIGINT, [](int) { g_stop = 1; });
  std::signal(SIGTERM, [](int) { g_stop = 1; });
  auto start = std::chrono::steady_clock::now();
  while (!g_stop) {
    if (seconds > 0 && std::chrono::steady_clock::now() - start > std::chrono::duration<double>(seconds)) break;
    zmq::pollitem_t item{sub.handle(), 0, ZMQ_POLLIN, 0};
    try {
      zmq::poll(&item, 1, std::chrono::milliseconds(200));
    } catch (const zmq::error_t&) {
      break;  // interrupted
    }
    if (!(item.revents & ZMQ_POLLIN)) continue;
    std::vector<zmq::message_t> frames;
    if (!zmq::recv_multipart(sub, std::back_inserter(frames), zmq::recv_flags::dontwait) || frames.size() != 2) continue;
    json e = json::parse(frames[1].to_string_view(), nullptr, false);
    if (e.is_discarded()) continue;
    // A gap (an event lost to a full queue, or published before we connected): fetch it from the journal.
    std::uint64_t seq = e.value("seq", std::uint64_t{0});
    if (e.value("type", "") == "daemon.heartbeat") {
      std::uint64_t daemon_last = std::stoull(e["evidence"].value("last_seq", "0"));
      if (daemon_last > last_seq && vm.count("since")) replay_from(last_seq + 1);
    } else if (seq > last_seq + 1 && last_seq > 0) {
      replay_from(last_seq + 1);
    }
    show(e);
  }
  return kExitOk;
}

int run_control(const std::string& command, const std::vector<std::string>& args) {
  std::string endpoint;
  po::options_description opts("cardtablectl " + command + " [options]" +
                               (command == "replay" ? " --since N" : command == "ack" ? " SEQ" : command == "board" ? " LABEL" : command == "contract" ? " CONTRACT" : ""));
  opts.add_options()("help,h", "this help")("control,c", po::value(&endpoint)->default_value("tcp://127.0.0.1:5552"), "cardtabled's control endpoint")(
      "json", "the reply as JSON")("since", po::value<std::uint64_t>(), "replay: the first seq wanted")(
      "key", po::value(&g_curve.key_file), "your CURVE keypair file (when the daemon encrypts)")(
      "server-key", po::value(&g_curve.server_file), "the daemon's public key file")(
      "arg", po::value<std::vector<std::string>>(), "");
  po::positional_options_description pos;
  pos.add("arg", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "cardtablectl " << command << ": " << e.what() << '\n';
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << opts;
    return kExitOk;
  }
  std::vector<std::string> rest = vm.count("arg") ? vm["arg"].as<std::vector<std::string>>() : std::vector<std::string>{};
  std::string joined;
  for (const auto& r : rest) joined += (joined.empty() ? "" : " ") + r;
  json body = {{"command", command}};
  if (command == "replay") {
    if (!vm.count("since")) {
      std::cerr << "cardtablectl replay: give --since N\n";
      return kExitUsage;
    }
    body["since"] = vm["since"].as<std::uint64_t>();
  } else if (command == "ack") {
    if (rest.size() != 1 || rest[0].find_first_not_of("0123456789") != std::string::npos) {
      std::cerr << "cardtablectl ack: give the seq of the event to acknowledge\n";
      return kExitUsage;
    }
    body["seq"] = std::stoull(rest[0]);
  } else if (command == "board" || command == "contract") {
    if (joined.empty()) {
      std::cerr << "cardtablectl " << command << ": give the " << (command == "board" ? "board's label" : "contract, e.g. \"4HX S\"") << '\n';
      return kExitUsage;
    }
    body[command == "board" ? "label" : "contract"] = joined;
  }
  std::string error;
  auto reply = request(endpoint, body, 5000, error);
  if (!reply) {
    std::cerr << "cardtablectl " << command << ": " << error << '\n';
    return kExitProblems;
  }
  if (vm.count("json") || command == "replay" || command == "snapshot") {
    if (command == "replay" && !vm.count("json")) {
      for (const auto& e : (*reply)["events"]) std::cout << human(e, ::isatty(1)) << '\n';
    } else {
      std::cout << reply->dump(2) << '\n';
    }
  } else if (!reply->value("ok", false)) {
    std::cerr << "cardtablectl " << command << ": " << reply->value("error", "failed") << '\n';
  } else if (command == "status") {
    const json& s = (*reply)["status"];
    std::cout << "table " << s.value("tournament", "") << "/" << s.value("section", "") << "/" << s.value("table", "") << ": "
              << s.value("phase", "") << ", last seq " << s.value("last_seq", 0) << ", " << s.value("master_boards", 0) << " boards in the master record";
    if (s.contains("board")) std::cout << ", " << s["board"].value("name", "");
    std::cout << '\n';
    // One line per device: present or not, the zones it serves (antenna → zone), its error counters.
    for (const json& d : s.value("devices", json::array())) {
      std::cout << "  " << d.value("name", "") << " (" << d.value("driver", "") << "): " << (d.value("present", false) ? "present" : "absent");
      for (const json& z : d.value("zones", json::array())) std::cout << ", antenna" << z.value("antenna", 0) << " " << z.value("zone", "");
      const json c = d.value("counters", json::object());
      std::cout << "; frames " << c.value("frames", 0) << ", garbage " << c.value("garbage", 0) << ", short " << c.value("short_frames", 0)
                << ", crc " << c.value("crc_errors", 0) << ", out of sequence " << c.value("out_of_sequence", 0) << ", timeouts "
                << c.value("timeouts", 0) << ", resets " << c.value("resets", 0) << '\n';
    }
  } else {
    std::cout << "ok\n";
  }
  return reply->value("ok", false) ? kExitOk : kExitProblems;
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
                         "other side: a client's .pub goes in cardtabled's --clients folder under its role).\n";
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
