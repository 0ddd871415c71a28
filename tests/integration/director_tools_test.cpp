// cardtablectl as a director uses it, against the real daemon, the real hub and a hostile publisher.
#include <array>
#include <atomic>
#include <cctype>
#include <future>
#include <mutex>
#include <poll.h>
#include <set>
#include <utility>

#include "daemon_fixture.hpp"

namespace {

struct CtlRun {
  int status = -1;
  std::string out;
};

CtlRun run_ctl(const std::vector<std::string>& args) {
  std::string cmd = CARDTABLECTL;
  for (const auto& a : args) cmd += " '" + a + "'";
  cmd += " 2>&1";
  CtlRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// Each line of cardtablectl's output (stdout and stderr) with when it came, for the laws of "when".
struct TimedLine {
  std::chrono::steady_clock::time_point at;
  std::string text;
};
std::vector<TimedLine> run_ctl_timed(const std::vector<std::string>& args) {
  std::string cmd = CARDTABLECTL;
  for (const auto& a : args) cmd += " '" + a + "'";
  std::vector<TimedLine> lines;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return lines;
  std::array<char, 65536> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) lines.push_back({std::chrono::steady_clock::now(), buf.data()});
  ::pclose(p);
  return lines;
}

void publish(zmq::socket_t& pub, const std::string& topic, const json& e) {
  pub.send(zmq::buffer(topic), zmq::send_flags::sndmore);
  pub.send(zmq::buffer(e.dump()));
}

// An event of table `table` of section A, as its daemon publishes and journals it.
json test_event(const std::string& table, std::uint64_t seq, const std::string& severity, const std::string& message, double time = 1795433673.5) {
  return {{"class", "irregularity"}, {"type", "irregularity.test"}, {"severity", severity}, {"time", time}, {"mono", 1.0},
          {"tournament", "default"}, {"section", "A"}, {"table", table}, {"seq", seq}, {"message", message}};
}

// `journal`: the journal its seq is of (protocol 1.4); none when empty (an older daemon).
void send_event(zmq::socket_t& pub, const std::string& table, std::uint64_t seq, const std::string& severity, const std::string& message,
                const std::string& journal = "", double time = 1795433673.5) {
  json e = test_event(table, seq, severity, message, time);
  if (!journal.empty()) e["journal"] = journal;
  publish(pub, "irregularity/default/A/" + table + "/irregularity.test", e);
}

// A table's control endpoint that answers `replay` with the page `page(since)` the test writes, and any
// other question with `other(question)` (by default an empty answer); it ends with the test, whatever
// fails first.
class StandInJournal {
 public:
  StandInJournal(zmq::context_t& ctx, std::string endpoint, std::function<json(std::uint64_t since)> page,
                 std::function<json(const json& ask)> other = [](const json&) { return json{{"ok", true}, {"alerts", json::array()}}; })
      : thread_([this, &ctx, endpoint = std::move(endpoint), page = std::move(page), other = std::move(other)] {
          zmq::socket_t router(ctx, zmq::socket_type::router);
          router.bind(endpoint);
          while (!done_) {
            zmq::pollitem_t item{router.handle(), 0, ZMQ_POLLIN, 0};
            if (zmq::poll(&item, 1, std::chrono::milliseconds(50)) == 0) continue;
            std::vector<zmq::message_t> q;
            if (!zmq::recv_multipart(router, std::back_inserter(q))) continue;
            json ask = json::parse(q.back().to_string_view(), nullptr, false);
            json reply = ask.value("command", "") == "replay" ? page(ask.value("since", std::uint64_t{1})) : other(ask);
            q.back() = zmq::message_t(reply.dump());
            zmq::send_multipart(router, q);
          }
        }) {}
  ~StandInJournal() {
    done_ = true;
    thread_.join();
  }

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

// A `replay` reply of table `table`'s journal whose event seq S was at times[S - 1]: from `since`, `per_page` at most.
json replay_page(const std::string& table, const std::vector<double>& times, std::uint64_t since, std::uint64_t per_page) {
  const std::uint64_t last = times.size(), upto = std::min(last, since + per_page - 1);
  json events = json::array();
  for (std::uint64_t seq = since; seq <= upto; ++seq) events.push_back(test_event(table, seq, "info", "journalled", times[seq - 1]));
  return {{"ok", true}, {"events", events}, {"more", upto < last}, {"first_available", 1}, {"last_seq", last}};
}

// Table 1 of section A as the hub's gap tests play it: its journal, its control endpoint answering
// `snapshot` from that journal (and `alerts` with none), and its PUB socket to the hub's upstream. An
// event journalled at the table reaches the hub or not (lost on the way).
class JournallingTable {
 public:
  JournallingTable(zmq::context_t& ctx, const std::string& control, const std::string& up)
      : stand_in_(ctx, control, [](std::uint64_t) { return json{{"ok", true}, {"events", json::array()}}; }, [this](const json& ask) {
          std::lock_guard lock(lock_);
          if (ask.value("command", "") != "snapshot") return json{{"ok", true}, {"alerts", json::array()}};
          // A board over one reply (5,000 events) is answered in part (its first events; none here), with its
          // journal's last seq.
          if (more_) return json{{"ok", true}, {"events", json::array()}, {"more", true}, {"last_seq", journal_.size()}};
          return json{{"ok", true}, {"events", journal_}, {"more", false}, {"last_seq", journal_.size()}};
        }),
        pub(ctx, zmq::socket_type::pub) {
    pub.connect(up);
  }
  void journalled(const std::string& type, bool reaches_the_hub) {
    json e;
    {
      std::lock_guard lock(lock_);
      e = {{"class", "board"}, {"type", type}, {"severity", "info"}, {"time", 1795433673.5}, {"mono", 1.0}, {"tournament", "default"},
           {"section", "A"}, {"table", "1"}, {"seq", journal_.size() + 1}, {"message", type}};
      journal_.push_back(e);
    }
    if (reaches_the_hub) publish(pub, "board/default/A/1/" + type, e);
  }
  // From now on its snapshot answers say its board holds more than one reply.
  void answers_in_part() {
    std::lock_guard lock(lock_);
    more_ = true;
  }

 private:
  std::mutex lock_;
  json journal_ = json::array();
  bool more_ = false;
  StandInJournal stand_in_;

 public:
  zmq::socket_t pub;
};

// A table's heartbeat as its daemon sends it (daemon/table_host.cpp): its journal's last seq, its open alerts.
void send_heartbeat(zmq::socket_t& pub, std::uint64_t last_seq, int open_alerts, const std::string& journal = "") {
  json e = {{"class", "daemon"}, {"type", "daemon.heartbeat"}, {"severity", "info"}, {"time", 1795433673.5}, {"mono", 1.0},
            {"tournament", "default"}, {"section", "A"}, {"table", "1"}, {"message", "alive"},
            {"evidence", {{"last_seq", std::to_string(last_seq)}, {"phase", "play"}, {"open_alerts", std::to_string(open_alerts)}}}};
  if (!journal.empty()) e["journal"] = journal;
  publish(pub, "daemon/default/A/1/daemon.heartbeat", e);
}

// A director's acknowledgement (event `seq`) of table 1's alert `of`.
void send_ack(zmq::socket_t& pub, std::uint64_t seq, std::uint64_t of) {
  json e = {{"class", "director"}, {"type", "director.ack"}, {"severity", "info"}, {"time", 1795433674.5}, {"mono", 2.0},
            {"tournament", "default"}, {"section", "A"}, {"table", "1"}, {"seq", seq}, {"message", "acknowledged"},
            {"evidence", {{"seq", std::to_string(of)}, {"by", "Anne"}}}};
  publish(pub, "director/default/A/1/director.ack", e);
}

}  // namespace

// A hub's three endpoints, ipc in the test's folder: its tables publish to `up`, subscribers read `down`.
class HubEndpoints : public Daemon {
 protected:
  void TearDown() override {
    if (watch_pid > 0) cardtable::test::end_process(watch_pid);
    if (lone_hub > 0) cardtable::test::end_process(lone_hub);
    Daemon::TearDown();
  }
  // `cardtablectl watch --json` of the hub's venue, with `options`, while the test plays it (its output in
  // watch.out); it ends with the test.
  // `events`: its -e, the hub's downstream unless given.
  void start_watch(const std::vector<std::string>& options, const std::string& events = "") {
    std::string command = std::string("exec '") + CARDTABLECTL + "' watch --json -e '" + (events.empty() ? down : events) + "' -c '" + hubctl + "'";
    for (const auto& o : options) command += " '" + o + "'";
    watch_pid = fork_exec({"/bin/sh", "-c", command + " >'" + (dir / "watch.out").string() + "' 2>&1"}, (dir / "sh.log").string());
  }
  // The events watch showed (its JSON lines with a seq), in its order.
  std::vector<json> watched() const {
    std::vector<json> events;
    std::istringstream out(text_of(dir / "watch.out"));
    for (std::string line; std::getline(out, line);)
      if (json e = json::parse(line, nullptr, false); e.is_object() && e.contains("seq")) events.push_back(std::move(e));
    return events;
  }
  // The hub alone, asking table 1 at its control endpoint ctl1 (--table-control). It ends with the test.
  void start_hub_asking_table_1() {
    lone_hub = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", hubctl, "--table-control", "default/A/1=" + folder.ipc("ctl1")},
                         (dir / "hub.log").string());
  }
  // The hub asking table 1 (--table-control), `table` standing in for it, once the hub has taken the
  // table's first snapshot (its journal empty); then `heard` events journalled, each reaching the hub.
  void start_hub_seeded_by(JournallingTable& table, int heard = 0) {
    start_hub_asking_table_1();
    ASSERT_TRUE(wait_for([&] {
      send_heartbeat(table.pub, 0, 0);
      return text_of(dir / "hub.log").find("0 events of its board in progress, from its control endpoint's snapshot") != std::string::npos;
    })) << text_of(dir / "hub.log");
    for (int i = 0; i < heard; ++i) table.journalled("play.card", true);
  }
  // `table` journalled #1 and #2, and the hub heard them (start_hub_seeded_by(table, 2)); #3 lost on the way, #4 comes: the hub finds the
  // gap (one event missed in all), whatever claim came before.
  void expect_a_later_gap_found(JournallingTable& table) {
    table.journalled("play.card", false);
    table.journalled("play.card", true);
    EXPECT_TRUE(wait_for([&] { return text_of(dir / "hub.log").find("default/A/1: event #3 of its journal never reached the hub") != std::string::npos; }))
        << text_of(dir / "hub.log");
    EXPECT_EQ(hub_reply("status").value("missed", std::uint64_t{0}), 1u) << hub_reply("status").dump();
  }
  // The hub took back table 1's claim `claim` ("a heartbeat named seq #N as its last", "an event named seq
  // #N") when its snapshot answered `answered`: it says so, `missed` goes back to 0, and the table's next
  // lost event is found again (expect_a_later_gap_found).
  void expect_claim_disowned(JournallingTable& table, const std::string& claim, std::uint64_t answered) {
    const std::string said = "default/A/1: " + claim + ", its snapshot answered #" + std::to_string(answered);
    EXPECT_TRUE(wait_for([&] { return text_of(dir / "hub.log").find(said) != std::string::npos; }, 8s)) << text_of(dir / "hub.log");
    EXPECT_TRUE(wait_for([&] { return hub_reply("status").value("missed", std::uint64_t{1}) == 0; })) << hub_reply("status").dump() << "\n"
                                                                                                   << text_of(dir / "hub.log");
    expect_a_later_gap_found(table);
  }
  // The hub alone, the test playing its table: a PUB socket connected to `up`. The hub ends with the test.
  zmq::socket_t start_hub_and_a_table() {
    lone_hub = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", hubctl}, (dir / "hub.log").string());
    zmq::socket_t table(ctx, zmq::socket_type::pub);
    table.connect(up);
    return table;
  }
  // The table's first message a heartbeat naming `seq` as its last, sent until the hub has forwarded one
  // (the table's PUB drops what it sends before the connection is up). False when the hub never did.
  bool first_heartbeat_claims(zmq::socket_t& table, std::uint64_t seq) {
    return wait_for([&] {
      send_heartbeat(table, seq, 0);
      return hub_reply("status").value("forwarded", 0) >= 1;
    });
  }
  // `cardtablectl watch --json` of the hub's venue with `options`, its standard output a pipe the test
  // reads when it chooses (full, it blocks watch while its socket still receives), its stderr in watch.err.
  // Subscribed once its first line comes: table 1's seq 1 is published on `table` until it does. Its pid, or
  // -1 when no line came.
  pid_t start_piped_watch(zmq::socket_t& table, const std::vector<std::string>& options, FILE*& out) {
    const std::string pid_file = (dir / "watch.pid").string();
    std::string command = "echo $$ >'" + pid_file + "'; exec '" CARDTABLECTL "' watch --json -e '" + down + "' -c '" + hubctl + "'";
    for (const auto& o : options) command += " '" + o + "'";
    out = ::popen((command + " 2>'" + (dir / "watch.err").string() + "'").c_str(), "r");
    if (!out || !wait_for([&] {
          send_event(table, "1", 1, "info", "first");
          pollfd fd{::fileno(out), POLLIN, 0};
          return ::poll(&fd, 1, 100) > 0;
        }))
      return -1;
    return std::stoi(text_of(pid_file));
  }
  // The piped watch's lines read to their end: the seqs of the events it showed, in its order; `ended` its
  // exit as pclose gives it.
  static std::vector<std::uint64_t> seqs_of_piped_watch(FILE* out, int& ended) {
    std::string lines;
    std::array<char, 65536> buf{};
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), out)) > 0;) lines.append(buf.data(), n);
    ended = ::pclose(out);
    std::vector<std::uint64_t> seqs;
    std::istringstream in(lines);
    for (std::string line; std::getline(in, line);)
      if (json e = json::parse(line, nullptr, false); e.is_object() && e.contains("seq")) seqs.push_back(e["seq"].get<std::uint64_t>());
    return seqs;
  }
  // The words of the line a watch given --since ends with ("to go on from here: --since ..."); none when
  // it said none.
  static std::vector<std::string> resume_line(const std::string& said) {
    const std::string marker = "to go on from here: ";
    const auto at = said.find(marker);
    std::vector<std::string> resume;
    if (at == std::string::npos) return resume;
    std::istringstream words(said.substr(at + marker.size(), said.find('\n', at) - at - marker.size()));
    for (std::string w; words >> w;) resume.push_back(w);
    return resume;
  }
  json hub_reply(const char* command) const {
    CtlRun r = run_ctl({command, "--json", "-c", hubctl});
    json j = json::parse(r.out, nullptr, false);
    return j.is_object() ? j : json::object();
  }
  std::string up = folder.ipc("hub-up"), down = folder.ipc("hub-down"), hubctl = folder.ipc("hub-ctl");
  pid_t lone_hub = -1, watch_pid = -1;
};

// A hub and two tables that each publish to it and play the fouled board (an alert each), their control
// endpoints ctl1 and ctl2; every process ends with the test, whatever fails first.
class HubVenue : public HubEndpoints {
 protected:
  void start_venue(std::vector<std::string> hub_options = {}, const std::string& table_heartbeat = "0.2") {
    std::vector<std::string> hub_args = {HUB, "--upstream", up, "--downstream", down, "--control", hubctl};
    hub_args.insert(hub_args.end(), hub_options.begin(), hub_options.end());
    hub = fork_exec(hub_args, (dir / "hub.log").string());
    for (const std::string t : {"1", "2"})
      tables.push_back(fork_exec({CARDTABLED, "--master", SCENARIO_DIR "/master", "--simulate", SCENARIO_DIR "/play-fouled-board.scn",
                                  "--speed", "50", "--plaintext", "--state-dir", (dir / ("state" + t)).string(), "--table", t,
                                  "--heartbeat", table_heartbeat, "--publish", "connect:" + up, "--control", "bind:" + folder.ipc("ctl" + t),
                                  "--live", "bind:" + folder.ipc("live" + t)},
                                 (dir / ("daemon" + t + ".log")).string()));
  }
  void TearDown() override {
    for (pid_t p : tables) ::kill(p, SIGTERM);
    if (hub > 0) ::kill(hub, SIGTERM);
    for (pid_t p : tables) ::waitpid(p, nullptr, 0);
    if (hub > 0) ::waitpid(hub, nullptr, 0);
    HubEndpoints::TearDown();
  }
  pid_t hub = -1;
  std::vector<pid_t> tables;
};

// Through a hub, table 2's alert with the same seq as one of table 1's was dropped as "seen"; a message
// with escape sequences cleared the director's screen. Now seq is per table, every line names its table
// and time, and control characters are escaped.
TEST_F(Daemon, WatchTracksSeqPerTableShowsTimeAndTableAndEscapesControlCharacters) {
  zmq::socket_t hostile(ctx, zmq::socket_type::pub);
  hostile.bind(pub);
  auto watching = std::async(std::launch::async, [&] { return run_ctl({"watch", "-e", pub, "-c", ctl, "--seconds", "3"}); });
  // The events go on until the watch has ended: however long cardtablectl takes to start and subscribe on a
  // loaded machine (a fixed wait once made it miss them all), it sees both tables' events, again and again.
  do {
    send_event(hostile, "1", 7, "info", "\x1b[2J\x1b[H ALL CLEAR \xc2\x9b[2J");
    send_event(hostile, "2", 7, "alert", "Board 4: a fouled board");
  } while (watching.wait_for(100ms) != std::future_status::ready);
  CtlRun r = watching.get();
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\x1b[2J"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("default/A/2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("a fouled board"), std::string::npos) << "table 2's alert with table 1's seq was dropped:\n" << r.out;
  EXPECT_NE(r.out.find(":"), std::string::npos);
}

// watch --live drew a broadcaster's deal as one line of "\x0a": the diagram went through the escaping
// meant for the wire's text. Now the diagram keeps its lines, and the event's name from the wire is
// still escaped.
TEST_F(Daemon, WatchLiveDrawsTheDealOnItsOwnLinesAndStillEscapesTheWiresText) {
  zmq::socket_t hostile(ctx, zmq::socket_type::pub);
  hostile.bind(pub);
  auto watching = std::async(std::launch::async, [&] { return run_ctl({"watch", "--live", "-e", pub, "-c", ctl, "--seconds", "3"}); });
  json e = {{"seq", 1}, {"class", "live"}, {"type", "live.deal"}, {"severity", "info"}, {"time", 1795216210.4}, {"mono", 23.2},
            {"tournament", "default"}, {"section", "A"}, {"table", "1"}, {"event", "Spring\x1b[2J Pairs"}, {"session", "1"}, {"board", 1},
            {"evidence", {{"deal", "N:A54.QJ85.AT75.63 QJT83.K3.93.J854 72.A9742.Q84.T72 K96.T6.KJ62.AKQ9"}, {"dealer", "N"}, {"vulnerable", "None"}}},
            {"message", "the deal"}};
  do {
    hostile.send(zmq::buffer(std::string("live/default/A/1/live.deal")), zmq::send_flags::sndmore);
    hostile.send(zmq::buffer(e.dump()));
  } while (watching.wait_for(100ms) != std::future_status::ready);
  CtlRun r = watching.get();
  EXPECT_NE(r.out.find("Board 1 \u00b7 Dealer North \u00b7 None vulnerable  (Spring\\x1b[2J Pairs / 1)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n                        \u2660 A 5 4\n"), std::string::npos) << r.out;  // North's spades, a line of their own
  EXPECT_EQ(r.out.find("\\x0a"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
}

// watch on an endpoint nothing publishes to (a mistyped address, a daemon not started) waited in silence
// for ever; after three missed heartbeats it says so, once, and goes on listening.
// Three heartbeats of the daemons' period (watch --heartbeat, as cardtabled's; 5 s by default): a fixed
// 15 s called a daemon run with --heartbeat 30 silent every 15 s.
TEST_F(Daemon, WatchOnASilentEndpointSaysSoAfterThreeMissedHeartbeats) {
  const std::string nowhere = folder.ipc("nobody-publishes-here");
  CtlRun r = run_ctl({"watch", "-e", nowhere, "--heartbeat", "1", "--seconds", "4.5"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("nothing from " + nowhere + " for 3 s, not even a heartbeat (expected every 1 s"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("not even a heartbeat"), r.out.rfind("not even a heartbeat")) << "said once: " << r.out;
  // The live endpoint carries no heartbeat: its silence between finished boards is no fault.
  r = run_ctl({"watch", "--live", "-e", nowhere, "--heartbeat", "1", "--seconds", "4.5"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("not even a heartbeat"), std::string::npos) << r.out;
  // The bounds are cardtabled's own (protocol/heartbeat.hpp): every period a daemon runs with, watch takes.
  for (const char* refused : {"0", "0.05", "1e-300", "3600.5", "nan"}) {
    r = run_ctl({"watch", "-e", nowhere, "--heartbeat", refused});
    EXPECT_EQ(r.status, 2) << refused << ": " << r.out;
    EXPECT_NE(r.out.find("--heartbeat must be 0.1 to 3600 seconds"), std::string::npos) << refused << ": " << r.out;
  }
  r = run_ctl({"watch", "-e", nowhere, "--heartbeat", "3600", "--seconds", "0.5"});
  EXPECT_EQ(r.status, 0) << "the daemon's longest heartbeat: " << r.out;
}

// A daemon run with a heartbeat other than watch's --heartbeat: watch counted the silence in its own
// --heartbeat (three of 5 s), so a daemon killed while heartbeating every 0.3 s went unsaid for 15 s, and one
// at 30 s was called silent every 15 s. Each heartbeat says its period now (protocol 1.7), and watch counts
// the silence in it.
TEST_F(Daemon, WatchCountsASilenceInTheHeartbeatsTheDaemonSaysItSends) {
  heartbeat = "0.3";
  start("play-clean-board.scn", 1, {"--loop"});
  ASSERT_TRUE(wait_for([&] { return request({{"command", "status"}}, 500).has_value(); })) << log();
  auto watching = std::async(std::launch::async, [&] { return run_ctl({"watch", "-e", pub, "-c", ctl, "--seconds", "5"}); });
  std::this_thread::sleep_for(2s);  // watch subscribed and heard heartbeats
  stop(SIGKILL);
  CtlRun r = watching.get();
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("nothing from " + pub + " for 0.9 s, not even a heartbeat (expected every 0.3 s, as its heartbeats said)"), std::string::npos)
      << r.out;
}

// Through a hub, a gap in a table's seqs (events lost while the hub restarted) sent watch to replay from
// --control -- its default endpoint, or one table's -- for every table: 3 s without a line
// for each gap, the venue frozen on the director's screen, and the lost events named nowhere. Now a gap of
// a table that --control does not serve is said, naming the table and the seqs, and watch goes on; the
// table --control serves is still replayed.
TEST_F(Daemon, WatchThroughAHubSaysEachTablesGapAndGoesOnWithoutReplayingFromAnotherTable) {
  start("play-fouled-board.scn", 50);  // table default/A/1, its control endpoint `ctl`
  ASSERT_TRUE(wait_finished()) << log();
  zmq::socket_t venue(ctx, zmq::socket_type::pub);  // the hub's downstream, as the restarted hub sends it
  const std::string down = folder.ipc("down");
  venue.bind(down);
  auto watching = std::async(std::launch::async, [&] { return run_ctl({"watch", "-e", down, "-c", ctl, "--seconds", "6"}); });
  // Tables 2..6 each: seq 1, then seq 5 (2..4 lost), then seq 6; again until watch ends (it may take a while
  // to subscribe on a loaded machine).
  do {
    for (int t = 2; t <= 6; ++t)
      for (std::uint64_t seq : {1u, 5u, 6u}) send_event(venue, std::to_string(t), seq, "alert", "table " + std::to_string(t) + " event " + std::to_string(seq));
    for (std::uint64_t seq : {1u, 4u}) send_event(venue, "1", seq, "info", "table 1 event " + std::to_string(seq));  // its #2, #3 are in its journal
  } while (watching.wait_for(100ms) != std::future_status::ready);
  CtlRun r = watching.get();
  EXPECT_EQ(r.status, 0) << r.out;
  for (int t = 2; t <= 6; ++t) {
    const std::string table = "default/A/" + std::to_string(t);
    EXPECT_NE(r.out.find(table + ": events #2 to #4 not received"), std::string::npos) << table << "'s gap not said:\n" << r.out;
    EXPECT_NE(r.out.find("table " + std::to_string(t) + " event 6"), std::string::npos) << r.out;
  }
  EXPECT_EQ(r.out.find("replay from"), std::string::npos) << r.out;
  // Table 1's gap is replayed from its own journal, once; no other table's gap is filled with its events.
  EXPECT_NE(r.out.find("default/A/1 #2 "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("default/A/1 #2 "), r.out.rfind("default/A/1 #2 ")) << r.out;
  EXPECT_EQ(r.out.find("default/A/1: events"), std::string::npos) << r.out;
}

// A hub keeps no journal, and one that names no table's control endpoint (no --table-control) can replay
// nothing: said, and a non-zero exit.
TEST_F(Daemon, WatchSinceThroughAHubThatNamesNoTablesEndpointFailsWithANonZeroExit) {
  std::string up = folder.ipc("hub-up"), down = folder.ipc("hub-down"),
              hubctl = folder.ipc("hub-ctl");
  pid = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", hubctl}, (dir / "hub.log").string());
  std::this_thread::sleep_for(300ms);
  CtlRun r = run_ctl({"watch", "-e", down, "-c", hubctl, "--since", "1", "--seconds", "1"});
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("names no table's control endpoint (a hub keeps no journal"), std::string::npos) << r.out;
}

TEST_F(Daemon, AlertsAckByVersionAndEachCommandsOwnHelp) {
  start("play-fouled-board.scn", 50);
  ASSERT_TRUE(wait_finished()) << log();
  CtlRun alerts = run_ctl({"alerts", "-c", ctl});
  EXPECT_EQ(alerts.status, 0) << alerts.out;
  EXPECT_NE(alerts.out.find("ALERT"), std::string::npos) << alerts.out;
  auto open = request({{"command", "alerts"}});
  ASSERT_TRUE(open && !(*open)["alerts"].empty());
  std::string seq = std::to_string((*open)["alerts"][0]["seq"].get<std::uint64_t>());
  // The fouled board's one alert, said as one ("1 open alerts" read as a slip).
  ASSERT_EQ((*open)["alerts"].size(), 1u) << open->dump();
  CtlRun table_status = run_ctl({"status", "-c", ctl});
  const std::string said_one = ", 1 open alert";
  const auto one = table_status.out.find(said_one);
  ASSERT_NE(one, std::string::npos) << table_status.out;
  EXPECT_NE(table_status.out[one + said_one.size()], 's') << table_status.out;
  // A reply missed is said in no event: the device's line says how many its reads missed (1.8), and
  // their share of the reads that heard a card, which a director compares with readers' 3 % (the clean
  // scenario's sim misses none), and (1.10) what device.health last said of it: nothing yet, so good.
  EXPECT_NE(table_status.out.find(" heard a card), missed replies 0 (0.0 %), health good\n"), std::string::npos) << table_status.out;
  CtlRun ack = run_ctl({"ack", seq, "--by", "Anne", "-c", ctl});
  EXPECT_EQ(ack.status, 0) << ack.out;
  CtlRun again = run_ctl({"ack", seq, "--by", "Bob", "-c", ctl});
  EXPECT_EQ(again.status, 1) << again.out;
  EXPECT_NE(again.out.find("already acknowledged by Anne"), std::string::npos) << again.out;
  CtlRun version = run_ctl({"version", "-c", ctl});
  EXPECT_NE(version.out.find("protocol 1.10"), std::string::npos) << version.out;
  CtlRun evidence = run_ctl({"evidence", seq, "-c", ctl});
  EXPECT_EQ(evidence.status, 0) << evidence.out;
  EXPECT_NE(evidence.out.find("DQ"), std::string::npos) << evidence.out;
  CtlRun ack_help = run_ctl({"ack", "--help"});
  EXPECT_NE(ack_help.out.find("--by"), std::string::npos) << ack_help.out;
  EXPECT_EQ(ack_help.out.find("--since"), std::string::npos) << ack_help.out;
  CtlRun status_help = run_ctl({"status", "--help"});
  EXPECT_EQ(status_help.out.find("--since"), std::string::npos) << status_help.out;
  EXPECT_EQ(status_help.out.find("--by"), std::string::npos) << status_help.out;
  CtlRun replay0 = run_ctl({"replay", "--since", "0", "-c", ctl});
  EXPECT_EQ(replay0.status, 2) << replay0.out;
  // A negative seq was taken as 2^64 - 1 by the unsigned option parser: an empty replay and exit 0.
  CtlRun negative = run_ctl({"replay", "--since", "-1", "-c", ctl});
  EXPECT_EQ(negative.status, 2) << negative.out;
  EXPECT_NE(negative.out.find("give --since N, the first seq wanted (1 or more)"), std::string::npos) << negative.out;
  negative = run_ctl({"watch", "--since", "-1", "-c", ctl, "--seconds", "0.1"});
  EXPECT_EQ(negative.status, 2) << negative.out;
  EXPECT_NE(negative.out.find("--since wants the first seq wanted (1 or more), or TOURNAMENT/SECTION/TABLE:SEQ, not '-1'"), std::string::npos) << negative.out;
  // The daemon's error names its request, and so does cardtablectl's line: said once, not twice.
  CtlRun missing = run_ctl({"evidence", "999999", "-c", ctl});
  EXPECT_EQ(missing.status, 1) << missing.out;
  EXPECT_NE(missing.out.find("cardtablectl evidence: no event 999999 in the journal"), std::string::npos) << missing.out;
  CtlRun live_replay = run_ctl({"replay-live", "--since", "1", "-c", ctl});
  EXPECT_EQ(live_replay.status, 0) << live_replay.out;
  CtlRun load = run_ctl({"load-record", "-c", ctl});
  EXPECT_EQ(load.status, 0) << load.out;
  EXPECT_NE(load.out.find("23 boards"), std::string::npos) << load.out;
}

// Law 53/56: a defender led to trick 2 when West had won trick 1. The alert names no card, so its card
// detail is its message again: `cardtablectl evidence` printed that alone, and a director at a terminal
// never saw who led (the seats), who should have (expected) or which trick, nor the journal to ack in.
TEST_F(Daemon, EvidenceOfAnAlertThatNamesNoCardSaysTheSeatsAndWhatWasExpected) {
  start("play-defender-leads-out-of-turn.scn", 50);
  ASSERT_TRUE(wait_finished()) << log();
  auto open = request({{"command", "alerts"}});
  ASSERT_TRUE(open && !(*open)["alerts"].empty());
  const json& alert = (*open)["alerts"][0];
  ASSERT_EQ(alert["type"], "irregularity.lead_out_of_turn") << alert.dump();
  const std::string seq = std::to_string(alert["seq"].get<std::uint64_t>());
  CtlRun evidence = run_ctl({"evidence", seq, "-c", ctl});
  EXPECT_EQ(evidence.status, 0) << evidence.out;
  for (const std::string& line : std::vector<std::string>{"#" + seq + " [board 1] Board 1: trick 2 was led by East", "\n  seats: E\n", "\n  expected: W\n",
                                 "\n  observed: E\n", "\n  lead: trick 2\n", "\n  journal: " + alert["journal"].get<std::string>() + "\n"})
    EXPECT_NE(evidence.out.find(line), std::string::npos) << "no '" << line << "' in:\n" << evidence.out;
}

// `cardtablectl alerts` through a hub: the open alerts of every table, oldest first, each naming its
// table; an acknowledgement made at one table's daemon closes that alert in the hub's list too.
TEST_F(HubVenue, AlertsThroughAHubListEveryTablesOpenAlertsOldestFirst) {
  start_venue();
  auto hub_alerts = [&] { return hub_reply("alerts"); };
  // Both tables' fouled boards reach the hub, and each table's heartbeat agrees with the hub's count.
  bool both = wait_for([&] {
    json j = hub_alerts();
    if (!j.value("ok", false) || !j["tables"].contains("default/A/1") || !j["tables"].contains("default/A/2")) return false;
    for (const auto& [name, t] : j["tables"].items())
      if (t.value("open", 0) == 0 || t.value("at_table", "") != std::to_string(t.value("open", 0))) return false;
    return true;
  });
  json before = hub_alerts();
  ASSERT_TRUE(both) << before.dump(2) << "\n" << log();
  EXPECT_TRUE(before["incomplete"].empty()) << before.dump(2);
  double previous = 0;
  std::set<std::string> seen_tables;
  for (const json& a : before["alerts"]) {
    EXPECT_EQ(a["severity"], "alert");
    EXPECT_GE(a["time"].get<double>(), previous) << "oldest first";
    previous = a["time"].get<double>();
    seen_tables.insert(a["table"].get<std::string>());
  }
  EXPECT_EQ(seen_tables, (std::set<std::string>{"1", "2"}));
  CtlRun text = run_ctl({"alerts", "-c", hubctl});
  EXPECT_EQ(text.status, 0) << text.out;
  EXPECT_NE(text.out.find("default/A/1"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("default/A/2"), std::string::npos) << text.out;

  // Table 2's first alert acknowledged at table 2: gone from the hub's list, table 1's stay.
  std::uint64_t seq2 = 0;
  for (const json& a : before["alerts"])
    if (a["table"] == "2" && !seq2) seq2 = a["seq"].get<std::uint64_t>();
  CtlRun ack = run_ctl({"ack", std::to_string(seq2), "--by", "Anne", "-c", folder.ipc("ctl2")});
  ASSERT_EQ(ack.status, 0) << ack.out;
  ASSERT_TRUE(wait_for([&] { return hub_alerts()["tables"]["default/A/2"].value("open", -1) == before["tables"]["default/A/2"].value("open", 0) - 1; }))
      << hub_alerts().dump(2);
  json after = hub_alerts();
  EXPECT_EQ(after["tables"]["default/A/1"]["open"], before["tables"]["default/A/1"]["open"]);
  for (const json& a : after["alerts"]) EXPECT_FALSE(a["table"] == "2" && a["seq"] == seq2) << "acknowledged, still listed";
}

// A table whose daemon is killed (or whose machine or network goes) stayed listed at the hub as if alive,
// its alerts with it: a director had no sign that no new alert could come from it. Past --silent-after
// without a heartbeat or an event the hub calls it silent (alerts, status, its log) until it is heard again.
TEST_F(HubVenue, AHubCallsATableSilentOnceItsHeartbeatsStop) {
  start_venue({"--silent-after", "1.5"});
  ASSERT_TRUE(wait_for([&] {
    json j = hub_reply("alerts");
    return j.value("ok", false) && j["tables"].contains("default/A/1") && j["tables"].contains("default/A/2") &&
           j["tables"]["default/A/2"].value("open", 0) > 0;
  })) << hub_reply("alerts").dump(2) << "\n" << log();
  json alive = hub_reply("alerts");
  EXPECT_TRUE(alive["silent"].empty()) << alive.dump(2);
  EXPECT_FALSE(alive["tables"]["default/A/1"].contains("silent")) << alive.dump(2);

  // Table 2's daemon killed: within --silent-after the hub calls it silent, table 1 stays heard.
  ::kill(tables[1], SIGKILL);
  ::waitpid(tables[1], nullptr, 0);
  ASSERT_TRUE(wait_for([&] { return hub_reply("alerts")["silent"] == json::array({"default/A/2"}); })) << hub_reply("alerts").dump(2);
  json after = hub_reply("alerts");
  EXPECT_EQ(after["tables"]["default/A/2"]["silent"], true);
  EXPECT_GE(after["tables"]["default/A/2"]["heard_ago"].get<double>(), 1.5) << "to a tenth";
  EXPECT_GT(after["tables"]["default/A/2"].value("open", 0), 0) << "its alerts stay listed";
  EXPECT_EQ(hub_reply("status")["silent"], json::array({"default/A/2"}));
  CtlRun text = run_ctl({"alerts", "-c", hubctl});
  EXPECT_NE(text.out.find("table default/A/2: silent, last heard"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("table default/A/1: silent"), std::string::npos) << text.out;
  // The list cannot be whole with a table silent: a problem found, as a table that does not answer is.
  EXPECT_EQ(text.status, 1) << text.out;
  // `status` at the hub said "2 tables heard" and exit 0 with a table gone; it names it now, exit 1.
  CtlRun hub_status = run_ctl({"status", "-c", hubctl});
  EXPECT_EQ(hub_status.status, 1) << hub_status.out;
  EXPECT_NE(hub_status.out.find("table default/A/2: silent: its daemon stopped"), std::string::npos) << hub_status.out;
  EXPECT_EQ(hub_status.out.find("table default/A/1: silent"), std::string::npos) << hub_status.out;
  ASSERT_TRUE(wait_for([&] { return text_of(dir / "hub.log").find("default/A/2: silent for") != std::string::npos; })) << text_of(dir / "hub.log");
  EXPECT_EQ(text_of(dir / "hub.log").find("less than two of them"), std::string::npos) << "1.5 s is seven heartbeats of 0.2 s";
}

// A hub whose --silent-after is shorter than two of a table's heartbeats calls the table silent between
// two of them and heard again at the next, all session long, and nothing said why. The heartbeats say
// their period (protocol 1.7): the hub says so once for each such table, with the value to give.
TEST_F(HubVenue, AHubSaysOnceWhenATablesHeartbeatsComeFurtherApartThanItsSilentAfterAllows) {
  start_venue({"--silent-after", "1.5"}, "1");
  ASSERT_TRUE(wait_for([&] {
    const std::string hub_log = text_of(dir / "hub.log");
    return hub_log.find("default/A/1: its heartbeat comes every 1 s") != std::string::npos &&
           hub_log.find("default/A/2: its heartbeat comes every 1 s") != std::string::npos;
  })) << text_of(dir / "hub.log");
  std::this_thread::sleep_for(2500ms);  // two heartbeats more of each
  const std::string hub_log = text_of(dir / "hub.log");
  EXPECT_NE(hub_log.find("its heartbeat comes every 1 s (its --heartbeat), and --silent-after 1.5 s is less than two of them: it will be called "
                         "silent between heartbeats; give the hub --silent-after 3 (three heartbeats) or more"),
            std::string::npos)
      << hub_log;
  std::size_t said = 0;
  for (auto at = hub_log.find("less than two of them"); at != std::string::npos; at = hub_log.find("less than two of them", at + 1)) ++said;
  EXPECT_EQ(said, 2u) << "once a table: " << hub_log;
}

// A table that plays its fouled board (an alert) publishing to a hub that is not there yet: the alert is
// lost to the hub the test starts afterwards (up, down, hubctl).
class TableBeforeItsHub : public HubEndpoints {
 protected:
  void start_table_before_its_hub() {
    pid = fork_exec({CARDTABLED, "--master", SCENARIO_DIR "/master", "--simulate", SCENARIO_DIR "/play-fouled-board.scn", "--speed", "50",
                     "--plaintext", "--state-dir", (dir / "state").string(), "--heartbeat", "0.2", "--publish", "connect:" + up,
                     "--control", "bind:" + ctl, "--live", "bind:" + live},
                    (dir / "daemon.log").string());
  }
};

// A hub started after a table's alert was made lists it all the same: told the table's control endpoint
// (--table-control), it asks the table for its open alerts when the table's first heartbeat comes. Then
// an acknowledgement at the table closes it in the hub's list, and nothing is "incomplete".
TEST_F(TableBeforeItsHub, AHubStartedAfterTheAlertAsksTheTableForItsOpenAlerts) {
  start_table_before_its_hub();
  ASSERT_TRUE(wait_finished()) << log();
  auto at_table = request({{"command", "alerts"}});
  ASSERT_TRUE(at_table && (*at_table)["count"].get<int>() >= 1) << (at_table ? at_table->dump() : "no reply") << log();
  pid_t hub = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", hubctl, "--table-control", "default/A/1=" + ctl},
                        (dir / "hub.log").string());
  struct StopHub {
    pid_t p;
    int status = -1;
    int stop() {
      if (p > 0) {
        ::kill(p, SIGTERM);
        ::waitpid(p, &status, 0);
        p = -1;
      }
      return status;
    }
    ~StopHub() { stop(); }
  } stop_hub{hub};
  auto hub_alerts = [&]() -> json {
    CtlRun r = run_ctl({"alerts", "--json", "-c", hubctl});
    json j = json::parse(r.out, nullptr, false);
    return j.is_object() ? j : json::object();
  };
  auto hub_log = [&] {
    std::ifstream in(dir / "hub.log");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  // "incomplete" names a table whose last heartbeat's count differs from the hub's list: until the hub's
  // answer and a heartbeat agree, that is the truth, so the test waits for both rather than reading once.
  auto whole = [&](int count) {
    json j = hub_alerts();
    return j.value("count", -1) == count && j.contains("incomplete") && j["incomplete"].empty();
  };
  ASSERT_TRUE(wait_for([&] { return whole((*at_table)["count"].get<int>()); })) << hub_alerts().dump(2) << "\nhub: " << hub_log();
  json listed = hub_alerts();
  EXPECT_EQ(listed["alerts"][0]["seq"], (*at_table)["alerts"][0]["seq"]);
  EXPECT_EQ(listed["alerts"][0]["table"], "1");
  EXPECT_NE(hub_log().find("default/A/1: " + std::to_string((*at_table)["count"].get<int>()) + " open alerts, from its control endpoint"),
            std::string::npos)
      << hub_log();
  // An acknowledgement made at the table closes it in the hub's list (the director.ack event passes).
  std::uint64_t seq = (*at_table)["alerts"][0]["seq"].get<std::uint64_t>();
  CtlRun ack = run_ctl({"ack", std::to_string(seq), "--by", "Anne", "-c", ctl});
  ASSERT_EQ(ack.status, 0) << ack.out;
  // The director.ack closes it in the hub's list at once; the table's next heartbeat then agrees (until
  // then the table is rightly named incomplete: CI once read the list between the two).
  ASSERT_TRUE(wait_for([&] { return whole((*at_table)["count"].get<int>() - 1); })) << hub_alerts().dump(2);
  int st = stop_hub.stop();  // its sockets to the table closed: it stops at once, cleanly (ASan: no leak)
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << st << "\nhub: " << hub_log();
}

// With CURVE, watch through a hub asked the table's control endpoint (-c) with the hub's key (--server-key,
// which its subscription needs): the table refused the handshake without a word, every gap cost a 1 s
// status question every 30 s, and no gap was filled. --control-server-key gives the table's own key: the
// events a table published while the hub was down are replayed from its journal. Without it, watch says
// once why it cannot fill gaps.
TEST_F(HubVenue, WatchThroughACurveHubFillsATablesGapFromTheTablesOwnJournal) {
  const std::string keys = (dir / "keys").string(), td = keys + "/hub-clients/director/td.key";
  for (const auto& [name, into] : {std::pair{"hub", keys}, {"table1", keys}, {"td", keys + "/hub-clients/director"}})
    ASSERT_EQ(run_ctl({"keygen", name, "--dir", into}).status, 0);
  fs::create_directories(keys + "/hub-clients/table/default/A");
  fs::create_directories(keys + "/table-clients/director");
  fs::copy_file(keys + "/table1.pub", keys + "/hub-clients/table/default/A/1.pub");  // the table's key speaks for default/A/1
  fs::copy_file(keys + "/hub-clients/director/td.pub", keys + "/table-clients/director/td.pub");
  const std::vector<std::string> hub_args = {HUB, "--upstream", up, "--downstream", down, "--control", hubctl,
                                             "--curve-secret", keys + "/hub.key", "--clients", keys + "/hub-clients"};
  hub = fork_exec(hub_args, (dir / "hub.log").string());
  const std::string ctl1 = folder.ipc("ctl1");
  const std::vector<std::string> table_args = {CARDTABLED, "--master", SCENARIO_DIR "/master", "--simulate", SCENARIO_DIR "/play-fouled-board.scn",
                                               "--speed", "50", "--state-dir", (dir / "state1").string(), "--table", "1", "--heartbeat", "0.2",
                                               "--publish", "connect:" + up, "--control", "bind:" + ctl1, "--live", "bind:" + folder.ipc("live1"),
                                               "--curve-secret", keys + "/table1.key", "--clients", keys + "/table-clients", "--hub-key", keys + "/hub.pub"};
  tables.push_back(fork_exec(table_args, (dir / "daemon1.log").string()));
  const std::vector<std::string> to_table = {"-c", ctl1, "--key", td, "--server-key", keys + "/table1.pub"};
  auto at_table = [&](std::vector<std::string> args) {
    args.insert(args.end(), to_table.begin(), to_table.end());
    return run_ctl(args);
  };
  ASSERT_TRUE(wait_for([&] { return at_table({"status", "--json"}).out.find("\"finished\": true") != std::string::npos; })) << text_of(dir / "daemon1.log");
  // Two watches of the venue through the hub: one told the table's key for -c, one not.
  auto watch = [&](const std::string& out, std::vector<std::string> extra) {
    std::string cmd = std::string("exec '") + CARDTABLECTL + "' watch -e '" + down + "' -c '" + ctl1 + "' --key '" + td + "' --server-key '" + keys +
                      "/hub.pub' --seconds 60";
    for (const auto& a : extra) cmd += " '" + a + "'";
    return fork_exec({"/bin/sh", "-c", cmd + " >'" + (dir / out).string() + "' 2>&1"}, (dir / "sh.log").string());
  };
  pid_t filled = watch("filled.out", {"--control-server-key", keys + "/table1.pub"}), named = watch("named.out", {});
  struct EndWatches {
    pid_t& a;
    pid_t& b;
    ~EndWatches() {
      cardtable::test::end_process(a);
      cardtable::test::end_process(b);
    }
  } end_watches{filled, named};
  // A rejected board label: an event the table journals and publishes (its seq in the reply's error).
  auto new_event = [&]() -> std::uint64_t {
    CtlRun r = at_table({"board", "Spring Pairs/1/99"});
    auto at = r.out.find("(event ");
    return at == std::string::npos ? 0 : std::stoull(r.out.substr(at + 7));
  };
  auto watched = [&](const std::string& out, std::uint64_t seq) { return text_of(dir / out).find("default/A/1 #" + std::to_string(seq) + " ") != std::string::npos; };
  // New events until both watches show one (they subscribe, and the hub comes back, in their own time).
  auto both_watch_a_new_event = [&] {
    return wait_for([&] {
      std::uint64_t seq = new_event();
      return seq && wait_for([&] { return watched("filled.out", seq) && watched("named.out", seq); }, 1s);
    });
  };
  ASSERT_TRUE(both_watch_a_new_event()) << text_of(dir / "filled.out") << text_of(dir / "named.out");
  // The hub dies; the table journals two events its link to the hub only queues, and stops before the hub
  // is back (the queue goes with it): events the watches never receive. The hub and the table come back.
  cardtable::test::end_process(hub, SIGKILL);
  const std::uint64_t lost1 = new_event(), lost2 = new_event();
  ASSERT_TRUE(lost1 && lost2 == lost1 + 1) << lost1 << " " << lost2;
  cardtable::test::end_process(tables[0]);
  hub = fork_exec(hub_args, (dir / "hub2.log").string());
  tables[0] = fork_exec(table_args, (dir / "daemon1.log").string());
  // The table's next event shows the watches the gap.
  ASSERT_TRUE(both_watch_a_new_event()) << text_of(dir / "filled.out") << "\n" << text_of(dir / "named.out") << "\n" << text_of(dir / "hub2.log");
  const std::string filled_out = text_of(dir / "filled.out"), named_out = text_of(dir / "named.out");
  EXPECT_TRUE(watched("filled.out", lost1) && watched("filled.out", lost2)) << "the gap was not filled from the table:\n" << filled_out;
  EXPECT_EQ(filled_out.find("not received"), std::string::npos) << filled_out;
  EXPECT_EQ(filled_out.find("gaps are named, not filled"), std::string::npos) << filled_out;
  // Given the hub's key for -c, the table cannot answer: said once, with the option that fixes it, and the gap named.
  const std::string why = "gaps are named, not filled; through a hub, --server-key is the hub's key and --control-server-key the table's";
  EXPECT_NE(named_out.find(why), std::string::npos) << named_out;
  EXPECT_EQ(named_out.find(why), named_out.rfind(why)) << named_out;
  EXPECT_NE(named_out.find("default/A/1: events #" + std::to_string(lost1) + " to #"), std::string::npos) << named_out;
}

// Through a CURVE hub, watch could fill one table's gaps (-c that table's endpoint, --control-server-key its
// key) and named every other table's. The hub knows each table's control endpoint and key (--table-control,
// clients/table/): asked `status` (1.5) it names them, and watch -c HUB fills the gaps of both tables
// from each table's own journal.
TEST_F(HubVenue, WatchThroughACurveHubFillsTheGapsOfEveryTableTheHubNames) {
  const std::string keys = (dir / "keys").string(), td = keys + "/hub-clients/director/td.key";
  for (const auto& [name, into] : {std::pair{"hub", keys}, {"table1", keys}, {"table2", keys}, {"td", keys + "/hub-clients/director"}})
    ASSERT_EQ(run_ctl({"keygen", name, "--dir", into}).status, 0);
  fs::create_directories(keys + "/hub-clients/table/default/A");
  for (const auto& role : {"director", "hub"}) fs::create_directories(keys + "/table-clients/" + role);
  fs::copy_file(keys + "/hub-clients/director/td.pub", keys + "/table-clients/director/td.pub");
  fs::copy_file(keys + "/hub.pub", keys + "/table-clients/hub/hub.pub");
  std::vector<std::string> hub_args = {HUB, "--upstream", up, "--downstream", down, "--control", hubctl,
                                       "--curve-secret", keys + "/hub.key", "--clients", keys + "/hub-clients"};
  std::vector<std::vector<std::string>> table_args;
  for (const std::string t : {"1", "2"}) {
    fs::copy_file(keys + "/table" + t + ".pub", keys + "/hub-clients/table/default/A/" + t + ".pub");  // speaks for default/A/t
    const std::string ctl_t = folder.ipc("ctl" + t);
    hub_args.insert(hub_args.end(), {"--table-control", "default/A/" + t + "=" + ctl_t});
    table_args.push_back({CARDTABLED, "--master", SCENARIO_DIR "/master", "--simulate", SCENARIO_DIR "/play-fouled-board.scn", "--speed", "50",
                          "--state-dir", (dir / ("state" + t)).string(), "--table", t, "--heartbeat", "0.2", "--publish", "connect:" + up,
                          "--control", "bind:" + ctl_t, "--live", "bind:" + folder.ipc("live" + t), "--curve-secret",
                          keys + "/table" + t + ".key", "--clients", keys + "/table-clients", "--hub-key", keys + "/hub.pub"});
  }
  hub = fork_exec(hub_args, (dir / "hub.log").string());
  for (std::size_t i = 0; i < 2; ++i) tables.push_back(fork_exec(table_args[i], (dir / ("daemon" + std::to_string(i + 1) + ".log")).string()));
  auto at_table = [&](std::size_t i, std::vector<std::string> args) {
    const std::string t = std::to_string(i + 1);
    args.insert(args.end(), {"-c", folder.ipc("ctl" + t), "--key", td, "--server-key", keys + "/table" + t + ".pub"});
    return run_ctl(args);
  };
  for (std::size_t i = 0; i < 2; ++i)
    ASSERT_TRUE(wait_for([&] { return at_table(i, {"status", "--json"}).out.find("\"finished\": true") != std::string::npos; }))
        << text_of(dir / ("daemon" + std::to_string(i + 1) + ".log"));
  // The hub names both tables' endpoints and keys.
  const json named = json::parse(run_ctl({"status", "--json", "-c", hubctl, "--key", td, "--server-key", keys + "/hub.pub"}).out, nullptr, false);
  ASSERT_TRUE(named.is_object() && named.contains("controls")) << named.dump(2);
  EXPECT_EQ(named["controls"]["default/A/2"]["endpoint"], folder.ipc("ctl2")) << named.dump(2);
  EXPECT_EQ(named["controls"]["default/A/2"]["server_key"].get<std::string>().size(), 40u) << named.dump(2);
  // One watch of the venue, -c the hub's control endpoint, with the hub's key: nothing about any table.
  pid_t watching = fork_exec({"/bin/sh", "-c", std::string("exec '") + CARDTABLECTL + "' watch -e '" + down + "' -c '" + hubctl + "' --key '" + td +
                                                   "' --server-key '" + keys + "/hub.pub' --seconds 60 >'" + (dir / "watch.out").string() + "' 2>&1"},
                             (dir / "sh.log").string());
  struct EndWatch {
    pid_t& p;
    ~EndWatch() { cardtable::test::end_process(p); }
  } end_watch{watching};
  // A rejected board label: an event the table journals and publishes (its seq in the reply's error).
  auto new_event = [&](std::size_t i) -> std::uint64_t {
    CtlRun r = at_table(i, {"board", "Spring Pairs/1/99"});
    auto at = r.out.find("(event ");
    return at == std::string::npos ? 0 : std::stoull(r.out.substr(at + 7));
  };
  auto watched = [&](std::size_t i, std::uint64_t seq) {
    return text_of(dir / "watch.out").find("default/A/" + std::to_string(i + 1) + " #" + std::to_string(seq) + " ") != std::string::npos;
  };
  auto watch_shows_new_events = [&] {
    for (std::size_t i = 0; i < 2; ++i)
      if (!wait_for([&] {
            std::uint64_t seq = new_event(i);
            return seq && wait_for([&] { return watched(i, seq); }, 1s);
          }))
        return false;
    return true;
  };
  ASSERT_TRUE(watch_shows_new_events()) << text_of(dir / "watch.out");
  // The hub dies; each table journals two events its link to the hub only queues, and stops before the hub
  // is back (the queue goes with it): events the watch never receives. The hub and the tables come back.
  cardtable::test::end_process(hub, SIGKILL);
  std::vector<std::uint64_t> lost;
  for (std::size_t i = 0; i < 2; ++i) {
    lost.push_back(new_event(i));
    ASSERT_TRUE(lost.back() && new_event(i) == lost.back() + 1) << lost.back();
    cardtable::test::end_process(tables[i]);
  }
  hub = fork_exec(hub_args, (dir / "hub2.log").string());
  for (std::size_t i = 0; i < 2; ++i) tables[i] = fork_exec(table_args[i], (dir / ("daemon" + std::to_string(i + 1) + ".log")).string());
  // Each table's next event shows the watch its gap, which it fills from that table's own journal.
  ASSERT_TRUE(watch_shows_new_events()) << text_of(dir / "watch.out") << "\n" << text_of(dir / "hub2.log");
  const std::string out = text_of(dir / "watch.out");
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_TRUE(watched(i, lost[i]) && watched(i, lost[i] + 1)) << "table " << i + 1 << "'s gap was not filled from its journal:\n" << out;
  EXPECT_EQ(out.find("not received"), std::string::npos) << out;
  EXPECT_EQ(out.find("gaps are named, not filled"), std::string::npos) << out;
}

// A hub that has not seen all of a table's open alerts (it started after one, and was not told the table's
// control endpoint) lists them "incomplete": `alerts` said so and exited 0, as if the list were whole, so
// a director's script could not tell. The list is not whole: exit 1.
TEST_F(TableBeforeItsHub, AlertsAtAHubExitNonZeroWhileATableIsIncomplete) {
  start_table_before_its_hub();
  ASSERT_TRUE(wait_finished()) << log();
  pid_t hub = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", hubctl}, (dir / "hub.log").string());
  struct StopHub {
    pid_t p;
    ~StopHub() { cardtable::test::end_process(p); }
  } stop_hub{hub};
  ASSERT_TRUE(wait_for([&] {
    json j = json::parse(run_ctl({"alerts", "--json", "-c", hubctl}).out, nullptr, false);
    return j.is_object() && j.value("incomplete", json::array()) == json::array({"default/A/1"});
  })) << run_ctl({"alerts", "--json", "-c", hubctl}).out;
  CtlRun r = run_ctl({"alerts", "-c", hubctl});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("table default/A/1: the hub has not seen all its open alerts"), std::string::npos) << r.out;
  CtlRun help = run_ctl({"alerts", "--help"});
  EXPECT_NE(help.out.find("Exit status: 0 all well; 1 a problem"), std::string::npos) << help.out;
}

// The hub set a table's last heartbeat against its list as it is now: a heartbeat sent before an alert (or
// an ack) that the hub already held named the table incomplete -- `alerts` said "the hub has not seen all
// its open alerts" and exited 1 until the next heartbeat, though the heartbeat was behind, not the hub.
// Now a heartbeat is set against the list as it stood at its last_seq, and a hub that truly missed an
// alert still says so, an alert that came after that heartbeat or not.
TEST_F(HubEndpoints, AHeartbeatBehindTheHubsAlertsDoesNotMakeItsTableIncomplete) {
  zmq::socket_t table = start_hub_and_a_table();
  auto hub_alerts = [&] {
    json j = json::parse(run_ctl({"alerts", "--json", "-c", hubctl}).out, nullptr, false);
    return j.is_object() && j.contains("tables") && j.contains("incomplete") ? j : json{{"tables", json::object()}, {"incomplete", nullptr}};
  };
  auto said = [&](const std::string& at_table, std::size_t count) {
    return wait_for([&] {
      json j = hub_alerts();
      return j["tables"].contains("default/A/1") && j["tables"]["default/A/1"].value("at_table", "") == at_table && j.value("count", 99u) == count;
    });
  };
  auto whole = [&] {
    CtlRun r = run_ctl({"alerts", "-c", hubctl});
    EXPECT_EQ(hub_alerts()["incomplete"], json::array()) << hub_alerts().dump(2);
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out.find("has not seen all"), std::string::npos) << r.out;
  };
  // Five events, none an alert; sent until the hub has it (its subscription reached this socket).
  ASSERT_TRUE(wait_for([&] {
    send_heartbeat(table, 5, 0);
    return hub_alerts()["tables"].contains("default/A/1");
  })) << text_of(dir / "hub.log");
  // Event 6 an alert, the table's next heartbeat not yet sent: its last one (0 open, at seq 5) is behind.
  send_event(table, "1", 6, "alert", "Board 4: a fouled board");
  ASSERT_TRUE(said("0", 1)) << hub_alerts().dump(2);
  whole();
  send_heartbeat(table, 6, 1);
  ASSERT_TRUE(said("1", 1)) << hub_alerts().dump(2);
  whole();
  // Acknowledged at the table (event 7): closed in the hub's list before the heartbeat that counts 0.
  send_ack(table, 7, 6);
  ASSERT_TRUE(said("1", 0)) << hub_alerts().dump(2);
  whole();

  // Event 8 an alert the hub never received: the table's heartbeat counts it, the hub's list lacks it.
  send_heartbeat(table, 8, 1);
  ASSERT_TRUE(said("1", 0)) << hub_alerts().dump(2);
  ASSERT_TRUE(wait_for([&] { return hub_alerts()["incomplete"] == json::array({"default/A/1"}); })) << hub_alerts().dump(2);
  // Alert 9 after that heartbeat: the hub holds one and the heartbeat counts one, but not the same one.
  send_event(table, "1", 9, "alert", "Board 5: a fouled board");
  ASSERT_TRUE(said("1", 1)) << hub_alerts().dump(2);
  EXPECT_EQ(hub_alerts()["incomplete"], json::array({"default/A/1"})) << hub_alerts().dump(2);
  CtlRun r = run_ctl({"alerts", "-c", hubctl});
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("table default/A/1: the hub has not seen all its open alerts (it reports 1)"), std::string::npos) << r.out;
}

// A table whose journal was replaced (its daemon restarted with a new one) was judged by the old journal's
// last heartbeat until the new one's first: its count of open alerts and its last seq are the old
// journal's, so the hub named the table incomplete (`alerts` exited 1), gave the old count as the table's,
// and gave a late joiner that heartbeat in its snapshot. The new journal has said nothing yet.
TEST_F(HubEndpoints, ATableWhoseJournalWasReplacedIsNotJudgedByTheOldJournalsHeartbeat) {
  zmq::socket_t table = start_hub_and_a_table();
  auto hub_json = [&](const char* command) {
    json j = json::parse(run_ctl({command, "--json", "-c", hubctl}).out, nullptr, false);
    return j.is_object() && j.contains("tables") ? j : json{{"tables", json::object()}};
  };
  // The old journal: an alert (seq 5) and the heartbeat that counts it; sent until the hub has both.
  ASSERT_TRUE(wait_for([&] {
    send_event(table, "1", 5, "alert", "Board 4: a fouled board", "old-journal");
    send_heartbeat(table, 5, 1, "old-journal");
    return hub_json("alerts")["tables"].value("default/A/1", json::object()).value("at_table", "") == "1";
  })) << hub_json("alerts").dump(2) << text_of(dir / "hub.log");
  // The daemon starts again with a new journal: its first event (seq 1), its first heartbeat not yet sent.
  send_event(table, "1", 1, "info", "board 1 arrived", "new-journal");
  ASSERT_TRUE(wait_for([&] { return hub_json("alerts")["tables"].value("default/A/1", json::object()).value("journal", "") == "new-journal"; }))
      << hub_json("alerts").dump(2);
  json alerts = hub_json("alerts");
  EXPECT_EQ(alerts["incomplete"], json::array()) << alerts.dump(2);
  EXPECT_FALSE(alerts["tables"]["default/A/1"].contains("at_table")) << "the old journal's count given as the table's:\n" << alerts.dump(2);
  CtlRun r = run_ctl({"alerts", "-c", hubctl});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("has not seen all"), std::string::npos) << r.out;
  EXPECT_TRUE(hub_json("snapshot")["tables"]["default/A/1"]["heartbeat"].is_null()) << hub_json("snapshot").dump(2);
  // The new journal's first heartbeat judges it again.
  send_heartbeat(table, 1, 0, "new-journal");
  ASSERT_TRUE(wait_for([&] { return hub_json("alerts")["tables"]["default/A/1"].value("at_table", "") == "0"; })) << hub_json("alerts").dump(2);
  EXPECT_EQ(hub_json("alerts")["incomplete"], json::array()) << hub_json("alerts").dump(2);
}

// watch waited for every page of a gap's replay (up to 3 s each) before it read another event: one table's
// big gap, or a slow journal, held back every other table's alerts on a director's screen. The gap is
// filled page by page while the other tables' events are shown; the table's own live events wait for it,
// so that its events are shown whole and in seq order.
TEST_F(HubEndpoints, WatchShowsTheOtherTablesEventsWhileOneTablesGapIsReplayed) {
  const std::string table1_control = folder.ipc("table1-ctl");
  lone_hub = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", hubctl, "--table-control", "default/A/1=" + table1_control},
                       (dir / "hub.log").string());
  zmq::socket_t tables(ctx, zmq::socket_type::pub);
  tables.connect(up);
  // Table 1's control endpoint, a slow journal: each page of 100 events a second after it is asked.
  constexpr std::uint64_t kLast = 301;
  StandInJournal journal(ctx, table1_control, [&](std::uint64_t since) {
    std::this_thread::sleep_for(1s);
    return replay_page("1", std::vector<double>(kLast, 1795433673.5), since, 100);
  });
  start_watch({"--seconds", "30"});
  // The (table, seq) of each line watch showed, in its order.
  auto shown = [&] {
    std::vector<std::pair<std::string, std::uint64_t>> lines;
    for (const json& e : watched()) lines.emplace_back(e.value("table", ""), e["seq"].get<std::uint64_t>());
    return lines;
  };
  auto has = [&](const std::string& table, std::uint64_t seq) {
    auto lines = shown();
    return std::find(lines.begin(), lines.end(), std::pair{table, seq}) != lines.end();
  };
  // Table 2 publishes every 20 ms throughout; table 1 its seq 1 until watch shows it, then seq 302.
  std::uint64_t seq2 = 0;
  auto table2_for = [&](std::chrono::milliseconds d) {
    for (auto end = std::chrono::steady_clock::now() + d; std::chrono::steady_clock::now() < end; std::this_thread::sleep_for(20ms))
      send_event(tables, "2", ++seq2, "info", "table 2 live");
  };
  ASSERT_TRUE(wait_for([&] {
    send_event(tables, "1", 1, "info", "table 1 live");
    table2_for(100ms);
    return has("1", 1);
  })) << text_of(dir / "watch.out") << text_of(dir / "hub.log");
  send_event(tables, "1", kLast + 1, "info", "table 1 after its gap");
  ASSERT_TRUE(wait_for([&] {
    table2_for(100ms);
    return has("1", kLast + 1);
  })) << text_of(dir / "watch.out");
  const auto lines = shown();
  // Table 1 whole and in order: its gap from its journal, then the live event that showed it.
  std::vector<std::uint64_t> table1, expected;
  for (const auto& [table, seq] : lines)
    if (table == "1") table1.push_back(seq);
  for (std::uint64_t seq = 1; seq <= kLast + 1; ++seq) expected.push_back(seq);
  EXPECT_EQ(table1, expected) << text_of(dir / "watch.out");
  // While its three pages came (3 s), table 2's events were shown: dozens of them between its #2 and #301.
  const auto at = [&](std::uint64_t seq) { return std::find(lines.begin(), lines.end(), std::pair{std::string("1"), seq}) - lines.begin(); };
  const auto meanwhile = std::count_if(lines.begin() + at(2), lines.begin() + at(kLast), [](const auto& l) { return l.first == "2"; });
  EXPECT_GE(meanwhile, 20) << "table 2's events were held back while table 1's gap was replayed:\n" << text_of(dir / "watch.out");
}

// A -c endpoint that did not answer froze watch for 1 s every 30 s: each gap asked it `status` and waited
// for the reply, the events held meanwhile. Now the question waits on its own: the events keep coming
// at the pace they are published, gaps and all.
TEST_F(Daemon, WatchKeepsShowingEventsWhileItsControlEndpointDoesNotAnswer) {
  zmq::socket_t venue(ctx, zmq::socket_type::pub);
  const std::string down = folder.ipc("down"), nobody = folder.ipc("nobody");
  venue.bind(down);
  auto watching = std::async(std::launch::async, [&] { return run_ctl_timed({"watch", "-e", down, "-c", nobody, "--json", "--seconds", "4"}); });
  // An event every 50 ms, one in five lost on the way (a gap each time), until watch ends.
  std::uint64_t seq = 0;
  do {
    if (++seq % 5 != 0) send_event(venue, "1", seq, "info", "event " + std::to_string(seq));
  } while (watching.wait_for(50ms) != std::future_status::ready);
  std::vector<TimedLine> lines = watching.get();
  std::vector<std::chrono::steady_clock::time_point> events;
  std::string out;
  for (const auto& l : lines) {
    out += l.text;
    if (l.text.starts_with("{")) events.push_back(l.at);
  }
  ASSERT_GE(events.size(), 20u) << out;
  EXPECT_NE(out.find(" not received (lost on the way"), std::string::npos) << "the gaps are named: " << out;
  EXPECT_EQ(out.find("gaps are named, not filled"), out.rfind("gaps are named, not filled")) << "said once: " << out;
  auto longest = std::chrono::steady_clock::duration::zero();
  for (std::size_t i = 1; i < events.size(); ++i) longest = std::max(longest, events[i] - events[i - 1]);
  // Under 800 ms: the question waits 1 s for its answer, and a loaded machine may hold a line a while.
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(longest).count(), 800) << "the events stopped while -c was asked:\n" << out;
}

// A broadcaster or director reconnecting to a venue wants every table's events since a point, but `watch
// --since N -c HUB` refused: "a hub keeps no journal". The hub names each table's own control endpoint
// (--table-control): --since N replays every such table's journal from its own seq N, --since TABLE:SEQ one
// table's from SEQ, and a table the hub has heard but names no endpoint for is said, not skipped in silence.
TEST_F(HubVenue, WatchSinceThroughAHubReplaysEveryTableFromItsOwnJournal) {
  start_venue({"--table-control", "default/A/1=ipc://" + (dir / "ctl1").string(), "--table-control", "default/A/2=ipc://" + (dir / "ctl2").string()});
  // Table 3 publishes to the hub with no control endpoint the hub knows of.
  zmq::socket_t table3(ctx, zmq::socket_type::pub);
  table3.connect(up);
  ASSERT_TRUE(wait_for([&] {
    send_event(table3, "3", 1, "info", "table 3 event 1");
    return hub_reply("alerts")["tables"].contains("default/A/3");
  })) << text_of(dir / "hub.log");
  std::map<std::string, std::uint64_t> last;  // each table's last seq, once it has played its board
  for (const std::string t : {"1", "2"})
    ASSERT_TRUE(wait_for([&] {
      json st = json::parse(run_ctl({"status", "--json", "-c", folder.ipc("ctl" + t)}).out, nullptr, false);
      if (!st.is_object() || !st.contains("status") || !st["status"].value("simulator", json::object()).value("finished", false)) return false;
      last["default/A/" + t] = st["status"].value("last_seq", std::uint64_t{0});
      return true;
    })) << text_of(dir / ("daemon" + t + ".log"));
  // The seqs watch showed of each table (JSON lines), and its other lines (stderr).
  auto watch = [&](std::vector<std::string> since) {
    std::vector<std::string> args = {"watch", "-e", down, "-c", hubctl, "--json", "--seconds", "1.5"};
    for (const auto& s : since) args.insert(args.end(), {"--since", s});
    CtlRun r = run_ctl(args);
    std::map<std::string, std::vector<std::uint64_t>> seqs;
    std::string said;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      json e = json::parse(line, nullptr, false);
      if (!e.is_object()) said += line + "\n";
      else if (e.contains("seq")) seqs[e.value("tournament", "") + "/" + e.value("section", "") + "/" + e.value("table", "")].push_back(e["seq"].get<std::uint64_t>());
    }
    return std::tuple{r.status, seqs, said};
  };
  auto from_to = [](std::uint64_t first, std::uint64_t last_seq) {
    std::vector<std::uint64_t> v;
    for (std::uint64_t s = first; s <= last_seq; ++s) v.push_back(s);
    return v;
  };
  // Every table's whole session, each from its own journal, in order, once; table 3 said, and exit 1.
  auto [exit_status, seqs, said] = watch({"1"});
  EXPECT_EQ(seqs["default/A/1"], from_to(1, last["default/A/1"])) << said;
  EXPECT_EQ(seqs["default/A/2"], from_to(1, last["default/A/2"])) << said;
  EXPECT_NE(said.find("--since: default/A/3: not replayed (the hub names no control endpoint for it"), std::string::npos) << said;
  EXPECT_EQ(said.find("a hub keeps no journal"), std::string::npos) << said;
  EXPECT_EQ(exit_status, 1) << said;
  // Where it stopped, for the next watch: its --since 1 (for table 3, and any table that comes), each table's
  // seq after the last it showed.
  const std::string resume = "--since 1 --since default/A/1:" + std::to_string(last["default/A/1"] + 1) + " --since default/A/2:" +
                             std::to_string(last["default/A/2"] + 1);
  EXPECT_NE(said.find("to go on from here: " + resume), std::string::npos) << said;
  // Going on from there: nothing of either table shown again, its heartbeats (last_seq) no gap.
  std::vector<std::string> next = {"default/A/1:" + std::to_string(last["default/A/1"] + 1), "default/A/2:" + std::to_string(last["default/A/2"] + 1)};
  std::tie(exit_status, seqs, said) = watch(next);
  EXPECT_TRUE(seqs["default/A/1"].empty() && seqs["default/A/2"].empty()) << said;
  EXPECT_EQ(exit_status, 0) << said;
  // One table from its own seq: table 2 from 5, nothing of table 1's journal; every table asked is served.
  std::tie(exit_status, seqs, said) = watch({"default/A/2:5"});
  EXPECT_EQ(seqs["default/A/2"], from_to(5, last["default/A/2"])) << said;
  EXPECT_TRUE(seqs["default/A/1"].empty()) << said;
  EXPECT_EQ(exit_status, 0) << said;
  // N for every table, and table 1's own: table 1 from its last, table 2 from 3.
  std::tie(exit_status, seqs, said) = watch({"3", "default/A/1:" + std::to_string(last["default/A/1"])});
  EXPECT_EQ(seqs["default/A/1"], from_to(last["default/A/1"], last["default/A/1"])) << said;
  EXPECT_EQ(seqs["default/A/2"], from_to(3, last["default/A/2"])) << said;
  // A table the hub does not know of, asked by name: said, exit 1.
  std::tie(exit_status, seqs, said) = watch({"default/B/9:1"});
  EXPECT_NE(said.find("--since: default/B/9: not replayed (the hub names no control endpoint for it"), std::string::npos) << said;
  EXPECT_EQ(exit_status, 1) << said;
  // A --since that is neither a seq nor a table's: wrong usage, named.
  CtlRun bad = run_ctl({"watch", "-e", down, "-c", hubctl, "--since", "default/A:4", "--seconds", "0.1"});
  EXPECT_EQ(bad.status, 2) << bad.out;
  EXPECT_NE(bad.out.find("TOURNAMENT/SECTION/TABLE:SEQ"), std::string::npos) << bad.out;
}

// A director back from a break, `watch --since 1` through the hub: each table's journal came whole, one
// table after another, so an alert at table 3 ten minutes ago showed after table 1's and table 2's whole
// afternoon. The venue's past comes as it happened, by the events' own time (ties by table, then seq),
// each table page by page; then the live events, none shown twice, none missed.
TEST_F(HubEndpoints, WatchSinceShowsTheVenuesPastInTimeOrderThenItsLiveEvents) {
  // Tables 1 and 2 play all afternoon, turn about, three pages each (two events at the same time now and
  // then); table 3 only late, at the same times as some of table 2's.
  constexpr double kStart = 1795430000;
  std::map<std::string, std::vector<double>> times;
  for (int s = 1; s <= 250; ++s) {
    times["1"].push_back(kStart + 10 * s);
    times["2"].push_back(kStart + 10 * s + (s % 3 ? 5 : 0));
  }
  for (int s = 1; s <= 30; ++s) times["3"].push_back(kStart + 80 * s + 5);
  std::vector<std::string> hub_args = {HUB, "--upstream", up, "--downstream", down, "--control", hubctl};
  std::vector<std::unique_ptr<StandInJournal>> journals;
  for (const auto& entry : times) {
    const std::string table = entry.first;  // a copy to capture: clang 14 cannot capture a structured binding
    hub_args.insert(hub_args.end(), {"--table-control", "default/A/" + table + "=" + folder.ipc("ctl" + table)});
    journals.push_back(std::make_unique<StandInJournal>(ctx, folder.ipc("ctl" + table), [&, table](std::uint64_t since) {
      return replay_page(table, times.at(table), since, 100);
    }));
  }
  lone_hub = fork_exec(hub_args, (dir / "hub.log").string());
  // --since is planned from the hub's first answer: asked before the hub is up, it would not name the tables.
  ASSERT_TRUE(wait_for([&] { return !hub_reply("status").empty(); })) << text_of(dir / "hub.log");
  zmq::socket_t tables(ctx, zmq::socket_type::pub);
  tables.connect(up);
  start_watch({"--since", "1", "--seconds", "30"});
  // The (time, table, seq) of each event watch showed, in its order.
  using Shown = std::tuple<double, std::string, std::uint64_t>;
  auto shown = [&] {
    std::vector<Shown> lines;
    for (const json& e : watched()) lines.emplace_back(e.value("time", 0.0), e.value("table", ""), e["seq"].get<std::uint64_t>());
    return lines;
  };
  std::vector<Shown> past;
  for (const auto& [table, at] : times)
    for (std::uint64_t seq = 1; seq <= at.size(); ++seq) past.emplace_back(at[seq - 1], table, seq);
  std::sort(past.begin(), past.end());
  ASSERT_TRUE(wait_for([&] { return shown().size() >= past.size(); })) << text_of(dir / "watch.out") << text_of(dir / "hub.log");
  // Live: table 1's next event, and table 2's last one again (a table that published it twice, or a
  // replay that raced it): shown once.
  const Shown next{kStart + 9000, "1", 251};
  ASSERT_TRUE(wait_for([&] {
    send_event(tables, "2", 250, "info", "table 2's last, again", "", times["2"].back());
    send_event(tables, "1", 251, "info", "table 1 live", "", kStart + 9000);
    const auto lines = shown();
    return std::find(lines.begin(), lines.end(), next) != lines.end();
  })) << text_of(dir / "watch.out");
  std::vector<Shown> expected = past;
  expected.push_back(next);
  const auto got = shown();
  const auto [wrong, want] = std::mismatch(got.begin(), got.end(), expected.begin(), expected.end());
  const auto name = [](auto at, auto end) { return at == end ? std::string("none") : "table " + std::get<1>(*at) + " #" + std::to_string(std::get<2>(*at)); };
  EXPECT_EQ(got, expected) << "not the venue's past in time order, then its live events: event " << wrong - got.begin() + 1 << " shown is "
                           << name(wrong, got.end()) << ", the venue's is " << name(want, expected.end());
}

// A --since replay of a slow journal while the venue goes on: watch read nothing of its subscriber until
// the replay ended, so the live events queued behind the high-water marks, and past them were dropped and
// asked again of the journal as gaps (rotated away by then, they were lost). Now watch reads them while
// the pages come, holds them, and shows each once after the replay, the journal asked for nothing more.
// The events come from a publisher at ZeroMQ's default mark (1,000), as a relay keeps: the hub keeps
// 200,000 for each subscriber, a daemon 100,000, so that through them the loss needs that many first.
TEST_F(HubEndpoints, WatchSinceHoldsTheLiveEventsThatCameDuringItsReplayAndShowsEachOnce) {
  constexpr std::uint64_t kJournalled = 300, kLive = 5000;
  const std::vector<double> times(kJournalled + kLive, 1795433673.5);
  const std::vector<double> journalled(times.begin(), times.begin() + kJournalled);
  std::atomic<bool> asked{false}, published{false};
  std::atomic<int> gap_questions{0};
  // Table 1's journal: its first pages wait (up to 2.5 s, within watch's 3 s) until the live events are
  // published; a question from past its replayed seqs is a gap watch had to replay.
  StandInJournal journal(ctx, folder.ipc("ctl1"), [&](std::uint64_t since) {
    if (since > kJournalled) {
      ++gap_questions;
      return replay_page("1", times, since, 5000);
    }
    asked = true;
    for (auto end = std::chrono::steady_clock::now() + 2500ms; !published && std::chrono::steady_clock::now() < end;) std::this_thread::sleep_for(10ms);
    return replay_page("1", journalled, since, 100);
  });
  start_hub_asking_table_1();
  ASSERT_TRUE(wait_for([&] { return !hub_reply("status").empty(); })) << text_of(dir / "hub.log");
  const std::string relay = folder.ipc("relay");
  zmq::socket_t table(ctx, zmq::socket_type::pub);
  table.bind(relay);
  start_watch({"--since", "1", "--seconds", "60"}, relay);
  ASSERT_TRUE(wait_for([&] { return asked.load(); })) << text_of(dir / "watch.out");
  for (std::uint64_t seq = kJournalled + 1; seq <= kJournalled + kLive; ++seq) {
    send_event(table, "1", seq, "info", "live during the replay");
    if (seq % 100 == 0) std::this_thread::sleep_for(5ms);  // at the pace a venue publishes, no faster than watch reads
  }
  published = true;
  // The table's heartbeats, as its daemon sends them: a watch behind its last seq replays the rest as a gap.
  ASSERT_TRUE(wait_for([&] {
    send_heartbeat(table, kJournalled + kLive, 0);
    return watched().size() >= kJournalled + kLive;
  })) << text_of(dir / "watch.out").substr(0, 4000);
  std::this_thread::sleep_for(300ms);  // an event shown twice would come now
  std::vector<std::uint64_t> seqs, expected;
  for (const json& e : watched()) seqs.push_back(e["seq"].get<std::uint64_t>());
  for (std::uint64_t seq = 1; seq <= kJournalled + kLive; ++seq) expected.push_back(seq);
  EXPECT_EQ(seqs, expected) << "not every event once, in seq order";
  EXPECT_EQ(gap_questions.load(), 0) << "the live events that came during the replay were asked again of the journal as gaps";
  EXPECT_EQ(text_of(dir / "watch.out").find("not received"), std::string::npos) << text_of(dir / "watch.out").substr(0, 4000);
}

// A director who stops a `watch --since` (Ctrl-C, systemd stopping its unit) while the replay runs: watch
// took its stop handlers only after the replay, so the signal killed it, and the pages it had, the live
// events it held and the line that says where to go on from were lost; the next watch read the whole
// afternoon again. Now it asks for no more pages, shows the venue's past in time order as far as every
// table's next event is known, the live events held that follow on from it, says where the replay stopped,
// prints where to go on from and exits 0, without waiting out the page's reply; the next watch given that
// line shows exactly the rest.
TEST_F(HubEndpoints, AWatchStoppedDuringItsSinceReplayShowsWhatItHadAndTheNextGoesOnFromThere) {
  // Table 1 (250 events, three pages) and table 2 (99 journalled when the replay asks, then its #100 live)
  // turn about, table 2 five seconds after table 1; table 1's second page does not come until the stop.
  constexpr double kStart = 1795430000;
  std::map<std::string, std::vector<double>> times;
  for (int s = 1; s <= 250; ++s) times["1"].push_back(kStart + 10 * s);
  for (int s = 1; s <= 100; ++s) times["2"].push_back(kStart + 10 * s + 5);
  std::atomic<bool> held{false}, stopped{false};
  std::atomic<std::size_t> table2_journalled{99};
  StandInJournal table1(ctx, folder.ipc("ctl1"), [&](std::uint64_t since) {
    if (since > 100 && !stopped) {
      held = true;
      for (auto end = std::chrono::steady_clock::now() + 10s; !stopped && std::chrono::steady_clock::now() < end;) std::this_thread::sleep_for(10ms);
    }
    return replay_page("1", times.at("1"), since, 100);
  });
  StandInJournal table2(ctx, folder.ipc("ctl2"), [&](std::uint64_t since) {
    return replay_page("2", {times.at("2").begin(), times.at("2").begin() + static_cast<std::ptrdiff_t>(table2_journalled.load())}, since, 100);
  });
  lone_hub = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", hubctl, "--table-control", "default/A/1=" + folder.ipc("ctl1"),
                        "--table-control", "default/A/2=" + folder.ipc("ctl2")},
                       (dir / "hub.log").string());
  ASSERT_TRUE(wait_for([&] { return !hub_reply("status").empty(); })) << text_of(dir / "hub.log");
  zmq::socket_t tables(ctx, zmq::socket_type::pub);
  tables.connect(up);
  start_watch({"--since", "1", "--seconds", "60"});
  ASSERT_TRUE(wait_for([&] { return held.load(); })) << text_of(dir / "watch.out");
  // Table 2's next event, live while table 1's page is awaited (published a few times: the same seq is
  // shown once), and one of table 1's past its page awaited (its journal's: the next watch shows it); then
  // the stop.
  table2_journalled = 100;
  for (int i = 0; i < 5; ++i) {
    send_event(tables, "2", 100, "info", "table 2 live during the replay", "", times["2"].back());
    send_event(tables, "1", 150, "info", "table 1 live during the replay", "", times["1"][149]);
    std::this_thread::sleep_for(60ms);
  }
  const auto stop_sent = std::chrono::steady_clock::now();
  ::kill(watch_pid, SIGTERM);
  const int first_exit = exit_status_of(std::exchange(watch_pid, -1));
  const auto took = std::chrono::steady_clock::now() - stop_sent;
  stopped = true;
  const std::string first_out = text_of(dir / "watch.out");
  EXPECT_EQ(first_exit, 0) << "killed by the signal, or not a normal stop:\n" << first_out.substr(first_out.size() > 3000 ? first_out.size() - 3000 : 0);
  EXPECT_LT(took, 1500ms) << "the stop waited for the page's reply (3 s)";
  // (table, seq) of each event shown, in its order.
  using Seen = std::pair<std::string, std::uint64_t>;
  const auto seen = [&] {
    std::vector<Seen> lines;
    for (const json& e : watched()) lines.emplace_back(e.value("table", ""), e["seq"].get<std::uint64_t>());
    return lines;
  };
  // What the pages in hand show in time order: every event up to table 1's #100 (its next one unknown),
  // table 2's #100 (live, following on from its #99) last.
  std::vector<Seen> first = seen(), expected;
  for (std::uint64_t seq = 1; seq <= 100; ++seq) {
    expected.emplace_back("1", seq);
    if (seq < 100) expected.emplace_back("2", seq);
  }
  expected.emplace_back("2", 100);
  EXPECT_EQ(first, expected) << first_out.substr(first_out.size() > 3000 ? first_out.size() - 3000 : 0);
  EXPECT_NE(first_out.find("replay was stopped"), std::string::npos) << first_out.substr(first_out.size() > 3000 ? first_out.size() - 3000 : 0);
  EXPECT_NE(first_out.find("default/A/1 from #101"), std::string::npos) << first_out.substr(first_out.size() > 3000 ? first_out.size() - 3000 : 0);
  // One event, said as one ("1 live events past #100 (#150 to #150)" read as a slip).
  EXPECT_NE(first_out.find("default/A/1: 1 live event past #100 (#150) not shown: its replay was stopped before it;"), std::string::npos)
      << first_out.substr(first_out.size() > 3000 ? first_out.size() - 3000 : 0);
  std::vector<std::string> resume = resume_line(first_out);
  ASSERT_FALSE(resume.empty()) << "no resume line:\n" << first_out.substr(first_out.size() > 3000 ? first_out.size() - 3000 : 0);
  // The next watch, from that line: the rest of table 1's afternoon, nothing of table 2 again.
  resume.insert(resume.end(), {"--seconds", "60"});
  start_watch(resume);
  ASSERT_TRUE(wait_for([&] { return seen().size() >= 150; })) << text_of(dir / "watch.out");
  std::this_thread::sleep_for(300ms);  // an event shown twice would come now
  ::kill(watch_pid, SIGTERM);
  EXPECT_EQ(exit_status_of(std::exchange(watch_pid, -1)), 0) << text_of(dir / "watch.out");
  std::vector<Seen> both = first, whole;
  const auto second = seen();
  both.insert(both.end(), second.begin(), second.end());
  std::sort(both.begin(), both.end());
  for (const auto& [table, at_times] : times)
    for (std::uint64_t seq = 1; seq <= at_times.size(); ++seq) whole.emplace_back(table, seq);
  std::sort(whole.begin(), whole.end());
  EXPECT_EQ(both, whole) << "the two watches together did not show every event once:\n" << text_of(dir / "watch.out");
}

// A watch stopped (SIGTERM: systemd, a terminal closed) while its standard output was slow to take its
// lines (a pipe, a pager): the events it had received already, queued in its socket, were dropped without
// a word. Now it shows them, without waiting for more, and exits 0.
TEST_F(HubEndpoints, AWatchStoppedShowsTheEventsItHadReceivedAlready) {
  // ~115 KB of JSON lines: more than a pipe holds (64 KB), and well under the 1,000 messages watch's SUB
  // socket holds (ZeroMQ's receive high-water mark): past it the rest wait in the hub, not received yet.
  constexpr std::uint64_t kEvents = 500;
  zmq::socket_t table = start_hub_and_a_table();
  ASSERT_TRUE(wait_for([&] { return !hub_reply("status").empty(); })) << text_of(dir / "hub.log");
  FILE* out = nullptr;
  const pid_t watch = start_piped_watch(table, {}, out);
  ASSERT_GT(watch, 0) << text_of(dir / "watch.err");
  const auto forwarded = [&] { return hub_reply("status").value("forwarded", std::uint64_t{0}); };
  const std::uint64_t before = forwarded();  // seq 1 was sent until watch showed it: more than once
  for (std::uint64_t seq = 2; seq <= kEvents; ++seq) {
    send_event(table, "1", seq, "info", "received before the stop");
    if (seq % 100 == 0) std::this_thread::sleep_for(5ms);
  }
  // Every event forwarded by the hub, then a moment for its queue to reach watch's socket (watch blocked on
  // the full pipe, its I/O thread still receiving).
  ASSERT_TRUE(wait_for([&] { return forwarded() >= before + kEvents - 1; }, 30s)) << hub_reply("status").dump();
  std::this_thread::sleep_for(1s);
  ::kill(watch, SIGTERM);
  int ended = -1;
  const std::vector<std::uint64_t> seqs = seqs_of_piped_watch(out, ended);
  EXPECT_TRUE(WIFEXITED(ended) && WEXITSTATUS(ended) == 0) << ended << text_of(dir / "watch.err");
  std::vector<std::uint64_t> expected;
  for (std::uint64_t seq = 1; seq <= kEvents; ++seq) expected.push_back(seq);
  EXPECT_EQ(seqs.size(), kEvents) << "events received before the stop were not shown:\n" << text_of(dir / "watch.err");
  EXPECT_EQ(seqs, expected);
}

// A `watch --since` stopped (SIGTERM) after its replay, with a gap among the events it had received
// already: the gap's replay was started and abandoned at once, and the line that says where to go on from
// went on after the gap, the events past it shown; the next watch given that line never showed the gap's
// seqs (only stderr named them). Now the events from the gap on are the next watch's, its line starts at
// the gap, and the two watches together show every event once.
TEST_F(HubEndpoints, AWatchStoppedWithAGapInWhatItHadReceivedLeavesTheGapToTheNextWatch) {
  // #501 and #502 lost on the way. ~115 KB: more than a pipe holds, and well under the 1,000 messages
  // watch's SUB socket holds: with 1,000 before the gap (and seq 1 sent a few times), #1003 to #1005 were
  // sometimes still in the hub at the stop, not received, and not said (1 run in 5).
  constexpr std::uint64_t kBeforeGap = 500, kLast = 505;
  std::atomic<std::size_t> journalled{0};
  StandInJournal journal(ctx, folder.ipc("ctl1"), [&](std::uint64_t since) {
    return replay_page("1", std::vector<double>(journalled.load(), 1795433673.5), since, 5000);
  });
  start_hub_asking_table_1();
  ASSERT_TRUE(wait_for([&] { return !hub_reply("status").empty(); })) << text_of(dir / "hub.log");
  zmq::socket_t table(ctx, zmq::socket_type::pub);
  table.connect(up);
  const std::string err = (dir / "watch.err").string();
  FILE* out = nullptr;
  const pid_t watch = start_piped_watch(table, {"--since", "1"}, out);  // its (empty) journal replayed first
  ASSERT_GT(watch, 0) << text_of(err);
  // Its standard output not read: watch blocks on the full pipe while the rest, the gap with it, waits in its socket.
  const auto forwarded = [&] { return hub_reply("status").value("forwarded", std::uint64_t{0}); };
  const std::uint64_t before = forwarded();  // seq 1 was sent until watch showed it: more than once
  std::uint64_t sent = 0;
  for (std::uint64_t seq = 2; seq <= kLast; ++seq) {
    if (seq > kBeforeGap && seq < kLast - 2) continue;
    send_event(table, "1", seq, "info", "received before the stop");
    ++sent;
    if (seq % 100 == 0) std::this_thread::sleep_for(5ms);
  }
  journalled = kLast;
  ASSERT_TRUE(wait_for([&] { return forwarded() >= before + sent; }, 30s)) << hub_reply("status").dump();
  std::this_thread::sleep_for(1s);  // for its queue to reach watch's socket
  ::kill(watch, SIGTERM);
  int ended = -1;
  const std::vector<std::uint64_t> first = seqs_of_piped_watch(out, ended);
  const std::string said = text_of(err);
  EXPECT_TRUE(WIFEXITED(ended) && WEXITSTATUS(ended) == 0) << ended << said;
  std::vector<std::uint64_t> expected;
  for (std::uint64_t seq = 1; seq <= kBeforeGap; ++seq) expected.push_back(seq);
  EXPECT_EQ(first, expected) << "shown past the gap, which the next watch would not show:\n" << said;
  EXPECT_NE(said.find("default/A/1: 3 live events past #500 (#503 to #505) not shown"), std::string::npos) << said << hub_reply("status").dump();
  std::vector<std::string> resume = resume_line(said);
  EXPECT_EQ(resume, (std::vector<std::string>{"--since", "1", "--since", "default/A/1:501"})) << said;
  // The next watch, from that line: the gap from the table's journal, and what followed it.
  resume.insert(resume.end(), {"--seconds", "60"});
  start_watch(resume);
  ASSERT_TRUE(wait_for([&] { return !watched().empty(); }, 10s)) << text_of(dir / "watch.out");
  std::this_thread::sleep_for(300ms);  // an event shown twice would come now
  ::kill(watch_pid, SIGTERM);
  EXPECT_EQ(exit_status_of(std::exchange(watch_pid, -1)), 0) << text_of(dir / "watch.out");
  std::vector<std::uint64_t> both = first, whole;
  for (const json& e : watched()) both.push_back(e["seq"].get<std::uint64_t>());
  std::sort(both.begin(), both.end());
  for (std::uint64_t seq = 1; seq <= kLast; ++seq) whole.push_back(seq);
  EXPECT_EQ(both, whole) << "the two watches together did not show every event once:\n" << said << text_of(dir / "watch.out");
}

// Mid-watch, a gap of a table the hub names no control endpoint for (nothing can replay it here): watch
// said it on stderr with the replay that fills it, and moved the table's last seq past it, so the line to go
// on from started after the gap and the next watch never showed its seqs. Now the line starts at the gap, as
// stderr says, and the next watch (its hub now naming the table's endpoint) shows it: the two together show
// every event (what the first showed past the gap, twice, rather than the gap never).
TEST_F(HubEndpoints, AGapNoEndpointReplaysMidWatchIsWhereTheLineToGoOnFromStarts) {
  constexpr std::uint64_t kLast = 7;  // #4 and #5 lost on the way
  StandInJournal table2(ctx, folder.ipc("ctl2"), [](std::uint64_t since) { return replay_page("2", {}, since, 5000); });
  StandInJournal table1(ctx, folder.ipc("ctl1"), [](std::uint64_t since) {
    return replay_page("1", std::vector<double>(kLast, 1795433673.5), since, 5000);
  });
  // At first the hub names table 2's endpoint only: table 1's gaps can only be said.
  lone_hub = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", hubctl, "--table-control", "default/A/2=" + folder.ipc("ctl2")},
                       (dir / "hub.log").string());
  ASSERT_TRUE(wait_for([&] { return !hub_reply("status").empty(); })) << text_of(dir / "hub.log");
  zmq::socket_t table(ctx, zmq::socket_type::pub);
  table.connect(up);
  const std::string err = (dir / "watch.err").string();
  FILE* out = nullptr;
  const pid_t watch = start_piped_watch(table, {"--since", "default/A/2:1"}, out);
  ASSERT_GT(watch, 0) << text_of(err);
  for (std::uint64_t seq : {2u, 3u, 6u, 7u}) send_event(table, "1", seq, "info", "live");
  ASSERT_TRUE(wait_for([&] { return text_of(err).find("default/A/1: events #4 to #5 not received") != std::string::npos; }, 10s)) << text_of(err);
  std::this_thread::sleep_for(300ms);  // #6 and #7 shown past the gap
  ::kill(watch, SIGTERM);
  int ended = -1;
  const std::vector<std::uint64_t> first = seqs_of_piped_watch(out, ended);
  const std::string said = text_of(err);
  EXPECT_TRUE(WIFEXITED(ended) && WEXITSTATUS(ended) == 0) << ended << said;
  EXPECT_EQ(first, (std::vector<std::uint64_t>{1, 2, 3, 6, 7})) << "the live events past the gap go on being shown:\n" << said;
  // Stderr and the line agree: the gap's replay command and the line both start at #4.
  EXPECT_NE(said.find("cardtablectl replay --since 4 -c ENDPOINT; the line to go on from starts at its #4"), std::string::npos) << said;
  EXPECT_NE(said.find("default/A/1: the line to go on from starts at #4, the first event this watch said and did not show; the next watch "
                      "shows again what this one showed past it (to #7)"),
            std::string::npos)
      << said;
  std::vector<std::string> resume = resume_line(said);
  EXPECT_EQ(resume, (std::vector<std::string>{"--since", "default/A/1:4", "--since", "default/A/2:1"})) << said;
  // The hub restarted naming table 1's endpoint too: the next watch, from that line, replays the gap.
  cardtable::test::end_process(lone_hub);
  lone_hub = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", hubctl, "--table-control", "default/A/1=" + folder.ipc("ctl1"),
                        "--table-control", "default/A/2=" + folder.ipc("ctl2")},
                       (dir / "hub2.log").string());
  ASSERT_TRUE(wait_for([&] { return !hub_reply("status").empty(); })) << text_of(dir / "hub2.log");
  resume.insert(resume.end(), {"--seconds", "60"});
  start_watch(resume);
  ASSERT_TRUE(wait_for([&] { return watched().size() >= 4; }, 10s)) << text_of(dir / "watch.out");
  ::kill(watch_pid, SIGTERM);
  EXPECT_EQ(exit_status_of(std::exchange(watch_pid, -1)), 0) << text_of(dir / "watch.out");
  std::set<std::uint64_t> both(first.begin(), first.end()), whole;
  for (const json& e : watched()) both.insert(e["seq"].get<std::uint64_t>());
  for (std::uint64_t seq = 1; seq <= kLast; ++seq) whole.insert(seq);
  EXPECT_EQ(both, whole) << "the two watches together left seqs unshown:\n" << said << text_of(dir / "watch.out");
}

// A table's journal that rotated its oldest files away, and has two damaged lines: watch --since showed
// what came and said nothing of the rest, so a director took part of the table's afternoon for all of it.
TEST_F(HubEndpoints, WatchSinceSaysWhatATablesJournalNoLongerHoldsOrCannotRead) {
  constexpr std::uint64_t kFirst = 41, kLast = 100;
  const std::vector<std::uint64_t> damaged = {57, 58};
  StandInJournal journal(ctx, folder.ipc("ctl1"), [&](std::uint64_t since) {
    json events = json::array();
    for (std::uint64_t seq = std::max(since, kFirst); seq <= kLast; ++seq)
      if (std::find(damaged.begin(), damaged.end(), seq) == damaged.end()) events.push_back(test_event("1", seq, "info", "journalled"));
    return json{{"ok", true}, {"events", events}, {"more", false}, {"first_available", kFirst}, {"last_seq", kLast}, {"unreadable", damaged}};
  });
  start_hub_asking_table_1();
  ASSERT_TRUE(wait_for([&] { return !hub_reply("status").empty(); })) << text_of(dir / "hub.log");
  start_watch({"--since", "1", "--seconds", "30"});
  const std::string rotated = "cardtablectl watch: default/A/1: events #1 to #40 are no longer in its journal (rotated away, its journal starts at #41): not shown";
  const std::string unreadable = "cardtablectl watch: default/A/1: events #57, #58 are damaged in its journal on the disk, not readable: not shown";
  ASSERT_TRUE(wait_for([&] { return watched().size() == kLast - kFirst + 1 - damaged.size(); })) << text_of(dir / "watch.out");
  ASSERT_TRUE(wait_for([&] {
    const std::string out = text_of(dir / "watch.out");
    return out.find(rotated) != std::string::npos && out.find(unreadable) != std::string::npos;
  })) << "not said:\n" << rotated << "\n" << unreadable << "\nwatch said:\n" << text_of(dir / "watch.out");
}

// A table's control endpoint answering of another shape ({"ok": "yes"}, an alert whose severity is not
// text): json's value() threw out of the hub's loop, and the hub that gathers the venue stopped. It says
// what came and goes on forwarding.
TEST_F(HubEndpoints, AHubAskingATableThatAnswersOfAnotherShapeSaysSoAndGoesOn) {
  StandInJournal table(ctx, folder.ipc("ctl1"), [](std::uint64_t) { return json{{"ok", true}, {"events", json::array()}}; }, [](const json& ask) {
    if (ask.value("command", "") == "alerts") return json{{"ok", "yes"}, {"alerts", json::array()}};
    return json{{"ok", true}, {"events", json::array({{{"seq", 1}, {"type", 5}}})}, {"more", false}, {"last_seq", 1}};
  });
  start_hub_asking_table_1();
  ASSERT_TRUE(wait_for([&] { return !hub_reply("status").empty(); })) << text_of(dir / "hub.log");
  zmq::socket_t table1(ctx, zmq::socket_type::pub);
  table1.connect(up);
  ASSERT_TRUE(wait_for([&] {
    send_heartbeat(table1, 1, 2);
    return text_of(dir / "hub.log").find("answered alerts with") != std::string::npos;
  })) << text_of(dir / "hub.log");
  std::this_thread::sleep_for(300ms);  // the hub's next rounds, where a throw would have ended it
  EXPECT_FALSE(hub_reply("status").empty()) << "the hub stopped:\n" << text_of(dir / "hub.log");
}

// A table's events lost on the way to the hub (a network cut, a queue full upstream) were gone from the
// hub's board in progress until the next board: a broadcaster joining through the hub saw a board short of
// its cards. Seqs of a journal come one by one, so the hub finds the lost ones by their seqs -- an event
// past the next, or a heartbeat naming a later last seq -- says so, and asks the table for its snapshot again.
TEST_F(HubEndpoints, EventsLostOnTheWayToTheHubAreFoundByTheirSeqsAndItsBoardIsAskedForAgain) {
  JournallingTable stand_in(ctx, folder.ipc("ctl1"), up);
  zmq::socket_t& table = stand_in.pub;
  const auto journalled = [&](const std::string& type, bool reaches_the_hub) { stand_in.journalled(type, reaches_the_hub); };
  ASSERT_NO_FATAL_FAILURE(start_hub_seeded_by(stand_in));
  auto hub_holds = [&] {
    std::vector<std::uint64_t> seqs;
    auto r = cardtable::test::control_request(ctx, hubctl, {{"command", "snapshot"}}, 3000);
    if (r && (*r)["tables"].contains("default/A/1"))
      for (const json& e : (*r)["tables"]["default/A/1"]["events"]) seqs.push_back(e.value("seq", std::uint64_t{0}));
    return seqs;
  };
  using Seqs = std::vector<std::uint64_t>;

  journalled("board.identified", true);
  journalled("board.arrived", true);
  ASSERT_TRUE(wait_for([&] { return hub_holds() == Seqs{1, 2}; })) << text_of(dir / "hub.log");

  // #3 and #4 lost; #5 comes: the hub finds the gap and asks again.
  journalled("play.card", false);
  journalled("play.card", false);
  journalled("play.card", true);
  EXPECT_TRUE(wait_for([&] { return hub_holds() == Seqs{1, 2, 3, 4, 5}; }, 8s)) << "the hub holds " << json(hub_holds()).dump() << "\n" << text_of(dir / "hub.log");
  EXPECT_NE(text_of(dir / "hub.log").find("default/A/1: events #3 to #4 of its journal never reached the hub"), std::string::npos) << text_of(dir / "hub.log");

  // The board's last event lost: only the next heartbeat, naming the last seq, tells of it.
  journalled("play.card", false);
  send_heartbeat(table, 6, 0);
  EXPECT_TRUE(wait_for([&] { return hub_holds() == Seqs{1, 2, 3, 4, 5, 6}; }, 8s)) << "the hub holds " << json(hub_holds()).dump() << "\n" << text_of(dir / "hub.log");
  EXPECT_NE(text_of(dir / "hub.log").find("default/A/1: event #6 of its journal never reached the hub"), std::string::npos) << text_of(dir / "hub.log");
  EXPECT_EQ(hub_reply("status").value("missed", -1), 3) << hub_reply("status").dump();
  CtlRun said = run_ctl({"status", "-c", hubctl});
  EXPECT_NE(said.out.find(", 3 events never reached it (seqs skipped)"), std::string::npos) << said.out;
}

// A heartbeat whose last_seq no journal backs (a bug at the table, a corrupted message): the hub took it as
// its last seq heard, `missed` jumped by ~2^62, and no gap of that table was ever found again (no seq came
// past it). The table's own snapshot, asked after the gap, names its real last seq: the hub takes it, says
// so once, and takes back from `missed` what the claim added; the next lost event is found again.
TEST_F(HubEndpoints, AHeartbeatClaimingASeqTheTablesSnapshotDisownsIsTakenBackAndLaterGapsAreFound) {
  constexpr std::uint64_t kBogus = std::uint64_t{1} << 62;
  JournallingTable stand_in(ctx, folder.ipc("ctl1"), up);
  ASSERT_NO_FATAL_FAILURE(start_hub_seeded_by(stand_in, 2));
  send_heartbeat(stand_in.pub, kBogus, 0);  // after #1 and #2 on the same socket: the hub has heard them
  expect_claim_disowned(stand_in, "a heartbeat named seq #" + std::to_string(kBogus) + " as its last", 2);
}

// A table whose board in progress holds more events than one snapshot reply answers in part ("more"):
// the answer's last_seq is still its journal's, and disowns a claim no journal backs as a whole answer
// does. Before, that branch took nothing of the answer: `missed` kept ~2^62 and no later gap was found.
TEST_F(HubEndpoints, AClaimIsDisownedByASnapshotAnsweredInPartToo) {
  constexpr std::uint64_t kBogus = std::uint64_t{1} << 62;
  JournallingTable stand_in(ctx, folder.ipc("ctl1"), up);
  const auto log = [&] { return text_of(dir / "hub.log"); };
  ASSERT_NO_FATAL_FAILURE(start_hub_seeded_by(stand_in, 2));
  stand_in.answers_in_part();
  send_heartbeat(stand_in.pub, kBogus, 0);
  EXPECT_TRUE(wait_for([&] { return log().find("holds more events than one snapshot reply") != std::string::npos; }, 8s)) << log();
  expect_claim_disowned(stand_in, "a heartbeat named seq #" + std::to_string(kBogus) + " as its last", 2);
}

// A table the hub cannot ask (no --table-control): nothing can disown a heartbeat's claim, so one that
// names a seq more than a million past the last heard is not believed: said once, not counted, and the
// table's next lost event is still found.
TEST_F(HubEndpoints, AHeartbeatClaimingAMillionEventsPastTheLastHeardIsNotBelievedWithoutTableControl) {
  zmq::socket_t table = start_hub_and_a_table();
  const auto log = [&] { return text_of(dir / "hub.log"); };
  ASSERT_TRUE(wait_for([&] {
    send_event(table, "1", 1, "info", "first");
    return hub_reply("status").value("forwarded", 0) >= 1;
  })) << log();
  send_event(table, "1", 2, "info", "second");
  send_heartbeat(table, (std::uint64_t{1} << 62), 0);
  send_heartbeat(table, (std::uint64_t{1} << 62) + 1, 0);
  send_event(table, "1", 4, "info", "after #3 was lost");
  EXPECT_TRUE(wait_for([&] { return log().find("default/A/1: event #3 of its journal never reached the hub") != std::string::npos; })) << log();
  EXPECT_EQ(hub_reply("status").value("missed", std::uint64_t{0}), 1u) << hub_reply("status").dump();
  const std::string said = log();
  const std::string unbelieved = "default/A/1: a heartbeat named seq #" + std::to_string(std::uint64_t{1} << 62) + " as its last";
  EXPECT_NE(said.find(unbelieved), std::string::npos) << said;
  EXPECT_EQ(said.find("not believed", said.find('\n', said.find(unbelieved))), std::string::npos) << "said more than once:\n" << said;
}

// A table the hub cannot ask whose FIRST message names a seq no journal backs: nothing was heard before
// it to judge it by, so the hub took it as the table's last seq, and every real event after it (#1, #2,
// ...) came below it: no gap of that table was found again. The first claim stands only until a seq more
// than a million below it comes (a journal counts up one by one): the hub then follows the lower, says
// so once, and counts nothing for the claim.
TEST_F(HubEndpoints, AFirstHeartbeatClaimingASeqNoJournalBacksIsGivenUpWhenRealEventsComeFarBelowIt) {
  constexpr std::uint64_t kBogus = std::uint64_t{1} << 62;
  zmq::socket_t table = start_hub_and_a_table();
  const auto log = [&] { return text_of(dir / "hub.log"); };
  ASSERT_TRUE(first_heartbeat_claims(table, kBogus)) << log();
  send_event(table, "1", 1, "info", "first");
  send_event(table, "1", 2, "info", "second");
  send_event(table, "1", 3, "info", "third");
  send_event(table, "1", 5, "info", "after #4 was lost");
  EXPECT_TRUE(wait_for([&] { return log().find("default/A/1: event #4 of its journal never reached the hub") != std::string::npos; })) << log();
  EXPECT_EQ(hub_reply("status").value("missed", std::uint64_t{0}), 1u) << hub_reply("status").dump();
  const std::string said = "default/A/1: its first message, a heartbeat, named seq #" + std::to_string(kBogus) + ", then an event named #1";
  EXPECT_NE(log().find(said), std::string::npos) << log();
}

// An event (not a heartbeat) naming a seq no journal backs, at a table the hub cannot ask: its seq was
// taken as the table's last, `missed` jumped by ~2^62 and no later gap was found. Judged as a heartbeat's
// claim is: more than a million past the last seq heard, not believed (said once, not counted); the event
// itself is still forwarded, nothing lost.
TEST_F(HubEndpoints, AnEventClaimingAMillionSeqsPastTheLastHeardIsForwardedButItsSeqNotBelievedWithoutTableControl) {
  constexpr std::uint64_t kBogus = std::uint64_t{1} << 62;
  zmq::socket_t table = start_hub_and_a_table();
  zmq::socket_t sub(ctx, zmq::socket_type::sub);
  sub.set(zmq::sockopt::subscribe, "");
  sub.set(zmq::sockopt::rcvtimeo, 100);
  sub.connect(down);
  const auto log = [&] { return text_of(dir / "hub.log"); };
  std::vector<std::uint64_t> received;
  const auto receive = [&] {
    for (zmq::message_t m; sub.recv(m, zmq::recv_flags::dontwait);)
      if (!m.more()) received.push_back(json::parse(m.to_string_view()).value("seq", std::uint64_t{0}));
  };
  ASSERT_TRUE(wait_for([&] {
    send_event(table, "1", 1, "info", "first");
    receive();
    return !received.empty();
  })) << log();
  send_event(table, "1", 2, "info", "second");
  send_event(table, "1", kBogus, "info", "a seq no journal backs");
  send_event(table, "1", kBogus + 1, "info", "and another");
  send_event(table, "1", 3, "info", "third");
  send_event(table, "1", 5, "info", "after #4 was lost");
  EXPECT_TRUE(wait_for([&] { return log().find("default/A/1: event #4 of its journal never reached the hub") != std::string::npos; })) << log();
  EXPECT_EQ(hub_reply("status").value("missed", std::uint64_t{0}), 1u) << hub_reply("status").dump();
  EXPECT_TRUE(wait_for([&] {
    receive();
    return std::count(received.begin(), received.end(), kBogus) == 1 && std::count(received.begin(), received.end(), kBogus + 1) == 1;
  })) << "the events whose seqs were not believed were not forwarded: " << json(received).dump();
  const std::string said = log();
  const std::string unbelieved = "default/A/1: an event named seq #" + std::to_string(kBogus) + ", ";
  EXPECT_NE(said.find(unbelieved), std::string::npos) << said;
  EXPECT_EQ(said.find("not believed", said.find('\n', said.find(unbelieved))), std::string::npos) << "said more than once:\n" << said;
}

// The same event at a table the hub asks (--table-control): its seq was taken as one journalled, so the
// snapshot's answer could not disown it (an event was thought to back it), and `missed` kept ~2^62. An
// event that skips seqs backs nothing until the table's answer does: the answer takes its claim back.
TEST_F(HubEndpoints, AnEventClaimingASeqTheTablesSnapshotDisownsIsTakenBackAndLaterGapsAreFound) {
  constexpr std::uint64_t kBogus = std::uint64_t{1} << 62;
  JournallingTable stand_in(ctx, folder.ipc("ctl1"), up);
  ASSERT_NO_FATAL_FAILURE(start_hub_seeded_by(stand_in, 2));
  send_event(stand_in.pub, "1", kBogus, "info", "a seq no journal backs");
  expect_claim_disowned(stand_in, "an event named seq #" + std::to_string(kBogus), 2);
}

// A table's bug numbered a heartbeat 2^62 and numbers its next event 2^62 + 1: that event merely continues
// the claim. Taken as an event heard in order, it backed the claim: the snapshot's answer (#2) disowned
// nothing, `missed` kept ~2^62 and no later gap of the table was found. Only the table's journal backs a
// claim; the events continuing it are heard (not counted in missed) and disowned with it.
TEST_F(HubEndpoints, AnEventThatMerelyContinuesAClaimDoesNotBackIt) {
  constexpr std::uint64_t kBogus = std::uint64_t{1} << 62;
  JournallingTable stand_in(ctx, folder.ipc("ctl1"), up);
  ASSERT_NO_FATAL_FAILURE(start_hub_seeded_by(stand_in, 2));
  // Within the 2 s the hub waits between two questions of a table: both are heard before its answer.
  send_heartbeat(stand_in.pub, kBogus, 0);
  send_event(stand_in.pub, "1", kBogus + 1, "info", "the bug's next seq");
  expect_claim_disowned(stand_in, "a heartbeat named seq #" + std::to_string(kBogus) + " as its last, then seqs to #" + std::to_string(kBogus + 1), 2);
}

// The same bug in a table's first message, at a table the hub cannot ask: the event after it judged the
// first claim (a seq past it), so the real events after it (#1, #2...) all came below it, and no gap of the
// table was found again. A first claim stays unjudged while events merely continue it.
TEST_F(HubEndpoints, AnEventThatMerelyContinuesAFirstHeartbeatsClaimDoesNotJudgeIt) {
  constexpr std::uint64_t kBogus = std::uint64_t{1} << 62;
  zmq::socket_t table = start_hub_and_a_table();
  const auto log = [&] { return text_of(dir / "hub.log"); };
  ASSERT_TRUE(first_heartbeat_claims(table, kBogus)) << log();
  send_event(table, "1", kBogus + 1, "info", "the bug's next seq");
  send_event(table, "1", 1, "info", "first");
  send_event(table, "1", 2, "info", "second");
  send_event(table, "1", 3, "info", "third");
  send_event(table, "1", 5, "info", "after #4 was lost");
  EXPECT_TRUE(wait_for([&] { return log().find("default/A/1: event #4 of its journal never reached the hub") != std::string::npos; })) << log();
  EXPECT_EQ(hub_reply("status").value("missed", std::uint64_t{0}), 1u) << hub_reply("status").dump();
  const std::string said = "default/A/1: its first message, a heartbeat, named seq #" + std::to_string(kBogus) + ", events to #" +
                           std::to_string(kBogus + 1) + " continued it, then an event named #1";
  EXPECT_NE(log().find(said), std::string::npos) << log();
}

// A table that keeps sending the claim its snapshot disowned (a stuck bug: every heartbeat names it): each
// one was counted again, the table asked again, and the answer took it back -- `missed` jumped by ~2^62
// and fell, every 2 s. A claim disowned stays disowned until an answer of the table names it: not counted
// again, said once.
TEST_F(HubEndpoints, AClaimTheTablesSnapshotDisownedStaysDisownedWhenTheTableRepeatsIt) {
  constexpr std::uint64_t kBogus = std::uint64_t{1} << 62;
  JournallingTable stand_in(ctx, folder.ipc("ctl1"), up);
  zmq::socket_t& table = stand_in.pub;
  const auto log = [&] { return text_of(dir / "hub.log"); };
  ASSERT_NO_FATAL_FAILURE(start_hub_seeded_by(stand_in, 2));
  send_heartbeat(table, kBogus, 0);
  const std::string disowned = "default/A/1: a heartbeat named seq #" + std::to_string(kBogus) + " as its last, its snapshot answered #2";
  ASSERT_TRUE(wait_for([&] { return log().find(disowned) != std::string::npos; }, 8s)) << log();
  ASSERT_TRUE(wait_for([&] { return hub_reply("status").value("missed", std::uint64_t{1}) == 0; })) << hub_reply("status").dump() << "\n" << log();

  // Heartbeats every 100 ms naming the claim again, for longer than two of the hub's 2 s between questions.
  std::vector<std::uint64_t> seen;
  for (const auto until = std::chrono::steady_clock::now() + 5s; std::chrono::steady_clock::now() < until;) {
    send_heartbeat(table, kBogus, 0);
    seen.push_back(hub_reply("status").value("missed", std::uint64_t{0}));
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 0u), static_cast<std::ptrdiff_t>(seen.size())) << "missed as status gave it: " << json(seen).dump() << "\n" << log();
  const std::string said = log();
  EXPECT_EQ(said.find(disowned, said.find(disowned) + 1), std::string::npos) << "disowned more than once:\n" << said;
  const std::string again = "default/A/1: a heartbeat named seq #" + std::to_string(kBogus) + " as its last again";
  EXPECT_NE(said.find(again), std::string::npos) << said;
  EXPECT_EQ(said.find(again, said.find(again) + 1), std::string::npos) << "said more than once:\n" << said;

  expect_a_later_gap_found(stand_in);
}

// Events heard between a claim and the snapshot answer that disowns it: the claim (after #2) counted #3 to
// the claim, #3 was lost and #4 heard; the answer (#4) took back only what lay past #4, and `missed` kept
// #4, heard, as missed (2, not 1). What the claim added is all it counted but the seqs really missed.
TEST_F(HubEndpoints, EventsHeardBetweenAClaimAndTheSnapshotThatDisownsItAreTakenBackWithIt) {
  constexpr std::uint64_t kBogus = std::uint64_t{1} << 62;
  JournallingTable stand_in(ctx, folder.ipc("ctl1"), up);
  const auto log = [&] { return text_of(dir / "hub.log"); };
  ASSERT_NO_FATAL_FAILURE(start_hub_seeded_by(stand_in, 2));
  // Within the 2 s the hub waits between two questions of a table: its answer is made after #4.
  send_heartbeat(stand_in.pub, kBogus, 0);
  stand_in.journalled("play.card", false);
  stand_in.journalled("play.card", true);
  const std::string said = "default/A/1: a heartbeat named seq #" + std::to_string(kBogus) + " as its last, its snapshot answered #4";
  ASSERT_TRUE(wait_for([&] { return log().find(said) != std::string::npos; }, 8s)) << log();
  EXPECT_NE(log().find("its last seq is #4 again and " + std::to_string(kBogus - 3) + " events are taken back from missed"), std::string::npos) << log();
  EXPECT_EQ(hub_reply("status").value("missed", std::uint64_t{0}), 1u) << "only #3 was missed: " << hub_reply("status").dump() << "\n" << log();

  // Its last seq is #4 again: #5 lost, #6 heard, the gap is found.
  stand_in.journalled("play.card", false);
  stand_in.journalled("play.card", true);
  EXPECT_TRUE(wait_for([&] { return log().find("default/A/1: event #5 of its journal never reached the hub") != std::string::npos; })) << log();
  EXPECT_EQ(hub_reply("status").value("missed", std::uint64_t{0}), 2u) << hub_reply("status").dump();
}

// A table asked (--table-control) whose snapshot questions were given up (its control endpoint refuses
// them, or cannot be reached): no answer will ever disown a claim, yet every claim was believed -- a
// heartbeat naming 2^62 added ~2^62 to `missed` and hid the table's later gaps. While given up, a claim is
// judged as at a table without --table-control: more than a million past the last heard, not believed
// (said once, not counted), and the next lost event is still found.
TEST_F(HubEndpoints, AClaimAtATableWhoseSnapshotQuestionsWereGivenUpIsJudgedAsWithoutTableControl) {
  constexpr std::uint64_t kBogus = std::uint64_t{1} << 62;
  StandInJournal refusing(ctx, folder.ipc("ctl1"), [](std::uint64_t) { return json{{"ok", true}, {"events", json::array()}}; },
                          [](const json&) { return json{{"ok", false}, {"error", "busy"}}; });
  start_hub_asking_table_1();
  zmq::socket_t table(ctx, zmq::socket_type::pub);
  table.connect(up);
  const auto log = [&] { return text_of(dir / "hub.log"); };
  ASSERT_TRUE(wait_for([&] {
    send_heartbeat(table, 0, 0);
    return log().find("default/A/1: its control endpoint answered snapshot with") != std::string::npos &&
           log().find("gave up after 6 questions") != std::string::npos;
  }, 40s)) << log();
  send_event(table, "1", 1, "info", "first");
  send_event(table, "1", 2, "info", "second");
  send_heartbeat(table, kBogus, 0);
  send_event(table, "1", kBogus + 1, "info", "a seq no journal backs");
  send_event(table, "1", 4, "info", "after #3 was lost");
  EXPECT_TRUE(wait_for([&] { return log().find("default/A/1: event #3 of its journal never reached the hub") != std::string::npos; })) << log();
  EXPECT_EQ(hub_reply("status").value("missed", std::uint64_t{0}), 1u) << hub_reply("status").dump() << "\n" << log();
  const std::string said = log();
  const std::string unbelieved = "default/A/1: a heartbeat named seq #" + std::to_string(kBogus) + " as its last, " + std::to_string(kBogus - 2) +
                                 " past #2 heard: not believed (its snapshot questions were given up";
  EXPECT_NE(said.find(unbelieved), std::string::npos) << said;
  EXPECT_EQ(said.find("not believed", said.find('\n', said.find(unbelieved))), std::string::npos) << "said more than once:\n" << said;
}

// A table that never gives its snapshot must neither stop the hub's forwarding nor be asked without end:
// one that answers with an error is asked again at most every 2 s, 6 questions in all, and the hub says
// once that it gave up; one that does not answer at all is asked again after 10 s. Meanwhile the hub
// forwards, and keeps the board from what it hears.
TEST_F(HubEndpoints, ATableThatNeverGivesItsSnapshotIsAskedSixTimesAtMostWhileTheHubForwards) {
  std::atomic<int> refused{0}, unanswered{0};
  StandInJournal table_1(ctx, folder.ipc("ctl1"), [](std::uint64_t) { return json{{"ok", true}, {"events", json::array()}}; }, [&](const json& ask) {
    if (ask.value("command", "") == "snapshot") ++refused;
    return json{{"ok", false}, {"error", "busy"}};
  });
  // Table 2's control endpoint holds every question unanswered (a daemon stalled on its disk).
  zmq::socket_t table_2_control(ctx, zmq::socket_type::router);
  table_2_control.bind(folder.ipc("ctl2"));
  lone_hub = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", hubctl, "--table-control", "default/A/1=" + folder.ipc("ctl1"),
                        "--table-control", "default/A/2=" + folder.ipc("ctl2")},
                       (dir / "hub.log").string());
  zmq::socket_t table(ctx, zmq::socket_type::pub);
  table.connect(up);
  zmq::socket_t sub(ctx, zmq::socket_type::sub);
  sub.set(zmq::sockopt::subscribe, "");
  sub.set(zmq::sockopt::rcvtimeo, 100);
  sub.connect(down);
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t seq = 0, received = 0;
  // Both tables publish all along (a board's events, 10 a second each); the subscriber counts them.
  auto round = [&] {
    ++seq;
    ::publish(table, "board/default/A/1/board.arrived",
              json{{"class", "board"}, {"type", "board.arrived"}, {"severity", "info"}, {"time", 1795433673.5}, {"mono", 1.0}, {"tournament", "default"},
                   {"section", "A"}, {"table", "1"}, {"seq", seq}, {"message", "a pocket"}});
    ::publish(table, "board/default/A/2/board.arrived",
              json{{"class", "board"}, {"type", "board.arrived"}, {"severity", "info"}, {"time", 1795433673.5}, {"mono", 1.0}, {"tournament", "default"},
                   {"section", "A"}, {"table", "2"}, {"seq", seq}, {"message", "a pocket"}});
    for (zmq::message_t m; sub.recv(m, zmq::recv_flags::dontwait);)
      if (!m.more()) ++received;
    std::vector<zmq::message_t> q;
    while (zmq::recv_multipart(table_2_control, std::back_inserter(q), zmq::recv_flags::dontwait)) {
      if (json::parse(q.back().to_string_view(), nullptr, false).value("command", "") == "snapshot") ++unanswered;
      q.clear();
    }
    std::this_thread::sleep_for(100ms);
  };
  const std::string gave_up = "default/A/1: its control endpoint answered snapshot with";
  ASSERT_TRUE(wait_for([&] {
    round();
    return text_of(dir / "hub.log").find("gave up after 6 questions") != std::string::npos && unanswered >= 2;
  }, 40s)) << "table 1 asked " << refused << " times, table 2 " << unanswered << "\n" << text_of(dir / "hub.log");
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (int i = 0; i < 25; ++i) round();  // 2.5 s more: no seventh question
  EXPECT_EQ(refused.load(), 6) << text_of(dir / "hub.log");
  EXPECT_GE(took, 10.0) << "six questions at most every 2 s take 10 s at least";
  const std::string log_text = text_of(dir / "hub.log");
  EXPECT_NE(log_text.find("default/A/2: no answer from its control endpoint " + folder.ipc("ctl2") + " to snapshot within 10 s; asking again"),
            std::string::npos) << log_text;
  // Said twice for table 1 (the first refusal, and the giving up), not once a question.
  std::size_t said = 0;
  for (auto at = log_text.find(gave_up); at != std::string::npos; at = log_text.find(gave_up, at + 1)) ++said;
  EXPECT_EQ(said, 2u) << log_text;
  // Forwarded all along, and each table's board kept from what the hub heard.
  EXPECT_GT(received, 2 * (seq - 10)) << "of " << 2 * seq;
  auto snapshot = cardtable::test::control_request(ctx, hubctl, {{"command", "snapshot"}}, 3000);
  ASSERT_TRUE(snapshot);
  EXPECT_FALSE((*snapshot)["tables"]["default/A/1"]["events"].empty()) << snapshot->dump().substr(0, 500);
  EXPECT_FALSE((*snapshot)["tables"]["default/A/2"]["events"].empty()) << snapshot->dump().substr(0, 500);
}

// An event of another shape through the hub ({"type": 5}: the hub forwards any JSON object under an
// event's topic) threw out of json::value() in every director's watch and ended it. It is said, not shown,
// and the watch goes on with the next.
TEST_F(HubEndpoints, AnEventOfAnotherShapeIsSaidAndTheWatchGoesOn) {
  zmq::socket_t table = start_hub_and_a_table();
  ASSERT_TRUE(wait_for([&] { return !hub_reply("status").empty(); })) << text_of(dir / "hub.log");
  start_watch({"--seconds", "30"});
  ASSERT_TRUE(wait_for([&] {
    ::publish(table, "irregularity/default/A/1/irregularity.test", json{{"type", 5}, {"class", "irregularity"}, {"table", "1"}, {"seq", 1}});
    ::publish(table, "irregularity/default/A/1/irregularity.test", json{{"type", "irregularity.test"}, {"severity", {{"not", "text"}}}, {"seq", 2}});
    send_event(table, "1", 3, "alert", "the next event");
    for (const json& e : watched())
      if (e["seq"] == 3) return true;
    return false;
  })) << text_of(dir / "watch.out");
  const std::string out = text_of(dir / "watch.out");
  EXPECT_NE(out.find("cardtablectl watch: an event of another shape, not shown (no \"type\")"), std::string::npos) << out;
  EXPECT_NE(out.find("cardtablectl watch: an event of another shape, not shown (a field has the wrong type"), std::string::npos) << out;
  for (const json& e : watched()) EXPECT_EQ(e["seq"], 3) << "only the well-formed event is shown: " << e.dump();
}

// Through a hub, one table killed while the others went on: their heartbeats kept watch's "nothing for
// 15 s" quiet, and the table's silence was said nowhere on the director's screen. Now it is said for that
// table alone, once.
TEST_F(HubVenue, WatchThroughAHubSaysWhenOneTableFallsSilent) {
  start_venue({}, "1");
  // The tables beat every second and say so (protocol 1.7): watch, left at its default --heartbeat of 5 s,
  // counts a table's silence in the table's own heartbeats, three of them 3 s.
  auto watching = std::async(std::launch::async, [&] { return run_ctl({"watch", "-e", down, "-c", folder.ipc("ctl1"), "--seconds", "9"}); });
  ASSERT_TRUE(wait_for([&] { return hub_reply("status").value("tables", 0) == 2; })) << hub_reply("status").dump(2);
  std::this_thread::sleep_for(1s);  // watch hears both tables
  ::kill(tables[1], SIGKILL);
  ::waitpid(tables[1], nullptr, 0);
  CtlRun r = watching.get();
  EXPECT_EQ(r.status, 0) << r.out;
  const std::string said = "table default/A/2: nothing from it for 3 s, not even a heartbeat, while other tables are heard";
  EXPECT_NE(r.out.find(said), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(said), r.out.rfind(said)) << "said once: " << r.out;
  EXPECT_EQ(r.out.find("table default/A/1: nothing from it"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("nothing from " + down), std::string::npos) << "the venue is not silent: " << r.out;
}

// `board` printed a bare "ok" where `contract` and `ack` name the event they made: the board's
// board.identified is its reply's last_seq. A director reads each the same way now.
TEST_F(Daemon, BoardAndContractEachNameTheEventTheyMade) {
  start("play-fouled-board.scn", 50);
  ASSERT_TRUE(wait_finished()) << log();
  CtlRun board = run_ctl({"board", "Spring Pairs/1/3", "-c", ctl});
  EXPECT_EQ(board.status, 0) << board.out;
  auto table_status = request({{"command", "status"}});
  ASSERT_TRUE(table_status);
  const std::uint64_t identified = (*table_status)["status"]["last_seq"].get<std::uint64_t>();
  EXPECT_EQ(board.out, "ok (event " + std::to_string(identified) + ")\n");
  auto event = request({{"command", "replay"}, {"since", identified}});
  ASSERT_TRUE(event && !(*event)["events"].empty());
  EXPECT_EQ((*event)["events"][0]["type"], "board.identified") << event->dump();
  // The reply names its own event, as contract's and ack's do (1.5): the board.identified, by its seq.
  auto reply = request({{"command", "board"}, {"label", "Spring Pairs/1/4"}});
  ASSERT_TRUE(reply && reply->value("ok", false)) << (reply ? reply->dump() : "no reply");
  ASSERT_TRUE(reply->contains("seq") && (*reply)["seq"].is_number_unsigned()) << reply->dump();
  event = request({{"command", "replay"}, {"since", (*reply)["seq"]}});
  ASSERT_TRUE(event && !(*event)["events"].empty());
  EXPECT_EQ((*event)["events"][0]["type"], "board.identified") << event->dump();
  EXPECT_EQ((*event)["events"][0]["seq"], (*reply)["seq"]) << event->dump();
  CtlRun contract = run_ctl({"contract", "4H S", "-c", ctl});
  EXPECT_EQ(contract.status, 0) << contract.out;
  table_status = request({{"command", "status"}});
  ASSERT_TRUE(table_status);
  EXPECT_EQ(contract.out, "ok (event " + std::to_string((*table_status)["status"]["last_seq"].get<std::uint64_t>()) + ")\n");
}

// Which control commands a hub answers, said in each one's help: a director reading `ack --help` did not
// know that a hub's endpoint would refuse it, nor `status --help` that the hub answers it.
TEST(CardtablectlHelp, EachControlCommandSaysWhetherAHubAnswersIt) {
  // The help as one line: boost wraps a description where the terminal's width falls.
  auto help = [](const std::vector<std::string>& args) {
    std::string out = run_ctl(args).out, flat;
    for (char c : out)
      if (!(std::isspace(static_cast<unsigned char>(c)) && !flat.empty() && flat.back() == ' ')) flat += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
    return flat;
  };
  for (const char* command : {"status", "version", "snapshot", "alerts"})
    EXPECT_NE(help({command, "--help"}).find("the table's control endpoint, or a hub's"), std::string::npos) << command;
  for (const char* command : {"ack", "evidence", "board", "contract", "replay", "load-record"})
    EXPECT_NE(help({command, "--help"}).find("the table's control endpoint (not a hub's)"), std::string::npos) << command;
  EXPECT_NE(help({"--help"}).find("alerts also a hub's"), std::string::npos);
}

// A director who pointed `ack`, `evidence` or `replay` at the hub (operations.md points `alerts` there)
// was told "the hub's requests have no fields": nothing said that these go to the table's own endpoint.
TEST_F(Daemon, TableRequestsSentToTheHubSayToAskTheTablesOwnControlEndpoint) {
  const std::string hubctl = folder.ipc("hub-ctl");
  pid = fork_exec({HUB, "--upstream", folder.ipc("hub-up"), "--downstream", folder.ipc("hub-down"), "--control", hubctl},
                  (dir / "hub.log").string());
  for (const std::vector<std::string>& args : {std::vector<std::string>{"ack", "9", "--by", "Anne"}, {"evidence", "9"}, {"replay", "--since", "1"},
                                               {"board", "7"}, {"contract", "4H S"}}) {
    std::vector<std::string> line = args;
    line.insert(line.end(), {"-c", hubctl});
    CtlRun r;
    ASSERT_TRUE(wait_for([&] { return (r = run_ctl(line)).out.find("no reply") == std::string::npos; })) << r.out;  // the hub is up
    EXPECT_EQ(r.status, 1) << args[0] << ": " << r.out;
    EXPECT_NE(r.out.find("'" + args[0] + "' is a request for a table's own control endpoint"), std::string::npos) << args[0] << ": " << r.out;
  }
}

// Told a table's control endpoint badly, the hub refuses to start, naming the option (exit 2).
TEST_F(Daemon, TheHubRefusesABadTableControl) {
  for (const std::string& bad : {std::string("default/A/1"), std::string("A/1=ipc://x"), std::string("default/A/1=tcp://192.0.2.10:5552")}) {
    CtlRun r;
    std::string cmd = std::string(HUB) + " --upstream ipc://" + (dir / "u").string() + " --downstream ipc://" + (dir / "d").string() +
                      " --control ipc://" + (dir / "c").string() + " --table-control '" + bad + "' 2>&1";
    FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::array<char, 4096> buf{};
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    int st = ::pclose(p);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 2) << bad << ": " << r.out;
    EXPECT_NE(r.out.find("--table-control"), std::string::npos) << bad << ": " << r.out;
  }
}

// Each of these reached the hub from upstream and misbehaved: a heartbeat that was not JSON made every
// snapshot reply unreadable ("the reply is not JSON" for every late joiner), a live.* deal sent to the
// hub by a misconfigured table went to every director, an empty topic was forwarded and counted. Now
// each is dropped and counted; what is forwarded and kept is what tables send as events.
TEST_F(Daemon, TheHubDropsWhatIsNotAnEventAndItsRepliesStayReadable) {
  std::string up = folder.ipc("hub-up"), down = folder.ipc("hub-down"),
              hubctl = folder.ipc("hub-ctl");
  pid = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", hubctl}, (dir / "hub.log").string());
  // The table's side is an XPUB: it sees the subscriptions the hub sends up.
  zmq::socket_t table(ctx, zmq::socket_type::xpub);
  table.set(zmq::sockopt::rcvtimeo, 5000);
  table.connect(up);
  zmq::message_t sub;
  ASSERT_TRUE(table.recv(sub)) << "the hub never subscribed";
  EXPECT_EQ(sub.to_string(), std::string(1, '\x01'));  // everything
  zmq::socket_t director(ctx, zmq::socket_type::sub);
  director.set(zmq::sockopt::subscribe, "");
  director.set(zmq::sockopt::subscribe, "sub-of-a-director");
  director.set(zmq::sockopt::rcvtimeo, 100);
  director.connect(down);
  auto send = [&](const std::string& topic, const std::string& body) {
    table.send(zmq::buffer(topic), zmq::send_flags::sndmore);
    table.send(zmq::buffer(body));
  };
  json beat = {{"class", "daemon"}, {"type", "daemon.heartbeat"}, {"tournament", "default"}, {"section", "A"}, {"table", "1"}, {"seq", 1}};
  json deal = {{"class", "live"}, {"type", "live.deal"}, {"evidence", {{"deal", "N:AKQJ.T98.765.432 ..."}}}};
  std::vector<std::string> seen;
  for (int round = 0; round < 50 && std::find(seen.begin(), seen.end(), "daemon/default/A/1/daemon.heartbeat") == seen.end(); ++round) {
    send("daemon/evil/X/9/daemon.heartbeat", "\xff not json");
    send("live/default/A/1/live.deal", deal.dump());
    send("", "");
    send("daemon/default/A/1/daemon.heartbeat", beat.dump());
    for (zmq::message_t m; director.recv(m);) {
      seen.push_back(m.to_string());
      if (m.more()) (void)director.recv(m);
    }
  }
  for (const auto& t : seen) EXPECT_EQ(t, "daemon/default/A/1/daemon.heartbeat");
  ASSERT_FALSE(seen.empty());
  // The director's own subscription stays at the hub: tables are not made to keep subscribers' filters.
  table.set(zmq::sockopt::rcvtimeo, 300);
  for (zmq::message_t m; table.recv(m);) EXPECT_EQ(m.to_string().find("sub-of-a-director"), std::string::npos);

  // The snapshot holds the board in progress as the table's own does: after a board's return, the next
  // board starts the list (a session's boards are identified without arriving again).
  for (const char* type : {"board.arrived", "board.identified", "board.returned", "board.identified"}) {
    json e = beat;
    e["class"] = "board";
    e["type"] = type;
    send(std::string("board/default/A/1/") + type, e.dump());
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CtlRun snapshot = run_ctl({"snapshot", "-c", hubctl});
  EXPECT_EQ(snapshot.status, 0) << snapshot.out;
  json s = json::parse(snapshot.out, nullptr, false);
  ASSERT_TRUE(s.is_object()) << snapshot.out;
  EXPECT_TRUE(s["tables"].contains("default/A/1")) << snapshot.out;
  EXPECT_FALSE(s["tables"].contains("evil/X/9")) << snapshot.out;
  EXPECT_EQ(s["tables"]["default/A/1"]["heartbeat"]["seq"], 1);
  ASSERT_EQ(s["tables"]["default/A/1"]["events"].size(), 1u) << snapshot.out;
  EXPECT_EQ(s["tables"]["default/A/1"]["events"][0]["type"], "board.identified");
  // cardtablectl status and version at the hub's control endpoint (operations.md sends directors there):
  // status ended in an uncaught exception (exit 134), version said "cardtabled ?, protocol 0.0".
  CtlRun hub_status = run_ctl({"status", "-c", hubctl});
  EXPECT_EQ(hub_status.status, 0) << hub_status.out;
  // Singular for one: "1 tables heard" read as a slip.
  EXPECT_NE(hub_status.out.find("hub: 1 table heard, "), std::string::npos) << hub_status.out;
  EXPECT_NE(hub_status.out.find(" messages dropped"), std::string::npos) << hub_status.out;
  CtlRun version = run_ctl({"version", "-c", hubctl});
  EXPECT_EQ(version.out.find("cardtable-hub "), 0u) << version.out;
  ::kill(pid, SIGTERM);
  ::waitpid(pid, nullptr, 0);
  pid = -1;
  const std::string hub_log = text_of(dir / "hub.log");
  EXPECT_NE(hub_log.find("\"daemon/evil/X/9/daemon.heartbeat\": its body is not a JSON object"), std::string::npos) << hub_log;
  EXPECT_NE(hub_log.find("hand contents (live.*) never pass through the hub"), std::string::npos) << hub_log;
  EXPECT_NE(hub_log.find("\"\": not an event's topic"), std::string::npos) << hub_log;
}

// A bind that fails names the option and the address; it said only "No such file or directory".
TEST_F(Daemon, AHubThatCannotBindNamesTheOptionAndTheAddress) {
  const std::string nowhere = "ipc://" + (dir / "no-such-folder" / "c").string();
  pid_t hub = fork_exec({HUB, "--upstream", folder.ipc("u"), "--downstream", folder.ipc("d"), "--control", nowhere},
                        (dir / "hub.log").string());
  EXPECT_EQ(exit_status_of(hub), 2);
  const std::string hub_log = text_of(dir / "hub.log");
  EXPECT_NE(hub_log.find("--control: " + nowhere + ": No such file or directory"), std::string::npos) << hub_log;
  // A second hub on a running hub's ipc path took the path over without a word, and the first was cut
  // off from every table that connected after.
  const std::string up = folder.ipc("up");
  pid = fork_exec({HUB, "--upstream", up, "--downstream", folder.ipc("d1"), "--control", folder.ipc("c1")},
                  (dir / "first.log").string());
  ASSERT_TRUE(wait_for([&] { return fs::exists(dir / "up"); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  hub = fork_exec({HUB, "--upstream", up, "--downstream", folder.ipc("d2"), "--control", folder.ipc("c2")},
                  (dir / "second.log").string());
  EXPECT_EQ(exit_status_of(hub), 2);
  const std::string second_log = text_of(dir / "second.log");
  EXPECT_NE(second_log.find("--upstream: " + up + ": a running program listens on it"), std::string::npos) << second_log;
}

// tcp://...:* binds an ephemeral port: the hub logged "tcp://127.0.0.1:*" and its status had no
// endpoints, so no table could be pointed at it. Both now give the port bound.
TEST_F(Daemon, AHubOnAnEphemeralPortSaysWhichPort) {
  const std::string hubctl = folder.ipc("hub-ctl");
  pid = fork_exec({HUB, "--plaintext", "--upstream", "tcp://127.0.0.1:*", "--downstream", folder.ipc("hub-down"), "--control", hubctl},
                  (dir / "hub.log").string());
  CtlRun r;
  ASSERT_TRUE(wait_for([&] { return (r = run_ctl({"status", "-c", hubctl, "--json"})).status == 0; })) << r.out;
  json s = json::parse(r.out, nullptr, false);
  ASSERT_TRUE(s.is_object()) << r.out;
  const std::string upstream = s["endpoints"].value("upstream", "");
  EXPECT_TRUE(upstream.starts_with("tcp://127.0.0.1:") && upstream.find('*') == std::string::npos && upstream.size() > 16) << r.out;
  const std::string hub_log = text_of(dir / "hub.log");
  EXPECT_NE(hub_log.find("upstream " + upstream + ","), std::string::npos) << hub_log;
}

// A director's secret key that others on the laptop could read was used without a word, so any user
// there could act as the director on the wire. cardtablectl now refuses it as ssh does a private key:
// the file, its mode and the chmod that fixes it, exit status 2; the owner's own key (0600) works
// against a real daemon with CURVE.
TEST_F(Daemon, CardtablectlRefusesASecretKeyOthersCanReadAndUsesItsOwnersAlone) {
  const std::string keys = (dir / "keys").string(), td = keys + "/clients/director/td.key", server = keys + "/server.pub";
  ASSERT_EQ(run_ctl({"keygen", "server", "--dir", keys}).status, 0);
  ASSERT_EQ(run_ctl({"keygen", "td", "--dir", keys + "/clients/director"}).status, 0);
  start("play-fouled-board.scn", 50, {"--curve-secret", keys + "/server.key", "--clients", keys + "/clients"});
  CtlRun r;
  ASSERT_TRUE(wait_for([&] { return (r = run_ctl({"status", "-c", ctl, "--key", td, "--server-key", server, "--json"})).status == 0; }))
      << r.out << log();
  EXPECT_NE(r.out.find("\"security\": \"curve\""), std::string::npos) << r.out;
  for (const char* mode : {"0644", "0640", "0604", "0660"}) {
    ASSERT_EQ(std::system(("chmod " + std::string(mode) + " '" + td + "'").c_str()), 0);
    for (const std::vector<std::string>& command :
         {std::vector<std::string>{"status", "-c", ctl}, {"ack", "1", "--by", "Mallory", "-c", ctl}, {"watch", "-e", pub, "-c", ctl, "--seconds", "0.1"}}) {
      std::vector<std::string> args = command;
      args.insert(args.end(), {"--key", td, "--server-key", server});
      r = run_ctl(args);
      EXPECT_EQ(r.status, 2) << mode << " " << command[0] << ": " << r.out;
      EXPECT_NE(r.out.find(td + ": "), std::string::npos) << r.out;
      EXPECT_NE(r.out.find(std::string("mode ") + mode), std::string::npos) << r.out;
      EXPECT_NE(r.out.find("chmod 600 " + td), std::string::npos) << r.out;
      EXPECT_EQ(r.out.find("\"ok\""), std::string::npos) << "it went on and asked the daemon: " << r.out;
    }
  }
  ASSERT_EQ(std::system(("chmod 0600 '" + td + "'").c_str()), 0);
  r = run_ctl({"status", "-c", ctl, "--key", td, "--server-key", server});
  EXPECT_EQ(r.status, 0) << r.out;
}

// The daemon's public key (--server-key) and the client's own keypair, hostile: each refused with the
// file named and exit status 2, never a crash ("terminate called" for 40 characters that are not Z85)
// nor plain text.
TEST_F(Daemon, CardtablectlRefusesHostileKeyFilesNamingThem) {
  const std::string keys = (dir / "keys").string(), td = keys + "/td.key";
  ASSERT_EQ(run_ctl({"keygen", "server", "--dir", keys}).status, 0);
  ASSERT_EQ(run_ctl({"keygen", "td", "--dir", keys}).status, 0);
  const std::string pub_line = text_of(keys + "/server.pub");
  const std::string good = pub_line.substr(pub_line.find("public = ") + 9, 40);
  fs::create_directories(keys + "/folder.pub");
  std::string not_z85 = good;
  not_z85[3] = '~';
  std::string garbage;
  for (int i = 1; i < 500; ++i) garbage += static_cast<char>((i * 131) % 256);
  const std::vector<std::pair<std::string, std::string>> hostile = {
      {"empty.pub", ""}, {"truncated.pub", "public = " + good.substr(0, 17) + "\n"}, {"garbage.pub", garbage},
      {"notz85.pub", "public = " + not_z85 + "\n"}, {"long.pub", "public = " + good + good + "\n"}};
  for (const auto& [name, text] : hostile) std::ofstream(keys + "/" + name, std::ios::binary) << text;
  std::vector<std::string> files = {keys + "/folder.pub", keys + "/missing.pub"};
  for (const auto& [name, text] : hostile) files.push_back(keys + "/" + name);
  for (const auto& f : files) {
    for (const std::string command : {"status", "watch"}) {
      std::vector<std::string> args = {command, "-c", ctl, "--key", td, "--server-key", f};
      if (command == "watch") args.insert(args.end(), {"-e", pub, "--seconds", "0.1"});
      CtlRun r = run_ctl(args);
      EXPECT_EQ(r.status, 2) << command << " " << f << ": " << r.out;
      EXPECT_NE(r.out.find(f + ": "), std::string::npos) << command << " " << f << ": " << r.out;
      EXPECT_EQ(r.out.find("terminate"), std::string::npos) << r.out;
    }
    // The same file as the client's own keypair (mode 0600, so that its content is what is refused).
    if (fs::is_regular_file(f)) fs::permissions(f, fs::perms::owner_read | fs::perms::owner_write);
    CtlRun r = run_ctl({"status", "-c", ctl, "--key", f, "--server-key", keys + "/server.pub"});
    EXPECT_EQ(r.status, 2) << f << ": " << r.out;
    EXPECT_NE(r.out.find(f + ": "), std::string::npos) << f << ": " << r.out;
  }
  // An option given empty is not "no CURVE": it was plain text without a word.
  for (const std::vector<std::string>& empty : {std::vector<std::string>{"--key", "", "--server-key", ""}, {"--key", "", "--server-key", keys + "/server.pub"}}) {
    std::vector<std::string> args = {"status", "-c", ctl};
    args.insert(args.end(), empty.begin(), empty.end());
    CtlRun r = run_ctl(args);
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.out.find("--key names no file"), std::string::npos) << r.out;
  }
}
