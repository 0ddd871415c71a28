#include "daemon/log.hpp"

#include <unistd.h>

#include <string>

namespace cardtable::daemon {

void log(std::string_view line) {
  // One write(2) per line: stdio may split a long line into several writes.
  std::string text = "cardtabled: ";
  text.append(line);
  text += '\n';
  const char* p = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    ssize_t n = ::write(2, p, left);
    if (n <= 0) return;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

}  // namespace cardtable::daemon
