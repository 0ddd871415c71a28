#include "protocol/durable_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cardtable::protocol {
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const fs::path& p, const char* step) {
  throw std::runtime_error(p.string() + ": " + step + ": " + std::strerror(errno));
}

}  // namespace

void sync_directory(const fs::path& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail(dir, "open the folder to sync it");
  int rc = ::fsync(fd);
  int saved = errno;
  ::close(fd);
  errno = saved;
  if (rc != 0) fail(dir, "fsync the folder");
}

void write_file_durably(const fs::path& path, std::string_view text) {
  fs::path tmp = path.string() + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
  if (fd < 0) fail(tmp, "open");
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int saved = errno;
      ::close(fd);
      errno = saved;
      fail(tmp, "write");
    }
    done += static_cast<std::size_t>(n);
  }
  // The data first: a rename that reached the disk before the data would leave an empty file in place.
  if (::fsync(fd) != 0) {
    int saved = errno;
    ::close(fd);
    errno = saved;
    fail(tmp, "fsync");
  }
  if (::close(fd) != 0) fail(tmp, "close");
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail(path, "rename into place");
  sync_directory(path.has_parent_path() ? path.parent_path() : fs::path("."));
}

}  // namespace cardtable::protocol
