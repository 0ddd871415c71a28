#include "daemon/board_resume.hpp"

#include "daemon/log.hpp"

namespace cardtable::daemon {

std::optional<InputLog::Resumed> BoardResume::resume(std::uint64_t first_seq, double wall, const Assume& assume,
                                                     const Apply& apply) {
  std::vector<std::string> warnings;
  auto resumed = log_.load(warnings);
  for (const std::string& w : warnings) log(Priority::Warning, w);
  if (!resumed) {
    log_.start(first_seq, wall);
    return std::nullopt;
  }
  replaying_ = true;
  if (!resumed->held.empty() || resumed->previous) assume(resumed->held, resumed->held_at, resumed->previous);
  for (std::size_t i = 0; i < resumed->inputs.size(); ++i) apply(resumed->inputs[i], resumed->walls[i]);
  replaying_ = false;
  log_.continue_file();
  return resumed;
}

void BoardResume::logged(const table::TableInput& in, bool emitted, const std::optional<Ended>& ended,
                         std::uint64_t next_first_seq, double wall) {
  if (replaying_) return;
  if (ended)
    log_.start(next_first_seq, wall, ended->held, ended->at, ended->previous);
  else
    log_.record(in, emitted, wall);
}

}  // namespace cardtable::daemon
