// cardtable-hub: gathers the events of many tables (their PUB endpoints connect to its upstream) and
// passes them on to subscribers (XSUB/XPUB), keeping each table's latest board for late joiners.
#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#include <deque>
#include <filesystem>
#include <iostream>
#include <map>

#include "protocol/control.hpp"
#include "protocol/curve_keys.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace cardtable;

namespace {

void log(const std::string& s) { std::cerr << "cardtable-hub: " << s << std::endl; }

// What a late joiner gets for one table: the events of its board in progress (bounded).
struct TableState {
  std::deque<std::pair<std::string, std::string>> events;  // topic, body
  json last_heartbeat;
};
constexpr std::size_t kKeptPerTable = 500;

}  // namespace

int main(int argc, char** argv) {
  std::string upstream, downstream, control, curve_secret, clients;
  bool plaintext = false;
  po::options_description opts("cardtable-hub: gathers many tables' events and serves them to subscribers");
  opts.add_options()("help,h", "this help")(
      "upstream", po::value(&upstream)->default_value("tcp://127.0.0.1:5560"), "XSUB endpoint the tables' cardtabled connect their --publish to")(
      "downstream", po::value(&downstream)->default_value("tcp://127.0.0.1:5561"), "XPUB endpoint subscribers connect to")(
      "control", po::value(&control)->default_value("tcp://127.0.0.1:5562"), "ROUTER endpoint: {\"command\":\"snapshot\"} gives every table's board in progress")(
      "curve-secret", po::value(&curve_secret), "the hub's CURVE keypair file: every endpoint encrypted")(
      "clients", po::value(&clients), "allowed keys: table/*.pub may publish upstream; director/, broadcaster/, hub/ may subscribe")(
      "plaintext", po::bool_switch(&plaintext), "allow unencrypted tcp (loopback addresses only)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, opts), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "cardtable-hub: " << e.what() << "\n(see cardtable-hub --help)\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << opts;
    return 0;
  }
  bool curve = !curve_secret.empty();
  if (curve != !clients.empty()) {
    std::cerr << "cardtable-hub: --curve-secret and --clients go together\n";
    return 2;
  }
  for (const std::string& e : {upstream, downstream, control}) {
    bool local = e.starts_with("ipc://") || e.starts_with("tcp://127.") || e.starts_with("tcp://localhost");
    if (!curve && (!local || (e.starts_with("tcp://") && !plaintext))) {
      std::cerr << "cardtable-hub: " << e << ": without CURVE only ipc, or loopback tcp with --plaintext\n";
      return 2;
    }
  }

  zmq::context_t ctx;
  zmq::socket_t xsub(ctx, zmq::socket_type::xsub), xpub(ctx, zmq::socket_type::xpub), ctl(ctx, zmq::socket_type::router),
      zap(ctx, zmq::socket_type::rep);
  std::map<std::string, std::string> allowed;  // key -> role
  try {
    if (curve) {
      std::string error;
      auto keys = protocol::read_key_file(curve_secret, error);
      if (!keys || keys->secret_key.empty()) throw std::runtime_error("--curve-secret: " + (keys ? "no secret key" : error));
      for (const char* role : {"table", "director", "broadcaster", "hub"}) {
        if (!fs::is_directory(fs::path(clients) / role)) continue;
        for (const auto& k : protocol::read_public_keys(fs::path(clients) / role, error)) allowed[k] = role;
      }
      zap.bind("inproc://zeromq.zap.01");
      for (auto* s : {&xsub, &xpub, &ctl}) {
        s->set(zmq::sockopt::curve_server, 1);
        s->set(zmq::sockopt::curve_secretkey, keys->secret_key);
        s->set(zmq::sockopt::zap_domain, s == &xsub ? "upstream" : "downstream");
      }
    }
    xpub.set(zmq::sockopt::sndhwm, 200000);
    xsub.set(zmq::sockopt::rcvhwm, 200000);
    ctl.set(zmq::sockopt::maxmsgsize, static_cast<int64_t>(1 << 20));
    xsub.bind(upstream);
    xpub.bind(downstream);
    ctl.bind(control);
  } catch (const std::exception& e) {
    std::cerr << "cardtable-hub: " << e.what() << '\n';
    return 2;
  }
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  pthread_sigmask(SIG_BLOCK, &mask, nullptr);
  int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  log("upstream " + upstream + ", downstream " + downstream + ", control " + control + (curve ? " (CURVE)" : " (plain text)"));

  std::map<std::string, TableState> tables;  // "tournament/section/table" -> state
  std::uint64_t forwarded = 0;
  while (true) {
    zmq::pollitem_t items[] = {{xsub.handle(), 0, ZMQ_POLLIN, 0}, {xpub.handle(), 0, ZMQ_POLLIN, 0}, {ctl.handle(), 0, ZMQ_POLLIN, 0},
                               {nullptr, sfd, ZMQ_POLLIN, 0}, {zap.handle(), 0, ZMQ_POLLIN, 0}};
    zmq::poll(items, curve ? 5 : 4, std::chrono::milliseconds(500));
    if (items[3].revents & ZMQ_POLLIN) {
      log("stopping");
      return 0;
    }
    std::vector<zmq::message_t> f;
    if (curve && (items[4].revents & ZMQ_POLLIN)) {
      while (zmq::recv_multipart(zap, std::back_inserter(f), zmq::recv_flags::dontwait)) {
        std::string status = "400", user;
        if (f.size() >= 7 && f[5].to_string_view() == "CURVE" && f[6].size() == 32) {
          char z85[41] = {};
          zmq_z85_encode(z85, static_cast<const std::uint8_t*>(f[6].data()), 32);
          auto it = allowed.find(z85);
          bool upstream_side = f[2].to_string_view() == "upstream";
          if (it != allowed.end() && (upstream_side == (it->second == "table"))) {
            status = "200";
            user = it->second;
          }
        }
        std::array<zmq::const_buffer, 6> reply = {zmq::buffer(f[0].to_string()), zmq::buffer(f[1].to_string()), zmq::buffer(status),
                                                  zmq::buffer(std::string(status == "200" ? "OK" : "not allowed")), zmq::buffer(user),
                                                  zmq::const_buffer{}};
        zmq::send_multipart(zap, reply);
        f.clear();
      }
    }
    // Tables -> subscribers, remembering each table's board in progress.
    while (items[0].revents & ZMQ_POLLIN) {
      f.clear();
      if (!zmq::recv_multipart(xsub, std::back_inserter(f), zmq::recv_flags::dontwait)) break;
      if (f.size() == 2) {
        std::string topic = f[0].to_string();
        auto a = topic.find('/'), b = topic.rfind('/');
        if (a != std::string::npos && b > a) {
          TableState& t = tables[topic.substr(a + 1, b - a - 1)];
          if (topic.ends_with("/daemon.heartbeat")) {
            t.last_heartbeat = json::parse(f[1].to_string_view(), nullptr, false);
          } else {
            if (topic.ends_with("/board.arrived")) t.events.clear();
            t.events.emplace_back(topic, f[1].to_string());
            if (t.events.size() > kKeptPerTable) t.events.pop_front();
          }
        }
      }
      zmq::send_multipart(xpub, f, zmq::send_flags::dontwait);
      ++forwarded;
    }
    // Subscriptions -> tables.
    while (items[1].revents & ZMQ_POLLIN) {
      zmq::message_t m;
      if (!xpub.recv(m, zmq::recv_flags::dontwait)) break;
      xsub.send(m, zmq::send_flags::dontwait);
    }
    // Snapshots for late joiners.
    while (items[2].revents & ZMQ_POLLIN) {
      f.clear();
      if (!zmq::recv_multipart(ctl, std::back_inserter(f), zmq::recv_flags::dontwait)) break;
      if (f.size() < 2) continue;
      std::string error;
      auto req = protocol::parse_request(f.back().to_string_view(), error);
      json reply;
      if (!req) reply = protocol::error_reply(error);
      else if (req->command == "snapshot") {
        json all = json::object();
        for (const auto& [name, t] : tables) {
          json events = json::array();
          for (const auto& [topic, body] : t.events) events.push_back(json::parse(body, nullptr, false));
          all[name] = {{"events", events}, {"heartbeat", t.last_heartbeat}};
        }
        reply = protocol::ok_reply({{"tables", all}, {"forwarded", forwarded}});
      } else if (req->command == "status") {
        reply = protocol::ok_reply({{"tables", tables.size()}, {"forwarded", forwarded}});
      } else {
        reply = protocol::error_reply("unknown command '" + req->command + "' (snapshot, status)");
      }
      std::string body = reply.dump();
      std::vector<zmq::const_buffer> out;
      for (std::size_t i = 0; i + 1 < f.size(); ++i) out.emplace_back(f[i].data(), f[i].size());
      out.push_back(zmq::buffer(body));
      zmq::send_multipart(ctl, out, zmq::send_flags::dontwait);
    }
  }
}
