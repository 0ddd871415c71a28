// The double-dummy table of a broadcast PBN file comes from `cardtablectl records analyze`, run as a
// short-lived child so that libdds's memory and time are never the daemon's. The helper is found where
// the package installs it (CMAKE_INSTALL_FULL_BINDIR: cardtabled is in sbin, cardtablectl in bin), in
// the build tree beside the daemon's (tools/cardtablectl/), or as --analyzer says; it is started with
// posix_spawn (no allocation between fork and exec: the daemon has threads) and reaped by the loop.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cardtable::daemon {

class DoubleDummyHelper {
 public:
  // `configured`: --analyzer (empty: look in the places above). `self`: the daemon's own executable.
  DoubleDummyHelper(std::string configured, const std::filesystem::path& self);
  // The candidates, in the order they are tried (for --help, the docs and tests).
  static std::vector<std::filesystem::path> candidates(const std::filesystem::path& self);
  const std::optional<std::filesystem::path>& program() const { return program_; }  // nullopt: not found

  // Starts the analysis of `pbn`; its result replaces the file when it succeeds. False (and `error`)
  // when no helper was found or it could not be started.
  bool start(const std::filesystem::path& pbn, std::string& error);
  // Reaps the children that finished; returns a line per board left without its table, and adds the
  // files that got theirs to `analysed` (when given).
  std::vector<std::string> reap(std::vector<std::filesystem::path>* analysed = nullptr);
  std::size_t running() const { return children_.size(); }
  // Where the helper writes before its result replaces `pbn`: "X.pbn.dd.PID" (a name of this run's own).
  static std::filesystem::path output_of(const std::filesystem::path& pbn);
  // Whether `file` is such an output, of this run or another; the .pbn it belongs to.
  static std::optional<std::filesystem::path> output_for(const std::filesystem::path& file);

 private:
  std::optional<std::filesystem::path> program_;
  std::vector<std::pair<pid_t, std::filesystem::path>> children_;  // child, the .pbn it analyses
};

}  // namespace cardtable::daemon
