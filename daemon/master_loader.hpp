// The master record from --master (files or folders): every problem logged with file:line:column, and a
// one-line summary for the log and record.loaded. A record with no complete deal is refused (StartupError
// at start; on SIGHUP or load-record the caller keeps the previous record, and refuses a record with any
// error too: a file truncated mid-copy once replaced 16 good boards with 7).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bridge/master_record.hpp"

namespace cardtable::daemon {

struct LoadedRecord {
  std::unique_ptr<bridge::MasterRecord> record;
  std::string summary;  // "32 boards in 2 sessions, 1 problems reported"
  std::size_t errors = 0;
};

LoadedRecord load_master(const std::vector<std::string>& paths);  // throws StartupError

}  // namespace cardtable::daemon
