#include "daemon/input_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "daemon/log.hpp"

namespace cardtable::daemon {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr auto kTailEvery = std::chrono::seconds(1);  // a crash loses at most this much of a run's reads
constexpr auto kSyncEvery = std::chrono::seconds(1);

const char* command_name(table::Command::Kind k) {
  switch (k) {
    case table::Command::Kind::Board:
      return "board";
    case table::Command::Kind::Contract:
      return "contract";
    case table::Command::Kind::Pocket:
      return "pocket";
    case table::Command::Kind::Check:
      return "check";
  }
  return "board";
}

std::optional<table::Command::Kind> command_kind(const std::string& s) {
  if (s == "board") return table::Command::Kind::Board;
  if (s == "contract") return table::Command::Kind::Contract;
  if (s == "pocket") return table::Command::Kind::Pocket;
  if (s == "check") return table::Command::Kind::Check;
  return std::nullopt;
}

std::string hex(std::uint64_t v) {
  std::ostringstream s;
  s << std::hex << v;
  return s.str();
}

// The same run: what stability compares, and what the table weighs (complete, confidence, source).
bool same_run(const table::Observation& a, const table::Observation& b) {
  return a.zone == b.zone && a.same_reading(b) && a.complete == b.complete && a.confidence == b.confidence &&
         a.source == b.source && a.unknown_ids == b.unknown_ids && a.card_ids == b.card_ids;
}

bool write_all(int fd, const std::string& text, std::uintmax_t at) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::pwrite(fd, text.data() + done, text.size() - done, static_cast<off_t>(at + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// A reading as line_of and the header's "held" write it (the run's count and times aside).
table::Observation observation_of(const json& j) {
  auto zone = table::Zone::parse(j["o"].get<std::string>());
  if (!zone) throw std::invalid_argument("unknown zone");
  table::Observation o;
  o.zone = *zone;
  o.cards = bridge::Hand::from_bits(std::stoull(j["c"].get<std::string>(), nullptr, 16));
  o.unknown = j.value("u", 0);
  o.complete = j.value("k", true);
  o.confidence = j.value("f", 1.0);
  o.source = j.value("s", std::string());
  o.unknown_ids = j.value("i", std::vector<std::string>());
  // The tags' UIDs of the cards read ({"SA": "04..."}, or a list where a face has several tags: two
  // cards): a resumed board tells one card heard by two readers from a second card of another pack,
  // and counts two ♠A in one pocket, as the live one did.
  if (j.contains("ci"))
    for (auto it = j["ci"].begin(); it != j["ci"].end(); ++it) {
      auto card = bridge::Card::parse(it.key());
      if (!card) throw std::invalid_argument("'" + it.key() + "' is not a card");
      if (it.value().is_array())
        for (const auto& id : it.value()) o.card_ids.emplace(*card, id.get<std::string>());
      else
        o.card_ids.emplace(*card, it.value().get<std::string>());
    }
  o.time = j["t"].get<table::Millis>();
  return o;
}

json observation_json(const table::Observation& o) {
  json j = {{"o", o.zone.str()}, {"c", hex(o.cards.bits())}, {"t", o.time}};
  if (o.unknown) j["u"] = o.unknown;
  if (!o.complete) j["k"] = false;
  if (o.confidence != 1.0) j["f"] = o.confidence;
  if (!o.source.empty()) j["s"] = o.source;
  if (!o.unknown_ids.empty()) j["i"] = o.unknown_ids;
  if (!o.card_ids.empty()) {
    json ids = json::object();
    for (auto it = o.card_ids.begin(); it != o.card_ids.end(); it = o.card_ids.upper_bound(it->first)) {
      auto [first, last] = o.card_ids.equal_range(it->first);
      if (std::next(first) == last) {
        ids[it->first.str()] = first->second;
        continue;
      }
      json several = json::array();
      for (auto k = first; k != last; ++k) several.push_back(k->second);
      ids[it->first.str()] = several;
    }
    j["ci"] = ids;
  }
  return j;
}

// The last board's cards as they were quitted: every card in the order played, with the seat that played
// it ({"name": ..., "cards": ["H5", ...], "seats": "WNES..."}); each seat's pile is its cards in that order.
json previous_json(const table::PreviousBoard& p) {
  json cards = json::array();
  std::string seats;
  std::array<std::size_t, 4> next{};
  for (const bridge::Card& c : p.tricks) {
    cards.push_back(c.str());
    for (bridge::Seat s : bridge::kAllSeats) {
      const auto& pile = p.quitted[static_cast<std::size_t>(bridge::index(s))];
      std::size_t& at = next[static_cast<std::size_t>(bridge::index(s))];
      if (at < pile.size() && pile[at] == c) {
        seats += bridge::seat_letter(s);
        ++at;
        break;
      }
    }
  }
  return {{"name", p.name}, {"cards", cards}, {"seats", seats}};
}

table::PreviousBoard previous_of(const json& j) {
  table::PreviousBoard p;
  p.name = j.value("name", std::string());
  const auto cards = j.value("cards", std::vector<std::string>());
  const auto seats = j.value("seats", std::string());
  if (cards.size() != seats.size()) throw std::invalid_argument("the previous board's cards and seats differ in number");
  for (std::size_t i = 0; i < cards.size(); ++i) {
    auto card = bridge::Card::parse(cards[i]);
    auto seat = bridge::parse_seat(std::string(1, seats[i]));
    if (!card || !seat) throw std::invalid_argument("'" + cards[i] + "' of " + seats[i] + " is not a card played");
    p.tricks.push_back(*card);
    p.quitted[static_cast<std::size_t>(bridge::index(*seat))].push_back(*card);
  }
  return p;
}

}  // namespace

std::string InputLog::record_hash(const bridge::MasterRecord& master) {
  std::uint64_t h = 1469598103934665603ULL;
  auto mix = [&h](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xFF;
      h *= 1099511628211ULL;
    }
  };
  for (std::uint32_t i = 0; i < master.size(); ++i) {
    const bridge::MasterBoard& b = master.board(i);
    for (char c : master.describe(i)) mix(static_cast<unsigned char>(c));
    mix(b.board);
    mix(static_cast<std::uint64_t>(bridge::index(b.dealer)));
    mix(static_cast<std::uint64_t>(b.vulnerability));
    for (bridge::Seat s : bridge::kAllSeats) mix(b.deal.hand(s).bits());
  }
  return hex(h) + "/" + std::to_string(master.size());
}

InputLog::InputLog(fs::path file, Identity identity)
    : file_(std::move(file)), identity_(std::move(identity)) {}

InputLog::~InputLog() {
  if (fd_ < 0) return;
  if (tail_dirty_) write_tail();
  ::fdatasync(fd_);
  ::close(fd_);
}

void InputLog::fail(const std::string& what) {
  if (!failed_)
    log(Priority::Warning, file_.string() + ": " + what + ": " + std::strerror(errno) +
                               "; a restart during this board will not resume it");
  failed_ = true;
}

std::optional<InputLog::Resumed> InputLog::load(std::vector<std::string>& warnings) {
  good_end_ = 0;
  std::ifstream in(file_, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  const std::string name = file_.string();
  auto refuse = [&](const std::string& why) -> std::optional<Resumed> {
    warnings.push_back(name + ": " + why + "; not replayed, the table starts afresh");
    good_end_ = 0;
    return std::nullopt;
  };
  Resumed r;
  // Consecutive runs are replayed merged by time: a zone's run goes on while another zone changes (each
  // change closes the runs before it, so no read crosses a change). The reads of one moment go back in
  // the order they were read (each run's place among its moment's inputs): the table weighs every read
  // as it comes, and a zone that steadied before or after another zone's read of the same moment is
  // another course (Law 7C's settle time, judged at each read).
  struct Read {
    table::TableInput in;
    std::uint32_t place = 0;
    double wall = 0;  // its run's
  };
  std::vector<Read> runs;
  auto end_runs = [&] {
    std::stable_sort(runs.begin(), runs.end(),
                     [](const Read& a, const Read& b) { return a.in.time != b.in.time ? a.in.time < b.in.time : a.place < b.place; });
    for (Read& read : runs) {
      r.inputs.push_back(std::move(read.in));
      r.walls.push_back(read.wall);
    }
    runs.clear();
  };
  std::size_t at = 0, line_no = 0;
  bool header = false;
  while (at < text.size()) {
    std::size_t nl = text.find('\n', at);
    ++line_no;
    if (nl == std::string::npos) {  // written in part when the power went: the inputs before it replay
      warnings.push_back(name + ":" + std::to_string(line_no) +
                         ": the last line is cut short (the last run stopped while writing it); skipped");
      break;
    }
    const std::string line = text.substr(at, nl - at);
    at = nl + 1;
    json j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      if (!header) return refuse("line 1 is not a header");
      warnings.push_back(name + ":" + std::to_string(line_no) + ": not a record (" + line.substr(0, 60) +
                         "); skipped");
      continue;
    }
    try {
      if (!header) {
        if (j.value("v", 0) != kVersion)
          return refuse("format version " + std::to_string(j.value("v", 0)) + ", this daemon reads " +
                        std::to_string(kVersion));
        if (j.value("record", std::string()) != identity_.record)
          return refuse("written for another master record (" + j.value("record", std::string()) +
                        ", this one is " + identity_.record + ")");
        if (j.value("zones", std::vector<std::string>()) != identity_.zones)
          return refuse("written for another set of zones");
        r.first_seq = j.value("first_seq", std::uint64_t{0});
        // The zones' readings when the last board ended (start): the cards still lying there are that
        // board's, never a new one's plays. A file of an older daemon has none.
        if (j.contains("held")) {
          for (const json& o : j["held"]) r.held.push_back(observation_of(o));
          r.held_at = j.value("at", table::Millis{0});
          r.last_time = r.held_at;
          r.last_wall = j.value("w", 0.0);
        }
        if (j.contains("previous")) r.previous = previous_of(j["previous"]);
        header = true;
        good_end_ = at;
        continue;
      }
      if (j.contains("record")) {
        if (j["record"].get<std::string>() != identity_.record)
          return refuse("the master record was reloaded during the board (" + j["record"].get<std::string>() +
                        ")");
        good_end_ = at;
        continue;
      }
      r.last_wall = std::max(r.last_wall, j.value("w", 0.0));
      if (!j.contains("o")) end_runs();
      if (j.contains("tick")) {
        table::TableInput tick;
        tick.time = j["tick"].get<table::Millis>();
        r.inputs.push_back(tick);
        r.walls.push_back(j.value("w", 0.0));
      } else if (j.contains("cmd")) {
        table::TableInput c;
        c.kind = table::TableInput::Kind::Command;
        auto kind = command_kind(j["cmd"].get<std::string>());
        auto seat = bridge::parse_seat(j.value("seat", std::string("N")));
        if (!kind || !seat) throw std::invalid_argument("unknown command");
        c.command.kind = *kind;
        c.command.text = j.value("x", std::string());
        c.command.seat = *seat;
        c.command.time = j["t"].get<table::Millis>();
        c.time = j.value("ti", c.command.time);
        r.inputs.push_back(std::move(c));
        r.walls.push_back(j.value("w", 0.0));
      } else if (j.contains("o")) {
        const table::Observation o = observation_of(j);
        const table::Millis first = j["t"].get<table::Millis>(), last = j.value("l", first);
        const table::Millis lag = j.value("ti", first) - first;  // the input's time against the reading's
        const auto n = std::clamp<std::uint64_t>(j.value("n", std::uint64_t{1}), 1, kMaxReadsPerRun);
        for (std::uint64_t i = 0; i < n; ++i) {
          table::TableInput read;
          read.kind = table::TableInput::Kind::Observe;
          read.observation = o;
          read.observation.time = n == 1 ? last
                                         : first + (last - first) * static_cast<table::Millis>(i) /
                                                       static_cast<table::Millis>(n - 1);
          read.time = read.observation.time + lag;
          r.last_time = std::max(r.last_time, read.time);
          runs.push_back({std::move(read), j.value("p", std::uint32_t{0}), j.value("w", 0.0)});
        }
      } else {
        throw std::invalid_argument("no input");
      }
      if (!j.contains("o")) r.last_time = std::max(r.last_time, r.inputs.back().time);
      ++r.records;
      good_end_ = at;
    } catch (const std::exception& e) {
      if (!header) return refuse(std::string("line 1 is not a header: ") + e.what());
      warnings.push_back(name + ":" + std::to_string(line_no) + ": " + e.what() + " (" + line.substr(0, 60) +
                         "); skipped");
    }
  }
  if (!header) return refuse("no header");
  end_runs();
  if (r.inputs.empty() && r.held.empty() && !r.previous) return std::nullopt;
  return r;
}

void InputLog::start(std::uint64_t first_seq, double wall, const std::vector<table::Observation>& held,
                     table::Millis at, const std::optional<table::PreviousBoard>& previous) {
  runs_.clear();
  last_ = {};
  tail_dirty_ = false;
  tail_size_ = 0;
  committed_ = 0;
  if (fd_ < 0) {
    fd_ = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0640);
    if (fd_ < 0) return fail("cannot open");
  }
  if (::ftruncate(fd_, 0) != 0) return fail("cannot truncate");
  json h = {{"v", kVersion},
            {"record", identity_.record},
            {"zones", identity_.zones},
            {"first_seq", first_seq},
            {"w", wall}};
  if (!held.empty()) {
    h["held"] = json::array();
    for (const table::Observation& o : held) h["held"].push_back(observation_json(o));
    h["at"] = at;
  }
  if (previous) h["previous"] = previous_json(*previous);
  append(h.dump());
}

void InputLog::continue_file() {
  runs_.clear();
  last_ = {};
  tail_dirty_ = false;
  tail_size_ = 0;
  if (fd_ < 0) {
    fd_ = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0640);
    if (fd_ < 0) return fail("cannot open");
  }
  committed_ = good_end_;
  if (::ftruncate(fd_, static_cast<off_t>(committed_)) != 0)
    return fail("cannot truncate");  // a cut last line goes
}

void InputLog::append(const std::string& line) {
  commit_runs();
  if (fd_ < 0 || failed_) return;
  const std::string text = line + "\n";
  if (!write_all(fd_, text, committed_)) return fail("cannot write");
  committed_ += text.size();
  unsynced_ = true;
}

void InputLog::commit_runs() {
  if (runs_.empty()) return;
  write_tail();
  committed_ += tail_size_;
  tail_size_ = 0;
  runs_.clear();
}

std::string InputLog::line_of(const Run& r) {
  json j = observation_json(r.first);
  j["n"] = r.reads;
  j["l"] = r.last;
  j["w"] = r.wall;
  if (r.lag != 0) j["ti"] = r.first.time + r.lag;
  if (r.place != 0) j["p"] = r.place;
  return j.dump() + "\n";
}

void InputLog::write_tail(const std::string& closed) {
  tail_dirty_ = false;
  last_tail_ = std::chrono::steady_clock::now();
  if (fd_ < 0 || failed_) return;
  std::string text = closed;
  for (const Run& r : runs_) text += line_of(r);
  if (!write_all(fd_, text, committed_)) return fail("cannot write");
  // Counts only grow, so the tail is never shorter than before; cut anything beyond it all the same.
  if (text.size() < tail_size_ && ::ftruncate(fd_, static_cast<off_t>(committed_ + text.size())) != 0)
    return fail("cannot truncate");
  committed_ += closed.size();
  tail_size_ = text.size() - closed.size();
  unsynced_ = true;
}

void InputLog::close_run(std::vector<Run>::iterator run) {
  const std::string line = line_of(*run);
  runs_.erase(run);
  write_tail(line);
}

void InputLog::record(const table::TableInput& in, bool emitted, double wall) {
  // Every input counts for the place of the next one in its moment, a tick that is not written too.
  const std::uint32_t place = in.time == step_time_ ? ++step_place_ : (step_place_ = 0);
  step_time_ = in.time;
  switch (in.kind) {
    case table::TableInput::Kind::Tick:
      // A tick that said nothing changed nothing a replay needs: the next input's time carries the clock on.
      if (emitted) append(json{{"tick", in.time}, {"w", wall}}.dump());
      return;
    case table::TableInput::Kind::Command: {
      json j = {{"cmd", command_name(in.command.kind)},
                {"x", in.command.text},
                {"seat", std::string(1, bridge::seat_letter(in.command.seat))},
                {"t", in.command.time},
                {"w", wall}};
      if (in.time != in.command.time) j["ti"] = in.time;
      append(j.dump());
      return;
    }
    case table::TableInput::Kind::Observe:
      break;
  }
  std::optional<table::Observation>& before = last_[static_cast<std::size_t>(in.observation.zone.index())];
  const bool same = before && same_run(*before, in.observation);
  before = in.observation;
  auto of_zone = [&] {
    return std::find_if(runs_.begin(), runs_.end(),
                        [&](const Run& r) { return r.first.zone == in.observation.zone; });
  };
  auto run = of_zone();
  if (same && run != runs_.end()) {
    ++run->reads;
    run->last = in.observation.time;
    run->wall = wall;
    tail_dirty_ = true;
  } else {
    // A zone reads something new: its run so far is closed and written before the runs still open (a
    // replay merges them by time); the same reading after a run closed opens a run of its own.
    if (run != runs_.end()) close_run(run);
    runs_.push_back({in.observation, 1, in.observation.time, wall, in.time - in.observation.time, place});
    tail_dirty_ = true;
    if (!same && !emitted) write_tail();  // a change is on the disk at once, not a second later
  }
  // A read that made the table say something ends its run there (the replay reaches it at its own time),
  // written at once: a card played is never lost to a crash after its event went out.
  if (emitted) close_run(of_zone());
}

void InputLog::record_changed(const std::string& hash) {
  if (hash == identity_.record) return;
  identity_.record = hash;
  append(json{{"record", hash}}.dump());
}

void InputLog::poll() {
  const auto now = std::chrono::steady_clock::now();
  if (tail_dirty_ && now - last_tail_ >= kTailEvery) write_tail();
  if (unsynced_ && fd_ >= 0 && !failed_ && now - last_sync_ >= kSyncEvery) {
    last_sync_ = now;
    unsynced_ = false;
    if (::fdatasync(fd_) != 0) fail("cannot sync");
  }
}

}  // namespace cardtable::daemon
