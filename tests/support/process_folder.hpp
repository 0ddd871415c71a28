// A folder under the system's temporary folder, named for this process, created with the object and
// removed with it. Tests and fuzz targets that keep one for the process's life (a card-art cache, a
// daemon's ipc endpoints and journal) hold it in a static, constructed before what writes into it, so
// it is removed after that is gone and nothing is left behind in /tmp run after run.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace cardtable::test {

class ProcessFolder {
 public:
  explicit ProcessFolder(const std::string& stem)
      : path_(std::filesystem::temp_directory_path() / (stem + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);  // a crashed run's, under the same process id
    std::filesystem::create_directories(path_);
  }
  ~ProcessFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ProcessFolder(const ProcessFolder&) = delete;
  ProcessFolder& operator=(const ProcessFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace cardtable::test
