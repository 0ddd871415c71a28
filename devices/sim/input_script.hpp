// What the simulated table plays: a script of table inputs made as it plays (the daemon makes it from a
// scenario, devices/ does not include the scenario parser). The daemon's clock reads its first input too.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "table/input.hpp"

namespace cardtable::devices {

// The cursor gives a script's inputs in order, then null.
using InputCursor = std::function<std::optional<table::TableInput>()>;

// A script the sim plays, made as it plays: calling it starts it again from its first input (each pass of
// a loop). A scenario's run is up to 100,000 read periods of a reading of each zone: made up front it was
// ~100 MB before the table started. It names the zones it reads, which its maker knows without playing it
// (a scenario's steps name them): the sim serves them when it is given none, and a pass made only to learn
// them was those 100,000 periods again at the sim's start.
class InputScript {
 public:
  InputScript() = default;  // none: false
  // `zones`: those `open`'s inputs read, in the order they first read them.
  InputScript(std::function<InputCursor()> open, std::vector<table::Zone> zones)
      : open_(std::move(open)), zones_(std::move(zones)) {}
  InputCursor operator()() const { return open_(); }
  explicit operator bool() const { return static_cast<bool>(open_); }
  const std::vector<table::Zone>& zones() const { return zones_; }

 private:
  std::function<InputCursor()> open_;
  std::vector<table::Zone> zones_;
};

// A script of fixed inputs (tests; an empty script: none).
InputScript fixed_script(std::vector<table::TableInput> inputs);

}  // namespace cardtable::devices
