#include "daemon/system_log.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cardtable::daemon {

Priority event_priority(std::string_view severity) {
  if (severity == "alert") return Priority::Warning;
  if (severity == "warning") return Priority::Notice;
  return Priority::Info;
}

std::string message_id(std::string_view event_type) {
  // Two FNV-1a 64-bit hashes of "cardtable:" + type, the second seeded by the first: 128 bits. Changing
  // this function changes every documented MESSAGE_ID (tests/unit/daemon pins some).
  auto fnv = [](std::string_view s, std::uint64_t h) {
    for (char ch : s) {
      h ^= static_cast<unsigned char>(ch);
      h *= 0x100000001b3ULL;
    }
    return h;
  };
  std::string key = "cardtable:" + std::string(event_type);
  std::uint64_t a = fnv(key, 0xcbf29ce484222325ULL);
  std::uint64_t b = fnv(key, a ^ 0x9e3779b97f4a7c15ULL);
  char out[33];
  std::snprintf(out, sizeof out, "%016llx%016llx", static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
  return out;
}

namespace {

// KEY=value\n, or for a value with a newline the binary form: KEY\n, its length (64-bit little endian),
// the value, \n.
void field(std::string& out, std::string_view key, std::string_view value) {
  if (value.find('\n') == std::string_view::npos) {
    out.append(key).append("=").append(value).append("\n");
    return;
  }
  out.append(key).append("\n");
  std::uint64_t n = value.size();
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
  out.append(value).append("\n");
}

}  // namespace

std::string journal_datagram(Priority p, std::string_view identifier, std::string_view message, const LogContext& c,
                             std::string_view id) {
  std::string out;
  field(out, "PRIORITY", std::to_string(static_cast<int>(p)));
  field(out, "SYSLOG_IDENTIFIER", identifier);
  field(out, "MESSAGE", message);
  if (!id.empty()) field(out, "MESSAGE_ID", id);
  if (!c.table.empty()) field(out, "TABLE", c.table);
  if (c.board > 0) field(out, "BOARD", std::to_string(c.board));
  if (!c.event_type.empty()) field(out, "EVENT_TYPE", c.event_type);
  if (c.event_seq > 0) field(out, "EVENT_SEQ", std::to_string(c.event_seq));
  return out;
}

std::string stderr_line(Priority p, std::string_view identifier, std::string_view message, const LogContext& c) {
  // Appended: gcc 12 -O3 warns a false -Wrestrict on "<" + std::to_string (const char* + string&&).
  std::string out = "<";
  out.append(std::to_string(static_cast<int>(p))).append(">").append(identifier).append(": ");
  // One line a message: a newline inside would start a line without a priority.
  for (char ch : message) out.push_back(ch == '\n' ? ' ' : ch);
  std::string where;
  auto add = [&](const std::string& s) { where += (where.empty() ? "" : ", ") + s; };
  if (!c.table.empty()) add("table " + c.table);
  if (c.board > 0) add("board " + std::to_string(c.board));
  if (!c.event_type.empty()) add(c.event_type + (c.event_seq > 0 ? " seq " + std::to_string(c.event_seq) : ""));
  if (!where.empty()) out += " (" + where + ")";
  return out + "\n";
}

Logger::Logger(std::string identifier, int fd, std::string journal_socket)
    : identifier_(std::move(identifier)), fd_(fd), socket_path_(std::move(journal_socket)) {
  // sd_journal_stream_fd(3)/systemd.exec(5): JOURNAL_STREAM is "device:inode" of the stream systemd
  // connected to journald; only when our fd is that very file do we talk to journald directly.
  const char* stream = std::getenv("JOURNAL_STREAM");
  struct stat st {};
  unsigned long long dev = 0, ino = 0;
  if (!stream || std::sscanf(stream, "%llu:%llu", &dev, &ino) != 2 || ::fstat(fd_, &st) != 0 ||
      static_cast<unsigned long long>(st.st_dev) != dev || static_cast<unsigned long long>(st.st_ino) != ino)
    return;
  if (socket_path_.size() >= sizeof(sockaddr_un::sun_path)) return;
  journal_fd_ = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
}

Logger::~Logger() {
  if (journal_fd_ >= 0) ::close(journal_fd_);
}

void Logger::log(Priority p, std::string_view message, const LogContext& c) {
  std::string id = c.event_type.empty() ? std::string() : message_id(c.event_type);
  std::lock_guard lock(mutex_);
  if (journal_fd_ >= 0) {
    std::string d = journal_datagram(p, identifier_, message, c, id);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, socket_path_.c_str(), socket_path_.size() + 1);
    if (::sendto(journal_fd_, d.data(), d.size(), MSG_NOSIGNAL, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) ==
        static_cast<ssize_t>(d.size()))
      return;
    // journald gone or the message too big for a datagram: the line still goes out, on the stream.
  }
  std::string line = stderr_line(p, identifier_, message, c);
  for (std::size_t done = 0; done < line.size();) {
    ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

void Logger::event(const protocol::WireEvent& e) {
  if (e.type.starts_with("live.") || e.type == "daemon.heartbeat") return;
  LogContext c{e.tournament + "/" + e.section + "/" + e.table, e.board, e.type, e.seq};
  log(event_priority(e.severity), e.message.empty() ? e.type : e.message, c);
}

}  // namespace cardtable::daemon
