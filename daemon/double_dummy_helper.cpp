#include "daemon/double_dummy_helper.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

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

bool DoubleDummyHelper::start(const fs::path& pbn, std::string& error) {
  if (!program_) {
    error = "cardtablectl not found (looked in " CARDTABLE_INSTALL_BINDIR " and the build tree; see --analyzer)";
    return false;
  }
  // Everything the child needs is built here, before the spawn.
  std::string prog = program_->string(), file = pbn.string(), out = pbn.string() + ".dd";
  const char* argv[] = {prog.c_str(), "records", "analyze", file.c_str(), "-o", out.c_str(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
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
    fs::path tmp = it->second.string() + ".dd";
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
