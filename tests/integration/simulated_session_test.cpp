// The real cardtabled playing a whole session generated from the master record (--simulate-session), with
// one fault injected at a time: a subscriber gets the fouled board's irregularity and nothing else
// irregular; flicker and dropped reads are uncertain readings, never irregularities; an unplugged reader is
// a lost device whose zones are uncertain, then resume.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <thread>
#include <zmq.hpp>
#include <zmq_addon.hpp>

#include "daemon_fixture.hpp"

namespace {

// Spring Pairs, session 1: boards 1-8 (tests/scenarios/master/spring-pairs.pbn).
const std::string kMaster = SCENARIO_DIR "/master/spring-pairs.pbn";
const std::string kSession = "Spring Pairs/1";

class SimulatedSession : public Daemon {
 protected:
  // What a subscriber holds once the session is played: the events it received on the PUB socket, its
  // gaps filled from the journal with `replay` as docs/protocol.md ("Nothing lost") tells subscribers to.
  std::vector<json> subscribe_until_finished() {
    std::map<std::uint64_t, json> by_seq;
    auto drain = [&] {
      std::vector<zmq::message_t> frames;
      while (zmq::recv_multipart(sub_, std::back_inserter(frames), zmq::recv_flags::dontwait)) {
        json e = json::parse(frames.at(1).to_string_view());
        if (e.contains("seq")) by_seq[e["seq"].get<std::uint64_t>()] = e;
        frames.clear();
        ++received_live_;
      }
    };
    EXPECT_TRUE(wait_for([&] {
      drain();
      auto r = request({{"command", "status"}}, 500);
      return r && (*r)["status"]["simulator"]["finished"].get<bool>();
    }, 120s)) << log();
    drain();
    for (const json& e : replay_all()) by_seq.emplace(e["seq"].get<std::uint64_t>(), e);
    std::vector<json> out;
    for (auto& [seq, e] : by_seq) out.push_back(e);
    return out;
  }
  static std::vector<json> of_type(const std::vector<json>& ev, const std::string& type) {
    std::vector<json> out;
    for (const json& e : ev)
      if (e["type"] == type) out.push_back(e);
    return out;
  }
  static std::vector<int> returned(const std::vector<json>& ev) {
    std::vector<int> out;
    for (const json& e : of_type(ev, "board.returned")) out.push_back(e["board"].get<int>());
    return out;
  }
  // Asks for status as fast as the daemon answers (no pause between requests), for up to 60 s, until
  // `done` says so of a reply.
  bool wait_for_each_reply(const std::function<bool(const json&)>& done) {
    auto end = std::chrono::steady_clock::now() + 60s;
    while (std::chrono::steady_clock::now() < end)
      if (auto r = request({{"command", "status"}}, 500); r && done(*r)) return true;
    return false;
  }
  void SetUp() override {
    Daemon::SetUp();
    sub_.set(zmq::sockopt::subscribe, "");
    sub_.connect(pub);  // before the daemon binds: zmq connects when it is there
  }

  zmq::socket_t sub_{ctx, zmq::socket_type::sub};
  std::size_t received_live_ = 0;
};

TEST_F(SimulatedSession, AFouledBoardIsTheOnlyIrregularOneAndItsHandsAreFoundSwapped) {
  start_session(kMaster, kSession, 300, {"--foul", "3"});
  auto ev = subscribe_until_finished();
  EXPECT_GT(received_live_, 0u);
  EXPECT_EQ(returned(ev), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8})) << log();
  std::set<std::string> types;
  bool cause_found = false;
  for (const json& e : ev) {
    if (e["class"] != "irregularity") continue;
    EXPECT_EQ(e["board"], 3) << e.dump();
    types.insert(e["type"].get<std::string>());
    if (e["evidence"].value("cause", "") == "North's and East's hands are swapped") cause_found = true;
  }
  // Law 87A: North plays East's cards -- cards from another hand, and then the cause.
  EXPECT_EQ(types, (std::set<std::string>{"irregularity.card_from_other_hand"}));
  EXPECT_TRUE(cause_found) << "no card_from_other_hand names the swapped hands";
  auto s = request({{"command", "status"}});
  ASSERT_TRUE(s);
  EXPECT_EQ((*s)["status"]["simulator"]["scenario"], "session " + kSession);
}

// 5 % flicker (a reply missed for a poll) and 5 % dropped reads, seed 7: before the table took a read
// hearing fewer tags for a missed reply, this session lost 12 of its 104 tricks (docs/hardware.md). Each
// missed reply was then also said as a zone that "keeps changing" (about 70 warnings a session, while the
// table concluded rightly from the same reads); now they are counted by reader in status.
TEST_F(SimulatedSession, MissedRepliesAndDroppedReadsAreCountedByReaderNeverIrregularities) {
  start_session(kMaster, kSession, 300, {"--sim-faults", "flicker=0.05,drop=0.05,seed=7"});
  auto ev = subscribe_until_finished();
  EXPECT_EQ(returned(ev), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8})) << log();
  for (const json& e : ev) {
    EXPECT_NE(e["class"], "irregularity") << e.dump();
    EXPECT_FALSE(e["type"] == "reading.uncertain" && e["evidence"].value("cause", "") == "flicker") << "a missed reply said as flicker: " << e.dump();
    EXPECT_NE(e["type"], "device.health") << "a reader missing replies as readers do said failing: " << e.dump();
  }
  auto reply = request({{"command", "status"}});
  ASSERT_TRUE(reply);
  const json sim = (*reply)["status"]["reads_by_device"]["sim"];
  EXPECT_GT(sim.value("missed_replies", 0), 0) << (*reply)["status"].dump();
  EXPECT_GT(sim.value("heard", 0), 10 * sim.value("missed_replies", 0)) << "more missed replies than the sim's 5 % of its reads of a card";
  EXPECT_EQ(of_type(ev, "board.trick").size(), 8u * 13u);
  // Each board counts its own tricks from 1: a board that follows another without a board.arrived once
  // went on from the last one's 13 ("13 tricks played" at its first trick).
  std::map<int, std::vector<int>> counts;
  for (const json& e : of_type(ev, "board.trick")) counts[e["board"].get<int>()].push_back(std::stoi(e["evidence"]["tricks"].get<std::string>()));
  std::vector<int> one_to_thirteen(13);
  std::iota(one_to_thirteen.begin(), one_to_thirteen.end(), 1);
  for (const auto& [board, seen] : counts) EXPECT_EQ(seen, one_to_thirteen) << "board " << board;
}

// A reader missing three replies in ten (an antenna detuned, a cable working loose) is said to directors,
// once, with its share and its zones, while the table goes on reading from it: by the first board's end.
TEST_F(SimulatedSession, AReaderMissingManyRepliesIsSaidOnceWithItsShare) {
  start_session(kMaster, kSession, 300, {"--sim-faults", "flicker=0.3,seed=7"});
  auto ev = subscribe_until_finished();
  auto health = of_type(ev, "device.health");
  ASSERT_EQ(health.size(), 1u) << log();
  const json& e = health[0];
  EXPECT_EQ(e["severity"], "warning");
  EXPECT_EQ(e["evidence"]["device"], "sim");
  EXPECT_EQ(e["evidence"]["state"], "missing replies");
  EXPECT_GE(std::stod(e["evidence"]["share"].get<std::string>()), 15.0) << e.dump();
  EXPECT_NE(e["evidence"]["zones"].get<std::string>().find("pocket:N"), std::string::npos) << e.dump();
  EXPECT_NE(e["message"].get<std::string>().find("check the reader's antennas"), std::string::npos) << e.dump();
  auto first_return = std::find_if(ev.begin(), ev.end(), [](const json& x) { return x["type"] == "board.returned"; });
  ASSERT_NE(first_return, ev.end());
  EXPECT_LT(e["seq"].get<std::uint64_t>(), (*first_return)["seq"].get<std::uint64_t>()) << "said within the first board";
}

// What device.health said outlives a restart (protocol 1.10). The technician seats the reader's cable again
// and restarts the daemon: the new run starts from the journal's last device.health of the reader and says
// it good at its first window -- before, the new run took every reader for good, never said it, and the
// console named the reader all the next session.
TEST_F(SimulatedSession, AReaderSaidMissingRepliesAndMendedBeforeARestartIsSaidGoodByTheNextRun) {
  start_session(kMaster, kSession, 300, {"--sim-faults", "flicker=0.3,seed=7"});
  ASSERT_EQ(of_type(subscribe_until_finished(), "device.health").size(), 1u) << log();
  stop();
  start_session(kMaster, kSession, 300);
  const auto health = of_type(subscribe_until_finished(), "device.health");
  ASSERT_EQ(health.size(), 2u) << log();
  EXPECT_EQ(health[1]["severity"], "info");
  EXPECT_EQ(health[1]["evidence"]["device"], "sim");
  EXPECT_EQ(health[1]["evidence"]["state"], "good");
  auto reply = request({{"command", "status"}});
  ASSERT_TRUE(reply);
  EXPECT_EQ((*reply)["status"]["reads_by_device"]["sim"]["health"], "good") << reply->dump();
}

// The simulator says `finished` once the table has applied every input it queued, not once it has queued
// them: the loop serves status between batches of inputs, and a simulator at --speed 10000 whose misreads
// make the loop journal an event (an fdatasync) every few readings runs ahead of it (missed replies did
// too until they stopped being said as flicker, protocol 1.8). A client that took
// `finished` for the end of the session once read a journal without the last board's return (CI, under
// a loaded disk: boards 1-7 of 8). Here, before the fix, 3 runs of 3 saw events concluded after it.
TEST_F(SimulatedSession, WhenTheSimulatorSaysFinishedTheTableHasPlayedEverythingItQueued) {
  start_session(kMaster, kSession, 10000, {"--sim-faults", "flicker=0.05,drop=0.05,misread=0.05,seed=7"});
  std::optional<json> done;
  ASSERT_TRUE(wait_for_each_reply([&](const json& r) {
    if (r["status"]["simulator"]["finished"].get<bool>()) done = r;
    return done.has_value();
  })) << log();
  const auto last_seq = (*done)["status"]["last_seq"].get<std::uint64_t>();
  std::this_thread::sleep_for(1s);  // whatever was still queued would be concluded by now
  auto later = request({{"command", "status"}});
  ASSERT_TRUE(later);
  EXPECT_EQ((*later)["status"]["last_seq"].get<std::uint64_t>(), last_seq) << "events concluded after 'finished'";
  EXPECT_EQ((*done)["status"]["inputs_queued"], 0);
  auto ev = replay_all();
  std::erase_if(ev, [&](const json& e) { return e["seq"].get<std::uint64_t>() > last_seq; });
  EXPECT_EQ(returned(ev), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8})) << log();
  EXPECT_EQ(of_type(ev, "board.trick").size(), 8u * 13u);
}

TEST_F(SimulatedSession, AReaderUnpluggedBetweenBoardsIsALostDeviceItsZonesUncertainThenResumed) {
  // Board 1 is back in its pockets at 71 s, board 2 arrives at 80 s: away from 73 s to 76 s.
  start_session(kMaster, kSession, 300, {"--sim-faults", "unplug=73000+3000"});
  auto ev = subscribe_until_finished();
  EXPECT_EQ(returned(ev), (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8})) << log();
  for (const json& e : ev) EXPECT_NE(e["class"], "irregularity") << e.dump();
  EXPECT_EQ(of_type(ev, "device.lost").size(), 1u);
  EXPECT_EQ(of_type(ev, "device.added").size(), 2u);
  std::size_t lost = 0;
  for (const json& e : of_type(ev, "reading.uncertain")) lost += e["evidence"].value("cause", "") == "device lost" ? 1U : 0U;
  EXPECT_GT(lost, 0u);
}

TEST_F(SimulatedSession, ASessionNotInTheMasterRecordOrAnUnknownFaultIsRefusedWithTheReason) {
  start_session(kMaster, "Spring Pairs/9", 100);
  int st = 0;
  ::waitpid(pid, &st, 0);
  pid = -1;
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) != 0) << log();
  EXPECT_NE(log().find("--simulate-session Spring Pairs/9: no session '9' of 'Spring Pairs' in the master record"), std::string::npos) << log();
  start_session(kMaster, kSession, 300, {"--sim-faults", "fouled=1"});
  ::waitpid(pid, &st, 0);
  pid = -1;
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 2) << log();
  EXPECT_NE(log().find("--sim-faults: 'fouled=1' is not one of drop=P, misread=P, flicker=P, unplug=AT+FOR, seed=N"), std::string::npos) << log();
}

}  // namespace
