#include "daemon/table_host.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "daemon/log.hpp"
#include "daemon/master_loader.hpp"
#include "daemon/startup_error.hpp"
#include "daemon/wire_conversion.hpp"
#include "protocol/card_seal.hpp"
#include "protocol/control.hpp"
#include "protocol/heartbeat.hpp"
#include "protocol/json_fields.hpp"
#include "table/command.hpp"
#include "table/scenario.hpp"  // table::apply: an input record to the table

namespace cardtable::daemon {
namespace fs = std::filesystem;
using nlohmann::json;

TableHost::TableHost(std::unique_ptr<bridge::MasterRecord> master, const table::TableConfig& config, Options& options,
                     TableClock& clock, Publisher& publisher, BoardBroadcast& broadcast, Surroundings surroundings)
    : master_(std::move(master)),
      config_(config),
      table_(std::make_unique<table::Table>(*master_, config_)),
      options_(options),
      clock_(clock),
      publisher_(publisher),
      broadcast_(broadcast),
      surroundings_(std::move(surroundings)),
      reply_health_(options.missed_replies_alert / 100, surroundings_.camera),
      board_first_seq_(publisher.journal().last_seq() + 1) {
  // One pass over the journal: the open alerts, and what was last said of each reader's replies -- a
  // reader said missing them and mended while the daemon was down is said good by this run, one still
  // missing them is not said again (reply_health.hpp).
  alerts_.load(publisher_.journal(), [this](const json& e) {
    if (protocol::string_field(e, "type") != "device.health" || !e.contains("evidence") || !e["evidence"].is_object()) return;
    const json& evidence = e["evidence"];
    const std::string device = protocol::string_field(evidence, "device");
    if (!device.empty()) reply_health_.recall(device, protocol::string_field(evidence, "state") == "missing replies");
  });
}

void TableHost::start(const std::string& summary, const devices::InputScript& scenario) {
  auto loaded = daemon_event("record.loaded", "info", "Master record loaded: " + summary, options_, wall(), mono());
  loaded.evidence = {{"boards", std::to_string(master_->size())}, {"sessions", std::to_string(master_->session_count())}};
  publish(loaded);
  drain_table(wall());  // table.capabilities
  resume(scenario);
}

// The last run's board in progress: its inputs replayed into the table (board_resume.hpp). Their events
// are in the journal already and are not published again; the cards played are held again for the
// broadcaster (who gets the whole board after the embargo), the recorder and the trick count see them as
// they did.
void TableHost::resume(const devices::InputScript& scenario) {
  InputLog::Identity identity{InputLog::record_hash(*master_), {}};
  for (const table::Zone& z : config_.zones) identity.zones.push_back(z.str());
  board_resume_ = std::make_unique<BoardResume>(fs::path(options_.state_dir) / "board-in-progress.inputs", std::move(identity));
  const auto began = std::chrono::steady_clock::now();
  auto resumed = board_resume_->resume(
      board_first_seq_, wall(),
      [this](const std::vector<table::Observation>& held, table::Millis heard, const std::optional<table::PreviousBoard>& previous) {
        table_->assume_readings(held, heard);
        if (previous) table_->assume_previous_board(*previous);
      },
      [this](const table::TableInput& in, double at) { apply(in, at); });
  if (!resumed) return;
  // The clock goes on from the replayed board's last time: a restart never turns the table's time back.
  clock_.resume(resumed->last_time, resumed->last_wall, scenario);
  // The board's first event among those journalled since the input log began (the last run's board
  // ended there, or that run started there): as on_board_event saw them live.
  if (resumed->first_seq > 0)
    publisher_.journal().replay(resumed->first_seq, [this](const std::string& line, std::uint64_t seq) {
      const json e = json::parse(line, nullptr, false);
      if (!e.is_object()) return true;
      // The board's identification, as publish() saw it live: a `board` request naming it again says it.
      if (e.value("type", std::string()) == "board.identified") last_identified_seq_ = seq;
      on_board_event(e.value("type", std::string()), seq);
      return true;
    });
  const auto took_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - began).count();
  char took[32];
  std::snprintf(took, sizeof took, "%.1f", static_cast<double>(took_us) / 1000.0);
  const auto board = table_->board();
  log(Priority::Notice, "resumed board " + (board ? std::to_string(master_->board(*board).board) : std::string("-")) + " (phase " +
                            table_->phase_name() + ") from " + std::to_string(resumed->inputs.size()) + " inputs of the last run (" +
                            std::to_string(resumed->records) + " records, replayed in " + took + " ms" +
                            (resumed->held.empty() ? std::string()
                                                   : "; the readings of " + std::to_string(resumed->held.size()) +
                                                         " zones when the last board ended taken as they were") +
                            ")");
}

void TableHost::logged(const table::TableInput& in, const std::vector<Published>& events) {
  if (!board_resume_) return;
  // A board that ended leaves the table waiting: it needs no history, the next board starts a new file
  // with what the zones read at that moment (the last trick still in the play areas is that board's) and
  // how the board's cards were quitted (a next deal dealt from them unshuffled, Law 6D2).
  const bool ended = std::any_of(events.begin(), events.end(),
                                 [](const Published& p) { return p.type == "board.returned" || p.type == "board.verified"; });
  std::optional<BoardResume::Ended> end;
  if (ended) end = BoardResume::Ended{table_->stable_readings(), in.time, table_->previous_board()};
  board_resume_->logged(in, !events.empty(), end, board_first_seq_, wall());
}

void TableHost::on_device_event(const devices::DeviceEvent& d, const std::string& driver) {
  // Each logged once, by the publisher, with its table and seq (as every event is).
  for (protocol::WireEvent& e : device_loss_.on_device_event(d, driver, options_, wall(), mono())) publish(e);
}

void TableHost::publish(protocol::WireEvent& e) {
  publisher_.publish(e, true);
  alerts_.on_published(protocol::to_json(e));
  if (e.type == "board.identified") last_identified_seq_ = e.seq;
  on_board_event(e.type, e.seq);
}

// What a late joiner's snapshot holds: the board's own events (protocol/board_span.hpp). Not the start's
// (daemon.version, record.loaded, table.capabilities: they made the first board's snapshot after a start),
// nor what came between two boards.
void TableHost::on_board_event(const std::string& type, std::uint64_t seq) {
  if (board_.on_event(type) == protocol::BoardSpan::Step::Begins) board_first_seq_ = seq;
}

std::vector<TableHost::Published> TableHost::drain_table(double wall) {
  std::vector<Published> published;
  for (const table::Event& e : table_->take_events()) {
    published.push_back({e.type, ""});
    // Said with their real cause by on_device_event.
    if (device_loss_.leaves_out(e, surroundings_.zone_lost)) continue;
    broadcast_.on_event(e);
    protocol::WireEvent w = to_wire(e, options_, wall);
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
        if (auto count = tally_.on_trick(w, options_, wall); count && !replaying()) publish(*count);
      broadcast_.hold(std::move(w));
      continue;
    }
    if (replaying()) {  // journalled and published by the last run; only what this run keeps of them
      if (e.type == "board.arrived" || e.type == "board.verified" || e.type == "board.returned") tally_.clear();
      if (e.type == "board.returned" || e.type == "board.verified") broadcast_.forget_board();
      continue;
    }
    // Everything else reaches every role before the embargo: no card of a hand in play may be named.
    if (protocol::seal_card_detail(w)) log(Priority::Warning, w.type + ": a card was named in the public text; moved to the director-only detail");
    published.back().message = w.message;  // as every role reads it
    publish(w);
    if (e.type == "board.arrived" || e.type == "board.verified" || e.type == "board.returned") tally_.clear();
    if (e.type == "board.returned" || e.type == "board.verified") {
      board_first_seq_ = publisher_.journal().last_seq() + 1;  // the input log's next board: after this
      if (e.type == "board.returned") broadcast_.finish(w, *master_);
    }
  }
  return published;
}

void TableHost::apply(const table::TableInput& in) { apply(in, wall()); }

void TableHost::apply(const table::TableInput& in, double wall) {
  last_table_time_ = std::max(last_table_time_, in.time);
  if (in.kind == table::TableInput::Kind::Command && in.command.kind == table::Command::Kind::Contract)
    if (auto c = table::parse_contract_command(in.command.text)) broadcast_.on_contract(*c);
  table::apply(*table_, in);
  logged(in, drain_table(wall));
  if (in.kind == table::TableInput::Kind::Observe) watch_replies(in.observation);
}

void TableHost::watch_replies(const table::Observation& read) {
  const auto counts = table_->reader_reads().find(read.source);
  if (counts == table_->reader_reads().end()) return;  // a zone this table does not have
  // Replaying the last run's board rebuilds the counts; this run judges its own reads.
  if (replaying()) {
    reply_health_.pass(read, counts->second);
    return;
  }
  auto change = reply_health_.on_read(read, counts->second);
  if (!change) return;
  char share[16];
  std::snprintf(share, sizeof share, "%.1f", 100.0 * static_cast<double>(change->missed) / static_cast<double>(change->heard));
  const std::string of = std::to_string(change->missed) + " of its last " + std::to_string(change->heard) + " reads that heard a card";
  auto e = change->missing
               ? daemon_event("device.health", "warning",
                              "Reader " + change->device + " misses " + share + " % of its replies (" + of +
                                  "; readers miss about 3 %): the table still reads " + change->zones +
                                  ", but check the reader's antennas, cable and what lies near them",
                              options_, wall(), mono())
               : daemon_event("device.health", "info",
                              "Reader " + change->device + " misses replies as readers do again: " + share + " % (" + of + ")",
                              options_, wall(), mono());
  e.evidence = {{"device", change->device}, {"zones", change->zones},
                {"state", change->missing ? "missing replies" : "good"}, {"share", share},
                {"missed_replies", std::to_string(change->missed)}, {"heard", std::to_string(change->heard)}};
  publish(e);
}

json TableHost::status() const {
  json s = {{"tournament", options_.tournament}, {"section", options_.section}, {"table", options_.table},
            {"proto_major", protocol::kProtoMajor}, {"proto_minor", protocol::kProtoMinor},
            {"last_seq", publisher_.journal().last_seq()}, {"first_seq", publisher_.journal().first_seq()},
            {"journal", publisher_.journal().id()}, {"live_journal", publisher_.live_journal().id()},
            {"journal_error", publisher_.journal().failing()}, {"unjournalled", publisher_.journal().unjournalled()},
            {"live_journal_error", publisher_.live_journal().failing()},
            {"phase", table_->phase_name()}, {"master_boards", master_->size()},
            {"uptime", mono()}, {"published", publisher_.published()},
            {"live_last_seq", publisher_.live_journal().last_seq()}, {"boards_under_embargo", publisher_.boards_under_embargo()},
            {"open_alerts", alerts_.open_count()},
            {"analyzer", broadcast_.analyzer() ? broadcast_.analyzer()->string() : std::string()},
            {"clock", clock_.real() ? "daemon" : "scenario"}};
  if (auto b = table_->board()) s["board"] = {{"board", master_->board(*b).board}, {"name", master_->describe(*b)}};
  // A reply missed is said in no event (the table keeps the card): here a director sees how many each
  // reader misses (1.8); one that misses many more than readers do is device.health (watch_replies).
  json reads = json::object();
  for (const auto& [device, r] : table_->reader_reads()) {
    reads[device] = {{"reads", r.reads}, {"heard", r.heard}, {"missed_replies", r.missed_replies}};
    // 1.10: what device.health last said of it (kept over a restart); none for a camera or the alert off.
    if (auto health = reply_health_.state(device)) reads[device]["health"] = *health;
  }
  s["reads_by_device"] = std::move(reads);
  if (surroundings_.add_status) surroundings_.add_status(s);
  return s;
}

// Reloading the master record keeps the board in progress (its cards, tricks, contract and times): the
// table re-identifies it against the new record, or says once that its deal is gone (issue 7, item 5).
void TableHost::reload(const std::vector<std::string>& paths) {
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
  drain_table(wall());
  log("master record reloaded: " + summary);
}

// A refused reload reaches directors, not only the log: the director who copied the next session's deal
// files learns that the tables still read the old ones before the first board says deal_mismatch.
void TableHost::refuse_reload(const std::string& why) {
  auto refused = daemon_event("record.refused", "warning",
                              "Master record not reloaded: " + why + "; the previous record (" +
                                  std::to_string(master_->size()) + " boards) stays",
                              options_, wall(), mono());
  refused.evidence = {{"reason", why}, {"boards", std::to_string(master_->size())}};
  publish(refused);
}

// TableRequests::Table: a director's command, at the table's latest time.
std::optional<std::string> TableHost::command(table::Command cmd) {
  cmd.time = last_table_time_;
  if (cmd.kind == table::Command::Kind::Contract)
    if (auto c = table::parse_contract_command(cmd.text)) broadcast_.on_contract(*c);
  table_->command(cmd);
  const auto events = drain_table(wall());
  logged(table::TableInput{table::TableInput::Kind::Command, {}, cmd, cmd.time}, events);
  const auto rejected = std::find_if(events.begin(), events.end(), [](const Published& p) { return p.type == "table.command_rejected"; });
  if (rejected != events.end()) return rejected->message;
  return std::nullopt;
}

int TableHost::board_in_play() const {
  auto b = table_->board();
  return b ? master_->board(*b).board : 0;
}

void TableHost::heartbeat() {
  auto hb = daemon_event("daemon.heartbeat", "info", "alive", options_, wall(), mono());
  hb.evidence = {{"last_seq", std::to_string(publisher_.journal().last_seq())}, {"phase", table_->phase_name()},
                 {"open_alerts", std::to_string(alerts_.open_count())},  // a hub checks its own list of the table's against it
                 {protocol::kHeartbeatEveryKey, protocol::heartbeat_every_text(options_.heartbeat)}};  // when it is missed
  publisher_.publish(hb, false);  // not journalled: it carries the last seq so that a subscriber can see a gap
}

std::string TableHost::status_line() const {
  return "table " + options_.table + ": " + table_->phase_name() + ", last seq " + std::to_string(publisher_.journal().last_seq());
}

}  // namespace cardtable::daemon
