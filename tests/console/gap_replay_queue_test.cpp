// A gap in a table's seqs is replayed even when it shows up while another replay of that table is still
// running: the table's control endpoint is a stand-in ROUTER on an ipc socket that holds each `replay`
// until the test answers it (a table reading a long journal from a slow disk), and the console's Gateway
// asks it over a real ZeroMQ socket, its completions run on the test's I/O loop. A gap seen meanwhile was
// skipped: the new journal of a table restarted on an empty state folder, or a second gap of the same
// journal, was never replayed, and the alerts in it never shown.
#include "console/gateway.hpp"
#include "tests/console/console_folder.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <gtest/gtest.h>
#include <zmq_addon.hpp>

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

namespace net = boost::asio;
using namespace cardtable::console;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

const std::string kTable = "t/A/7", kOld = "aaaaaaaaaaaaaaaa", kNew = "bbbbbbbbbbbbbbbb";

json event(const std::string& journal, const std::string& type, std::uint64_t seq, const std::string& severity = "info", json evidence = nullptr) {
  json e = {{"seq", seq}, {"class", type.substr(0, type.find('.'))}, {"type", type}, {"severity", severity}, {"time", 1000.0},
            {"mono", 0.0}, {"message", type}, {"tournament", "t"}, {"section", "A"}, {"table", "7"}, {"board", 3}, {"journal", journal}};
  if (!evidence.is_null()) e["evidence"] = evidence;
  if (type == "daemon.heartbeat") e.erase("seq");
  return e;
}

json heartbeat(const std::string& journal, std::uint64_t last_seq) {
  return event(journal, "daemon.heartbeat", 0, "info", {{"last_seq", std::to_string(last_seq)}});
}

// The table's journal as its daemon holds it: every event from seq 1, an alert (a card short) at `alert`.
std::vector<json> journal_of(const std::string& journal, std::uint64_t last, std::uint64_t alert) {
  std::vector<json> events;
  for (std::uint64_t seq = 1; seq <= last; ++seq)
    events.push_back(seq == alert ? event(journal, "irregularity.wrong_count", seq, "alert", {{"observed", "N=12"}})
                                  : event(journal, "board.progress", seq));
  return events;
}

// The table's control endpoint: a request waits until the test answers it.
struct StandInTable {
  explicit StandInTable(const std::string& endpoint) { router.bind(endpoint); }

  struct Asked {
    std::vector<zmq::message_t> envelope;  // the client's identity and the empty delimiter
    json request;
  };

  // The next request the console sends, its I/O thread run meanwhile; nothing within `within`.
  std::optional<Asked> next_request(net::io_context& io, std::chrono::milliseconds within) {
    for (auto end = std::chrono::steady_clock::now() + within; std::chrono::steady_clock::now() < end;) {
      io.poll();
      zmq::pollitem_t item{router.handle(), 0, ZMQ_POLLIN, 0};
      if (zmq::poll(&item, 1, 10ms) == 0) continue;
      std::vector<zmq::message_t> parts;
      if (!zmq::recv_multipart(router, std::back_inserter(parts))) continue;
      Asked asked{{}, json::parse(parts.back().to_string_view())};
      parts.pop_back();
      asked.envelope = std::move(parts);
      return asked;
    }
    return std::nullopt;
  }

  // A replay answered as the daemon does: every event of its journal from `since` on.
  void answer_replay(Asked& asked, const std::vector<json>& journal) {
    json events = json::array();
    for (const json& e : journal)
      if (e["seq"].get<std::uint64_t>() >= asked.request["since"].get<std::uint64_t>()) events.push_back(e);
    const std::string journal_id = journal.empty() ? std::string() : journal.front()["journal"].get<std::string>();
    answer(asked, {{"ok", true}, {"events", events}, {"more", false}, {"first_available", 1}, {"journal", journal_id}});
  }

  void answer(Asked& asked, const json& reply) {
    for (auto& part : asked.envelope) router.send(part, zmq::send_flags::sndmore);
    router.send(zmq::buffer(reply.dump()), zmq::send_flags::none);
  }

  zmq::context_t ctx;
  zmq::socket_t router{ctx, zmq::socket_type::router};
};

struct Console {
  Console()
      : folder(std::filesystem::temp_directory_path() / ("gap-replay-queue-" + std::to_string(::getpid()))),
        table(control_endpoint(folder)),
        gateway(io, venue, test_folder::one_director_logins(folder), requests, {{kTable, Peer{control_endpoint(folder), "", nullptr}}}, test_folder::one_page_www(folder)) {}
  ~Console() { std::filesystem::remove_all(folder); }

  static std::string control_endpoint(const std::filesystem::path& folder) {
    std::filesystem::create_directories(folder);
    return "ipc://" + (folder / "control").string();
  }

  void hear(const json& e) { gateway.on_event(e, false); }

  // Runs the console's I/O thread until `done` holds (a replay's answer is handled there).
  bool run_until(const std::function<bool()>& done) {
    for (auto end = std::chrono::steady_clock::now() + 3s; std::chrono::steady_clock::now() < end;) {
      if (done()) return true;
      io.run_one_for(10ms);
    }
    return done();
  }

  // The open alert (not one of a replaced journal) of journal `journal` at `seq`.
  bool shows_open_alert(const std::string& journal, std::uint64_t seq) {
    const json snapshot = venue.director_snapshot(1000);  // held: a range over a temporary's member dangles
    for (const json& a : snapshot["alerts"])
      if (a.value("journal", "") == journal && a.value("seq", std::uint64_t{0}) == seq && !a.value("replaced", false)) return true;
    return false;
  }

  // How often the table's timeline shows the event `seq` of `journal`.
  std::size_t shown(const std::string& journal, std::uint64_t seq) {
    std::size_t n = 0;
    const json detail = venue.table_detail(kTable, 1000);
    for (const json& e : detail["timeline"])
      n += e.value("journal", "") == journal && e.value("seq", std::uint64_t{0}) == seq;
    return n;
  }

  std::filesystem::path folder;
  net::io_context io{1};
  // The loop waits for the replies the control pool posts to it: without work it would stop at once.
  net::executor_work_guard<net::io_context::executor_type> keep_running{io.get_executor()};
  VenueState venue;
  TableRequests requests;
  StandInTable table;
  Gateway gateway;
};

std::uint64_t since_of(const StandInTable::Asked& asked) { return asked.request.value("since", std::uint64_t{0}); }

}  // namespace

// The daemon restarts on an empty state folder while the console replays a gap of its old journal: the
// new journal's events before the first one heard are replayed from seq 1 once the old replay ends, and
// its alert there is shown. The old journal's late answer is not taken for the new journal's events.
TEST(GapReplay, ANewJournalSeenWhileTheOldOnesReplayRunsIsReplayedFromSeqOneAfterIt) {
  Console c;
  const auto old_journal = journal_of(kOld, 6, 0), new_journal = journal_of(kNew, 4, 2);
  c.hear(old_journal[0]);
  c.hear(old_journal[4]);  // seq 5: 2 to 4 missing
  auto old_replay = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(old_replay) << "the old journal's gap is asked for";
  EXPECT_EQ(since_of(*old_replay), 2u);

  c.hear(new_journal[3]);  // seq 4 of the new journal, while the old replay runs: 1 to 3 missing
  c.table.answer_replay(*old_replay, old_journal);  // the old daemon answers at last
  auto new_replay = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(new_replay) << "the new journal's gap, seen while the old journal's replay ran, was never asked for";
  EXPECT_EQ(since_of(*new_replay), 1u);
  c.table.answer_replay(*new_replay, new_journal);

  ASSERT_TRUE(c.run_until([&] { return c.shows_open_alert(kNew, 2); })) << c.venue.director_snapshot(1000).dump();
  for (std::uint64_t seq = 1; seq <= 4; ++seq) EXPECT_EQ(c.shown(kNew, seq), 1u) << "the new journal's seq " << seq;
  EXPECT_EQ(c.shown(kOld, 2), 0u) << "the old journal's late answer is dropped: its seqs are not the ones missed now";
}

// A second gap of the same journal, past the end of the one being replayed, is replayed after it.
TEST(GapReplay, ASecondGapSeenWhileTheFirstIsReplayedIsReplayedAfterIt) {
  Console c;
  const auto journal = journal_of(kOld, 9, 7);
  c.hear(journal[0]);
  c.hear(journal[4]);  // seq 5: 2 to 4 missing
  auto first = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(first);
  EXPECT_EQ(since_of(*first), 2u);

  c.hear(journal[8]);  // seq 9: 6 to 8 missing too, the alert at 7 among them
  c.table.answer_replay(*first, journal);
  auto second = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(second) << "the second gap, seen while the first was replayed, was never asked for";
  EXPECT_EQ(since_of(*second), 6u);
  c.table.answer_replay(*second, journal);

  ASSERT_TRUE(c.run_until([&] { return c.shows_open_alert(kOld, 7); })) << c.venue.director_snapshot(1000).dump();
  for (std::uint64_t seq = 1; seq <= 9; ++seq) EXPECT_EQ(c.shown(kOld, seq), 1u) << "seq " << seq << " shown once";
}

// Each heartbeat shows the same gap until its replay is answered: it is asked for once, and the replay
// stops at the heartbeat's last_seq (what follows comes live), so no event is shown twice.
TEST(GapReplay, TheSameGapShownByEveryHeartbeatIsReplayedOnce) {
  Console c;
  const auto journal = journal_of(kOld, 8, 3);
  c.hear(journal[0]);
  c.hear(heartbeat(kOld, 4));  // 2 to 4 missing
  auto first = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(first);
  EXPECT_EQ(since_of(*first), 2u);
  c.hear(heartbeat(kOld, 4));  // the next second's heartbeat, the replay still running
  c.hear(journal[4]);           // seq 5, live
  c.table.answer_replay(*first, journal);
  ASSERT_TRUE(c.run_until([&] { return c.shows_open_alert(kOld, 3); }));

  c.hear(journal[7]);  // seq 8: 6 and 7 missing; asked next, not 2 to 4 again
  auto next = c.table.next_request(c.io, 2s);
  ASSERT_TRUE(next);
  EXPECT_EQ(since_of(*next), 6u) << "the gap the second heartbeat showed again was asked for twice";
  c.table.answer_replay(*next, journal);
  ASSERT_TRUE(c.run_until([&] { return c.shown(kOld, 7) == 1; }));
  for (std::uint64_t seq = 1; seq <= 8; ++seq) EXPECT_EQ(c.shown(kOld, seq), 1u) << "seq " << seq << " shown once";
}
