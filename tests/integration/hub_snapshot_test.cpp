// A late joiner through the hub sees what a late joiner of the table sees (docs/protocol.md, `snapshot`):
// the hub's snapshot of a table holds the same events as that table's own snapshot -- the board in
// progress from its first event, and nothing after a board's return or after a start until one begins.
// A hub started mid-board, told the table's control endpoint (--table-control), holds that board at once:
// it asks the table for its own snapshot and goes on from it with the events it forwards.
// The real cardtabled publishing to the real cardtable-hub.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "daemon_fixture.hpp"

namespace {

// A station board in real time, with the pauses a late joiner comes in: before the board (0-3 s), after
// its label and its first pocket (about 12-14 s), and after its verification (from about 43 s). A pocket
// is 13 cards passed over the slot at the station's own pace (7.8 s), a pause over 2 s between pockets.
constexpr const char* kPausedBoard = R"(master )" SCENARIO_DIR R"(/master/spring-pairs.pbn
master )" SCENARIO_DIR R"(/master/autumn-teams.pbn
zones station-scan
at 3 board Spring Pairs/1/3
at 4 scan pocket N as master
at 14 scan pocket E as master
at 24 scan pocket S as master
at 34 scan pocket W as master
end 46
)";

using Seen = std::vector<std::pair<std::uint64_t, std::string>>;  // seq, type

Seen seen(const json& events) {
  Seen out;
  for (const json& e : events) out.emplace_back(e.value("seq", std::uint64_t{0}), e.value("type", std::string()));
  return out;
}

class HubSnapshot : public Daemon {
 protected:
  void SetUp() override {
    publish = "connect:" + up;
    std::ofstream(dir / "paused-board.scn") << kPausedBoard;
  }
  void start_hub(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {HUB, "--upstream", up, "--downstream", folder.ipc("hub-down"), "--control", hubctl};
    args.insert(args.end(), extra.begin(), extra.end());
    hub = fork_exec(args, (dir / "hub.log").string());
  }
  std::string hub_log() const { return text_of(dir / "hub.log"); }
  // Until the table's own snapshot holds its board's label and first pocket (board.arrived): mid-board.
  void wait_until_mid_board() {
    ASSERT_TRUE(wait_for([&] {
      auto s = request({{"command", "snapshot"}}, 500);
      if (!s) return false;
      for (const json& e : (*s)["events"])
        if (e["type"] == "board.arrived") return true;
      return false;
    }, 30s)) << log();
  }
  void TearDown() override {
    stop();
    cardtable::test::end_process(hub, SIGTERM);
  }
  std::optional<json> hub_request(const std::string& command) {
    return cardtable::test::control_request(ctx, hubctl, {{"command", command}}, 3000);
  }
  // A director's request that publishes an event outside any board: a record that cannot be loaded is
  // refused, and record.refused says so to every role.
  void publish_a_refusal() {
    auto r = request({{"command", "load-record"}, {"paths", {(dir / "no-such-record.pbn").string()}}});
    ASSERT_TRUE(r) << log();
    ASSERT_FALSE((*r)["ok"].get<bool>()) << r->dump();
  }
  // The table's snapshot and the hub's of that table, once the hub has forwarded every event the table
  // journalled (its heartbeat through the hub names the table's last seq) and none came in between.
  struct Both {
    json table, hub;
  };
  Both settled() {
    Both out;
    EXPECT_TRUE(wait_for(
        [&] {
          auto before = request({{"command", "snapshot"}}, 500);
          auto h = hub_request("snapshot");
          auto after = request({{"command", "snapshot"}}, 500);
          if (!before || !h || !after || !(*h)["tables"].contains("default/A/1")) return false;
          const json& table = (*h)["tables"]["default/A/1"];
          const std::string last = std::to_string((*before)["last_seq"].get<std::uint64_t>());
          if ((*after)["last_seq"] != (*before)["last_seq"] || !table["heartbeat"].is_object() ||
              table["heartbeat"]["evidence"].value("last_seq", "") != last)
            return false;
          out = {(*before)["events"], table["events"]};
          return true;
        },
        15s))
        << log() << "\nhub:\n" << hub_log();
    return out;
  }
  std::string up = folder.ipc("hub-up"), hubctl = folder.ipc("hub-ctl");
  pid_t hub = -1;
};

TEST_F(HubSnapshot, AHubsSnapshotOfATableIsTheTablesOwnBeforeDuringAndAfterABoard) {
  start_hub();
  launch(SCENARIO_DIR "/master", {"--simulate", (dir / "paused-board.scn").string()}, 1, {});
  // (c) After the start, before any board: a director's event outside a board, once the hub hears the table.
  ASSERT_TRUE(wait_for([&] {
    auto h = hub_request("snapshot");
    return h && (*h)["tables"].contains("default/A/1");
  }, 10s)) << log();
  ASSERT_NO_FATAL_FAILURE(publish_a_refusal());
  Both start = settled();
  ASSERT_TRUE(start.table.is_array()) << log();
  ASSERT_TRUE(start.table.empty()) << "no board has begun at the table yet: " << start.table.dump() << "\n" << log();
  EXPECT_EQ(seen(start.hub), seen(start.table)) << "after the start, before any board: " << start.hub.dump();

  // (a) Mid-board: its label identified, its first pocket read; the table waits for the next.
  ASSERT_NO_FATAL_FAILURE(wait_until_mid_board());
  Both mid = settled();
  ASSERT_FALSE(mid.table.empty()) << log();
  ASSERT_EQ(mid.table[0]["type"], "board.identified") << mid.table.dump();
  EXPECT_EQ(seen(mid.hub), seen(mid.table)) << "mid-board: " << mid.hub.dump();

  // (b) Between boards: verified, then another event that is no board's.
  ASSERT_TRUE(wait_for([&] {
    auto r = request({{"command", "replay"}, {"since", 1}}, 500);
    if (!r) return false;
    for (const json& e : (*r)["events"])
      if (e["type"] == "board.verified") return true;
    return false;
  }, 60s)) << log();
  ASSERT_NO_FATAL_FAILURE(publish_a_refusal());
  Both after = settled();
  ASSERT_TRUE(after.table.empty()) << "the board was verified: " << after.table.dump();
  EXPECT_EQ(seen(after.hub), seen(after.table)) << "after the board's verification: " << after.hub.dump();
}

// The hub started after the board's label and first pocket: it never heard the board begin. Told the
// table's control endpoint, it asks the table for its own snapshot, so its snapshot of the table is the
// table's own at once, and stays so as the board goes on (each event once, by seq, none missing).
TEST_F(HubSnapshot, AHubStartedMidBoardHoldsThatBoardFromTheTablesOwnSnapshot) {
  launch(SCENARIO_DIR "/master", {"--simulate", (dir / "paused-board.scn").string()}, 1, {});
  ASSERT_NO_FATAL_FAILURE(wait_until_mid_board());
  start_hub({"--table-control", "default/A/1=" + ctl});
  // The table's answer comes a moment after the hub first hears it (the hub never waits for it).
  Both mid;
  wait_for([&] {
    mid = settled();
    return !mid.table.empty() && seen(mid.hub) == seen(mid.table);
  }, 10s);
  ASSERT_FALSE(mid.table.empty()) << log();
  ASSERT_EQ(mid.table[0]["type"], "board.identified") << mid.table.dump();
  EXPECT_EQ(seen(mid.hub), seen(mid.table)) << "the hub started mid-board: " << mid.hub.dump() << "\nhub:\n" << hub_log();

  // An event of the board forwarded after the table answered: laid after the table's events, none twice.
  ASSERT_NO_FATAL_FAILURE(publish_a_refusal());
  Both later = settled();
  ASSERT_EQ(later.table.size(), mid.table.size() + 1) << later.table.dump();
  EXPECT_EQ(seen(later.hub), seen(later.table)) << "the board going on: " << later.hub.dump() << "\nhub:\n" << hub_log();
}

}  // namespace
