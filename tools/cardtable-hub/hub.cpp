#include "hub.hpp"

#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <zmq_addon.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "daemon/system_log.hpp"
#include "protocol/control.hpp"
#include "protocol/curve_keys.hpp"
#include "protocol/endpoint.hpp"
#include "protocol/requests.hpp"

namespace cardtable::hub {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr std::size_t kKeptPerTable = 500;

using daemon::Priority;

// The daemon's system log (daemon/system_log.hpp): journald with fields under systemd, "<N>" lines on
// stderr elsewhere, so that `journalctl -u cardtable-hub -p warning` lists what the hub refused.
void log(Priority p, const std::string& s) {
  static daemon::Logger logger("cardtable-hub");
  logger.log(p, s);
}

// "<class>/<tournament>/<section>/<table>/<type>" -> "tournament/section/table"; empty when malformed.
std::string table_of(const std::string& topic) {
  auto a = topic.find('/');
  auto b = topic.rfind('/');
  if (a == std::string::npos || b <= a) return {};
  std::string t = topic.substr(a + 1, b - a - 1);
  if (std::count(t.begin(), t.end(), '/') != 2) return {};
  return t;
}

}  // namespace

std::map<std::string, protocol::ClientKey> read_table_keys(const std::string& clients) {
  std::map<std::string, protocol::ClientKey> out;
  fs::path root = fs::path(clients) / "table";
  if (!fs::is_directory(root)) return out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->path().extension() != ".pub") continue;
    fs::path rel = fs::relative(it->path(), root);
    rel.replace_extension();
    std::string name = rel.generic_string();
    if (std::count(name.begin(), name.end(), '/') != 2)
      throw HubStartupError(it->path().string() + ": a table key goes in table/TOURNAMENT/SECTION/TABLE.pub (the table it speaks for)");
    std::string error;
    auto k = protocol::read_key_file(it->path(), error);
    if (!k) throw HubStartupError(error);
    out[k->public_key] = protocol::ClientKey{"table", name};
  }
  if (ec) throw HubStartupError(root.string() + ": " + ec.message());
  return out;
}

bool Hub::may_publish(const std::string& user_id, const std::string& topic, bool curve) {
  if (!curve) return true;  // plain text: ipc or loopback, the machine's own tables
  return user_id.starts_with("table:") && !table_of(topic).empty() && table_of(topic) == user_id.substr(6);
}

Hub::Hub(const HubOptions& o)
    : xsub_(ctx_, zmq::socket_type::xsub), xpub_(ctx_, zmq::socket_type::xpub), ctl_(ctx_, zmq::socket_type::router) {
  curve_ = !o.curve_secret.empty();
  if (curve_ != !o.clients.empty()) throw HubStartupError("--curve-secret and --clients go together");
  for (const auto& [name, text] : {std::pair{"--upstream", o.upstream}, {"--downstream", o.downstream}, {"--control", o.control}}) {
    std::string error;
    auto e = protocol::parse_endpoint(text, error);
    if (!e) throw HubStartupError(std::string(name) + ": " + error);
    if (!e->bind) throw HubStartupError(std::string(name) + ": the hub binds its endpoints (no connect:)");
    if (auto why = protocol::check_endpoint_security(*e, o.plaintext, curve_)) throw HubStartupError(std::string(name) + ": " + *why);
  }
  try {
    if (curve_) {
      std::string error;
      if (!protocol::secret_key_file_private(o.curve_secret, error)) throw HubStartupError("--curve-secret: " + error);
      auto keys = protocol::read_key_file(o.curve_secret, error);
      if (!keys || keys->secret_key.empty()) throw HubStartupError("--curve-secret: " + (keys ? std::string("no secret key") : error));
      auto clients = protocol::read_client_keys(o.clients, {"director", "broadcaster", "hub"});
      for (auto& [k, who] : read_table_keys(o.clients)) clients[k] = who;
      zap_ = std::make_unique<protocol::ZapAuthenticator>(
          ctx_, std::move(clients), [](std::string_view domain, const protocol::ClientKey& k) -> std::optional<std::string> {
            // Tables publish upstream and nowhere else; every other role reads downstream.
            if ((domain == "upstream") != (k.role == "table")) return std::nullopt;
            return k.role == "table" ? "table:" + k.name : k.role;
          });
      for (auto* s : {&xsub_, &xpub_, &ctl_}) {
        s->set(zmq::sockopt::curve_server, 1);
        s->set(zmq::sockopt::curve_secretkey, keys->secret_key);
        s->set(zmq::sockopt::zap_domain, s == &xsub_ ? "upstream" : "downstream");
      }
    }
    xpub_.set(zmq::sockopt::sndhwm, 200000);
    xsub_.set(zmq::sockopt::rcvhwm, 200000);
    ctl_.set(zmq::sockopt::maxmsgsize, static_cast<int64_t>(1 << 20));
    for (auto* s : {&xsub_, &xpub_, &ctl_}) s->set(zmq::sockopt::linger, 0);
    xsub_.bind(o.upstream);
    // The hub keeps each table's board and open alerts whoever is subscribed downstream (the snapshot and
    // alerts requests), so it takes every topic from the tables itself.
    static constexpr char kSubscribeAll = 1;
    xsub_.send(zmq::buffer(&kSubscribeAll, 1), zmq::send_flags::dontwait);
    xpub_.bind(o.downstream);
    ctl_.bind(o.control);
  } catch (const HubStartupError&) {
    throw;
  } catch (const std::exception& e) {
    throw HubStartupError(e.what());
  }
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  pthread_sigmask(SIG_BLOCK, &mask, nullptr);
  signal_fd_ = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  log(Priority::Notice, "upstream " + o.upstream + ", downstream " + o.downstream + ", control " + o.control + (curve_ ? " (CURVE)" : " (plain text)"));
}

void Hub::forward_upstream() {
  // Tables -> subscribers, remembering each table's board in progress.
  while (true) {
    std::vector<zmq::message_t> f;
    if (!zmq::recv_multipart(xsub_, std::back_inserter(f), zmq::recv_flags::dontwait)) return;
    if (f.size() != 2) {
      ++dropped_;
      log(Priority::Warning, "dropped a message of " + std::to_string(f.size()) + " frames from upstream (an event is topic + body)");
      continue;
    }
    std::string topic = f[0].to_string();
    std::string user;
    if (curve_) {
      try {
        user = f[1].gets("User-Id");
      } catch (const zmq::error_t&) {
      }
    }
    if (!may_publish(user, topic, curve_)) {
      ++dropped_;
      log(Priority::Warning, "dropped " + json(topic.substr(0, 200)).dump(-1, ' ', true, json::error_handler_t::replace) + " from " +
          (user.empty() ? std::string("an unknown key") : user) + ": a table key speaks only for its own table");
      continue;
    }
    std::string table = table_of(topic);
    if (!table.empty()) {
      TableState& t = tables_[table];
      if (topic.ends_with("/daemon.heartbeat")) {
        t.last_heartbeat = json::parse(f[1].to_string_view(), nullptr, false);
      } else {
        if (auto j = json::parse(f[1].to_string_view(), nullptr, false); j.is_object()) t.alerts.on_published(j);
        if (topic.ends_with("/board.arrived")) t.events.clear();
        t.events.emplace_back(topic, f[1].to_string());
        if (t.events.size() > kKeptPerTable) t.events.pop_front();
      }
    }
    zmq::send_multipart(xpub_, f, zmq::send_flags::dontwait);
    ++forwarded_;
  }
}

// Every table's open alerts, oldest first (by the time each was made; seqs are per table). The hub knows
// the events it forwarded since it started: a table whose own count (its last heartbeat's open_alerts)
// differs is named under "incomplete", so a director asks that table's daemon for the full list.
json Hub::alerts() const {
  std::vector<json> all;
  json tables = json::object(), incomplete = json::array();
  for (const auto& [name, t] : tables_) {
    json open = t.alerts.open();
    json entry = {{"open", open.size()}};
    if (t.last_heartbeat.is_object() && t.last_heartbeat.contains("evidence") && t.last_heartbeat["evidence"].is_object()) {
      const json& ev = t.last_heartbeat["evidence"];
      if (ev.contains("open_alerts") && ev["open_alerts"].is_string()) {
        std::string at_table = ev["open_alerts"].get<std::string>();
        entry["at_table"] = at_table;
        if (at_table != std::to_string(open.size())) incomplete.push_back(name);
      }
    }
    tables[name] = entry;
    for (auto& a : open) all.push_back(std::move(a));
  }
  std::stable_sort(all.begin(), all.end(), [](const json& a, const json& b) {
    double ta = a.contains("time") && a["time"].is_number() ? a["time"].get<double>() : 0;
    double tb = b.contains("time") && b["time"].is_number() ? b["time"].get<double>() : 0;
    return ta < tb;
  });
  return protocol::ok_reply({{"count", all.size()}, {"alerts", all}, {"tables", tables}, {"incomplete", incomplete}});
}

json Hub::dispatch(const std::string& command) {
  if (command == "snapshot") {
    json all = json::object();
    for (const auto& [name, t] : tables_) {
      json events = json::array();
      for (const auto& [topic, body] : t.events)
        if (auto j = json::parse(body, nullptr, false); !j.is_discarded()) events.push_back(std::move(j));
      all[name] = {{"events", events}, {"heartbeat", t.last_heartbeat}};
    }
    return protocol::ok_reply({{"tables", all}, {"forwarded", forwarded_}});
  }
  if (command == "alerts") return alerts();
  if (command == "status") return protocol::ok_reply({{"tables", tables_.size()}, {"forwarded", forwarded_}, {"dropped", dropped_}});
  if (command == "version") return protocol::ok_reply({{"hub", CARDTABLE_VERSION}});
  return protocol::error_reply("the hub answers snapshot, alerts, status and version; '" + command.substr(0, 40) +
                               "' is a request for a table's own control endpoint");
}

std::string Hub::answer(std::string_view frame) noexcept {
  json reply;
  try {
    std::string error;
    auto req = protocol::parse_request(frame, error);
    if (!req) {
      reply = protocol::error_reply(error);
    } else if (req->args.size() > 1) {
      reply = protocol::error_reply(req->command.substr(0, 40) + ": the hub's requests have no fields");
    } else {
      reply = dispatch(req->command);
    }
  } catch (const std::exception& e) {
    reply = protocol::error_reply(std::string("failed: ") + e.what());
  } catch (...) {
    reply = protocol::error_reply("failed");
  }
  try {
    return reply.dump(-1, ' ', false, json::error_handler_t::replace);
  } catch (...) {
    return R"({"ok":false,"error":"the reply could not be written"})";
  }
}

int Hub::run() {
  while (true) {
    zmq::pollitem_t items[] = {{xsub_.handle(), 0, ZMQ_POLLIN, 0}, {xpub_.handle(), 0, ZMQ_POLLIN, 0}, {ctl_.handle(), 0, ZMQ_POLLIN, 0},
                               {nullptr, signal_fd_, ZMQ_POLLIN, 0}, {zap_ ? zap_->socket().handle() : nullptr, 0, ZMQ_POLLIN, 0}};
    zmq::poll(items, zap_ ? 5 : 4, std::chrono::milliseconds(500));
    if (items[3].revents & ZMQ_POLLIN) {
      log(Priority::Notice, "stopping");
      return 0;
    }
    if (zap_ && (items[4].revents & ZMQ_POLLIN)) {
      zap_->handle();
      for (const auto& why : zap_->take_refusals()) log(Priority::Warning, why);
    }
    if (items[0].revents & ZMQ_POLLIN) forward_upstream();
    // Subscriptions -> tables.
    while (items[1].revents & ZMQ_POLLIN) {
      zmq::message_t m;
      if (!xpub_.recv(m, zmq::recv_flags::dontwait)) break;
      xsub_.send(m, zmq::send_flags::dontwait);
    }
    while (items[2].revents & ZMQ_POLLIN) {
      std::vector<zmq::message_t> f;
      if (!zmq::recv_multipart(ctl_, std::back_inserter(f), zmq::recv_flags::dontwait)) break;
      if (f.size() < 2) continue;
      std::string body = answer(f.back().to_string_view());
      std::vector<zmq::const_buffer> out;
      for (std::size_t i = 0; i + 1 < f.size(); ++i) out.emplace_back(f[i].data(), f[i].size());
      out.push_back(zmq::buffer(body));
      zmq::send_multipart(ctl_, out, zmq::send_flags::dontwait);
    }
  }
}

}  // namespace cardtable::hub
