#include "daemon/board_broadcast.hpp"

#include <chrono>

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
    : publisher_(publisher), options_(options), double_dummy_(options.analyzer, self) {}

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
  std::vector<fs::path> analysed;
  for (const std::string& problem : double_dummy_.reap(&analysed)) log(Priority::Warning, problem);
  for (const fs::path& pbn : analysed) publish_double_dummy(pbn);
  if (double_dummy_.running() == 0) dd_pending_.clear();  // a helper that failed leaves its board behind (logged)
}

void BoardBroadcast::release_due() {
  for (const auto& board : publisher_.release_due()) {
    fs::path held = publisher_.embargo_dir() / board.id;
    std::error_code ec;
    if (!fs::is_directory(held, ec)) continue;
    fs::path dir = broadcast_dir();
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
