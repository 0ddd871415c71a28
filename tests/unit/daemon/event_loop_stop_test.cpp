// SIGTERM (systemctl stop, a restart) and the readings the devices already handed over: the whole event
// loop, in this process, on a state folder of its own. The readings of a board are queued before the loop
// runs and the stop is pending before its first look, so the loop finds both at once: exactly the moment
// a card read just before a restart was thrown away with the queue, never journalled, nothing said.
#include "daemon/event_loop.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "daemon/master_loader.hpp"
#include "daemon/simulation.hpp"
#include "protocol/journal.hpp"
#include "process_folder.hpp"

namespace cardtable::daemon {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kScenarios = fs::path(SCENARIO_DIR);

std::size_t count(const std::vector<std::string>& types, const std::string& type) {
  return static_cast<std::size_t>(std::count(types.begin(), types.end(), type));
}

TEST(EventLoopStop, EveryReadingQueuedBeforeASigtermIsAppliedAndJournalled) {
  // The journal in memory where the system has it (/dev/shm): each event's fdatasync is then free, and
  // a loaded disk (CI: half a second apiece) cannot make the stop's deadline cut the board short.
  const bool shm = fs::is_directory("/dev/shm");
  if (shm) ::setenv("TMPDIR", "/dev/shm", 1);
  const test::ProcessFolder dir("event-loop-stop-test");
  if (shm) ::unsetenv("TMPDIR");
  const std::vector<std::string> masters = {(kScenarios / "master/spring-pairs.pbn").string(),
                                            (kScenarios / "master/autumn-teams.pbn").string()};
  // The clean board's readings for its first 32 s (play-clean-board.events: Spring Pairs board 1 on the
  // table, the auction, 4H by South, the second trick over at 31.2 s), as a table's readers
  // hand them over: fewer than the queue holds, so none waits for room.
  Options played;
  played.simulate = (kScenarios / "play-clean-board.scn").string();
  const Simulation sim = *prepare_simulation(played, *load_master(masters).record);
  std::vector<table::TableInput> readings;
  const devices::InputCursor cursor = sim.script();
  while (auto in = cursor())
    if (in->time < 32'000) readings.push_back(*std::move(in));
  ASSERT_LE(readings.size(), DeviceQueue::kDefaultCapacity);

  // A sim device that plays nothing (no --simulate): the queue holds only the readings pushed here.
  const std::string state = (dir.path() / "state").string(), pub = "bind:ipc://" + (dir.path() / "pub").string(),
                    ctl = "bind:ipc://" + (dir.path() / "ctl").string(), live = "bind:ipc://" + (dir.path() / "live").string();
  std::vector<std::string> args = {"cardtabled", "--master", masters[0], "--master", masters[1], "--device", "sim=sim:script=none",
                                   "--plaintext", "--state-dir", state, "--publish", pub, "--control", ctl, "--live", live,
                                   "--analyzer", "/nonexistent/cardtablectl"};
  int antenna = 0;
  for (const table::Zone& z : sim.config.zones) {
    args.push_back("--zone");
    args.push_back(z.str() + "=sim/antenna" + std::to_string(antenna++));
  }
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  auto parsed = parse_options(static_cast<int>(argv.size()), argv.data());
  ASSERT_TRUE(parsed.options) << parsed.message;
  {
    EventLoop loop(std::move(*parsed.options));  // blocks SIGTERM in this thread: it waits on the signalfd
    for (const table::TableInput& in : readings) loop.inputs().push(in);
    ASSERT_EQ(::raise(SIGTERM), 0);
    EXPECT_EQ(loop.run(), 0);
    EXPECT_EQ(loop.inputs().size(), 0u) << "nothing left in the queue";
  }
  std::vector<std::string> journalled;
  const protocol::Journal journal(fs::path(state) / "journal", {});
  journal.replay(1, [&](const std::string& line, std::uint64_t) {
    journalled.push_back(json::parse(line)["type"]);
    return true;
  });
  EXPECT_EQ(count(journalled, "board.identified"), 1u);
  EXPECT_EQ(count(journalled, "board.arrived"), 1u);
  EXPECT_EQ(count(journalled, "board.trick"), 2u) << "the readings last queued, just before the stop, ended the second trick";
}

}  // namespace
}  // namespace cardtable::daemon
