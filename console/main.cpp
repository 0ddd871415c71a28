// cardtable-console: the director's and broadcaster's web page for a whole venue. Subscribes to the hub
// (or daemons) like any client, keeps the venue's state, serves the page and its live streams.
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/program_options.hpp>

#include <chrono>
#include <csignal>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <tuple>

#include "data_files/source_or_installed.hpp"
#include "protocol/curve_keys.hpp"
#include "protocol/endpoint.hpp"
#include "gateway.hpp"
#include "http_listener.hpp"
#include "logins.hpp"
#include "request_host.hpp"
#include "request_origin.hpp"
#include "table_requests.hpp"
#include "tls_certificate.hpp"
#include "venue_state.hpp"
#include "wire_client.hpp"

#ifndef CARDTABLE_CONSOLE_WWW
#define CARDTABLE_CONSOLE_WWW "/usr/share/cardtable/console"
#endif

namespace po = boost::program_options;
namespace net = boost::asio;
namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace cardtable;
using namespace cardtable::console;

namespace {

int usage_error(const std::string& what) {
  std::cerr << "cardtable-console: " << what << "\n(see cardtable-console --help)\n";
  return 2;
}

// An endpoint the console connects to, checked when it starts: "bogus://x" was only logged by the
// thread that dials it, and the console served pages with no event source at all.
std::optional<std::string> address_of(const std::string& text, const std::string& option, std::string& error) {
  auto e = protocol::parse_endpoint(text, error);
  if (e && e->bind) {
    if (!text.starts_with("bind:")) return e->address;  // no prefix: the console connects
    error = "'" + text + "': the console connects (no bind:)";
  }
  if (e && !e->bind) return e->address;
  error = option + " " + error;
  return std::nullopt;
}

struct TableSpec {
  std::string id;
  Peer control, live;
};

// "default/A/7 control=tcp://10.0.0.7:5552 live=tcp://10.0.0.7:5553 server-key=/etc/cardtable/keys/table-07.pub"
std::optional<TableSpec> parse_table(const std::string& text, std::string& error) {
  std::istringstream in(text);
  TableSpec t;
  if (!(in >> t.id) || std::count(t.id.begin(), t.id.end(), '/') != 2) {
    error = "'" + text + "': start with the table as TOURNAMENT/SECTION/TABLE";
    return std::nullopt;
  }
  for (std::string w; in >> w;) {
    auto eq = w.find('=');
    std::string k = w.substr(0, eq), v = eq == std::string::npos ? "" : w.substr(eq + 1);
    if (k == "control" || k == "live") {
      auto a = address_of(v, k + "=", error);
      if (!a) return std::nullopt;
      (k == "control" ? t.control : t.live).endpoint = *a;
    } else if (k == "server-key") {
      auto key = protocol::read_key_file(v, error);
      if (!key) {
        error = "server-key=" + error;
        return std::nullopt;
      }
      t.control.server_public = t.live.server_public = key->public_key;
    } else {
      error = "'" + w + "': expected control=, live= or server-key=";
      return std::nullopt;
    }
  }
  return t;
}

// The console's own keypairs. It is a service, like cardtabled: its keys may be 0600, or 0640 root:GROUP
// read through the group it runs as (/etc/cardtable/keys); never readable by others.
std::optional<protocol::Keypair> read_keypair(const std::string& file, const char* option, std::string& error) {
  if (file.empty()) return std::nullopt;
  auto k = protocol::read_secret_key_file(file, error, protocol::SecretKeyReader::service);
  if (!k) error = std::string(option) + " " + error;
  return k;
}

int hash_password_command(int argc, char** argv) {
  int iterations = 200000;
  po::options_description o("cardtable-console hash-password: reads a password line from standard input, prints "
                            "the HASH for the logins file (PBKDF2-SHA256)");
  o.add_options()("help,h", "this help")("iterations", po::value(&iterations)->default_value(iterations),
                                          "PBKDF2 iterations (1000 to 5000000; more is slower to try and to guess)");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc - 1, argv + 1).options(o).positional({}).run(), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    return usage_error(std::string("hash-password: ") + e.what());
  }
  if (vm.count("help")) {
    std::cout << o << '\n';
    return 0;
  }
  if (iterations < 1000 || iterations > Logins::kMostIterations)
    return usage_error("hash-password --iterations " + std::to_string(iterations) + ": at least 1000 and at most " +
                       std::to_string(Logins::kMostIterations));
  std::string password;
  std::getline(std::cin, password);
  if (password.empty()) return usage_error("hash-password reads the password from standard input, and it was empty");
  std::cout << Logins::hash_password(password, iterations) << '\n';
  return 0;
}

int make_cert_command(int argc, char** argv) {
  std::string dir = ".";
  std::vector<std::string> names;
  int days = 400;
  po::options_description o("cardtable-console make-cert: a self-signed certificate for HTTPS (console.key, console.crt)");
  o.add_options()("help,h", "this help")("dir", po::value(&dir)->default_value(dir), "where to write console.key and console.crt")(
      "name", po::value(&names)->composing(), "a host name or address the browsers use (repeat)")(
      "days", po::value(&days)->default_value(days), "validity in days (1 to 3650)");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc - 1, argv + 1).options(o).positional({}).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << o << '\n';
      return 0;
    }
    // 0 or less wrote a certificate that had expired before it was made, and said "wrote".
    if (days < 1 || days > 3650) return usage_error("make-cert --days " + std::to_string(days) + ": 1 to 3650");
    make_self_signed_certificate(dir, names, days);
  } catch (const std::exception& e) {
    return usage_error(std::string("make-cert: ") + e.what());
  }
  std::cout << "wrote " << (fs::path(dir) / "console.crt").string() << " and console.key; give them as --tls-cert and --tls-key\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::string(argv[1]) == "hash-password") return hash_password_command(argc, argv);
  if (argc >= 2 && std::string(argv[1]) == "make-cert") return make_cert_command(argc, argv);

  std::string listen = "127.0.0.1:8080", config, hub, hub_control, hub_key, director_key, broadcaster_key, logins_file,
              www = data_files::source_or_installed(CARDTABLE_CONSOLE_WWW_SOURCE, CARDTABLE_CONSOLE_WWW),
              tls_cert, tls_key;
  std::vector<std::string> events_direct, tables, allowed_origins;
  double allowance = 450, lost_after = 15;
  GatewayLimits limits;
  // Read as signed and checked: Boost's unsigned parser took --max-streams -1 as no limit at all.
  long max_connections = static_cast<long>(limits.max_connections), max_streams = static_cast<long>(limits.max_streams),
       max_per_address = static_cast<long>(limits.max_connections_per_address);
  po::options_description opts(
      "cardtable-console: every table of the venue on one web page, for directors and broadcasters\n"
      "  cardtable-console [options]            run the gateway\n"
      "  cardtable-console hash-password [--iterations N] < password   a line's HASH for the logins file\n"
      "  cardtable-console make-cert --dir DIR --name HOST             a self-signed certificate\n\nOptions");
  opts.add_options()("help,h", "this help")("config", po::value(&config), "a file of the same options, one 'name = value' a line")(
      "listen", po::value(&listen)->default_value(listen), "ADDRESS:PORT for browsers (port 0: any free one, printed at start); "
                                                          "an address other than loopback needs --tls-cert and --tls-key")(
      "hub", po::value(&hub), "the hub's downstream (XPUB) endpoint: every table's events")(
      "hub-control", po::value(&hub_control), "the hub's control endpoint: a snapshot of the boards in progress at start")(
      "hub-key", po::value(&hub_key), "the hub's public key file (CURVE)")(
      "events", po::value(&events_direct)->composing(), "a daemon's events endpoint, instead of or besides a hub (repeat)")(
      "table", po::value(&tables)->composing(),
      "'TOURNAMENT/SECTION/TABLE control=ENDPOINT live=ENDPOINT server-key=FILE': where to acknowledge and where the "
      "broadcaster's hands come from (repeat)")(
      "director-key", po::value(&director_key), "the console's director keypair (cardtablectl keygen; mode 0600, or 0640 with the console's group): subscribes and acknowledges")(
      "broadcaster-key", po::value(&broadcaster_key), "the console's broadcaster keypair (mode as --director-key): the tables' live endpoints")(
      "logins", po::value(&logins_file), "the logins file: 'NAME ROLE HASH' a line, NAME at most 256 bytes (required)")(
      "www", po::value(&www)->default_value(www), "the page's folder (index.html, console.js, console.css)")(
      "tls-cert", po::value(&tls_cert), "HTTPS certificate chain (PEM)")("tls-key", po::value(&tls_key), "HTTPS private key (PEM)")(
      "allowance", po::value(&allowance)->default_value(allowance), "seconds a board may take before it shows as slow")(
      "lost-after", po::value(&lost_after)->default_value(lost_after), "seconds of silence (no heartbeat) before a table shows as lost, or three of its heartbeats when they say they come "
                                                               "further apart (protocol 1.7); a --table never heard since the start shows as lost after as long")(
      "max-connections", po::value(&max_connections)->default_value(max_connections),
      "browser connections at most; when all are open, a newcomer closes the one waiting longest for a request (idle, or "
      "its request or TLS handshake still arriving) and takes its place; open pages and requests being answered are never "
      "closed for room, and when only those are open the newcomer is refused (503)")(
      "max-connections-per-address", po::value(&max_per_address)->default_value(max_per_address),
      "browser connections at most from one address (behind a reverse proxy every browser has the proxy's)")(
      "max-streams", po::value(&max_streams)->default_value(max_streams), "open pages at most, for each role (directors; broadcasters)")(
      "allowed-origin", po::value(&allowed_origins)->composing(),
      "SCHEME://HOST[:PORT] the browsers use besides the console's own address, e.g. a reverse proxy's "
      "https://console.venue.lan (repeat); a state-changing request from any other site is refused (403). Every "
      "request must name the console in its Host (DNS rebinding): by default the --listen address (any address "
      "on 0.0.0.0 or ::) and, on loopback, localhost and the loopback addresses; each --allowed-origin's host "
      "besides (a name the browsers use, e.g. https://console.venue.lan:8443 for make-cert --name "
      "console.venue.lan); any other Host is refused (421)");
  po::variables_map vm;
  try {
    // No positional arguments: a stray word was dropped without a word.
    po::store(po::command_line_parser(argc, argv).options(opts).positional({}).run(), vm);
    if (vm.count("config")) {
      std::ifstream in(vm["config"].as<std::string>());
      if (!in) return usage_error(vm["config"].as<std::string>() + ": cannot read");
      po::store(po::parse_config_file(in, opts), vm);
    }
    po::notify(vm);
  } catch (const po::error& e) {
    return usage_error(e.what());
  }
  if (vm.count("help")) {
    std::cout << opts;
    return 0;
  }
  if (logins_file.empty()) return usage_error("give --logins FILE: without logins nobody sees anything");
  auto colon = listen.rfind(':');
  if (colon == std::string::npos) return usage_error("--listen " + listen + ": expected ADDRESS:PORT");
  // The port as digits up to 65535: stoul and a cast served --listen ...:99999 on port 34463, and :-1 on 65535.
  const std::string port = listen.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos || std::stoul(port) > 65535)
    return usage_error("--listen " + listen + ": the port is 0 to 65535 (0: any free one)");
  net::ip::tcp::endpoint at;
  try {
    std::string host = listen.substr(0, colon);
    if (host.starts_with('[')) host = host.substr(1, host.size() - 2);
    at = {net::ip::make_address(host), static_cast<unsigned short>(std::stoul(port))};
  } catch (const std::exception&) {
    return usage_error("--listen " + listen + ": expected ADDRESS:PORT with a numeric address");
  }
  if (!(allowance > 0)) return usage_error("--allowance must be above 0 seconds");
  if (!(lost_after > 0)) return usage_error("--lost-after must be above 0 seconds");
  if (max_connections < 1 || max_connections > 100000) return usage_error("--max-connections must be 1 to 100000");
  if (max_streams < 1 || max_streams > max_connections) return usage_error("--max-streams must be 1 to --max-connections");
  if (max_per_address < 1 || max_per_address > max_connections)
    return usage_error("--max-connections-per-address must be 1 to --max-connections");
  limits.max_connections = static_cast<std::size_t>(max_connections);
  limits.max_connections_per_address = static_cast<std::size_t>(max_per_address);
  limits.max_streams = static_cast<std::size_t>(max_streams);
  std::optional<OriginCheck> origins;
  try {
    origins.emplace(allowed_origins);
  } catch (const std::invalid_argument& e) {
    return usage_error(e.what());
  }
  bool tls = !tls_cert.empty() || !tls_key.empty();
  if (tls && (tls_cert.empty() || tls_key.empty())) return usage_error("--tls-cert and --tls-key go together");
  // Passwords and session cookies cross the venue's network only encrypted.
  if (!at.address().is_loopback() && !tls) return usage_error("--listen " + listen + ": off loopback the console needs HTTPS (--tls-cert, --tls-key)");

  // A key option given empty (a config line "hub-key =" left blank) was no CURVE at all, without a word.
  for (const char* option : {"hub-key", "director-key", "broadcaster-key"})
    if (vm.count(option) && vm[option].as<std::string>().empty()) return usage_error(std::string("--") + option + " names no file");
  std::string error;
  auto director = read_keypair(director_key, "--director-key", error);
  if (!director_key.empty() && !director) return usage_error(error);
  auto broadcaster = read_keypair(broadcaster_key, "--broadcaster-key", error);
  if (!broadcaster_key.empty() && !broadcaster) return usage_error(error);
  std::string hub_public;
  if (!hub_key.empty()) {
    auto k = protocol::read_key_file(hub_key, error);
    if (!k) return usage_error("--hub-key " + error);
    hub_public = k->public_key;
    if (!director) return usage_error("--hub-key needs --director-key: the console subscribes to the hub as a director");
  }

  std::vector<Peer> event_sources, live_sources;
  std::map<std::string, Peer> control, live_replay;
  VenueState venue(allowance, lost_after);
  std::string hub_address, hub_control_address;
  for (auto [option, text, into] : {std::tuple{"--hub", &hub, &hub_address}, {"--hub-control", &hub_control, &hub_control_address}}) {
    if (text->empty()) continue;
    auto a = address_of(*text, option, error);
    if (!a) return usage_error(error);
    *into = *a;
  }
  if (!hub.empty()) event_sources.push_back({hub_address, hub_public, director ? &*director : nullptr});
  for (const auto& e : events_direct) {
    auto a = address_of(e, "--events", error);
    if (!a) return usage_error(error);
    event_sources.push_back({*a, "", nullptr});
  }
  std::set<std::string> declared;
  for (const auto& text : tables) {
    auto t = parse_table(text, error);
    if (!t) return usage_error("--table " + error);
    if (!declared.insert(t->id).second) return usage_error("--table " + t->id + " is given twice: one line a table");
    venue.declare_table(t->id, std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count());
    if (!t->control.endpoint.empty()) {
      t->control.key = director ? &*director : nullptr;
      if (!t->control.server_public.empty() && !director) return usage_error("--table " + t->id + ": acknowledging with CURVE needs --director-key");
      control[t->id] = t->control;
      // The released hands a live subscription missed come from the same control endpoint, asked with
      // the broadcaster's key (the live endpoint is a PUB: it answers nothing).
      live_replay[t->id] = {t->control.endpoint, t->control.server_public, broadcaster ? &*broadcaster : t->control.key};
    }
    if (!t->live.endpoint.empty()) {
      t->live.key = broadcaster ? &*broadcaster : nullptr;
      if (!t->live.server_public.empty() && !broadcaster) return usage_error("--table " + t->id + ": live hands with CURVE need --broadcaster-key");
      live_sources.push_back(t->live);
    }
  }
  if (event_sources.empty()) return usage_error("give --hub ENDPOINT (or --events ENDPOINT for a daemon)");

  net::io_context io{1};
  std::optional<net::ssl::context> tls_context;
  try {
    Logins logins = Logins::load(logins_file);
    if (tls) {
      tls_context.emplace(net::ssl::context::tls_server);
      tls_context->set_options(net::ssl::context::default_workarounds | net::ssl::context::no_sslv2 | net::ssl::context::no_sslv3 |
                               net::ssl::context::no_tlsv1 | net::ssl::context::no_tlsv1_1);
      tls_context->use_certificate_chain_file(tls_cert);
      tls_context->use_private_key_file(tls_key, net::ssl::context::pem);
    }
    zmq::context_t zmq_ctx;
    TableRequests requests;
    Gateway gateway(io, venue, std::move(logins), requests, control, www, limits, live_replay);
    HostCheck hosts(at.address(), origins->allowed());
    auto listener = std::make_shared<HttpListener>(io, at, gateway, tls_context ? &*tls_context : nullptr, hosts, *origins);
    listener->start();
    auto bound = listener->local_endpoint();
    std::string host = bound.address().to_string();
    if (bound.address().is_v6()) host = "[" + host + "]";
    std::cout << "cardtable-console: open " << (tls ? "https" : "http") << "://" << host << ":" << bound.port() << "/" << std::endl;

    WireClient wire(zmq_ctx, event_sources, live_sources, [&io, &gateway](json event, bool live) {
      net::post(io, [&gateway, event = std::move(event), live] { gateway.on_event(event, live); });
    });
    // A console that starts late catches up: the hands already released to broadcasters (each table's
    // live journal, from its control endpoint), the hub's boards in progress, each table's open alerts
    // (protocol 1.1).
    net::post(io, [&gateway] { gateway.catch_up_live(); });
    std::thread catch_up([&] {
      std::vector<std::pair<json, bool>> events;
      try {
        if (!hub_control.empty()) {
          json snap = requests.hub_snapshot({hub_control_address, hub_public, director ? &*director : nullptr});
          const json boards = snap.contains("tables") && snap["tables"].is_object() ? snap["tables"] : json::object();
          if (!snap.value("ok", false) && !TableRequests::stopped(snap)) std::cerr << "cardtable-console: hub snapshot: " << snap.value("error", "?") << std::endl;
          for (const auto& [name, t] : boards.items())
            if (t.is_object() && t.contains("events") && t["events"].is_array())
              for (const auto& e : t["events"]) events.emplace_back(e, false);
        }
      for (const auto& [id, peer] : control)
        if (auto alerts = requests.open_alerts(peer))
          for (const auto& e : *alerts) events.emplace_back(e, false);
      } catch (const std::exception& e) {
        std::cerr << "cardtable-console: catching up: " << e.what() << std::endl;  // a hostile reply costs the catch-up only
      }
      net::post(io, [&gateway, events = std::move(events)] {
        for (const auto& [e, live] : events) gateway.on_event(e, live);
      });
    });

    // A flood's refusals are logged a line in 10 s and then counted: the count of its last window is said
    // by the tick once the window is over, and at once when the console stops (no refusal may come to carry it).
    auto say_held_refusals = [&](bool closing) {
      listener->say_held_refusals(closing);
      hosts.say_held_refusals(closing);
      origins->say_held_refusals(closing);
      gateway.say_held_refusals(closing);
    };
    net::steady_timer ticker(io);
    std::function<void()> tick = [&] {
      ticker.expires_after(std::chrono::seconds(1));
      ticker.async_wait([&](boost::system::error_code ec) {
        if (ec) return;
        gateway.tick();
        say_held_refusals(false);
        tick();
      });
    };
    tick();
    net::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code, int) {
      std::cerr << "cardtable-console: stopping" << std::endl;
      say_held_refusals(true);
      // The control requests waiting on tables or the hub end now: the catch-up thread and the gateway's
      // requests are joined below, and each waited up to its timeout (3 s each, one after another).
      requests.stop();
      io.stop();
    });
    std::signal(SIGPIPE, SIG_IGN);
    io.run();
    catch_up.join();
  } catch (const std::exception& e) {
    std::cerr << "cardtable-console: " << e.what() << std::endl;
    return 2;
  }
  return 0;
}
