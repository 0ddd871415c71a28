#include "daemon/board_broadcast.hpp"

#include <chrono>
#include <set>

#include "bridge/record_file.hpp"
#include "daemon/log.hpp"
#include "daemon/wire_conversion.hpp"
#include "protocol/broadcast_writer.hpp"
#include "protocol/durable_file.hpp"

namespace cardtable::daemon {
namespace fs = std::filesystem;

namespace {
double wall_now() { return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count(); }
}  // namespace

BoardBroadcast::BoardBroadcast(Publisher& publisher, const Options& options, const fs::path& self)
    : publisher_(publisher), options_(options), double_dummy_(options.analyzer, self) {
  recover();
}

void BoardBroadcast::recover() {
  std::error_code ec;
  // A folder embargo/ID/ with no ID.events beside it belongs to a board whose events are already out (the
  // Publisher removes ID.events once they are in the live journal): its files were not moved, or not all.
  // They go out when its embargo would have ended (ID is "board-N-MS", MS when it was finished), never
  // before: a board whose .events could not be written is not released early by a restart.
  for (const auto& f : fs::directory_iterator(publisher_.embargo_dir(), ec)) {
    if (!f.is_directory(ec) || fs::exists(publisher_.embargo_dir() / (f.path().filename().string() + ".events"), ec)) continue;
    const std::string id = f.path().filename().string();
    double finished = wall_now();
    if (const auto dash = id.rfind('-'); id.starts_with("board-") && dash != std::string::npos) {
      try {
        finished = std::stod(id.substr(dash + 1)) / 1000.0;
      } catch (const std::exception&) {
      }
    }
    stranded_[f.path()] = Stranded{std::nullopt, finished + options_.embargo, false};
    log(Priority::Notice, f.path().string() + ": a released board's files the last run did not move out; moved to " +
                              broadcast_dir().string() + " now" + (finished + options_.embargo > wall_now() ? ", once its embargo ends" : ""));
  }
  // The double-dummy helper writes X.pbn.dd.PID and the daemon renames it over X.pbn when the helper
  // ends: one left over is a helper's output the daemon never saw end (a kill -9, a power cut). Thrown
  // away, and the board analysed again (once, however many the last runs left).
  std::vector<fs::path> leftovers;
  for (const auto& f : fs::directory_iterator(broadcast_dir(), ec))
    if (DoubleDummyHelper::output_for(f.path())) leftovers.push_back(f.path());
  std::set<fs::path> again;
  for (const fs::path& p : leftovers) {
    fs::remove(p, ec);
    again.insert(*DoubleDummyHelper::output_for(p));
  }
  for (const fs::path& pbn : again) {
    std::string error;
    if (fs::exists(pbn, ec) && double_dummy_.program() && double_dummy_.start(pbn, error))
      log(Priority::Notice, pbn.string() + ": its double-dummy table was cut short by the last run's end; computed again");
    else if (fs::exists(pbn, ec))
      log(Priority::Warning, pbn.string() + ": its double-dummy table was cut short by the last run's end" + (error.empty() ? "" : ": " + error));
  }
}

void BoardBroadcast::finish(const protocol::WireEvent& returned, const bridge::MasterRecord& master) {
  std::vector<protocol::WireEvent> events = std::move(held_);
  held_.clear();
  // The board's embargo id: unique (a board can come back, --loop), and a file name.
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::string id = "board-" + std::to_string(returned.board) + "-" + std::to_string(ms);
  if (auto entry = master.find(returned.event, returned.session, returned.board)) {
    const bridge::MasterBoard& b = master.board(*entry);
    events.insert(events.begin(), live_deal(b, returned));
    // The broadcast files are written now, in the private embargo folder, and moved to broadcast/ on
    // release: a restart during the embargo loses neither the events nor the files.
    try {
      protocol::BroadcastWriter(publisher_.embargo_dir() / id)
          .write(recorder_.finish(b, returned.event, returned.session,
                                  options_.tournament + " " + options_.section + " table " + options_.table));
    } catch (const std::exception& e) {
      log(Priority::Error, std::string("broadcast: ") + e.what());
    }
  }
  recorder_.reset();
  publisher_.embargo(std::move(events), id);
  release_due();
}

protocol::WireEvent BoardBroadcast::live_deal(const bridge::MasterBoard& b, const protocol::WireEvent& returned) const {
  auto deal = daemon_event("live.deal", "info", "Board " + std::to_string(b.board) + ": " + b.deal.pbn(b.dealer), options_, wall_now(),
                           returned.mono);
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

void BoardBroadcast::poll() {
  release_due();
  retry_stranded();
  std::vector<fs::path> analysed;
  for (const std::string& problem : double_dummy_.reap(&analysed)) log(Priority::Warning, problem);
  for (const fs::path& pbn : analysed) publish_double_dummy(pbn);
  if (double_dummy_.running() == 0) dd_pending_.clear();  // a helper that failed leaves its board behind (logged)
}

void BoardBroadcast::release_due() {
  for (const auto& board : publisher_.release_due()) {
    Stranded b;
    // The board's identity for live.double_dummy: its live.deal, released with it.
    for (const protocol::WireEvent& e : board.events)
      if (e.type == "live.deal") b.deal = e;
    const fs::path held = publisher_.embargo_dir() / board.id;
    if (!move_out(held, b)) stranded_[held] = std::move(b);
  }
}

void BoardBroadcast::retry_stranded() {
  if (stranded_.empty() || std::chrono::steady_clock::now() < next_retry_) return;
  next_retry_ = std::chrono::steady_clock::now() + kRetry;
  for (auto it = stranded_.begin(); it != stranded_.end();) {
    const bool said = it->second.said;
    if (it->second.not_before > wall_now() || !move_out(it->first, it->second)) {
      ++it;
      continue;
    }
    if (said) log(Priority::Notice, it->first.string() + ": the board's files are in " + broadcast_dir().string() + " now");
    it = stranded_.erase(it);
  }
}

// Moves every file of `held` into broadcast/ (and starts the double-dummy helper on its PBN); the folder
// goes only once all are out and the renames are on the disk. A file that will not move stays, and so
// does the folder: the board's files were once deleted with it, never published. The first failure of a
// board is logged, its retries are not.
bool BoardBroadcast::move_out(const fs::path& held, Stranded& board) {
  std::error_code ec;
  if (!fs::is_directory(held, ec)) return true;
  const fs::path dir = broadcast_dir();
  std::string failed;
  fs::create_directories(dir, ec);
  if (ec) failed = dir.string() + ": " + ec.message();
  for (const auto& f : fs::directory_iterator(held, ec)) {
    if (!failed.empty()) break;
    const fs::path to = dir / f.path().filename();
    std::error_code moved;
    fs::rename(f.path(), to, moved);
    if (moved) {
      failed = to.string() + ": " + moved.message();
      break;
    }
    std::string error;
    if (to.extension() != ".pbn" || !double_dummy_.program()) continue;
    if (!double_dummy_.start(to, error)) {
      log(Priority::Warning, to.string() + ": no double-dummy table: " + error);
      continue;
    }
    if (board.deal) dd_pending_[to.string()] = *board.deal;
  }
  // The renames are on the disk before the held copy goes: a power cut leaves the board's files in
  // one folder or the other, never in neither.
  if (failed.empty()) {
    try {
      protocol::sync_directory(dir);
    } catch (const std::runtime_error& e) {
      failed = e.what();
    }
  }
  if (!failed.empty()) {
    if (!board.said)
      log(Priority::Error, failed + "; the board's files stay in " + held.string() + ", tried again every " + std::to_string(kRetry.count()) + " s");
    board.said = true;
    return false;
  }
  fs::remove_all(held, ec);
  return true;
}

// The double-dummy table of a released board, once the helper has written it into the broadcast PBN: a
// live.double_dummy event on the live endpoint (the board is past its embargo, so nothing waits).
void BoardBroadcast::publish_double_dummy(const fs::path& pbn) {
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
  auto w = daemon_event("live.double_dummy", "info", "", options_, wall_now(), deal.mono);
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
  publisher_.publish_live(w);
}

}  // namespace cardtable::daemon
