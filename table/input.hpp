// What a device hands the table: one input record carrying an observation (a zone's reading), a command,
// or a tick of the clock. devices/ and vision/ include this header and observation.hpp/zone.hpp only;
// nothing else of table/ (the scenario parser, the laws) reaches them.
#pragma once

#include <cstdint>

#include "table/command.hpp"
#include "table/observation.hpp"

namespace cardtable::table {

struct TableInput {
  enum class Kind : std::uint8_t { Observe, Command, Tick } kind = Kind::Tick;
  Observation observation;
  Command command;
  Millis time = 0;
};

}  // namespace cardtable::table
