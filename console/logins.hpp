// Who may open the console: a file of logins, one a line, "NAME ROLE HASH" with ROLE director or
// broadcaster and HASH "pbkdf2-sha256$ITERATIONS$SALT$KEY" (hex; `cardtable-console hash-password`
// writes one). A login gives a session: a random token in an HttpOnly cookie, never in a URL. Failed
// logins are limited per client address and per name (the name's limit only for addresses that failed
// lately, so nobody can lock a director out), so a password cannot be guessed at network speed.
#pragma once

#include <chrono>
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace cardtable::console {

struct Session {
  std::string name, role;
  std::chrono::steady_clock::time_point expires;
};

class Logins {
 public:
  using Clock = std::chrono::steady_clock;
  // Reads the file; throws std::runtime_error naming the file and line of a bad entry.
  static Logins load(const std::filesystem::path& file);
  static std::string hash_password(const std::string& password, int iterations = kDefaultIterations);

  enum class Outcome { ok, refused, rate_limited };
  struct Result {
    Outcome outcome;
    std::string token;  // when ok
    std::string role;
    int retry_after_s = 0;
  };
  Result login(const std::string& name, const std::string& password, const std::string& client, Clock::time_point now);
  std::optional<Session> session(const std::string& token, Clock::time_point now);
  void logout(const std::string& token) { sessions_.erase(token); }
  std::size_t users() const { return users_.size(); }
  // The PBKDF2 iterations run for a name that is not in the file: the staff's own count (the most
  // common one), so that a refusal takes as long whether or not the name exists.
  int decoy_iterations() const { return decoy_iterations_; }

  static constexpr int kDefaultIterations = 200000;  // hash-password's default
  // A login hashes on the console's one I/O thread: more than this stalls every page for seconds.
  static constexpr int kMostIterations = 5000000;

  static constexpr int kFailuresAllowed = 5;                          // per address and per name ...
  static constexpr std::chrono::seconds kFailureWindow{60};           // ... in this window
  static constexpr std::chrono::hours kSessionLifetime{12};           // a session's length: a playing day

 private:
  struct User {
    std::string role, salt, key;
    int iterations = 0;
  };
  bool limited(const std::string& who, Clock::time_point now, int& retry_after);
  std::map<std::string, User> users_;
  int decoy_iterations_ = kDefaultIterations;
  std::map<std::string, Session> sessions_;
  std::map<std::string, std::deque<Clock::time_point>> failures_;  // "addr:..." or "name:..."
};

}  // namespace cardtable::console
