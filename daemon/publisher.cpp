#include "daemon/publisher.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "daemon/log.hpp"
#include "protocol/durable_file.hpp"

namespace cardtable::daemon {
namespace fs = std::filesystem;

namespace {
double wall_now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }
}  // namespace

Publisher::Publisher(zmq::context_t& context, Config config)
    : config_(std::move(config)),
      journal_(std::make_unique<protocol::Journal>(config_.state_dir / "journal", config_.limits)),
      live_journal_(std::make_unique<protocol::Journal>(config_.state_dir / "live", config_.limits)),
      pub_(context, zmq::socket_type::pub),
      live_(context, zmq::socket_type::pub) {
  // A slow subscriber must neither stop publishing nor grow memory without bound: PUB drops at the
  // high-water mark (the subscriber sees the gap in seq and replays it).
  for (zmq::socket_t* s : {&pub_, &live_}) {
    s->set(zmq::sockopt::sndhwm, 100000);
    s->set(zmq::sockopt::linger, 1000);
  }
  // What opening the journals found, said once: a torn line cut off (a crash or power cut mid-write;
  // its seq is given again, so subscribers see no gap) and files beside them that are not the journal's.
  for (const protocol::Journal* j : {journal_.get(), live_journal_.get()}) {
    const std::string dir = (config_.state_dir / (j == journal_.get() ? "journal" : "live")).string();
    if (!j->id_made_because().empty()) log(Priority::Notice, j->id_made_because() + "; its identity is " + j->id());
    if (j->torn_bytes())
      log(Priority::Warning, dir + ": cut " + std::to_string(j->torn_bytes()) + " bytes of a last line torn by a crash or power cut (its seq is given again)");
    for (const auto& f : j->ignored_files())
      log(Priority::Warning, f + ": not a journal file name (journal-<20 digits>.jsonl): ignored, left where it is");
  }
  std::error_code ec;
  fs::create_directories(embargo_dir(), ec);
  if (ec) throw std::runtime_error(embargo_dir().string() + ": " + ec.message());
  load_embargoed();
}

void Publisher::load_embargoed() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(embargo_dir()))
    if (entry.path().extension() == ".events") files.push_back(entry.path());
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::string line;
    Embargoed board;
    board.id = f.stem().string();
    if (!std::getline(in, line)) continue;
    auto head = nlohmann::json::parse(line, nullptr, false);
    if (!head.is_object() || !head.contains("release") || !head["release"].is_number()) {
      log(Priority::Warning, f.string() + ": not an embargoed board (no release time); left where it is");
      continue;
    }
    board.release_wall = head["release"].get<double>();
    while (std::getline(in, line)) {
      std::string error;
      if (auto e = protocol::from_json(nlohmann::json::parse(line, nullptr, false), &error)) board.events.push_back(std::move(*e));
      else log(Priority::Warning, f.string() + ": a line skipped: " + error);
    }
    if (!board.events.empty()) embargoed_.push_back(std::move(board));
  }
  std::sort(embargoed_.begin(), embargoed_.end(), [](const auto& a, const auto& b) { return a.release_wall < b.release_wall; });
  if (!embargoed_.empty()) log(std::to_string(embargoed_.size()) + " boards still under embargo, from " + embargo_dir().string());
}

void Publisher::send(zmq::socket_t& s, const std::string& topic, const std::string& body) {
  s.send(zmq::buffer(topic), zmq::send_flags::sndmore | zmq::send_flags::dontwait);
  s.send(zmq::buffer(body), zmq::send_flags::dontwait);
}

// A journal that cannot write (a full disk, its file deleted) does not stop the table: the event is
// published all the same, and the log says when the journal failed and when it writes again, with the
// seqs a replay will not find. The daemon once exited on the first failed write, and systemd started it
// into the same full disk.
void Publisher::journalled(const protocol::Journal& j, const char* name, bool& was_failing) {
  const bool failing = !j.failing().empty();
  if (failing && !was_failing)
    log(Priority::Error, std::string(name) + ": " + j.failing() + "; events are published but not journalled until it can write again");
  if (!failing && was_failing)
    log(Priority::Notice, std::string(name) + " writes again; seqs " + std::to_string(j.first_unjournalled()) + " to " +
                              std::to_string(j.last_unjournalled()) + " were published but are not in it (replay cannot give them)");
  was_failing = failing;
}

void Publisher::publish(protocol::WireEvent& e, bool journal) {
  if (journal) {
    journal_->append(e);  // journalled first (with the card detail): nothing published is ever lost
    journalled(*journal_, "the journal", journal_failing_);
  } else {
    e.journal = journal_->id();  // the heartbeat too: its last_seq is a seq of this journal
  }
  send(pub_, e.topic(), protocol::to_json(e).dump());  // the events endpoint never carries the card detail
  ++published_;
  log_event(e);
}

void Publisher::embargo(std::vector<protocol::WireEvent> board, const std::string& id) {
  if (board.empty()) return;
  Embargoed b{wall_now() + config_.embargo.count(), id, std::move(board)};
  // Written whole, then renamed, file and folder synced: a board is in the folder complete or not at all,
  // and once there a power cut does not take it (its live.* events exist nowhere else).
  fs::path file = embargo_dir() / (id + ".events");
  std::string text = nlohmann::json{{"release", b.release_wall}}.dump() + '\n';
  for (const auto& e : b.events) text += protocol::to_json(e, true).dump() + '\n';
  try {
    protocol::write_file_durably(file, text);
  } catch (const std::runtime_error& e) {
    log(Priority::Error, std::string(e.what()) + "; the board is kept in memory only");
  }
  embargoed_.push_back(std::move(b));
}

std::vector<Publisher::Released> Publisher::release_due() {
  std::vector<Released> released;
  double now = wall_now();
  while (!embargoed_.empty() && embargoed_.front().release_wall <= now) {
    Embargoed board = std::move(embargoed_.front());
    embargoed_.pop_front();
    for (protocol::WireEvent& e : board.events) {
      send(live_, e.topic(), live_journal_->append(e));  // journalled first
      journalled(*live_journal_, "the live journal", live_failing_);
    }
    live_journal_->flush();
    // Removed only once in the live journal: a crash in between publishes the board twice, never not at
    // all; a live journal that could not write keeps the file, so a restart journals the board then.
    std::error_code ec;
    if (live_journal_->failing().empty()) fs::remove(embargo_dir() / (board.id + ".events"), ec);
    released.push_back({board.id, std::move(board.events)});
  }
  return released;
}

void Publisher::publish_live(protocol::WireEvent& e) {
  send(live_, e.topic(), live_journal_->append(e));
  journalled(*live_journal_, "the live journal", live_failing_);
  live_journal_->flush();
}

}  // namespace cardtable::daemon
