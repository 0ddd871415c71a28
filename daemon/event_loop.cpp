#include "daemon/event_loop.hpp"

#include <signal.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "daemon/log.hpp"
#include "daemon/wire_conversion.hpp"
#include "devices/deck.hpp"
#include "devices/sim/simulator_device.hpp"
#include "protocol/card_seal.hpp"
#include "protocol/control.hpp"
#include "protocol/wire_event.hpp"

namespace cardtable::daemon {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Readers' inputs applied between two looks at the control socket. An input that changes nothing costs
// microseconds; one that journals an event costs an fdatasync (milliseconds, a second on a loaded disk).
constexpr std::size_t kInputsPerBatch = 256;

// Binds or connects; returns the address in use (an ephemeral port "tcp://127.0.0.1:*" read back).
std::string open_endpoint(zmq::socket_t& s, const Endpoint& e, const char* what) {
  try {
    if (!e.bind) {
      s.connect(e.address);
      return "connect:" + e.address;
    }
    s.bind(e.address);
    return "bind:" + s.get(zmq::sockopt::last_endpoint);
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

}  // namespace

EventLoop::EventLoop(Options options)
    : options_(std::move(options)) {
  set_log_table(options_.tournament + "/" + options_.section + "/" + options_.table);
  LoadedRecord loaded_record = load_master(options_.masters);
  const std::string summary = loaded_record.summary;
  master_ = std::move(loaded_record.record);
  log("master record: " + summary);

  // The simulated table (--simulate, --simulate-session): the device "sim" plays it; its settings are the table's.
  std::vector<devices::DeviceConfig> preset;
  std::optional<Simulation> simulation = prepare_simulation(options_, *master_);
  if (simulation) {
    table_config_ = simulation->config;
    scenario_inputs_ = std::move(simulation->inputs);
    if (!simulation->real_clock) clock_.use_scenario_clock();
    preset.push_back(simulation->device);
  }
  // devices/ does not include the scenario parser: the sim gets the scenario parsed here.
  devices::set_script_loader([this](const std::string&, std::string&) -> std::optional<std::vector<table::TableInput>> { return scenario_inputs_; });
  std::vector<devices::DeviceConfig> configs;
  try {
    configs = parse_device_options(std::move(preset), options_.devices, options_.zones);
  } catch (const std::invalid_argument& e) {
    throw StartupError(e.what());
  }
  // The sim serves the scenario's zones unless a --zone names it.
  if (simulation && configs.front().driver == "sim" && configs.front().antennas.empty()) {
    int i = 0;
    for (const table::Zone& z : simulation->config.zones) configs.front().antennas[i++] = z;
  }
  devices::DeviceEnvironment env;
  env.clock = [this] { return clock_.ms(); };
  env.quirks_path = options_.quirks;
  try {
    devices_.create(configs, env);
  } catch (const std::runtime_error& e) {
    throw StartupError(e.what());
  }
  load_decks();
  auto ms = [](double seconds) { return static_cast<table::Millis>(seconds * 1000.0 + 0.5); };
  if (options_.silence) table_config_.silence_ms = ms(*options_.silence);
  if (options_.pocket_gap) table_config_.pocket_gap_ms = ms(*options_.pocket_gap);
  if (options_.board_allowance) table_config_.board_allowance_ms = ms(*options_.board_allowance);
  // The table watches the zones some device serves (none: a station waiting for its readers).
  table_config_.zones = devices_.zones();
  table_ = std::make_unique<table::Table>(*master_, table_config_);

  try {
    publisher_ = std::make_unique<Publisher>(context_, publisher_config(options_));
  } catch (const std::runtime_error& e) {
    throw StartupError(e.what());
  }
  board_first_seq_ = publisher_->journal().last_seq() + 1;
  broadcast_ = std::make_unique<BoardBroadcast>(*publisher_, options_, self_path());
  reader_ = std::make_unique<JournalReader>();
  requests_ = std::make_unique<TableRequests>(static_cast<TableRequests::Table&>(*this), *publisher_, *reader_, alerts_, options_, clock_);
  control_ = std::make_unique<ControlServer>(
      context_, [this](const protocol::TypedRequest& r, const ControlServer::Caller& c) { return requests_->route(r, c); },
      !options_.curve_secret.empty());
  if (!options_.curve_secret.empty())
    zap_ = secure_endpoints(context_, options_,
                            {{&publisher_->events_socket(), &options_.publish, false}, {&control_->socket(), &options_.control, false},
                             {&publisher_->live_socket(), &options_.live, true}});
  bound_["live"] = open_endpoint(publisher_->live_socket(), options_.live, "live");
  bound_["publish"] = open_endpoint(publisher_->events_socket(), options_.publish, "publish");
  bound_["control"] = open_endpoint(control_->socket(), options_.control, "control");
  alerts_.load(publisher_->journal());
  if (!broadcast_->analyzer())
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
  resume();
}

// The last run's board in progress: its inputs replayed into the table (board_resume.hpp). Their events
// are in the journal already and are not published again; the cards played are held again for the
// broadcaster (who gets the whole board after the embargo), the recorder and the trick count see them as
// they did.
void EventLoop::resume() {
  InputLog::Identity identity{InputLog::record_hash(*master_), {}};
  for (const table::Zone& z : table_config_.zones) identity.zones.push_back(z.str());
  board_resume_ = std::make_unique<BoardResume>(fs::path(options_.state_dir) / "board-in-progress.inputs", std::move(identity));
  const auto began = std::chrono::steady_clock::now();
  auto resumed = board_resume_->resume(board_first_seq_, wall(), [this](const table::TableInput& in) { apply(in); });
  if (!resumed) return;
  // The clock goes on from the replayed board's last time: a restart never turns the table's time back.
  clock_.resume(resumed->last_time, resumed->last_wall, scenario_inputs_);
  if (table_->phase_name() != "waiting" && resumed->first_seq > 0) board_first_seq_ = std::min(board_first_seq_, resumed->first_seq);
  const auto took_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - began).count();
  char took[32];
  std::snprintf(took, sizeof took, "%.1f", static_cast<double>(took_us) / 1000.0);
  const auto board = table_->board();
  log(Priority::Notice, "resumed board " + (board ? std::to_string(master_->board(*board).board) : std::string("-")) + " (phase " +
                            table_->phase_name() + ") from " + std::to_string(resumed->inputs.size()) + " inputs of the last run (" +
                            std::to_string(resumed->records) + " records, replayed in " + took + " ms)");
}

void EventLoop::logged(const table::TableInput& in, const std::vector<Published>& events) {
  if (!board_resume_) return;
  // A board that ended leaves the table waiting: it needs no history, the next board starts a new file.
  const bool ended = std::any_of(events.begin(), events.end(),
                                 [](const Published& p) { return p.type == "board.returned" || p.type == "board.verified"; });
  board_resume_->logged(in, !events.empty(), ended, board_first_seq_, wall());
}

EventLoop::~EventLoop() { devices_.stop(); }

void EventLoop::load_decks() {
  if (options_.decks.empty()) return;
  std::vector<devices::DeckProblem> problems;
  auto decks = std::make_shared<devices::DeckLibrary>(devices::DeckLibrary::load_folder(options_.decks, problems));
  for (const auto& p : problems) log(Priority::Warning, p.str());
  log("decks: " + std::to_string(decks->decks().size()) + " packs from " + options_.decks);
  devices_.set_decks(std::move(decks));
}

// device.added / device.lost / device.error on the wire; a lost device's zones unknown (device_loss.hpp).
void EventLoop::on_device_event(const devices::DeviceEvent& d) {
  const devices::Device* device = devices_.find(d.device);
  // Each logged once, by the publisher, with its table and seq (as every event is).
  for (protocol::WireEvent& e : device_loss_.on_device_event(d, device ? device->driver() : std::string(), options_, wall(), mono())) publish(e);
}

void EventLoop::publish(protocol::WireEvent& e) {
  publisher_->publish(e, true);
  alerts_.on_published(protocol::to_json(e));
  if (e.type == "board.arrived" || e.type == "board.identified")
    if (table_->phase_name() == "waiting" || e.type == "board.arrived") board_first_seq_ = std::min(board_first_seq_, e.seq);
}

std::vector<EventLoop::Published> EventLoop::drain_table() {
  std::vector<Published> published;
  for (const table::Event& e : table_->take_events()) {
    published.push_back({e.type, ""});
    // Said with their real cause by on_device_event.
    if (device_loss_.leaves_out(e, [this](const table::Zone& z) { return devices_.lost(z); })) continue;
    broadcast_->on_event(e);
    protocol::WireEvent w = to_wire(e, options_, wall());
    // The cards played are hand contents: live.*, held until the board is finished here, for broadcasters.
    // After the embargo nothing is sealed: the card detail becomes the public text.
    if (e.type.starts_with("play.")) {
      w.type = "live." + e.type.substr(5);
      for (const auto& detail : w.card_evidence) {
        auto it = std::find_if(w.evidence.begin(), w.evidence.end(), [&](const auto& p) { return p.first == detail.first; });
        if (it != w.evidence.end()) it->second = detail.second;
        else w.evidence.push_back(detail);
      }
      if (!w.card_message.empty()) w.message = w.card_message;
      w.card_evidence.clear();
      w.card_message.clear();
      if (e.type == "play.trick")
        if (auto count = tally_.on_trick(w, options_, wall()); count && !replaying()) publish(*count);
      broadcast_->hold(std::move(w));
      continue;
    }
    if (replaying()) {  // journalled and published by the last run; only what this run keeps of them
      if (e.type == "board.arrived" || e.type == "board.verified" || e.type == "board.returned") tally_.clear();
      if (e.type == "board.returned" || e.type == "board.verified") broadcast_->forget_board();
      continue;
    }
    // Everything else reaches every role before the embargo: no card of a hand in play may be named.
    if (protocol::seal_card_detail(w)) log(Priority::Warning, w.type + ": a card was named in the public text; moved to the director-only detail");
    published.back().message = w.message;  // as every role reads it
    publish(w);
    if (e.type == "board.arrived" || e.type == "board.verified" || e.type == "board.returned") tally_.clear();
    if (e.type == "board.returned" || e.type == "board.verified") {
      board_first_seq_ = publisher_->journal().last_seq() + 1;  // the next board's snapshot starts after this
      if (e.type == "board.returned") broadcast_->finish(w, *master_);
    }
  }
  return published;
}

void EventLoop::apply(const table::TableInput& in) {
  last_table_time_ = std::max(last_table_time_, in.time);
  if (in.kind == table::TableInput::Kind::Command && in.command.kind == table::Command::Kind::Contract)
    if (auto c = table::parse_contract_command(in.command.text)) broadcast_->on_contract(*c);
  table::apply(*table_, in);
  logged(in, drain_table());
}

json EventLoop::status() const {
  json s = {{"tournament", options_.tournament}, {"section", options_.section}, {"table", options_.table},
            {"proto_major", protocol::kProtoMajor}, {"proto_minor", protocol::kProtoMinor},
            {"last_seq", publisher_->journal().last_seq()}, {"first_seq", publisher_->journal().first_seq()},
            {"journal", publisher_->journal().id()}, {"live_journal", publisher_->live_journal().id()},
            {"journal_error", publisher_->journal().failing()}, {"unjournalled", publisher_->journal().unjournalled()},
            {"live_journal_error", publisher_->live_journal().failing()},
            {"phase", table_->phase_name()}, {"master_boards", master_->size()},
            {"uptime", mono()}, {"published", publisher_->published()},
            {"control_requests", control_->requests()}, {"control_errors", control_->errors()},
            {"control_replies_dropped", control_->replies_dropped()},
            {"security", zap_ ? "curve" : "plaintext (loopback/ipc)"}, {"refused_clients", zap_ ? zap_->refused() : 0},
            {"live_last_seq", publisher_->live_journal().last_seq()}, {"boards_under_embargo", publisher_->boards_under_embargo()},
            {"endpoints", bound_}, {"open_alerts", alerts_.open_count()},
            {"analyzer", broadcast_->analyzer() ? broadcast_->analyzer()->string() : std::string()},
            {"devices", devices_.status()}, {"clock", clock_.real() ? "daemon" : "scenario"},
            {"input_latency", input_latency_.summary()}, {"input_waits", queue_.waits()},
            {"inputs_queued", queue_.size()}};
  json zones = json::object();
  for (const json& d : s["devices"])
    for (const json& z : d["zones"]) zones[z["zone"].get<std::string>()] = d["name"].get<std::string>() + "/antenna" + std::to_string(z["antenna"].get<int>());
  s["zones"] = zones;
  if (const devices::Device* sim = devices_.find("sim")) {
    // Finished means played, not queued: the simulator can be thousands of inputs ahead of this loop, which
    // serves status between batches of them. Its own flag is read first: it is set after its last push, so
    // an empty queue after it means the table has applied every input (a batch is applied before the next
    // request is served).
    const bool queued_all = sim->health()["finished"].get<bool>();
    const bool finished = queued_all && queue_.size() == 0;
    s["simulator"] = {{"scenario", options_.simulate.empty() ? "session " + options_.simulate_session : options_.simulate},
                      {"faults", options_.sim_faults}, {"speed", options_.speed}, {"loop", options_.loop}, {"finished", finished}};
  }
  if (auto b = table_->board()) s["board"] = {{"board", master_->board(*b).board}, {"name", master_->describe(*b)}};
  return s;
}

// Reloading the master record keeps the board in progress (its cards, tricks, contract and times): the
// table re-identifies it against the new record, or says once that its deal is gone (issue 7, item 5).
void EventLoop::reload(const std::vector<std::string>& paths) {
  LoadedRecord loaded_record = load_master(paths);  // throws StartupError: the old record stays
  // A record that loads with errors does not replace one in use: a file truncated mid-copy (the director
  // copying the next session's deals) replaced 16 good boards with 7, at info level.
  if (loaded_record.errors)
    throw StartupError("the new master record has " + std::to_string(loaded_record.errors) + " errors (named in the daemon's log; " +
                       loaded_record.summary + "): not loaded; fix the files and reload again");
  const std::string summary = loaded_record.summary;
  auto fresh = std::move(loaded_record.record);
  table_->reload_master(*fresh);             // the old record lives until the table has let go of it
  board_resume_->record_changed(InputLog::record_hash(*fresh));  // the inputs before it were read against the old one
  master_ = std::move(fresh);
  options_.masters = paths;
  auto loaded = daemon_event("record.loaded", "info", "Master record reloaded: " + summary, options_, wall(), mono());
  loaded.evidence = {{"boards", std::to_string(master_->size())}, {"sessions", std::to_string(master_->session_count())}};
  publish(loaded);
  drain_table();
  log("master record reloaded: " + summary);
}

// A refused reload reaches directors, not only the log: the director who copied the next session's deal
// files learns that the tables still read the old ones before the first board says deal_mismatch.
void EventLoop::refuse_reload(const std::string& why) {
  auto refused = daemon_event("record.refused", "warning",
                              "Master record not reloaded: " + why + "; the previous record (" +
                                  std::to_string(master_->size()) + " boards) stays",
                              options_, wall(), mono());
  refused.evidence = {{"reason", why}, {"boards", std::to_string(master_->size())}};
  publish(refused);
}

void EventLoop::send_journal_replies() {
  for (const JournalReader::Done& d : reader_->take()) control_->send_later(d.envelope, d.body, d.ok, d.error);
}

// TableRequests::Table: what the control requests act on.
std::optional<std::string> EventLoop::command(table::Command cmd) {
  cmd.time = last_table_time_;
  if (cmd.kind == table::Command::Kind::Contract)
    if (auto c = table::parse_contract_command(cmd.text)) broadcast_->on_contract(*c);
  table_->command(cmd);
  const auto events = drain_table();
  logged(table::TableInput{table::TableInput::Kind::Command, {}, cmd, cmd.time}, events);
  const auto rejected = std::find_if(events.begin(), events.end(), [](const Published& p) { return p.type == "table.command_rejected"; });
  if (rejected != events.end()) return rejected->message;
  return std::nullopt;
}

int EventLoop::board_in_play() const {
  auto b = table_->board();
  return b ? master_->board(*b).board : 0;
}

void EventLoop::heartbeat() {
  auto hb = daemon_event("daemon.heartbeat", "info", "alive", options_, wall(), mono());
  hb.evidence = {{"last_seq", std::to_string(publisher_->journal().last_seq())}, {"phase", table_->phase_name()},
                 {"open_alerts", std::to_string(alerts_.open_count())}};  // a hub checks its own list of the table's against it
  publisher_->publish(hb, false);  // not journalled: it carries the last seq so that a subscriber can see a gap
  sd_notifyf(0, "STATUS=table %s: %s, last seq %llu", options_.table.c_str(), table_->phase_name().c_str(),
             static_cast<unsigned long long>(publisher_->journal().last_seq()));
}

int EventLoop::run() {
  try {
    devices_.start();
  } catch (const std::runtime_error& e) {
    log(Priority::Error, std::string("cannot start a device: ") + e.what());
    return 2;
  }
  // The table's clock: a tick every 100 ms (table_clock.hpp); not armed for a sped-up scenario's own ticks.
  if (!clock_.start_timer()) {
    log(Priority::Error, std::string("timerfd: ") + strerror(errno));
    return 2;
  }
  std::uint64_t watchdog_usec = 0;
  bool watchdog = sd_watchdog_enabled(0, &watchdog_usec) > 0;
  sd_notifyf(0, "READY=1\nSTATUS=table %s/%s/%s: %zu boards, publishing on %s", options_.tournament.c_str(), options_.section.c_str(),
             options_.table.c_str(), master_->size(), options_.publish.str().c_str());
  log("ready: publishing on " + bound_["publish"] + ", control on " + bound_["control"] + ", live on " + bound_["live"]);
  auto last_watchdog = std::chrono::steady_clock::now();
  while (true) {
    zmq::pollitem_t items[] = {{control_->socket().handle(), 0, ZMQ_POLLIN, 0}, {nullptr, queue_.fd(), ZMQ_POLLIN, 0},
                               {nullptr, signals_.fd(), ZMQ_POLLIN, 0}, {nullptr, devices_.events_fd(), ZMQ_POLLIN, 0},
                               {nullptr, clock_.timer_fd(), ZMQ_POLLIN, 0},
                               {nullptr, reader_->fd(), ZMQ_POLLIN, 0},
                               {zap_ ? zap_->socket().handle() : nullptr, 0, ZMQ_POLLIN, 0}};
    // Requests left after a batch: poll without waiting, so they are served right after what else is due.
    zmq::poll(items, zap_ ? 7 : 6, std::chrono::milliseconds(control_->socket().get(zmq::sockopt::events) & ZMQ_POLLIN ? 0 : 200));
    if (items[3].revents & ZMQ_POLLIN)
      for (const devices::DeviceEvent& e : devices_.take_events()) on_device_event(e);
    if (items[4].revents & ZMQ_POLLIN) apply(clock_.tick());
    if (items[5].revents & ZMQ_POLLIN) send_journal_replies();
    if (zap_ && (items[6].revents & ZMQ_POLLIN)) {
      zap_->handle();
      for (const std::string& why : zap_->take_refusals()) log(Priority::Warning, why);
    }
    if (items[2].revents & ZMQ_POLLIN) {
      for (int sig : signals_.take()) {
        if (sig == SIGHUP) {
          load_decks();
          try {
            reload(options_.masters);
          } catch (const std::exception& e) {
            log(Priority::Error, std::string("SIGHUP: ") + e.what() + "; the previous record stays");
            refuse_reload(e.what());
          }
          continue;
        }
        log(Priority::Notice, std::string("stopping on ") + strsignal(sig));
        sd_notify(0, "STOPPING=1");
        devices_.stop();
        publisher_->flush();
        return 0;
      }
    }
    // A bounded batch: a control request waits for at most this many inputs (each may journal an event,
    // one fdatasync apiece), not for all the readers queued while the disk stalled.
    if (items[1].revents & ZMQ_POLLIN)
      for (const DeviceQueue::Queued& q : queue_.take(kInputsPerBatch)) {
        if (q.input.kind == table::TableInput::Kind::Observe) input_latency_.add(std::chrono::steady_clock::now() - q.at);
        apply(clock_.scenario_input(q.input));
      }
    if (items[0].revents & ZMQ_POLLIN) control_->handle();
    control_->flush_log();
    board_resume_->poll();
    broadcast_->poll();
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
