#include "daemon/double_dummy_helper.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace cardtable::daemon {
namespace fs = std::filesystem;

#ifndef CARDTABLE_INSTALL_BINDIR
#define CARDTABLE_INSTALL_BINDIR "/usr/bin"
#endif

std::vector<fs::path> DoubleDummyHelper::candidates(const fs::path& self) {
  fs::path here = self.parent_path();
  return {fs::path(CARDTABLE_INSTALL_BINDIR) / "cardtablectl",   // installed by the package
          here / "cardtablectl",                                // installed side by side
          here.parent_path() / "tools" / "cardtablectl" / "cardtablectl"};  // the build tree: build/daemon -> build/tools
}

DoubleDummyHelper::DoubleDummyHelper(std::string configured, const fs::path& self) {
  if (!configured.empty()) {
    program_ = fs::path(configured);
    return;
  }
  for (const fs::path& p : candidates(self))
    if (::access(p.c_str(), X_OK) == 0) {
      program_ = p;
      return;
    }
}

// Named with this daemon's pid: a helper the last run left behind (a kill -9 does not end it) may still
// be writing its own file, and two writers in one file would make a broken PBN.
fs::path DoubleDummyHelper::output_of(const fs::path& pbn) { return pbn.string() + ".dd." + std::to_string(::getpid()); }

std::optional<fs::path> DoubleDummyHelper::output_for(const fs::path& file) {
  const std::string name = file.filename().string();
  const auto at = name.rfind(".pbn.dd");
  if (at == std::string::npos || at == 0) return std::nullopt;
  const std::string rest = name.substr(at + 7);  // "" (before 2026-11-29) or ".PID"
  if (!rest.empty() && (rest[0] != '.' || rest.size() == 1 || rest.find_first_not_of("0123456789", 1) != std::string::npos)) return std::nullopt;
  return file.parent_path() / name.substr(0, at + 4);
}

bool DoubleDummyHelper::start(const fs::path& pbn, std::string& error) {
  if (!program_) {
    error = "cardtablectl not found (looked in " CARDTABLE_INSTALL_BINDIR " and the build tree; see --analyzer)";
    return false;
  }
  // Everything the child needs is built here, before the spawn.
  std::string prog = program_->string(), file = pbn.string(), out = output_of(pbn).string();
  // A path (--analyzer /x/cardtablectl) that cannot be run is reported here, not left to the spawn: where
  // CLONE_VFORK is a plain fork (qemu-user, which runs the arm64 build's tests) a failed exec is not
  // reported back, and its child lived on, holding the daemon's descriptors (the journal folder's lock:
  // the next run on the folder found it "in use by another process"). A bare name is posix_spawnp's to
  // look up on PATH.
  if (prog.find('/') != std::string::npos) {
    struct stat st {};
    const char* why = nullptr;
    if (::stat(prog.c_str(), &st) != 0 || (S_ISREG(st.st_mode) && ::access(prog.c_str(), X_OK) != 0))
      why = std::strerror(errno);
    else if (!S_ISREG(st.st_mode))
      why = "not a file";
    if (why) {
      error = prog + ": cannot be run: " + why;
      return false;
    }
  }
  const char* argv[] = {prog.c_str(), "records", "analyze", file.c_str(), "-o", out.c_str(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  // Nothing else of the daemon's: a helper outlives a kill -9 of its daemon, and must not hold what the
  // next run needs (a descriptor some library opened without O_CLOEXEC; under qemu-user, where an exec
  // that fails goes unreported, every descriptor of the daemon until the child exits).
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  pid_t child = -1;
  int rc = ::posix_spawnp(&child, prog.c_str(), &actions, nullptr, const_cast<char* const*>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    error = prog + ": " + std::strerror(rc);
    return false;
  }
  children_.emplace_back(child, pbn);
  return true;
}

std::vector<std::string> DoubleDummyHelper::reap(std::vector<fs::path>* analysed) {
  std::vector<std::string> problems;
  for (auto it = children_.begin(); it != children_.end();) {
    int status = 0;
    pid_t done = ::waitpid(it->first, &status, WNOHANG);
    if (done == 0) {
      ++it;
      continue;
    }
    fs::path tmp = output_of(it->second);
    std::error_code ec;
    // `records analyze` exits 1 when it wrote the file but some record had a problem.
    if (done > 0 && WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1) && fs::exists(tmp)) {
      fs::rename(tmp, it->second, ec);
      if (!ec && analysed) analysed->push_back(it->second);
    } else {
      problems.push_back(it->second.string() + ": no double-dummy table (" + program_->string() + " exited with " +
                         (WIFEXITED(status) ? std::to_string(WEXITSTATUS(status)) : std::string("a signal")) + ")");
    }
    fs::remove(tmp, ec);
    it = children_.erase(it);
  }
  return problems;
}

}  // namespace cardtable::daemon
