// Scenarios: a plain-text script of a table — master record, zones, then timed readings and commands.
// The same format is what the simulated device replays and what the golden tests are made of.
// docs/scenarios.md is its description.
#pragma once

#include <filesystem>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bridge/master_record.hpp"
#include "table/command.hpp"
#include "table/event.hpp"
#include "table/input.hpp"
#include "table/table_config.hpp"

namespace cardtable::table {

// What the simulated device does at one moment.
struct ScenarioStep {
  enum class Kind : std::uint8_t {
    Read,     // from now on the zone reads `cards` (+ unknown tags, at a confidence)
    Silent,   // the zone's device stops reading
    Command,  // a command to the table
    Reload,   // the master record is reloaded (SIGHUP, load-record): `masters`, or the scenario's own
  } kind = Kind::Read;
  Millis time = 0;
  Zone zone;
  bridge::Hand cards;
  int unknown = 0;
  double confidence = 1.0;
  bool complete = true;
  Command command;
  std::vector<std::filesystem::path> masters;  // Reload: the files to load instead (empty: the same)
  // Read, with 'tags': the packs (1..9) a card is read from, where not just the first: {2} for another
  // pack's card alone, {1, 2} for two cards of that face (two tags) in the zone.
  std::map<bridge::Card, std::set<int>> packs;
  int line = 0;  // where the script said it
};

struct Scenario {
  std::string name;
  std::vector<std::filesystem::path> masters;  // resolved against the scenario's folder
  TableConfig config;
  Millis read_period = 100;                    // the simulated device reads every zone this often
  Millis end = -1;                             // run until; -1: 10 s after the last step
  std::vector<ScenarioStep> steps;             // sorted by time (stable)
  // A `tags` line: the zones are read by RFID and each card read carries its tag's UID
  // (Observation::card_ids, scenario_tag_uid); without it no ids, as from a camera.
  bool tags = false;
};

// The UID a scenario gives the tag of `card` of pack `pack` (1..9): 7 bytes of upper-case hex, as an NTAG
// inlay's, one for each card of each pack ("04CA7D01000033": pack 1, card id 0x33).
std::string scenario_tag_uid(bridge::Card card, int pack);

struct ScenarioError {
  int line = 0;
  std::string message;
};

// Parses a scenario. Shorthands that need the master record ("as master") are expanded here, so the
// master record must be loaded first: `load_master` is given the resolved paths of every `master` line.
std::optional<Scenario> parse_scenario(std::string_view text, const std::filesystem::path& folder,
                                       const std::function<const bridge::MasterRecord&(const std::vector<std::filesystem::path>&)>& load_master,
                                       std::vector<ScenarioError>& errors);

// What a table is given, in order, when a scenario runs: the simulated device reads each active zone
// every read period; commands come at their time; a tick closes every period. (Reload steps are not
// inputs: a record is reloaded by the daemon, not by a device; run_scenario does it.)
// Made one at a time as the table takes them: a run is up to 100,000 read periods of a reading of each
// zone (~240 bytes each), so made up front it was ~100 MB before the table started; this holds one
// period's state whatever the length. `scenario` must outlive it.
class ScenarioInputs {
 public:
  explicit ScenarioInputs(const Scenario& scenario) : ScenarioInputs(scenario, 0, true) {}
  // One pass of a looped scenario: see scenario_pass_inputs.
  ScenarioInputs(const Scenario& scenario, Millis offset, bool first_pass);
  // The next input; null after the last.
  std::optional<TableInput> next();

 private:
  struct Live {
    bool active = false;
    Observation obs;
  };
  enum class Stage : std::uint8_t { Steps, Readings, Tick };
  void take_step(const ScenarioStep& s);

  const Scenario* scenario_;
  Millis offset_;
  Millis end_;
  Millis t_ = 0;                  // the read period being made
  Stage stage_ = Stage::Steps;
  std::size_t next_step_ = 0;     // the first step not yet taken
  std::size_t next_reading_ = 0;  // in order_, this period's next zone to read
  std::array<Live, kZoneCount> zones_{};
  std::vector<Zone> order_;       // the zones in the order the scenario first names them
};
// All of them (tests, benchmarks; a short scenario).
std::vector<TableInput> scenario_inputs(const Scenario& scenario);
// The zones a pass of ScenarioInputs reads, in the order it first reads them, from the steps alone: the
// simulator's zones when none are given. Learning them by a pass made up to 100,000 read periods of
// readings at its start. A zone counts once a period begins with it reading (a read and a silence in the
// same period leave nothing read); steps after the last period read before `end` count for nothing.
std::vector<Zone> scenario_read_zones(const Scenario& scenario);
// One pass of a scenario played in a loop (the simulator's --loop), its times shifted by `offset` (the
// table's clock never goes back). After the first pass, every zone the scenario leaves reading at its end
// goes on reading from the start of the pass until the scenario changes it: the cards are still on the
// table, and a scenario restarting is not a reader going silent (no reading.uncertain/reading.resumed
// pair at each pass).
std::vector<TableInput> scenario_pass_inputs(const Scenario& scenario, Millis offset, bool first_pass);
// Gives one input to a table.
void apply(class Table& table, const TableInput& input);

// Runs a scenario against a fresh table and returns every event it published. A `reload` step gives the
// table the record `reload` returns for the step's files (the scenario's own when the step names none);
// without `reload`, the same record is given again. What `reload` returns must outlive the call.
using MasterLoader = std::function<const bridge::MasterRecord&(const std::vector<std::filesystem::path>&)>;
std::vector<Event> run_scenario(const Scenario& scenario, const bridge::MasterRecord& master, const MasterLoader& reload = {});
// The same, each event handed to `each` as the table publishes it (cardtablectl simulate prints them as they come).
void run_scenario(const Scenario& scenario, const bridge::MasterRecord& master, const MasterLoader& reload,
                  const std::function<void(Event&&)>& each);

// A play of a whole deal for a contract: (seat, card) in the order played, 52 cards. Simple rules: lead
// the top of the longest suit, follow low, ruff low, else discard low. Faults for tests: the opening lead
// from another seat, and one revoke (at that trick the first follower who could follow discards).
struct PlayFaults {
  std::optional<bridge::Seat> opening_leader;
  std::optional<int> revoke_at_trick;  // 1..13
  std::optional<int> accepted_lead_at_trick;  // 2..13: the winner's left-hand opponent leads, and play goes on from him
};
std::vector<std::pair<bridge::Seat, bridge::Card>> legal_play(const bridge::Deal& deal, const bridge::Contract& contract,
                                                               const PlayFaults& faults = {});

}  // namespace cardtable::table
