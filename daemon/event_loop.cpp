#include "daemon/event_loop.hpp"

#include <signal.h>
#include <systemd/sd-daemon.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "bridge/record_file.hpp"
#include "daemon/log.hpp"
#include "devices/deck.hpp"
#include "devices/sim/session_script.hpp"
#include "devices/sim/simulator_device.hpp"
#include "daemon/wire_conversion.hpp"
#include "protocol/card_seal.hpp"
#include "protocol/control.hpp"
#include "protocol/curve_keys.hpp"
#include "protocol/durable_file.hpp"
#include "protocol/wire_event.hpp"

namespace cardtable::daemon {
namespace fs = std::filesystem;
using nlohmann::json;
using protocol::error_reply;
using protocol::ok_reply;

namespace {

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

// A replay reply: at most kLimit events; the client asks again from the last seq + 1 while "more". Runs on
// the journal reader's thread: `upto` is the last seq written when the request came (journal.hpp).
json replay_reply(const protocol::Journal& journal, std::uint64_t since, std::uint64_t upto) {
  constexpr std::size_t kLimit = 5000;
  json events = json::array();
  bool more = false;
  std::uint64_t previous = 0;
  journal.replay(
      since,
      [&](const std::string& line, std::uint64_t seq) {
        // Seqs are consecutive in the journal; a jump means files rotated away while this read went on.
        // Stop before it: the client asks again from there and first_available tells it what is gone.
        if (events.size() == kLimit || (previous != 0 && seq != previous + 1)) {
          more = true;
          return false;
        }
        previous = seq;
        if (auto j = json::parse(line, nullptr, false); !j.is_discarded()) {
          protocol::strip_card_detail(j);  // replays never carry the card detail: directors ask `evidence SEQ`
          events.push_back(std::move(j));
        }
        return true;
      },
      upto);
  // Read after the events: a file rotated away meanwhile shows as a first_available above `since`.
  return {{"events", events}, {"more", more}, {"first_available", journal.first_seq()}, {"last_seq", upto}};
}

// `evidence SEQ` (directors only, protocol/requests.cpp): the journalled event with its card-level detail.
json evidence_reply(const protocol::Journal& journal, std::uint64_t seq, std::uint64_t upto) {
  std::optional<json> found;
  journal.replay(
      seq,
      [&](const std::string& line, std::uint64_t s) {
        if (s == seq) found = json::parse(line, nullptr, false);
        return false;
      },
      upto);
  if (!found || found->is_discarded())
    return error_reply("evidence: no event " + std::to_string(seq) + " in the journal (it holds " + std::to_string(journal.first_seq()) +
                       " to " + std::to_string(upto) + ")");
  json event = *found;
  json reply = {{"seq", seq}, {"event", event}};
  reply["card_message"] = event.value("card_message", event.value("message", ""));
  reply["card_evidence"] = event.contains("card_evidence") ? event["card_evidence"] : json::object();
  return ok_reply(reply);
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
      double_dummy_(options_.analyzer, self_path()) {
  set_log_table(options_.tournament + "/" + options_.section + "/" + options_.table);
  std::string summary;
  master_ = load_master(options_.masters, summary);
  log("master record: " + summary);

  // The simulated table's scenario (--simulate FILE, or --simulate-session EVENT/SESSION generated from the
  // master record): the device "sim" plays it, with --sim-faults; its settings are the table's.
  std::vector<devices::DeviceConfig> preset;
  std::optional<table::Scenario> scenario;
  if (!options_.simulate.empty() || !options_.simulate_session.empty()) {
    std::string text, name = options_.simulate;
    fs::path base = fs::path(options_.simulate).parent_path();
    if (!options_.simulate.empty()) {
      std::ifstream in(options_.simulate);
      if (!in) throw StartupError("--simulate " + options_.simulate + ": cannot read the scenario");
      std::stringstream all;
      all << in.rdbuf();
      text = all.str();
    } else {
      const std::string& es = options_.simulate_session;
      devices::SessionPlan plan;
      plan.event = es.substr(0, es.rfind('/'));
      plan.session = es.substr(es.rfind('/') + 1);
      plan.contract = options_.session_contract;
      plan.fouled.insert(options_.foul.begin(), options_.foul.end());
      std::string error;
      auto generated = devices::session_scenario(*master_, plan, error);
      if (!generated) throw StartupError("--simulate-session " + es + ": " + error);
      text = *std::move(generated);
      name = "session " + es;
      base = ".";
    }
    std::vector<table::ScenarioError> errors;
    scenario = table::parse_scenario(text, base, [this](const auto&) -> const bridge::MasterRecord& { return *master_; }, errors);
    if (!scenario) {
      std::string all;
      for (const auto& e : errors) all += "\n  " + name + ":" + std::to_string(e.line) + ": " + e.message;
      throw StartupError("the scenario has errors:" + all);
    }
    table_config_ = scenario->config;
    scenario_inputs_ = table::scenario_inputs(*scenario);
    real_clock_ = options_.speed == 1.0;
    devices::DeviceConfig sim{"sim", "sim", {}, {{"script", name}, {"loop", options_.loop ? "yes" : "no"},
                                                 {"clock", real_clock_ ? "daemon" : "script"}}};
    std::ostringstream speed;
    speed << options_.speed;
    sim.options["speed"] = speed.str();
    // The faults (checked by parse_options: only the sim's keys): the sim driver reads them (devices/sim).
    std::istringstream faults(options_.sim_faults);
    for (std::string kv; std::getline(faults, kv, ',');)
      if (auto eq = kv.find('='); eq != std::string::npos) sim.options[kv.substr(0, eq)] = kv.substr(eq + 1);
    preset.push_back(std::move(sim));
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
  if (scenario && configs.front().driver == "sim" && configs.front().antennas.empty()) {
    int i = 0;
    for (const table::Zone& z : scenario->config.zones) configs.front().antennas[i++] = z;
  }
  devices::DeviceEnvironment env;
  env.clock = [this] { return clock_ms(); };
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
  reader_ = std::make_unique<JournalReader>();
  control_ = std::make_unique<ControlServer>(
      context_, [this](const protocol::TypedRequest& r, const ControlServer::Caller& c) { return route(r, c); },
      !options_.curve_secret.empty());
  if (!options_.curve_secret.empty()) setup_curve();
  bound_["live"] = open_endpoint(publisher_->live_socket(), options_.live, "live");
  bound_["publish"] = open_endpoint(publisher_->events_socket(), options_.publish, "publish");
  bound_["control"] = open_endpoint(control_->socket(), options_.control, "control");
  alerts_.load(publisher_->journal());
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
  devices_.stop();
  if (timer_fd_ >= 0) close(timer_fd_);
}

table::Millis EventLoop::clock_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_).count();
}

void EventLoop::load_decks() {
  if (options_.decks.empty()) return;
  std::vector<devices::DeckProblem> problems;
  auto decks = std::make_shared<devices::DeckLibrary>(devices::DeckLibrary::load_folder(options_.decks, problems));
  for (const auto& p : problems) log(Priority::Warning, p.str());
  log("decks: " + std::to_string(decks->decks().size()) + " packs from " + options_.decks);
  devices_.set_decks(std::move(decks));
}

// device.added / device.lost / device.error on the wire. A lost device's zones are unknown, never an
// irregularity: each gets reading.uncertain with cause "device lost" (the table's own "silent" report for
// those zones is then left out, see drain_table); the table resumes them when the device reads again.
void EventLoop::on_device_event(const devices::DeviceEvent& d) {
  const std::string kind = devices::to_string(d.kind);
  std::string zones;
  for (const table::Zone& z : d.zones) zones += (zones.empty() ? "" : ",") + z.str();
  const devices::Device* device = devices_.find(d.device);
  auto e = daemon_event("device." + kind, d.kind == devices::DeviceEvent::Kind::Added ? "info" : "warning",
                        "Device " + d.device + " " + kind + (d.reason.empty() ? "" : ": " + d.reason), options_, wall(), mono());
  e.evidence = {{"device", d.device}, {"driver", device ? device->driver() : std::string()}, {"zones", zones}, {"reason", d.reason}};
  publish(e);  // logged once, by the publisher, with its table and seq (as every event is)
  if (d.kind == devices::DeviceEvent::Kind::Added) {
    // Back: the zones its loss made unknown read again (said once, here; the table's own reading.resumed
    // for a zone whose silence came from the loss is then left out, see drain_table).
    for (const table::Zone& z : d.zones) {
      if (!unknown_by_loss_.erase(z.str())) continue;
      auto r = daemon_event("reading.resumed", "info", "Readings from " + z.str() + " again: its device " + d.device + " is back",
                            options_, wall(), mono());
      r.evidence = {{"zone", z.str()}, {"cause", "device back"}, {"source", d.device}};
      publish(r);
    }
    return;
  }
  if (d.kind != devices::DeviceEvent::Kind::Lost) return;
  for (const table::Zone& z : d.zones) {
    unknown_by_loss_.insert(z.str());
    auto u = daemon_event("reading.uncertain", "warning", "The reading of " + z.str() + " is unknown: its device " + d.device + " is lost",
                          options_, wall(), mono());
    u.evidence = {{"zone", z.str()}, {"cause", "device lost"}, {"source", d.device}};
    publish(u);
  }
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
  alerts_.on_published(protocol::to_json(e));
  if (e.type == "board.arrived" || e.type == "board.identified")
    if (table_->phase_name() == "waiting" || e.type == "board.arrived") board_first_seq_ = std::min(board_first_seq_, e.seq);
}

std::vector<std::string> EventLoop::drain_table() {
  std::vector<std::string> types;
  for (const table::Event& e : table_->take_events()) {
    types.push_back(e.type);
    if (e.type == "reading.uncertain" || e.type == "reading.resumed") {  // said with their real cause by on_device_event
      std::string zone, cause;
      for (const auto& [k, v] : e.evidence) {
        if (k == "zone") zone = v;
        if (k == "cause") cause = v;
      }
      if (auto z = table::Zone::parse(zone); z && e.type == "reading.uncertain" && cause == "silent" && devices_.lost(*z)) {
        silent_by_loss_.insert(zone);
        continue;
      }
      if (e.type == "reading.resumed" && silent_by_loss_.erase(zone)) continue;
    }
    recorder_.on_event(e);
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
      if (e.type == "play.trick") publish_trick_count(w);
      held_.push_back(std::move(w));
      continue;
    }
    // Everything else reaches every role before the embargo: no card of a hand in play may be named.
    if (protocol::seal_card_detail(w)) log(Priority::Warning, w.type + ": a card was named in the public text; moved to the director-only detail");
    publish(w);
    if (e.type == "board.arrived" || e.type == "board.verified" || e.type == "board.returned") trick_sides_.clear();
    if (e.type == "board.returned" || e.type == "board.verified") {
      board_first_seq_ = publisher_->journal().last_seq() + 1;  // the next board's snapshot starts after this
      if (e.type == "board.returned") finish_board(w);
    }
  }
  return types;
}

// Tricks won by each side are the board's result in the making: a director's tile shows them, but a
// broadcaster must not learn them before the embargo (another table may still play the board). The public
// board.trick says only how many tricks were played (board.returned says as much); the count per side is
// director-only detail, read with `evidence SEQ` like an irregularity's card detail.
void EventLoop::publish_trick_count(const protocol::WireEvent& trick) {
  int number = 0;
  char side = 0;
  for (const auto& [k, v] : trick.evidence) {
    if (k == "trick") number = std::atoi(v.c_str());
    // A winner the table could not tell (the last trick, no trump known, a ruff) counts for neither side.
    if (k == "winner") side = v == "N" || v == "S" ? 'N' : v == "E" || v == "W" ? 'E' : '?';
  }
  if (number <= 0 || !side) return;
  // A new board starts its count afresh. Not every board begins with board.arrived (a session's next board
  // is identified as its pockets are read, with no moment when all four are full): the board number is what
  // tells, else board 2's first trick read "13 tricks played".
  if (trick.board != trick_board_) trick_sides_.clear();
  trick_board_ = trick.board;
  trick_sides_[number] = side;
  int ns = 0, ew = 0;
  for (const auto& [n, s] : trick_sides_) {
    if (s == 'N') ++ns;
    if (s == 'E') ++ew;
  }
  int played = static_cast<int>(trick_sides_.size());
  std::string board = trick.board ? "Board " + std::to_string(trick.board) : std::string("The board");
  auto w = daemon_event("board.trick", "info", board + ": " + std::to_string(played) + (played == 1 ? " trick" : " tricks") + " played",
                        options_, wall(), trick.mono);
  w.event = trick.event;
  w.session = trick.session;
  w.board = trick.board;
  w.evidence = {{"tricks", std::to_string(played)}};
  w.card_message = board + ": trick " + std::to_string(number) + " to " +
                   (side == 'N' ? "North-South" : side == 'E' ? "East-West" : "a side the table could not tell") +
                   "; North-South " + std::to_string(ns) + ", East-West " + std::to_string(ew);
  w.card_evidence = {{"trick", std::to_string(number)}, {"ns", std::to_string(ns)}, {"ew", std::to_string(ew)}};
  publish(w);
}

// The double-dummy table of a released board, once the helper has written it into the broadcast PBN: a
// live.double_dummy event on the live endpoint (the board is past its embargo, so nothing waits).
void EventLoop::publish_double_dummy(const fs::path& pbn) {
  auto pending = dd_pending_.find(pbn.string());
  if (pending == dd_pending_.end()) return;
  protocol::WireEvent deal = std::move(pending->second);
  dd_pending_.erase(pending);
  bridge::RecordSet set = bridge::read_record_file(pbn);
  if (set.boards.empty() || !set.boards.front().dd) {
    log(Priority::Warning, pbn.string() + ": the analysed file has no DoubleDummyTricks; no live.double_dummy");
    return;
  }
  const bridge::BoardRecord& r = set.boards.front();
  auto w = daemon_event("live.double_dummy", "info", "", options_, wall(), deal.mono);
  w.event = deal.event;
  w.session = deal.session;
  w.board = deal.board;
  // Tricks per declarer, strains in the PBN's order NT S H D C; the PBN's own 20 hex digits beside them.
  w.evidence = {{"strains", "NT S H D C"}, {"dd", r.dd->pbn()}};
  static constexpr bridge::Strain kOrder[] = {bridge::Strain::NoTrump, bridge::Strain::Spades, bridge::Strain::Hearts,
                                              bridge::Strain::Diamonds, bridge::Strain::Clubs};
  for (bridge::Seat s : {bridge::Seat::North, bridge::Seat::South, bridge::Seat::East, bridge::Seat::West}) {
    std::string row;
    for (bridge::Strain st : kOrder) row += (row.empty() ? "" : " ") + std::to_string(r.dd->at(s, st));
    w.evidence.emplace_back(std::string(1, bridge::seat_letter(s)), row);
  }
  std::string par;
  if (r.optimum_score_ns) {
    w.evidence.emplace_back("optimum_score", "NS " + std::to_string(*r.optimum_score_ns));
    par = ", par NS " + std::to_string(*r.optimum_score_ns);
  }
  if (!r.par_contract.empty()) {
    w.evidence.emplace_back("par", r.par_contract);
    par += " (" + r.par_contract + ")";
  }
  w.message = (deal.board ? "Board " + std::to_string(deal.board) : std::string("The board")) + ": double-dummy tricks" + par;
  publisher_->publish_live(w);
}

void EventLoop::finish_board(const protocol::WireEvent& returned) {
  std::vector<protocol::WireEvent> events = std::move(held_);
  held_.clear();
  // The board's embargo id: unique (a board can come back, --loop), and a file name.
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::string id = "board-" + std::to_string(returned.board) + "-" + std::to_string(ms);
  // live.deal: the four hands, from the master record, published with the play.
  if (auto entry = master_->find(returned.event, returned.session, returned.board)) {
    const bridge::MasterBoard& b = master_->board(*entry);
    events.insert(events.begin(), live_deal(b, returned));
    // The broadcast files are written now, in the private embargo folder, and moved to broadcast/ on
    // release: a restart during the embargo loses neither the events nor the files.
    try {
      protocol::BroadcastWriter(publisher_->embargo_dir() / id)
          .write(recorder_.finish(b, returned.event, returned.session,
                                  options_.tournament + " " + options_.section + " table " + options_.table));
    } catch (const std::exception& e) {
      log(Priority::Error, std::string("broadcast: ") + e.what());
    }
  }
  recorder_.reset();
  publisher_->embargo(std::move(events), id);
  release_embargoed();
}

protocol::WireEvent EventLoop::live_deal(const bridge::MasterBoard& b, const protocol::WireEvent& returned) const {
  auto deal = daemon_event("live.deal", "info", "Board " + std::to_string(b.board) + ": " + b.deal.pbn(b.dealer), options_, wall(), returned.mono);
  deal.event = returned.event;
  deal.session = returned.session;
  deal.board = returned.board;
  deal.evidence = {{"deal", b.deal.pbn(b.dealer)}, {"dealer", std::string(1, bridge::seat_letter(b.dealer))},
                   {"vulnerable", std::string(bridge::pbn_name(b.vulnerability))}};
  // The hands as structured JSON as well (seat -> cards), for programs that do not read PBN.
  for (bridge::Seat s : {bridge::Seat::North, bridge::Seat::East, bridge::Seat::South, bridge::Seat::West}) {
    std::vector<std::string>& cards = deal.hands[std::string(1, bridge::seat_letter(s))];
    b.deal.hand(s).for_each_descending([&](bridge::Card c) { cards.push_back(c.str()); });
  }
  return deal;
}

void EventLoop::release_embargoed() {
  for (const auto& board : publisher_->release_due()) {
    fs::path held = publisher_->embargo_dir() / board.id;
    std::error_code ec;
    if (!fs::is_directory(held, ec)) continue;
    fs::path dir = fs::path(options_.state_dir) / "broadcast";
    fs::create_directories(dir, ec);
    for (const auto& f : fs::directory_iterator(held, ec)) {
      fs::path to = dir / f.path().filename();
      std::error_code moved;
      fs::rename(f.path(), to, moved);
      if (moved) {
        log(Priority::Error, to.string() + ": " + moved.message());
        continue;
      }
      std::string error;
      if (to.extension() != ".pbn" || !double_dummy_.program()) continue;
      if (!double_dummy_.start(to, error)) {
        log(Priority::Warning, to.string() + ": no double-dummy table: " + error);
        continue;
      }
      // The board's identity for live.double_dummy: its live.deal, released with it.
      for (const protocol::WireEvent& e : board.events)
        if (e.type == "live.deal") dd_pending_[to.string()] = e;
    }
    // The renames are on the disk before the held copy goes: a power cut leaves the board's files in
    // one folder or the other, never in neither.
    try {
      protocol::sync_directory(dir);
    } catch (const std::runtime_error& e) {
      log(Priority::Error, std::string(e.what()) + "; the board's files stay in " + held.string());
      continue;
    }
    fs::remove_all(held, ec);
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
            {"control_replies_dropped", control_->replies_dropped()},
            {"security", zap_ ? "curve" : "plaintext (loopback/ipc)"}, {"refused_clients", zap_ ? zap_->refused() : 0},
            {"live_last_seq", publisher_->live_journal().last_seq()}, {"boards_under_embargo", publisher_->boards_under_embargo()},
            {"endpoints", bound_}, {"open_alerts", alerts_.open_count()},
            {"analyzer", double_dummy_.program() ? double_dummy_.program()->string() : std::string()},
            {"devices", devices_.status()}, {"clock", real_clock_ ? "daemon" : "scenario"},
            {"input_latency", input_latency_.summary()}};
  json zones = json::object();
  for (const json& d : s["devices"])
    for (const json& z : d["zones"]) zones[z["zone"].get<std::string>()] = d["name"].get<std::string>() + "/antenna" + std::to_string(z["antenna"].get<int>());
  s["zones"] = zones;
  if (const devices::Device* sim = devices_.find("sim")) {
    json h = sim->health();
    s["simulator"] = {{"scenario", options_.simulate.empty() ? "session " + options_.simulate_session : options_.simulate},
                      {"faults", options_.sim_faults}, {"speed", options_.speed}, {"loop", options_.loop}, {"finished", h["finished"]}};
  }
  if (auto b = table_->board()) s["board"] = {{"board", master_->board(*b).board}, {"name", master_->describe(*b)}};
  return s;
}

// Reloading the master record keeps the board in progress (its cards, tricks, contract and times): the
// table re-identifies it against the new record, or says once that its deal is gone (issue 7, item 5).
void EventLoop::reload(const std::vector<std::string>& paths) {
  std::string summary;
  auto fresh = load_master(paths, summary);  // throws StartupError: the old record stays
  table_->reload_master(*fresh);             // the old record lives until the table has let go of it
  master_ = std::move(fresh);
  options_.masters = paths;
  auto loaded = daemon_event("record.loaded", "info", "Master record reloaded: " + summary, options_, wall(), mono());
  loaded.evidence = {{"boards", std::to_string(master_->size())}, {"sessions", std::to_string(master_->session_count())}};
  publish(loaded);
  drain_table();
  log("master record reloaded: " + summary);
}

std::optional<json> EventLoop::route(const protocol::TypedRequest& r, const ControlServer::Caller& caller) {
  auto read = journal_read(r);
  if (!read || !caller.envelope) return dispatch(r, caller.role);
  // Journal reads go to the reader thread, a bounded number per client: the loop keeps publishing.
  if (auto why = reader_->refuse(caller.envelope->front())) return error_reply(std::string(protocol::command_name(r)) + ": refused: " + *why);
  reader_->submit({*caller.envelope, std::move(read)});
  return std::nullopt;
}

void EventLoop::send_journal_replies() {
  for (const JournalReader::Done& d : reader_->take()) control_->send_later(d.envelope, d.body, d.ok, d.error);
}

std::function<json()> EventLoop::journal_read(const protocol::TypedRequest& r) const {
  // Each captures what it needs by value (the seq written so far, the status now) and the journal by
  // reference: the journals live as long as the reader thread (event_loop.hpp).
  const protocol::Journal& journal = publisher_->journal();
  if (const auto* q = std::get_if<protocol::ReplayRequest>(&r))
    return [&journal, since = q->since, upto = journal.last_seq()] { return ok_reply(replay_reply(journal, since, upto)); };
  if (const auto* q = std::get_if<protocol::ReplayLiveRequest>(&r))
    return [&live = publisher_->live_journal(), since = q->since, upto = publisher_->live_journal().last_seq()] {
      return ok_reply(replay_reply(live, since, upto));
    };
  if (const auto* q = std::get_if<protocol::EvidenceRequest>(&r))
    return [&journal, seq = q->seq, upto = journal.last_seq()] { return evidence_reply(journal, seq, upto); };
  if (std::holds_alternative<protocol::SnapshotRequest>(r))
    return [&journal, since = board_first_seq_, upto = journal.last_seq(), now = status()] {
      json reply = replay_reply(journal, since, upto);
      reply["status"] = now;
      return ok_reply(reply);
    };
  return {};
}

json EventLoop::dispatch(const protocol::TypedRequest& r, const std::string& role) {
  if (auto read = journal_read(r)) return read();  // a caller with no envelope (fuzz, tests): at once
  return std::visit(
      [&](const auto& request) -> json {
        if constexpr (requires { on(request, role); }) return on(request, role);
        else return error_reply("no handler");  // never: every other request is a journal read
      },
      r);
}

json EventLoop::on(const protocol::VersionRequest&, const std::string&) {
  return ok_reply({{"proto_major", protocol::kProtoMajor}, {"proto_minor", protocol::kProtoMinor}, {"daemon", CARDTABLE_VERSION}});
}

json EventLoop::on(const protocol::StatusRequest&, const std::string&) { return ok_reply({{"status", status()}}); }

json EventLoop::on(const protocol::AlertsRequest&, const std::string&) {
  json open = alerts_.open();
  return ok_reply({{"count", open.size()}, {"alerts", std::move(open)}});
}

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

json EventLoop::on(const protocol::ContractRequest& r, const std::string& role) {
  table::Command cmd;
  cmd.kind = table::Command::Kind::Contract;
  cmd.text = r.contract;
  json reply = table_command(cmd, "contract");
  if (!reply.value("ok", false)) return reply;
  // Every director sees the contract a director gave (the console, watch), not only the one who gave it.
  auto e = daemon_event("director.contract", "info", "Contract " + r.contract + " given by the " + role, options_, wall(), mono());
  if (auto b = table_->board()) {
    const bridge::MasterBoard& mb = master_->board(*b);
    e.board = mb.board;
  }
  e.evidence = {{"contract", r.contract}};
  publish(e);
  reply["seq"] = e.seq;
  reply["last_seq"] = e.seq;
  return reply;
}

json EventLoop::on(const protocol::AckRequest& r, const std::string&) {
  if (r.seq > publisher_->journal().last_seq()) return error_reply("ack: no event " + std::to_string(r.seq));
  if (auto why = alerts_.refuse_ack(r.seq)) return error_reply("ack: " + *why);
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
  // The table's clock: a tick every 100 ms, so silence, the pocket gap and slow boards fire while every
  // zone is quiet. A scenario sped up (--speed) brings its own ticks instead: the timer is then not armed.
  timer_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  itimerspec every{{0, 100'000'000}, {0, 100'000'000}};
  if (timer_fd_ < 0 || (real_clock_ && timerfd_settime(timer_fd_, 0, &every, nullptr) != 0)) {
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
                               {nullptr, timer_fd_, ZMQ_POLLIN, 0},
                               {nullptr, reader_->fd(), ZMQ_POLLIN, 0},
                               {zap_ ? zap_->socket().handle() : nullptr, 0, ZMQ_POLLIN, 0}};
    // Requests left after a batch: poll without waiting, so they are served right after what else is due.
    zmq::poll(items, zap_ ? 7 : 6, std::chrono::milliseconds(control_->socket().get(zmq::sockopt::events) & ZMQ_POLLIN ? 0 : 200));
    if (items[3].revents & ZMQ_POLLIN)
      for (const devices::DeviceEvent& e : devices_.take_events()) on_device_event(e);
    if (items[4].revents & ZMQ_POLLIN) {
      std::uint64_t expirations = 0;
      (void)!read(timer_fd_, &expirations, sizeof expirations);
      apply(table::TableInput{table::TableInput::Kind::Tick, {}, {}, clock_ms()});
    }
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
    if (items[1].revents & ZMQ_POLLIN)
      for (const DeviceQueue::Queued& q : queue_.take()) {
        if (q.input.kind == table::TableInput::Kind::Observe) input_latency_.add(std::chrono::steady_clock::now() - q.at);
        apply(q.input);
      }
    if (items[0].revents & ZMQ_POLLIN) control_->handle();
    control_->flush_log();
    release_embargoed();
    std::vector<fs::path> analysed;
    for (const std::string& problem : double_dummy_.reap(&analysed)) log(Priority::Warning, problem);
    for (const fs::path& pbn : analysed) publish_double_dummy(pbn);
    if (double_dummy_.running() == 0) dd_pending_.clear();  // a helper that failed leaves its board behind (logged)
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
