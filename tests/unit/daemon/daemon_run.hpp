// One run of the daemon's table for a test: the parts the event loop gives a TableHost (a real Publisher
// with its journals, a BoardBroadcast, a scenario clock), on a state folder that outlives it (a second run
// on the same folder is a restart). Shared by table_host_test and restart_anywhere_test.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <zmq.hpp>

#include "daemon/master_loader.hpp"
#include "daemon/simulation.hpp"
#include "daemon/table_host.hpp"

namespace cardtable::test {
using daemon::BoardBroadcast, daemon::LoadedRecord, daemon::Options, daemon::Publisher, daemon::Simulation, daemon::TableClock,
    daemon::TableHost, daemon::load_master;


struct DaemonRun {
  DaemonRun(const std::filesystem::path& state, const Simulation& sim, std::vector<std::string> masters,
            std::function<bool(const table::Zone&)> lost = [](const table::Zone&) { return false; }) {
    options.state_dir = state.string();
    options.masters = std::move(masters);
    options.analyzer = "/nonexistent/cardtablectl";  // no double-dummy helper: not what these tests are about
    // No fdatasync per event: a restart here is a new object on the same files, never a power cut, and
    // restart_anywhere_test runs thousands of these.
    protocol::Journal::Limits limits;
    limits.sync_each = false;
    publisher = std::make_unique<Publisher>(ctx, Publisher::Config{state, limits, std::chrono::duration<double>(0)});
    broadcast = std::make_unique<BoardBroadcast>(*publisher, options, "/nonexistent/cardtabled");
    LoadedRecord record = load_master(options.masters);
    summary = record.summary;
    host = std::make_unique<TableHost>(std::move(record.record), sim.config, options, clock, *publisher, *broadcast,
                                       TableHost::Surroundings{std::move(lost),
                                                               [](nlohmann::json& s) { s["loop"] = "the event loop's part"; },
                                                               [](const std::string&) { return false; }});
  }
  // The scenario's inputs as the event loop hands them over: times moved on after a resumed board's.
  void apply(const std::vector<table::TableInput>& inputs) {
    for (const table::TableInput& in : inputs) host->apply(clock.scenario_input(in));
  }
  // Every line of a journal, parsed, from its first seq.
  static std::vector<nlohmann::json> events(const protocol::Journal& journal) {
    std::vector<nlohmann::json> out;
    journal.replay(1, [&](const std::string& line, std::uint64_t) {
      out.push_back(nlohmann::json::parse(line));
      return true;
    });
    return out;
  }
  static std::vector<std::string> journalled(const protocol::Journal& journal) {
    std::vector<std::string> types;
    for (const nlohmann::json& e : events(journal)) types.push_back(e["type"]);
    return types;
  }
  std::vector<std::string> published() const { return journalled(publisher->journal()); }
  std::vector<std::string> live() const { return journalled(publisher->live_journal()); }

  zmq::context_t ctx;
  Options options;
  TableClock clock{false};  // the scenario's own times, as at --speed above 1
  std::unique_ptr<Publisher> publisher;
  std::unique_ptr<BoardBroadcast> broadcast;
  std::unique_ptr<TableHost> host;
  std::string summary;
};

// The scenario's inputs, as the sim plays them.
inline std::vector<table::TableInput> all_inputs(const Simulation& sim) {
  std::vector<table::TableInput> out;
  const devices::InputCursor played = sim.script();
  while (auto in = played()) out.push_back(*std::move(in));
  return out;
}

// The inputs at times in [from, until).
inline std::vector<table::TableInput> between(const std::vector<table::TableInput>& all, table::Millis from, table::Millis until) {
  std::vector<table::TableInput> out;
  for (const table::TableInput& in : all)
    if (in.time >= from && in.time < until) out.push_back(in);
  return out;
}

}  // namespace cardtable::test
