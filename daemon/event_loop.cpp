#include "daemon/event_loop.hpp"

#include <signal.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "daemon/log.hpp"
#include "daemon/wire_conversion.hpp"
#include "protocol/control.hpp"
#include "protocol/curve_keys.hpp"
#include "protocol/wire_event.hpp"

namespace cardtable::daemon {
namespace fs = std::filesystem;
using nlohmann::json;
using protocol::error_reply;
using protocol::ok_reply;

namespace {

void open_endpoint(zmq::socket_t& s, const Endpoint& e, const char* what) {
  try {
    if (e.bind) s.bind(e.address);
    else s.connect(e.address);
  } catch (const zmq::error_t& ex) {
    throw StartupError(std::string(what) + " endpoint " + e.str() + ": " + ex.what());
  }
}

Publisher::Config publisher_config(const Options& o) {
  return {fs::path(o.state_dir), protocol::Journal::Limits{static_cast<std::uintmax_t>(o.journal_file_mb) << 20, o.journal_files},
          std::chrono::duration<double>(o.embargo)};
}

fs::path self_path() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : p;
}

// A replay reply: at most kLimit events; the client asks again from the last seq + 1 while "more".
json replay_reply(const protocol::Journal& journal, std::uint64_t since) {
  constexpr std::size_t kLimit = 5000;
  json events = json::array();
  bool more = false;
  journal.replay(since, [&](const std::string& line, std::uint64_t) {
    if (events.size() == kLimit) {
      more = true;
      return false;
    }
    if (auto j = json::parse(line, nullptr, false); !j.is_discarded()) events.push_back(std::move(j));
    return true;
  });
  return {{"events", events}, {"more", more}, {"first_available", journal.first_seq()}, {"last_seq", journal.last_seq()}};
}

}  // namespace

std::unique_ptr<bridge::MasterRecord> EventLoop::load_master(const std::vector<std::string>& paths, std::string& summary) const {
  auto m = std::make_unique<bridge::MasterRecord>();
  std::vector<fs::path> p(paths.begin(), paths.end());
  for (const auto& path : p)
    if (!fs::exists(path)) throw StartupError("--master " + path.string() + ": no such file or folder");
  bridge::Diagnostics d = m->load(p);
  std::size_t errors = 0;
  for (const auto& x : d) {
    log(x.is_error() ? Priority::Warning : Priority::Notice, x.str());
    errors += x.is_error() ? 1U : 0U;
  }
  if (m->size() == 0) throw StartupError("the master record holds no complete deal (" + std::to_string(errors) + " errors)");
  summary = std::to_string(m->size()) + " boards in " + std::to_string(m->session_count()) + " sessions" +
            (errors ? ", " + std::to_string(errors) + " problems reported" : "");
  return m;
}

EventLoop::EventLoop(Options options)
    : options_(std::move(options)),
      double_dummy_(options_.analyzer, self_path()),
      broadcast_(fs::path(options_.state_dir) / "broadcast") {
  set_log_table(options_.tournament + "/" + options_.section + "/" + options_.table);
  std::string summary;
  master_ = load_master(options_.masters, summary);
  log("master record: " + summary);

  // The simulated table's scenario: its zones unless --zone says otherwise.
  std::ifstream in(options_.simulate);
  if (!in) throw StartupError("--simulate " + options_.simulate + ": cannot read the scenario");
  std::stringstream text;
  text << in.rdbuf();
  std::vector<table::ScenarioError> errors;
  auto scenario = table::parse_scenario(text.str(), fs::path(options_.simulate).parent_path(),
                                        [this](const auto&) -> const bridge::MasterRecord& { return *master_; }, errors);
  if (!scenario) {
    std::string all;
    for (const auto& e : errors) all += "\n  " + options_.simulate + ":" + std::to_string(e.line) + ": " + e.message;
    throw StartupError("the scenario has errors:" + all);
  }
  table_config_ = scenario->config;
  if (!options_.zones.empty()) {
    table_config_.zones.clear();
    for (const std::string& z : options_.zones) {
      auto eq = z.find('=');
      auto zone = table::Zone::parse(z.substr(0, eq));
      if (!zone || eq == std::string::npos) throw StartupError("--zone " + z + ": expected ZONE=DEVICE, e.g. play:N=sim");
      std::string device = z.substr(eq + 1);
      if (device != "sim") throw StartupError("--zone " + z + ": no device '" + device + "' (this build has: sim)");
      table_config_.zones.push_back(*zone);
    }
  }
  table_ = std::make_unique<table::Table>(*master_, table_config_);
  simulator_ = std::make_unique<SimulatorDevice>(std::move(*scenario), options_.speed, options_.loop);

  try {
    publisher_ = std::make_unique<Publisher>(context_, publisher_config(options_));
  } catch (const std::runtime_error& e) {
    throw StartupError(e.what());
  }
  board_first_seq_ = publisher_->journal().last_seq() + 1;
  control_ = std::make_unique<ControlServer>(
      context_, [this](const protocol::TypedRequest& r, const std::string& role) { return dispatch(r, role); },
      !options_.curve_secret.empty());
  if (!options_.curve_secret.empty()) setup_curve();
  open_endpoint(publisher_->live_socket(), options_.live, "live");
  open_endpoint(publisher_->events_socket(), options_.publish, "publish");
  open_endpoint(control_->socket(), options_.control, "control");
  if (!double_dummy_.program())
    log(Priority::Warning, "cardtablectl not found: broadcast PBN files will have no double-dummy table (see --analyzer)");

  auto version = daemon_event("daemon.version", "info",
                              "cardtabled " CARDTABLE_VERSION " started, protocol " + std::to_string(protocol::kProtoMajor) + "." +
                                  std::to_string(protocol::kProtoMinor),
                              options_, wall(), mono());
  version.evidence = {{"proto_major", std::to_string(protocol::kProtoMajor)}, {"proto_minor", std::to_string(protocol::kProtoMinor)},
                      {"daemon", CARDTABLE_VERSION}};
  publish(version);
  auto loaded = daemon_event("record.loaded", "info", "Master record loaded: " + summary, options_, wall(), mono());
  loaded.evidence = {{"boards", std::to_string(master_->size())}, {"sessions", std::to_string(master_->session_count())}};
  publish(loaded);
  drain_table();  // table.capabilities
}

EventLoop::~EventLoop() {
  if (simulator_) simulator_->stop();
}

void EventLoop::setup_curve() {
  std::string error;
  if (!protocol::secret_key_file_private(options_.curve_secret, error)) throw StartupError("--curve-secret: " + error);
  auto keys = protocol::read_key_file(options_.curve_secret, error);
  if (!keys || keys->secret_key.empty())
    throw StartupError("--curve-secret " + options_.curve_secret + ": " + (keys ? "holds no secret key (a .pub file?)" : error));
  std::map<std::string, protocol::ClientKey> clients;
  try {
    clients = protocol::read_client_keys(options_.clients, {"director", "broadcaster", "hub"});
  } catch (const std::exception& e) {
    throw StartupError(std::string("--clients: ") + e.what());
  }
  if (clients.empty())
    throw StartupError("--clients " + options_.clients + ": no client key (put .pub files in director/, broadcaster/ or hub/)");
  // The live endpoint has a ZAP domain of its own: only broadcasters get in there. The role becomes the
  // messages' User-Id, which the control server reads.
  zap_ = std::make_unique<protocol::ZapAuthenticator>(
      context_, std::move(clients), [](std::string_view domain, const protocol::ClientKey& k) -> std::optional<std::string> {
        if (domain == "live" && k.role != "broadcaster") return std::nullopt;
        return k.role;
      });
  std::optional<protocol::Keypair> hub;
  if (!options_.hub_key.empty()) {
    hub = protocol::read_key_file(options_.hub_key, error);
    if (!hub) throw StartupError("--hub-key: " + error);
  }
  for (auto [s, e] : {std::pair{&publisher_->events_socket(), &options_.publish}, {&control_->socket(), &options_.control},
                      {&publisher_->live_socket(), &options_.live}}) {
    if (!e->bind) {  // we connect to a hub: we are its CURVE client
      if (!hub) throw StartupError(e->str() + ": connecting with CURVE needs --hub-key (the hub's .pub)");
      s->set(zmq::sockopt::curve_serverkey, hub->public_key);
      s->set(zmq::sockopt::curve_publickey, keys->public_key);
      s->set(zmq::sockopt::curve_secretkey, keys->secret_key);
      continue;
    }
    s->set(zmq::sockopt::curve_server, 1);
    s->set(zmq::sockopt::curve_secretkey, keys->secret_key);
    s->set(zmq::sockopt::zap_domain, s == &publisher_->live_socket() ? "live" : "cardtable");
  }
  log("CURVE on every endpoint; " + std::to_string(zap_->size()) + " client keys allowed");
}

double EventLoop::wall() const {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double EventLoop::mono() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count(); }

void EventLoop::publish(protocol::WireEvent& e) {
  publisher_->publish(e, true);
  if (e.type == "board.arrived" || e.type == "board.identified")
    if (table_->phase_name() == "waiting" || e.type == "board.arrived") board_first_seq_ = std::min(board_first_seq_, e.seq);
}

std::vector<std::string> EventLoop::drain_table() {
  std::vector<std::string> types;
  for (const table::Event& e : table_->take_events()) {
    types.push_back(e.type);
    recorder_.on_event(e);
    protocol::WireEvent w = to_wire(e, options_, wall());
    // The cards played are hand contents: live.*, held until the board is finished here, for broadcasters.
    if (e.type.starts_with("play.")) {
      w.type = "live." + e.type.substr(5);
      held_.push_back(std::move(w));
      continue;
    }
    publish(w);
    if (e.type == "board.returned" || e.type == "board.verified") {
      board_first_seq_ = publisher_->journal().last_seq() + 1;  // the next board's snapshot starts after this
      if (e.type == "board.returned") finish_board(w);
    }
  }
  return types;
}

void EventLoop::finish_board(const protocol::WireEvent& returned) {
  std::vector<protocol::WireEvent> events = std::move(held_);
  held_.clear();
  // live.deal: the four hands, from the master record, published with the play.
  if (auto entry = master_->find(returned.event, returned.session, returned.board)) {
    const bridge::MasterBoard& b = master_->board(*entry);
    auto deal = daemon_event("live.deal", "info", "Board " + std::to_string(b.board) + ": " + b.deal.pbn(b.dealer), options_, wall(), returned.mono);
    deal.event = returned.event;
    deal.session = returned.session;
    deal.board = returned.board;
    deal.evidence = {{"deal", b.deal.pbn(b.dealer)}, {"dealer", std::string(1, bridge::seat_letter(b.dealer))},
                     {"vulnerable", std::string(bridge::pbn_name(b.vulnerability))}};
    events.insert(events.begin(), std::move(deal));
    pending_boards_.push_back(recorder_.finish(b, returned.event, returned.session,
                                               options_.tournament + " " + options_.section + " table " + options_.table));
  } else {
    recorder_.reset();
  }
  publisher_->embargo(std::move(events));
  release_embargoed();
}

void EventLoop::release_embargoed() {
  for (const auto& board : publisher_->release_due()) {
    if (board.empty() || board.front().type != "live.deal") continue;
    // The broadcast files of a board are written when its live.* events are released, never before.
    auto it = std::find_if(pending_boards_.begin(), pending_boards_.end(), [&](const bridge::BoardRecord& r) {
      return r.board == board.front().board && r.session == board.front().session && r.event == board.front().event;
    });
    if (it == pending_boards_.end()) continue;
    bridge::BoardRecord record = std::move(*it);
    pending_boards_.erase(it);
    try {
      fs::path pbn = broadcast_.write(record);
      std::string error;
      if (double_dummy_.program() && !double_dummy_.start(pbn, error)) log(Priority::Warning, pbn.string() + ": no double-dummy table: " + error);
    } catch (const std::exception& e) {
      log(Priority::Error, std::string("broadcast: ") + e.what());
    }
  }
}

void EventLoop::apply(const table::TableInput& in) {
  last_table_time_ = std::max(last_table_time_, in.time);
  if (in.kind == table::TableInput::Kind::Command && in.command.kind == table::Command::Kind::Contract)
    if (auto c = table::parse_contract_command(in.command.text)) recorder_.on_contract(*c);
  table::apply(*table_, in);
  drain_table();
}

json EventLoop::status() const {
  json s = {{"tournament", options_.tournament}, {"section", options_.section}, {"table", options_.table},
            {"proto_major", protocol::kProtoMajor}, {"proto_minor", protocol::kProtoMinor},
            {"last_seq", publisher_->journal().last_seq()}, {"first_seq", publisher_->journal().first_seq()},
            {"phase", table_->phase_name()}, {"master_boards", master_->size()},
            {"uptime", mono()}, {"published", publisher_->published()},
            {"control_requests", control_->requests()}, {"control_errors", control_->errors()},
            {"security", zap_ ? "curve" : "plaintext (loopback/ipc)"}, {"refused_clients", zap_ ? zap_->refused() : 0},
            {"live_last_seq", publisher_->live_journal().last_seq()}, {"boards_under_embargo", publisher_->boards_under_embargo()},
            {"analyzer", double_dummy_.program() ? double_dummy_.program()->string() : std::string()},
            {"simulator", {{"scenario", options_.simulate}, {"speed", options_.speed}, {"loop", options_.loop},
                           {"finished", simulator_->finished()}}}};
  if (auto b = table_->board()) s["board"] = {{"board", master_->board(*b).board}, {"name", master_->describe(*b)}};
  return s;
}

// Reloading the master record. Kept in this one function: when table::Table::reload_master lands
// (issue 7), the board in progress is kept by calling it here instead of starting a new table.
void EventLoop::reload(const std::vector<std::string>& paths) {
  std::string summary;
  auto fresh = load_master(paths, summary);  // throws StartupError: the old record stays
  master_ = std::move(fresh);
  table_ = std::make_unique<table::Table>(*master_, table_config_);  // the board in progress is forgotten
  options_.masters = paths;
  auto loaded = daemon_event("record.loaded", "info", "Master record reloaded: " + summary, options_, wall(), mono());
  loaded.evidence = {{"boards", std::to_string(master_->size())}, {"sessions", std::to_string(master_->session_count())}};
  publish(loaded);
  drain_table();
  log("master record reloaded: " + summary);
}

json EventLoop::dispatch(const protocol::TypedRequest& r, const std::string& role) {
  return std::visit([&](const auto& request) { return on(request, role); }, r);
}

json EventLoop::on(const protocol::VersionRequest&, const std::string&) {
  return ok_reply({{"proto_major", protocol::kProtoMajor}, {"proto_minor", protocol::kProtoMinor}, {"daemon", CARDTABLE_VERSION}});
}

json EventLoop::on(const protocol::StatusRequest&, const std::string&) { return ok_reply({{"status", status()}}); }

json EventLoop::on(const protocol::SnapshotRequest&, const std::string&) {
  json reply = replay_reply(publisher_->journal(), board_first_seq_);
  reply["status"] = status();
  return ok_reply(reply);
}

json EventLoop::on(const protocol::AlertsRequest&, const std::string&) { return error_reply("alerts: not in this build yet"); }

json EventLoop::on(const protocol::ReplayRequest& r, const std::string&) { return ok_reply(replay_reply(publisher_->journal(), r.since)); }

json EventLoop::on(const protocol::ReplayLiveRequest& r, const std::string&) {
  return ok_reply(replay_reply(publisher_->live_journal(), r.since));
}

json EventLoop::on(const protocol::EvidenceRequest&, const std::string&) { return error_reply("evidence: not in this build yet"); }

json EventLoop::table_command(table::Command cmd, const std::string& what) {
  cmd.time = last_table_time_;
  if (cmd.kind == table::Command::Kind::Contract)
    if (auto c = table::parse_contract_command(cmd.text)) recorder_.on_contract(*c);
  table_->command(cmd);
  auto types = drain_table();
  if (std::find(types.begin(), types.end(), "table.command_rejected") != types.end())
    return error_reply(what + ": the table rejected '" + cmd.text + "' (see event " + std::to_string(publisher_->journal().last_seq()) + ")");
  return ok_reply({{"last_seq", publisher_->journal().last_seq()}});
}

json EventLoop::on(const protocol::BoardRequest& r, const std::string&) {
  table::Command cmd;
  cmd.kind = table::Command::Kind::Board;
  cmd.text = r.label;
  return table_command(cmd, "board");
}

json EventLoop::on(const protocol::ContractRequest& r, const std::string&) {
  table::Command cmd;
  cmd.kind = table::Command::Kind::Contract;
  cmd.text = r.contract;
  return table_command(cmd, "contract");
}

json EventLoop::on(const protocol::AckRequest& r, const std::string&) {
  if (r.seq > publisher_->journal().last_seq()) return error_reply("ack: no event " + std::to_string(r.seq));
  auto e = daemon_event("director.ack", "info", "Event " + std::to_string(r.seq) + " acknowledged by " + r.by, options_, wall(), mono());
  e.evidence = {{"seq", std::to_string(r.seq)}, {"by", r.by}};
  publish(e);
  // An acknowledgement confirmed is on the disk (fdatasync): a power cut after the reply keeps it and
  // every event before it (tests/integration/power_cut_test.cpp).
  publisher_->flush();
  return ok_reply({{"seq", e.seq}});
}

json EventLoop::on(const protocol::LoadRecordRequest& r, const std::string&) {
  try {
    reload(r.paths.value_or(options_.masters));
  } catch (const std::exception& e) {
    return error_reply(std::string("load-record: ") + e.what() + "; the previous record stays");
  }
  return ok_reply({{"boards", master_->size()}});
}

void EventLoop::heartbeat() {
  auto hb = daemon_event("daemon.heartbeat", "info", "alive", options_, wall(), mono());
  hb.evidence = {{"last_seq", std::to_string(publisher_->journal().last_seq())}, {"phase", table_->phase_name()}};
  publisher_->publish(hb, false);  // not journalled: it carries the last seq so that a subscriber can see a gap
  sd_notifyf(0, "STATUS=table %s: %s, last seq %llu", options_.table.c_str(), table_->phase_name().c_str(),
             static_cast<unsigned long long>(publisher_->journal().last_seq()));
}

int EventLoop::run() {
  simulator_->start(queue_);
  std::uint64_t watchdog_usec = 0;
  bool watchdog = sd_watchdog_enabled(0, &watchdog_usec) > 0;
  sd_notifyf(0, "READY=1\nSTATUS=table %s/%s/%s: %zu boards, publishing on %s", options_.tournament.c_str(), options_.section.c_str(),
             options_.table.c_str(), master_->size(), options_.publish.str().c_str());
  log("ready: publishing on " + options_.publish.str() + ", control on " + options_.control.str());
  auto last_watchdog = std::chrono::steady_clock::now();
  while (true) {
    zmq::pollitem_t items[] = {{control_->socket().handle(), 0, ZMQ_POLLIN, 0}, {nullptr, queue_.fd(), ZMQ_POLLIN, 0},
                               {nullptr, signals_.fd(), ZMQ_POLLIN, 0}, {zap_ ? zap_->socket().handle() : nullptr, 0, ZMQ_POLLIN, 0}};
    zmq::poll(items, zap_ ? 4 : 3, std::chrono::milliseconds(200));
    if (zap_ && (items[3].revents & ZMQ_POLLIN)) {
      zap_->handle();
      for (const std::string& why : zap_->take_refusals()) log(Priority::Warning, why);
    }
    if (items[2].revents & ZMQ_POLLIN) {
      for (int sig : signals_.take()) {
        if (sig == SIGHUP) {
          try {
            reload(options_.masters);
          } catch (const std::exception& e) {
            log(Priority::Error, std::string("SIGHUP: ") + e.what() + "; the previous record stays");
          }
          continue;
        }
        log(Priority::Notice, std::string("stopping on ") + strsignal(sig));
        sd_notify(0, "STOPPING=1");
        simulator_->stop();
        publisher_->flush();
        return 0;
      }
    }
    if (items[1].revents & ZMQ_POLLIN)
      for (const table::TableInput& in : queue_.take()) apply(in);
    if (items[0].revents & ZMQ_POLLIN) control_->handle();
    release_embargoed();
    for (const std::string& problem : double_dummy_.reap()) log(problem);
    auto now = std::chrono::steady_clock::now();
    if (options_.heartbeat > 0 && now - last_heartbeat_ >= std::chrono::duration<double>(options_.heartbeat)) {
      last_heartbeat_ = now;
      heartbeat();
    }
    if (watchdog && now - last_watchdog >= std::chrono::microseconds(watchdog_usec / 2)) {
      last_watchdog = now;
      sd_notify(0, "WATCHDOG=1");
    }
  }
}

}  // namespace cardtable::daemon
