// The system log (journald or syslog; not the event journal of protocol/journal.hpp), written like a
// Debian daemon: every line has a syslog priority and says where it happened. Under
// systemd (stderr is the journal's stream) lines go to journald through its native protocol with
// structured fields -- TABLE, BOARD, EVENT_TYPE, EVENT_SEQ and a MESSAGE_ID per event type -- so that
// `journalctl -u cardtabled -p warning` lists the irregularities and `journalctl MESSAGE_ID=...` one
// kind of them. Anywhere else a line goes to stderr with a "<N>" prefix (sd-daemon(3)), which journald
// and syslog also understand.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "protocol/wire_event.hpp"

namespace cardtable::daemon {

// syslog(3) priorities.
enum class Priority : int { Emergency = 0, Alert = 1, Critical = 2, Error = 3, Warning = 4, Notice = 5, Info = 6, Debug = 7 };

// Where a line comes from: the table always, the board and the event when there is one.
struct LogContext {
  std::string table;           // "spring-nationals/A/7"
  int board = 0;               // 0: no board
  std::string event_type;      // "irregularity.wrong_count"
  std::uint64_t event_seq = 0; // 0: not journalled
};

// An event's priority: alert -> warning, warning -> notice, info -> info. An alert is a director's
// business, not the machine's: syslog's err and above stay for the daemon's own failures.
Priority event_priority(std::string_view severity);
// The MESSAGE_ID of an event type (32 hex digits): derived from the type, so that every type, also one
// added later, has its own, and the same on every machine and release.
std::string message_id(std::string_view event_type);
// The journal's native protocol (systemd.io/JOURNAL_NATIVE_PROTOCOL): one datagram of fields.
std::string journal_datagram(Priority p, std::string_view identifier, std::string_view message, const LogContext& c,
                             std::string_view message_id);
// The stderr form: "<4>cardtabled: message (table T, board B, irregularity.wrong_count seq S)".
std::string stderr_line(Priority p, std::string_view identifier, std::string_view message, const LogContext& c);

class Logger {
 public:
  // Journal when $JOURNAL_STREAM names the file behind `fd` (systemd connected it to journald), else
  // "<N>" lines on `fd`. `journal_socket` is journald's socket (a test passes its own).
  Logger(std::string identifier, int fd = 2, std::string journal_socket = "/run/systemd/journal/socket");
  ~Logger();
  Logger(const Logger&) = delete;
  Logger& operator=(const Logger&) = delete;

  void log(Priority p, std::string_view message, const LogContext& c = {});
  // An event as the wire carries it: its message (never the hand contents: live.* events and
  // heartbeats are not logged), its priority and its fields.
  void event(const protocol::WireEvent& e);
  bool to_journal() const { return journal_fd_ >= 0; }

 private:
  std::string identifier_;
  int fd_;
  std::string socket_path_;
  int journal_fd_ = -1;
  std::mutex mutex_;  // devices log from their own threads
};

}  // namespace cardtable::daemon
