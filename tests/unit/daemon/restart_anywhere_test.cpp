// A restart may come at any moment (a watchdog, a power blip, an upgrade between two boards): the
// director must read the same course of the table as without it. Each shipped scenario that runs on the
// simulated table (all of tests/scenarios: a scenario that does not load as a Simulation is skipped, and
// says why) is played once straight through, and again with a restart every 2 s of its time and just
// after each input that made the table say something: the first run applies the inputs before the
// restart, the second (on the same state folder, as the daemon after it) starts with the scenario's
// inputs from then on and applies them. What both runs journalled together must be what one run
// journalled: no alert lost or said twice (Law 13D once, not again for the last trick still in the play
// areas after a restart: 788cdee; Law 7C's return judged as live; Law 6D2 across a restart between
// boards), no board event missing or repeated.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "daemon/startup_error.hpp"
#include "daemon_run.hpp"
#include "process_folder.hpp"
#include "scenario_list.hpp"

namespace cardtable::daemon {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;
using test::DaemonRun;

const fs::path kScenarios = fs::path(SCENARIO_DIR);
constexpr table::Millis kStep = 2'000;  // a restart every 2 s of the scenario's time (and after each event)

// The scenario's own `master` lines, as the daemon's --master.
std::vector<std::string> scenario_masters(const fs::path& scn) {
  std::vector<std::string> out;
  std::ifstream in(scn);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("master ")) out.push_back((kScenarios / line.substr(7)).string());
  return out;
}

// What a director reads of the table's course: each event's type, board and seats, and for an
// irregularity the message too (its counts, its cards' owners: "East has played 0 cards" is another alert
// than "East has played 12"). Left out: what every start says of itself (record.loaded,
// table.capabilities), twice with a restart by design; times (time, mono, seq) differ by the restart.
std::vector<std::string> course(const protocol::Journal& journal) {
  std::vector<std::string> out;
  for (const json& e : DaemonRun::events(journal)) {
    const std::string type = e["type"];
    if (type == "record.loaded" || type == "table.capabilities") continue;
    std::string line = type + " board " + std::to_string(e.value("board", 0));
    for (const auto& s : e.value("seats", std::vector<std::string>())) line += " " + s;
    if (type.starts_with("irregularity.")) line += ": " + e.value("message", std::string());
    out.push_back(line);
  }
  return out;
}

// The lines of `got` not in `want` (+) and of `want` not in `got` (-), after their common start and end.
std::string difference(const std::vector<std::string>& want, const std::vector<std::string>& got) {
  std::size_t head = 0;
  while (head < want.size() && head < got.size() && want[head] == got[head]) ++head;
  std::size_t tail = 0;
  while (tail < want.size() - head && tail < got.size() - head && want[want.size() - 1 - tail] == got[got.size() - 1 - tail]) ++tail;
  std::ostringstream out;
  out << "  after " << head << " events alike:\n";
  for (std::size_t i = head; i < want.size() - tail; ++i) out << "  - " << want[i] << "\n";
  for (std::size_t i = head; i < got.size() - tail; ++i) out << "  + " << got[i] << "\n";
  return out.str();
}

class RestartAnywhere : public ::testing::TestWithParam<std::string> {
 protected:
  test::ProcessFolder dir{"restart-anywhere-" + GetParam()};
};

TEST_P(RestartAnywhere, BothRunsTogetherSayWhatOneRunSays) {
  const fs::path scn = kScenarios / (GetParam() + ".scn");
  Options o;
  o.simulate = scn.string();
  const std::vector<std::string> masters = scenario_masters(scn);
  std::optional<Simulation> loaded;
  try {
    LoadedRecord record = load_master(masters);
    loaded = prepare_simulation(o, *record.record);
  } catch (const StartupError& e) {
    GTEST_SKIP() << "not a scenario for the simulated table: " << e.what();
  }
  const Simulation& sim = *loaded;
  const std::vector<table::TableInput> inputs = test::all_inputs(sim);
  ASSERT_FALSE(inputs.empty());
  const table::Millis end = inputs.back().time + 1;

  // The course of one run of `all`, and of a run of `before` restarted on its state folder for `after`.
  auto straight = [&](const std::vector<table::TableInput>& all, const std::string& name) {
    DaemonRun run(dir.path() / name, sim, masters);
    run.host->start(run.summary, {});
    run.apply(all);
    return course(run.publisher->journal());
  };
  auto restarted = [&](const std::vector<table::TableInput>& before, const std::vector<table::TableInput>& after,
                       const std::string& name) {
    const fs::path state = dir.path() / name;
    {
      DaemonRun run(state, sim, masters);
      run.host->start(run.summary, {});
      run.apply(before);
    }
    DaemonRun again(state, sim, masters);
    again.host->start(again.summary, devices::fixed_script(after));
    again.apply(after);
    return course(again.publisher->journal());
  };
  const std::vector<std::string> uninterrupted = straight(inputs, "straight");
  // Where to restart: every kStep, and just after each input that made the table say something (a board
  // that has just gone back is where 788cdee's bug was: 0.3 s later the replay itself had taken the last
  // trick for a new board's, unpublished, and a restart a second later showed nothing).
  std::set<table::Millis> restarts;
  for (table::Millis at = kStep; at < end; at += kStep) restarts.insert(at);
  {
    DaemonRun run(dir.path() / "said", sim, masters);
    run.host->start(run.summary, {});
    for (const table::TableInput& in : inputs) {
      const std::uint64_t said = run.publisher->journal().last_seq();
      run.apply({in});
      if (run.publisher->journal().last_seq() != said && in.time + 1 < end) restarts.insert(in.time + 1);
    }
  }
  // The restart times that gave the same difference, together.
  std::map<std::string, std::vector<table::Millis>> differences;
  for (const table::Millis at : restarts) {
    const std::string name = "restart-" + std::to_string(at);
    const std::vector<table::TableInput> before = test::between(inputs, 0, at);
    std::vector<table::TableInput> after = test::between(inputs, at, end);
    // The board's label reader says again what lies on it when the daemon starts, as in 788cdee's
    // restart (a fresh table took the last trick, still in the play areas, for the labelled board's
    // plays). A label read again is an input of its own: the uninterrupted run gets it too.
    std::vector<std::string> want = uninterrupted;
    const auto label = std::find_if(before.rbegin(), before.rend(), [](const table::TableInput& in) {
      return in.kind == table::TableInput::Kind::Command && in.command.kind == table::Command::Kind::Board;
    });
    if (label != before.rend()) {
      table::TableInput again_label = *label;
      again_label.time = again_label.command.time = at;
      after.insert(after.begin(), again_label);
      std::vector<table::TableInput> all = before;
      all.insert(all.end(), after.begin(), after.end());
      want = straight(all, name + "-straight");
    }
    const std::vector<std::string> got = restarted(before, after, name);
    if (got != want) differences[difference(want, got)].push_back(at);
    fs::remove_all(dir.path() / name);
    fs::remove_all(dir.path() / (name + "-straight"));
  }
  for (const auto& [diff, times] : differences) {
    std::ostringstream at;
    for (table::Millis t : times) at << " " << static_cast<double>(t) / 1000.0;
    ADD_FAILURE() << GetParam() << ": restarted at" << at.str() << " s:\n" << diff;
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, RestartAnywhere, ::testing::ValuesIn(test::scenario_names(kScenarios)),
                         test::scenario_test_name);

}  // namespace
}  // namespace cardtable::daemon
