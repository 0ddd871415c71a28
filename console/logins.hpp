// Who may open the console: a file of logins, one a line, "NAME ROLE HASH" with ROLE director or
// broadcaster and HASH "pbkdf2-sha256$ITERATIONS$SALT$KEY" (hex; `cardtable-console hash-password`
// writes one). A login gives a session: a random token in an HttpOnly cookie, never in a URL. Failed
// logins are limited per client address and per name (the name's limit only for addresses that failed
// lately, so nobody can lock a director out), so a password cannot be guessed at network speed.
// The PBKDF2 of a login (60 to 400 ms at 200,000 iterations) runs on hashing threads of its own, never on
// the console's one I/O thread: there it froze every director's and broadcaster's page for as long, and a
// burst of logins (even refused ones) for seconds.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "log_throttle.hpp"

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

  // busy: kMostPendingHashes logins are being checked already (a burst): try again in a moment.
  enum class Outcome { ok, refused, rate_limited, busy };
  struct Result {
    Outcome outcome;
    std::string token;  // when ok
    std::string role;
    int retry_after_s = 0;
  };
  // Checks the password here, on the caller's thread (the unit tests, and tools that have no I/O thread).
  Result login(const std::string& name, const std::string& password, const std::string& client, Clock::time_point now);
  // The console's way: the limits are checked now, the PBKDF2 runs on a hashing thread, and `done` runs
  // on `io` with the result (every outcome, busy and rate_limited too, comes through `done`, never at
  // once). Everything but the hashing stays on io's thread, which must be the caller's. A Logins with
  // logins in flight must not be moved.
  void login_async(const std::string& name, std::string password, const std::string& client, Clock::time_point now,
                   boost::asio::io_context& io, std::function<void(Result)> done);
  // Logins handed to the hashing threads whose result io has not yet taken back.
  std::size_t hashes_pending() const { return pending_; }
  std::optional<Session> session(const std::string& token, Clock::time_point now);
  void logout(const std::string& token) { sessions_.erase(token); }
  // The count of logins refused as busy and not logged one by one, once their 10 s are over (at once
  // when closing): the I/O thread's tick says it.
  void say_held_refusals(bool closing) { busy_log_.say_overdue(closing); }
  std::size_t users() const { return users_.size(); }
  // The PBKDF2 iterations run for a name that is not in the file: the staff's own count (the most
  // common one), so that a refusal takes as long whether or not the name exists.
  int decoy_iterations() const { return decoy_iterations_; }

  static constexpr int kDefaultIterations = 200000;  // hash-password's default
  // More than this keeps a hashing thread, and the logins queued behind it, for seconds.
  static constexpr int kMostIterations = 5000000;
  // Two logins are checked at once (the console's I/O thread and the table requests keep the rest of a
  // small venue PC), and at most this many wait or run: a flood of logins from many addresses is refused
  // (busy, 503) instead of queueing minutes of hashing. A venue's staff logging in together is a handful.
  static constexpr int kHashThreads = 2;
  static constexpr std::size_t kMostPendingHashes = 8;

  // A failed login's name is kept for kFailureWindow, in up to 100,000 entries: a name is refused beyond
  // this (the logins file's too), or names of 15 KB held 1.5 GB.
  static constexpr std::size_t kLongestName = 256;
  static constexpr int kFailuresAllowed = 5;                          // per address and per name ...
  static constexpr std::chrono::seconds kFailureWindow{60};           // ... in this window
  static constexpr std::chrono::hours kSessionLifetime{12};           // a session's length: a playing day
  // Addresses and names with failures remembered at once (memory under a spray of made-up ones).
  static constexpr std::size_t kMostFailureEntries = 100000;
  // Fewer than kMostFailureEntries: a test sprays a small table instead of 100,000 PBKDF2s.
  void remember_failures_of_at_most(std::size_t entries) { most_failure_entries_ = entries; }

 private:
  struct User {
    std::string role, salt, key;
    int iterations = 0;
  };
  // A login past the limits, with what its password is checked against (a copy: the hashing thread
  // touches nothing of the Logins).
  struct Attempt {
    std::string name, client;
    User user;  // the decoy (salt "no such user", the staff's iterations) for a name not in the file
    bool known = false;
    Clock::time_point at;
  };
  // The limits; counts the attempt as a failure until it succeeds, so that logins in flight together
  // cannot pass the limits together. nullopt and `limited` set when the limits stop it.
  std::optional<Attempt> begin(const std::string& name, const std::string& client, Clock::time_point now, Result& limited);
  // The PBKDF2, on any thread; nullopt when `stop` was set meanwhile (the console is stopping).
  static std::optional<bool> password_matches(const Attempt& attempt, const std::string& password, const std::atomic<bool>* stop);
  Result finish(const Attempt& attempt, bool matches, Clock::time_point now);
  bool limited(const std::string& who, Clock::time_point now, int& retry_after);
  void forget_failures(Clock::time_point now, const std::string& by_address, const std::string& by_name);
  std::map<std::string, User> users_;
  int decoy_iterations_ = kDefaultIterations;
  std::map<std::string, Session> sessions_;
  std::map<std::string, std::deque<Clock::time_point>> failures_;  // "addr:..." or "name:..."
  std::size_t most_failure_entries_ = kMostFailureEntries;
  // The hashing threads, and what stops a PBKDF2 in flight when the console stops: SIGTERM waited for it
  // (9 s at kMostIterations) while the pool joined. The flag is set before the pool joins (the members go
  // after the destructor's body), and outlives it.
  struct Hashers {
    std::atomic<bool> stopping{false};
    boost::asio::thread_pool pool{kHashThreads};
    ~Hashers() { stopping = true; }
  };
  std::unique_ptr<Hashers> hashers_;  // started by the first login_async
  std::size_t pending_ = 0;
  LogThrottle busy_log_{"logins refused as busy"};  // the 503s of a burst: a line in 10 s, then a count
};

}  // namespace cardtable::console
