#include "daemon/event_loop.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "daemon/curve_setup.hpp"
#include "daemon/log.hpp"
#include "daemon/master_loader.hpp"
#include "daemon/simulation.hpp"
#include "daemon/startup_error.hpp"
#include "daemon/wire_conversion.hpp"
#include "devices/deck.hpp"
#include "devices/sim/simulator_device.hpp"
#include "protocol/control.hpp"
#include "protocol/wire_event.hpp"

namespace cardtable::daemon {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Readers' inputs applied between two looks at the control socket. An input that changes nothing costs
// microseconds; one that journals an event costs an fdatasync (milliseconds, a second on a loaded disk).
constexpr std::size_t kInputsPerBatch = 256;

// At stop, what the devices had queued is applied within this: each input may journal an event (an
// fdatasync, a second apiece on a stalled disk), and systemd kills a stop longer than TimeoutStopSec
// (10 s, systemd/cardtabled.service.in) with the journal still open.
constexpr std::chrono::seconds kStopDrainDeadline{2};

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
  log("master record: " + summary);
  table::TableConfig table_config;

  // The simulated table (--simulate, --simulate-session): the device "sim" plays it; its settings are the table's.
  std::vector<devices::DeviceConfig> preset;
  std::optional<Simulation> simulation = prepare_simulation(options_, *loaded_record.record);
  if (simulation) {
    table_config = simulation->config;
    scenario_ = std::move(simulation->script);
    if (!simulation->real_clock) clock_.use_scenario_clock();
    preset.push_back(simulation->device);
  }
  // devices/ does not include the scenario parser: the sim gets the scenario parsed here (a sim named with
  // --device but no --simulate plays nothing, as before: an empty script, never a null one to call).
  devices::set_script_loader([this](const std::string&, std::string&) -> std::optional<devices::InputScript> {
    return scenario_ ? scenario_ : devices::fixed_script({});
  });
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
  if (options_.silence) table_config.silence_ms = ms(*options_.silence);
  poll_silence_ = PollSilence(table_config.silence_ms);
  if (options_.pocket_gap) table_config.pocket_gap_ms = ms(*options_.pocket_gap);
  if (options_.return_settle) table_config.return_settle_ms = ms(*options_.return_settle);
  if (options_.board_allowance) table_config.board_allowance_ms = ms(*options_.board_allowance);
  // The table watches the zones some device serves (none: a station waiting for its readers).
  table_config.zones = devices_.zones();

  try {
    publisher_ = std::make_unique<Publisher>(context_, publisher_config(options_));
  } catch (const std::runtime_error& e) {
    throw StartupError(e.what());
  }
  broadcast_ = std::make_unique<BoardBroadcast>(*publisher_, options_, self_path());
  host_ = std::make_unique<TableHost>(std::move(loaded_record.record), table_config, options_, clock_, *publisher_, *broadcast_,
                                      TableHost::Surroundings{[this](const table::Zone& z) { return devices_.lost(z); },
                                                              [this](json& s) { add_status(s); },
                                                              [this](const std::string& source) {
                                                                const devices::Device* d = devices_.find(source);
                                                                return d && d->driver() == "camera";
                                                              }});
  reader_ = std::make_unique<JournalReader>();
  requests_ = std::make_unique<TableRequests>(*host_, *publisher_, *reader_, host_->alerts(), options_, clock_);
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
  if (!broadcast_->analyzer())
    log(Priority::Warning, "cardtablectl not found: broadcast PBN files will have no double-dummy table (see --analyzer)");

  // The devices start, and their periods are checked against --silence, before the journal says a start:
  // a start refused here (a device's options wrong, a silence under three of its polls) left
  // daemon.version, record.loaded and table.capabilities in the journal -- and with subscribers and the
  // hub -- of a daemon that never ran. What they push meanwhile waits in the queue for run().
  start_devices();
  auto version = daemon_event("daemon.version", "info",
                              "cardtabled " CARDTABLE_VERSION " started, protocol " + std::to_string(protocol::kProtoMajor) + "." +
                                  std::to_string(protocol::kProtoMinor),
                              options_, clock_.wall(), clock_.mono());
  version.evidence = {{"proto_major", std::to_string(protocol::kProtoMajor)}, {"proto_minor", std::to_string(protocol::kProtoMinor)},
                      {"daemon", CARDTABLE_VERSION}};
  host_->publish(version);
  host_->start(summary, scenario_);
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

// The wiring's part of `status`: what the sockets, the devices and the input queue say.
void EventLoop::add_status(json& s) const {
  s.update({{"control_requests", control_->requests()}, {"control_errors", control_->errors()},
            {"control_replies_dropped", control_->replies_dropped()},
            {"security", zap_ ? "curve" : "plaintext (loopback/ipc)"}, {"refused_clients", zap_ ? zap_->refused() : 0},
            {"endpoints", bound_}, {"devices", devices_.status()},
            {"input_latency", input_latency_.summary()}, {"input_waits", queue_.waits()}, {"inputs_queued", queue_.size()}});
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
}

// A bounded batch: a control request waits for at most this many inputs (each may journal an event, one
// fdatasync apiece), not for all the readers queued while the disk stalled.
void EventLoop::take_inputs() {
  for (const DeviceQueue::Queued& q : queue_.take(kInputsPerBatch)) apply_input(q);
}

void EventLoop::apply_input(const DeviceQueue::Queued& q) {
  if (q.input.kind == table::TableInput::Kind::Observe) input_latency_.add(std::chrono::steady_clock::now() - q.at);
  host_->apply(clock_.scenario_input(q.input));
}

void EventLoop::on_signals() {
  for (int sig : signals_.take()) {
    if (sig == SIGHUP) {
      load_decks();
      try {
        host_->reload(options_.masters);
      } catch (const std::exception& e) {
        log(Priority::Error, std::string("SIGHUP: ") + e.what() + "; the previous record stays");
        host_->refuse_reload(e.what());
      }
      continue;
    }
    log(Priority::Notice, std::string("stopping on ") + strsignal(sig));
    stop_ = true;
    return;
  }
}

void EventLoop::start_devices() {
  try {
    devices_.start();
  } catch (const std::runtime_error& e) {
    devices_.stop();
    throw StartupError(std::string("cannot start a device: ") + e.what());
  }
  // Each device's period is known once it has started (its options read): under a silence of less than
  // three of its polls, a poll or two missed would call its zones silent (poll_silence.hpp).
  for (const auto& device : devices_.all())
    if (auto why = poll_silence_.at_start(*device)) {
      devices_.stop();
      throw StartupError("cannot start: " + *why);
    }
}

int EventLoop::run() {
  // The table's clock: a tick every 100 ms (table_clock.hpp); not armed for a sped-up scenario's own ticks.
  if (!clock_.start_timer()) {
    log(Priority::Error, std::string("timerfd: ") + strerror(errno));
    return 2;
  }
  notifier_.ready("table " + options_.tournament + "/" + options_.section + "/" + options_.table + ": " + std::to_string(host_->master().size()) +
                  " boards, publishing on " + options_.publish.str());
  log("ready: publishing on " + bound_["publish"] + ", control on " + bound_["control"] + ", live on " + bound_["live"]);
  while (true) {
    zmq::pollitem_t items[] = {{control_->socket().handle(), 0, ZMQ_POLLIN, 0}, {nullptr, queue_.fd(), ZMQ_POLLIN, 0},
                               {nullptr, signals_.fd(), ZMQ_POLLIN, 0}, {nullptr, devices_.events_fd(), ZMQ_POLLIN, 0},
                               {nullptr, clock_.timer_fd(), ZMQ_POLLIN, 0},
                               {nullptr, reader_->fd(), ZMQ_POLLIN, 0},
                               {zap_ ? zap_->socket().handle() : nullptr, 0, ZMQ_POLLIN, 0}};
    // Requests left after a batch: poll without waiting, so they are served right after what else is due.
    zmq::poll(items, zap_ ? 7 : 6, std::chrono::milliseconds(control_->socket().get(zmq::sockopt::events) & ZMQ_POLLIN ? 0 : 200));
    if (items[3].revents & ZMQ_POLLIN)
      for (const devices::DeviceEvent& e : devices_.take_events()) {
        const devices::Device* device = devices_.find(e.device);
        host_->on_device_event(e, device ? device->driver() : std::string());
        if (device && e.kind == devices::DeviceEvent::Kind::Added)
          if (auto why = poll_silence_.on_added(*device)) log(Priority::Warning, *why);
      }
    if (items[4].revents & ZMQ_POLLIN) host_->apply(clock_.tick());
    if (items[5].revents & ZMQ_POLLIN)
      for (const JournalReader::Done& d : reader_->take()) control_->send_later(d.envelope, d.body, d.ok, d.error);
    if (zap_ && (items[6].revents & ZMQ_POLLIN)) {
      zap_->handle();
      for (const std::string& why : zap_->take_refusals()) log(Priority::Warning, why);
    }
    if (items[2].revents & ZMQ_POLLIN) on_signals();
    if (stop_) {
      notifier_.stopping();
      devices_.stop();  // the queue closed first: a device waiting for room returns
      // What the devices handed over before the stop reaches the table and the journal: a card read just
      // before a restart is not lost without a word.
      const DeviceQueue::Drained drained =
          queue_.drain(std::chrono::steady_clock::now() + kStopDrainDeadline, [this](const DeviceQueue::Queued& q) { apply_input(q); });
      log(drained.left > 0 ? Priority::Warning : Priority::Notice, "stopping: " + drained.str());
      publisher_->flush();
      return 0;
    }
    if (items[1].revents & ZMQ_POLLIN) take_inputs();
    if (items[0].revents & ZMQ_POLLIN) control_->handle();
    control_->flush_log();
    host_->poll();
    broadcast_->poll();
    auto now = std::chrono::steady_clock::now();
    if (options_.heartbeat > 0 && now - last_heartbeat_ >= std::chrono::duration<double>(options_.heartbeat)) {
      last_heartbeat_ = now;
      host_->heartbeat();
      notifier_.status(host_->status_line());
    }
    notifier_.watchdog(now);
  }
}

}  // namespace cardtable::daemon
