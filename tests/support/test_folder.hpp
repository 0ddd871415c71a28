// A test's own folder under the system's temporary folder: its daemon's state and log, its files, its ipc
// endpoints (tests bind ipc sockets here, never a fixed port). A fixture holds it as a member, so it is made
// before SetUp and removed after TearDown has ended what writes into it (the daemon, the hub).
#pragma once

#include <filesystem>
#include <string>

#include "process_folder.hpp"

namespace cardtable::test {

class TestFolder : public ProcessFolder {
 public:
  // Named for the process and a count of the folders it made: short, as an ipc endpoint's path is limited
  // to 107 bytes, and another for each test.
  explicit TestFolder(const std::string& stem) : ProcessFolder(stem + "-" + std::to_string(++made())) {}

  std::filesystem::path operator/(const std::string& name) const { return path() / name; }
  // An ipc endpoint in this folder: "ipc://<folder>/<name>".
  std::string ipc(const std::string& name) const { return "ipc://" + (path() / name).string(); }

 private:
  static int& made() {
    static int n = 0;
    return n;
  }
};

}  // namespace cardtable::test
