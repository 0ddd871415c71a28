#include "daemon/event_loop.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/signalfd.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include <array>
#include <set>

#include "bridge/lin_format.hpp"
#include "bridge/pbn_writer.hpp"
#include "daemon/wire_conversion.hpp"
#include "protocol/curve_keys.hpp"
#include "protocol/wire_event.hpp"

namespace cardtable::daemon {
namespace fs = std::filesystem;

namespace {

void log(const std::string& line) { std::cerr << "cardtabled: " << line << std::endl; }

void open_endpoint(zmq::socket_t& s, const Endpoint& e, const char* what) {
  try {
    if (e.bind) s.bind(e.address);
    else s.connect(e.address);
  } catch (const zmq::error_t& ex) {
    throw StartupError(std::string(what) + " endpoint " + e.str() + ": " + ex.what());
  }
}

}  // namespace

std::unique_ptr<protocol::Journal> EventLoop::open_journal(const std::string& name) const {
  try {
    return std::make_unique<protocol::Journal>(
        fs::path(options_.state_dir) / name,
        protocol::Journal::Limits{static_cast<std::uintmax_t>(options_.journal_file_mb) << 20, options_.journal_files});
  } catch (const std::exception& e) {
    throw StartupError(e.what());
  }
}

nlohmann::json EventLoop::replay_reply(const protocol::Journal& journal, std::uint64_t since) {
  constexpr std::size_t kLimit = 5000;  // a reply at most; ask again from the last seq + 1
  nlohmann::json events = nlohmann::json::array();
  bool more = false;
  journal.replay(since, [&](const std::string& line, std::uint64_t) {
    if (events.size() == kLimit) {
      more = true;
      return false;
    }
    if (auto j = nlohmann::json::parse(line, nullptr, false); !j.is_discarded()) events.push_back(std::move(j));
    return true;
  });
  return {{"events", events}, {"more", more}, {"first_available", journal.first_seq()}, {"last_seq", journal.last_seq()}};
}

void EventLoop::setup_curve() {
  std::string error;
  auto keys = protocol::read_key_file(options_.curve_secret, error);
  if (!keys || keys->secret_key.empty())
    throw StartupError("--curve-secret " + options_.curve_secret + ": " + (keys ? "holds no secret key (a .pub file?)" : error));
  for (const char* role : {"director", "broadcaster", "hub"}) {
    fs::path dir = fs::path(options_.clients) / role;
    if (!fs::is_directory(dir)) continue;
    for (const std::string& k : protocol::read_public_keys(dir, error)) allowed_[k] = role;
    if (!error.empty()) throw StartupError("--clients: " + error);
  }
  if (allowed_.empty())
    throw StartupError("--clients " + options_.clients + ": no client key (put .pub files in director/, broadcaster/ or hub/)");
  // The ZAP handler must be there before the first handshake.
  zap_.set(zmq::sockopt::linger, 0);
  zap_.bind("inproc://zeromq.zap.01");
  std::optional<protocol::Keypair> hub;
  if (!options_.hub_key.empty()) {
    hub = protocol::read_key_file(options_.hub_key, error);
    if (!hub) throw StartupError("--hub-key: " + error);
  }
  for (auto [s, e] : {std::pair{&pub_, &options_.publish}, {&control_, &options_.control}, {&live_, &options_.live}}) {
    if (!e->bind) {  // we connect to a hub: we are its CURVE client
      if (!hub) throw StartupError(e->str() + ": connecting with CURVE needs --hub-key (the hub's .pub)");
      s->set(zmq::sockopt::curve_serverkey, hub->public_key);
      s->set(zmq::sockopt::curve_publickey, keys->public_key);
      s->set(zmq::sockopt::curve_secretkey, keys->secret_key);
      continue;
    }
    s->set(zmq::sockopt::curve_server, 1);
    s->set(zmq::sockopt::curve_secretkey, keys->secret_key);
    // The live endpoint has a ZAP domain of its own: only broadcasters get in there.
    s->set(zmq::sockopt::zap_domain, s == &live_ ? "live" : "cardtable");
  }
  log("CURVE on every endpoint; " + std::to_string(allowed_.size()) + " client keys allowed");
}

void EventLoop::handle_zap() {
  // RFC 27 (ZAP): [version, request id, domain, address, identity, mechanism, credentials...].
  std::vector<zmq::message_t> f;
  while (zmq::recv_multipart(zap_, std::back_inserter(f), zmq::recv_flags::dontwait)) {
    std::string status = "400", text = "not allowed", user;
    if (f.size() >= 7 && f[5].to_string_view() == "CURVE" && f[6].size() == 32) {
      char z85[41] = {};
      zmq_z85_encode(z85, static_cast<const std::uint8_t*>(f[6].data()), 32);
      bool live_domain = f[2].to_string_view() == "live";
      if (auto it = allowed_.find(z85); it != allowed_.end() && (!live_domain || it->second == "broadcaster")) {
        status = "200";
        text = "OK";
        user = it->second;  // the role, seen by the control endpoint as the message's User-Id
      }
    }
    if (status != "200") {
      ++refused_;
      log("refused a client from " + (f.size() > 3 ? f[3].to_string() : std::string("?")) + ": key not on the allow-list");
    }
    std::string version = f.empty() ? "1.0" : f[0].to_string(), id = f.size() > 1 ? f[1].to_string() : "";
    std::array<zmq::const_buffer, 6> reply = {zmq::buffer(version), zmq::buffer(id), zmq::buffer(status), zmq::buffer(text),
                                              zmq::buffer(user), zmq::const_buffer{}};
    zmq::send_multipart(zap_, reply);
    f.clear();
  }
}

std::unique_ptr<bridge::MasterRecord> EventLoop::load_master(const std::vector<std::string>& paths, std::string& summary) const {
  auto m = std::make_unique<bridge::MasterRecord>();
  std::vector<fs::path> p(paths.begin(), paths.end());
  bridge::Diagnostics d = m->load(p);
  std::size_t errors = 0;
  for (const auto& x : d) {
    log(x.str());
    errors += x.is_error() ? 1U : 0U;
  }
  for (const auto& path : p)
    if (!fs::exists(path)) throw StartupError("--master " + path.string() + ": no such file or folder");
  if (m->size() == 0) throw StartupError("the master record holds no complete deal (" + std::to_string(errors) + " errors)");
  summary = std::to_string(m->size()) + " boards in " + std::to_string(m->session_count()) + " sessions" +
            (errors ? ", " + std::to_string(errors) + " problems reported" : "");
  return m;
}

EventLoop::EventLoop(Options options)
    : options_(std::move(options)),
      pub_(context_, zmq::socket_type::pub),
      control_(context_, zmq::socket_type::router),
      live_(context_, zmq::socket_type::pub),
      zap_(context_, zmq::socket_type::rep) {
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

  journal_ = open_journal("journal");
  live_journal_ = open_journal("live");  // live.* have a sequence of their own
  board_first_seq_ = journal_->last_seq() + 1;

  // A slow subscriber must neither stop publishing nor grow memory without bound: PUB drops at the
  // high-water mark (the subscriber sees the gap in seq and replays it).
  pub_.set(zmq::sockopt::sndhwm, 100000);
  pub_.set(zmq::sockopt::linger, 1000);
  control_.set(zmq::sockopt::maxmsgsize, static_cast<int64_t>(1 << 20));  // a larger frame disconnects its sender
  control_.set(zmq::sockopt::linger, 0);
  if (!options_.curve_secret.empty()) setup_curve();
  live_.set(zmq::sockopt::sndhwm, 100000);
  live_.set(zmq::sockopt::linger, 1000);
  open_endpoint(live_, options_.live, "live");
  open_endpoint(pub_, options_.publish, "publish");
  open_endpoint(control_, options_.control, "control");

  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &mask, nullptr);  // before any thread starts: they inherit the mask
  signal_fd_ = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  if (signal_fd_ < 0) throw StartupError(std::string("signalfd: ") + std::strerror(errno));

  auto version = daemon_event("daemon.version", "info", "cardtabled " CARDTABLE_VERSION " started, protocol 1.0", options_, wall(), mono());
  version.evidence = {{"proto_major", std::to_string(protocol::kProtoMajor)}, {"proto_minor", std::to_string(protocol::kProtoMinor)},
                      {"daemon", CARDTABLE_VERSION}};
  publish(version, true);
  auto loaded = daemon_event("record.loaded", "info", "Master record loaded: " + summary, options_, wall(), mono());
  loaded.evidence = {{"boards", std::to_string(master_->size())}, {"sessions", std::to_string(master_->session_count())}};
  publish(loaded, true);
  drain_table();  // table.capabilities
}

EventLoop::~EventLoop() {
  if (simulator_) simulator_->stop();
  if (signal_fd_ >= 0) ::close(signal_fd_);
}

double EventLoop::wall() const {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

double EventLoop::mono() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count(); }

table::Millis EventLoop::table_now() const { return last_table_time_; }

void EventLoop::publish(protocol::WireEvent& e, bool journal) {
  std::string body;
  if (journal) {
    body = journal_->append(e);  // journalled first: nothing published is ever lost
    if (e.type == "board.arrived" || e.type == "board.identified")
      if (table_->phase_name() == "waiting" || e.type == "board.arrived") board_first_seq_ = std::min(board_first_seq_, e.seq);
  } else {
    body = protocol::to_json(e).dump();
  }
  std::string topic = e.topic();
  pub_.send(zmq::buffer(topic), zmq::send_flags::sndmore | zmq::send_flags::dontwait);
  pub_.send(zmq::buffer(body), zmq::send_flags::dontwait);
  ++published_;
}

std::vector<std::string> EventLoop::drain_table() {
  std::vector<std::string> types;
  for (const table::Event& e : table_->take_events()) {
    types.push_back(e.type);
    protocol::WireEvent w = to_wire(e, options_, wall());
    // The cards played are hand contents: live.*, held until the board is finished here, for broadcasters.
    if (e.type.starts_with("play.")) {
      w.type = "live." + e.type.substr(5);
      held_.push_back(std::move(w));
      continue;
    }
    if (e.type == "board.returned" || e.type == "board.verified") {
      publish(w, true);
      board_first_seq_ = journal_->last_seq() + 1;  // the next board's snapshot starts after this
      if (e.type == "board.returned") finish_board(w);
      continue;
    }
    publish(w, true);
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
  }
  if (events.empty()) return;
  embargoed_.push_back({std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                            std::chrono::duration<double>(options_.embargo)),
                        std::move(events)});
  release_embargoed();
}

void EventLoop::release_embargoed() {
  auto now = std::chrono::steady_clock::now();
  while (!embargoed_.empty() && embargoed_.front().release <= now) {
    Embargoed board = std::move(embargoed_.front());
    embargoed_.pop_front();
    for (protocol::WireEvent& e : board.events) {
      std::string body = live_journal_->append(e);  // journalled first, in the live journal
      std::string topic = e.topic();
      live_.send(zmq::buffer(topic), zmq::send_flags::sndmore | zmq::send_flags::dontwait);
      live_.send(zmq::buffer(body), zmq::send_flags::dontwait);
    }
    write_broadcast(board.events);
  }
}

void EventLoop::write_broadcast(const std::vector<protocol::WireEvent>& events) {
  // The board as vugraph software wants it: LIN (pc per card) and PBN with the Play section and the
  // double-dummy table, in <state-dir>/broadcast/.
  if (events.empty() || events.front().type != "live.deal") return;
  const protocol::WireEvent& d = events.front();
  bridge::BoardRecord r;
  r.event = d.event;
  r.session = d.session;
  r.board = d.board;
  for (const auto& [k, v] : d.evidence) {
    if (k == "deal") r.deal = bridge::Deal::parse_pbn(v);
    if (k == "dealer") r.dealer = bridge::parse_seat(v);
    if (k == "vulnerable") r.vulnerability = bridge::parse_vulnerability(v);
  }
  if (!r.deal) return;
  bridge::Play play;
  for (const auto& e : events) {
    if (e.type != "live.trick") continue;
    std::array<std::optional<bridge::Card>, 4> trick{};
    for (const auto& [k, v] : e.evidence) {
      if (k == "leader" && play.tricks.empty())
        if (auto s = bridge::parse_seat(v)) play.leader = *s;
      if (k != "cards") continue;
      std::istringstream words(v);
      for (std::string w; words >> w;)
        if (w.size() >= 4 && w[1] == ':')
          if (auto s = bridge::parse_seat(w.substr(0, 1)); s)
            if (auto c = bridge::Card::parse(w.substr(2))) trick[static_cast<std::size_t>(bridge::index(*s))] = c;
    }
    play.tricks.push_back(trick);
  }
  if (!play.tricks.empty()) r.play = play;
  r.tags.push_back({"Site", options_.tournament + " " + options_.section + " table " + options_.table});
  fs::path dir = fs::path(options_.state_dir) / "broadcast";
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::string stem = "board-" + std::to_string(r.board) + "-" + (r.session.empty() ? "x" : r.session);
  for (char& ch : stem)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-') ch = '_';
  std::ofstream(dir / (stem + ".lin")) << bridge::write_lin({r});
  fs::path pbn = dir / (stem + ".pbn");
  std::ofstream(pbn) << bridge::write_pbn({r});
  // The double-dummy table: `cardtablectl records analyze` in a child process, so that libdds's memory
  // is never the daemon's. It rewrites the file with the tags; the loop reaps it.
  std::string analyzer = options_.analyzer;
  if (analyzer.empty()) {
    fs::path beside = fs::read_symlink("/proc/self/exe").parent_path() / "cardtablectl";
    analyzer = fs::exists(beside) ? beside.string() : "cardtablectl";
  }
  pid_t child = ::fork();
  if (child == 0) {
    std::string tmp = pbn.string() + ".dd";
    int devnull = ::open("/dev/null", O_WRONLY);
    ::dup2(devnull, 1);
    ::dup2(devnull, 2);
    const char* argv[] = {analyzer.c_str(), "records", "analyze", pbn.c_str(), "-o", tmp.c_str(), nullptr};
    ::execvp(argv[0], const_cast<char* const*>(argv));
    ::_exit(127);
  }
  if (child > 0) analyses_.emplace_back(child, pbn);
}

void EventLoop::reap_analyses() {
  for (auto it = analyses_.begin(); it != analyses_.end();) {
    int status = 0;
    pid_t done = ::waitpid(it->first, &status, WNOHANG);
    if (done == 0) {
      ++it;
      continue;
    }
    fs::path tmp = it->second.string() + ".dd";
    std::error_code ec;
    if (done > 0 && WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1) && fs::exists(tmp)) fs::rename(tmp, it->second, ec);
    else log(it->second.string() + ": no double-dummy table (the analyzer failed or was not found; see --analyzer)");
    fs::remove(tmp, ec);
    it = analyses_.erase(it);
  }
}

void EventLoop::apply(const table::TableInput& in) {
  last_table_time_ = std::max(last_table_time_, in.time);
  table::apply(*table_, in);
  drain_table();
}

nlohmann::json EventLoop::status() const {
  nlohmann::json s = {{"tournament", options_.tournament}, {"section", options_.section}, {"table", options_.table},
                      {"proto_major", protocol::kProtoMajor}, {"proto_minor", protocol::kProtoMinor},
                      {"last_seq", journal_->last_seq()}, {"first_seq", journal_->first_seq()},
                      {"phase", table_->phase_name()}, {"master_boards", master_->size()},
                      {"uptime", mono()}, {"published", published_},
                      {"control_requests", control_requests_}, {"control_errors", control_errors_},
                      {"security", allowed_.empty() ? "plaintext (loopback/ipc)" : "curve"}, {"refused_clients", refused_},
                      {"live_last_seq", live_journal_->last_seq()}, {"boards_under_embargo", embargoed_.size()},
                      {"simulator", {{"scenario", options_.simulate}, {"speed", options_.speed}, {"loop", options_.loop},
                                     {"finished", simulator_->finished()}}}};
  if (auto b = table_->board()) s["board"] = {{"board", master_->board(*b).board}, {"name", master_->describe(*b)}};
  return s;
}

void EventLoop::reload(const std::vector<std::string>& paths) {
  std::string summary;
  auto fresh = load_master(paths, summary);  // throws StartupError: the old record stays
  master_ = std::move(fresh);
  // The table refers to the record: a new table starts (the board in progress is forgotten).
  table_ = std::make_unique<table::Table>(*master_, table_config_);
  options_.masters = paths;
  auto loaded = daemon_event("record.loaded", "info", "Master record reloaded: " + summary, options_, wall(), mono());
  loaded.evidence = {{"boards", std::to_string(master_->size())}, {"sessions", std::to_string(master_->session_count())}};
  publish(loaded, true);
  drain_table();
  log("master record reloaded: " + summary);
}

nlohmann::json EventLoop::handle(const protocol::Request& r) {
  using protocol::error_reply;
  using protocol::ok_reply;
  const std::string& c = r.command;
  if (c == "version")
    return ok_reply({{"proto_major", protocol::kProtoMajor}, {"proto_minor", protocol::kProtoMinor}, {"daemon", CARDTABLE_VERSION}});
  if (c == "status") return ok_reply({{"status", status()}});
  if (c == "replay" || c == "snapshot") {
    std::uint64_t since = c == "snapshot" ? board_first_seq_ : 1;
    if (c == "replay") {
      if (!r.args.contains("since") || !r.args["since"].is_number_unsigned())
        return error_reply("replay: give \"since\", the first seq wanted (a positive integer)");
      since = r.args["since"].get<std::uint64_t>();
    }
    nlohmann::json reply = replay_reply(*journal_, since);
    if (c == "snapshot") reply["status"] = status();
    return ok_reply(reply);
  }
  if (c == "replay-live") {
    if (!r.args.contains("since") || !r.args["since"].is_number_unsigned()) return error_reply("replay-live: give \"since\"");
    return ok_reply(replay_reply(*live_journal_, r.args["since"].get<std::uint64_t>()));
  }
  if (c == "board" || c == "contract") {
    std::string key = c == "board" ? "label" : "contract";
    if (!r.args.contains(key) || !r.args[key].is_string()) return error_reply(c + ": give \"" + key + "\" as a string");
    table::Command cmd;
    cmd.kind = c == "board" ? table::Command::Kind::Board : table::Command::Kind::Contract;
    cmd.text = r.args[key].get<std::string>();
    cmd.time = table_now();
    table_->command(cmd);
    auto types = drain_table();
    if (std::find(types.begin(), types.end(), "table.command_rejected") != types.end())
      return error_reply(c + ": the table rejected '" + cmd.text + "' (see event " + std::to_string(journal_->last_seq()) + ")");
    return ok_reply({{"last_seq", journal_->last_seq()}});
  }
  if (c == "ack") {
    if (!r.args.contains("seq") || !r.args["seq"].is_number_unsigned()) return error_reply("ack: give \"seq\", the event acknowledged");
    std::uint64_t seq = r.args["seq"].get<std::uint64_t>();
    if (seq == 0 || seq > journal_->last_seq()) return error_reply("ack: no event " + std::to_string(seq));
    std::string by = r.args.value("by", std::string("director"));
    auto e = daemon_event("director.ack", "info", "Event " + std::to_string(seq) + " acknowledged by " + by, options_, wall(), mono());
    e.evidence = {{"seq", std::to_string(seq)}, {"by", by}};
    publish(e, true);
    return ok_reply({{"seq", e.seq}});
  }
  if (c == "load-record") {
    std::vector<std::string> paths = options_.masters;
    if (r.args.contains("paths")) {
      if (!r.args["paths"].is_array()) return error_reply("load-record: \"paths\" is a list of files or folders");
      paths.clear();
      for (const auto& p : r.args["paths"])
        if (p.is_string()) paths.push_back(p.get<std::string>());
    }
    try {
      reload(paths);
    } catch (const std::exception& e) {
      return error_reply(std::string("load-record: ") + e.what() + "; the previous record stays");
    }
    return ok_reply({{"boards", master_->size()}});
  }
  return error_reply("unknown command '" + c + "' (version, status, snapshot, replay, replay-live, board, contract, ack, load-record)");
}

void EventLoop::handle_control() {
  // Whatever arrives — a REQ's [id, "", body], a DEALER's [id, body], garbage — gets a reply in the same
  // envelope; nothing a client sends stops the daemon.
  while (true) {
    std::vector<zmq::message_t> frames;
    zmq::recv_result_t got;
    try {
      got = zmq::recv_multipart(control_, std::back_inserter(frames), zmq::recv_flags::dontwait);
    } catch (const zmq::error_t& e) {
      log(std::string("control: ") + e.what());
      return;
    }
    if (!got) return;
    ++control_requests_;
    if (frames.size() < 2) continue;  // an identity alone: nothing to answer
    std::string error;
    std::optional<protocol::Request> req = protocol::parse_request(frames.back().to_string_view(), error);
    // With CURVE, the ZAP handler set the sender's role as the message's User-Id: only directors act on
    // the table; every admitted role may read.
    std::string role = "director";
    if (!allowed_.empty()) {
      try {
        role = frames.back().gets("User-Id");
      } catch (const zmq::error_t&) {
        role.clear();
      }
    }
    static const std::set<std::string> kDirectorOnly = {"board", "contract", "ack", "load-record"};
    bool allowed = req && (req->command == "replay-live" ? role == "broadcaster" || allowed_.empty()
                                                          : !kDirectorOnly.count(req->command) || role == "director");
    nlohmann::json reply = !req      ? protocol::error_reply(error)
                           : !allowed ? protocol::error_reply(req->command + ": not allowed for the " + (role.empty() ? "unknown" : role) + " role")
                                      : handle(*req);
    if (!reply.value("ok", false)) ++control_errors_;
    std::vector<zmq::const_buffer> out;
    std::string body = reply.dump();
    for (std::size_t i = 0; i + 1 < frames.size(); ++i) out.emplace_back(frames[i].data(), frames[i].size());
    out.push_back(zmq::buffer(body));
    try {
      zmq::send_multipart(control_, out, zmq::send_flags::dontwait);
    } catch (const zmq::error_t& e) {
      log(std::string("control reply: ") + e.what());
    }
  }
}

int EventLoop::run() {
  simulator_->start(queue_);
  std::uint64_t watchdog_usec = 0;
  bool watchdog = sd_watchdog_enabled(0, &watchdog_usec) > 0;
  sd_notifyf(0, "READY=1\nSTATUS=table %s/%s/%s: %zu boards, publishing on %s", options_.tournament.c_str(), options_.section.c_str(),
             options_.table.c_str(), master_->size(), options_.publish.str().c_str());
  log("ready: publishing on " + options_.publish.str() + ", control on " + options_.control.str());
  auto last_heartbeat = std::chrono::steady_clock::now();
  auto last_watchdog = last_heartbeat;
  while (true) {
    zmq::pollitem_t items[] = {{control_.handle(), 0, ZMQ_POLLIN, 0}, {nullptr, queue_.fd(), ZMQ_POLLIN, 0},
                               {nullptr, signal_fd_, ZMQ_POLLIN, 0}, {zap_.handle(), 0, ZMQ_POLLIN, 0}};
    zmq::poll(items, allowed_.empty() ? 3 : 4, std::chrono::milliseconds(200));
    if (!allowed_.empty() && (items[3].revents & ZMQ_POLLIN)) handle_zap();
    if (items[2].revents & ZMQ_POLLIN) {
      signalfd_siginfo info{};
      while (::read(signal_fd_, &info, sizeof info) == sizeof info) {
        if (info.ssi_signo == SIGHUP) {
          try {
            reload(options_.masters);
          } catch (const std::exception& e) {
            log(std::string("SIGHUP: ") + e.what() + "; the previous record stays");
          }
          continue;
        }
        log(std::string("stopping on ") + strsignal(static_cast<int>(info.ssi_signo)));
        sd_notify(0, "STOPPING=1");
        simulator_->stop();
        journal_->flush();
        return 0;
      }
    }
    if (items[1].revents & ZMQ_POLLIN)
      for (const table::TableInput& in : queue_.take()) apply(in);
    if (items[0].revents & ZMQ_POLLIN) handle_control();
    release_embargoed();
    if (!analyses_.empty()) reap_analyses();
    auto now = std::chrono::steady_clock::now();
    if (options_.heartbeat > 0 && now - last_heartbeat >= std::chrono::duration<double>(options_.heartbeat)) {
      last_heartbeat = now;
      auto hb = daemon_event("daemon.heartbeat", "info", "alive", options_, wall(), mono());
      hb.evidence = {{"last_seq", std::to_string(journal_->last_seq())}, {"phase", table_->phase_name()}};
      publish(hb, false);  // not journalled: it carries the last seq so that a subscriber can see a gap
      sd_notifyf(0, "STATUS=table %s: %s, last seq %llu", options_.table.c_str(), table_->phase_name().c_str(),
                 static_cast<unsigned long long>(journal_->last_seq()));
    }
    if (watchdog && now - last_watchdog >= std::chrono::microseconds(watchdog_usec / 2)) {
      last_watchdog = now;
      sd_notify(0, "WATCHDOG=1");
    }
  }
}

}  // namespace cardtable::daemon
