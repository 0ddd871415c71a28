// Logins: hashed passwords, sessions, and the limit on failed attempts.
#include "console/logins.hpp"

#include <boost/asio/io_context.hpp>
#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>
#include <vector>

using cardtable::console::Logins;

namespace {
Logins staff() {
  auto file = std::filesystem::temp_directory_path() / ("logins-" + std::to_string(::getpid()));
  std::ofstream(file) << "# the staff\ntd director " << Logins::hash_password("secret", 1000) << "\n";
  Logins l = Logins::load(file);
  std::filesystem::remove(file);
  return l;
}
// Why a logins file of this text does not load ("" where it loads).
std::string refusal_of(const std::string& text) {
  auto file = std::filesystem::temp_directory_path() / ("bad-logins-" + std::to_string(::getpid()));
  std::ofstream(file) << text;
  std::string why;
  try {
    Logins::load(file);
  } catch (const std::runtime_error& e) {
    why = e.what();
  }
  std::filesystem::remove(file);
  return why;
}
}  // namespace

TEST(Logins, TheRightPasswordOpensASessionWithTheRole) {
  Logins l = staff();
  auto now = Logins::Clock::now();
  auto r = l.login("td", "secret", "10.0.0.5", now);
  ASSERT_EQ(r.outcome, Logins::Outcome::ok);
  EXPECT_EQ(r.role, "director");
  EXPECT_EQ(r.token.size(), 64u);
  ASSERT_TRUE(l.session(r.token, now));
  EXPECT_FALSE(l.session(r.token, now + Logins::kSessionLifetime + std::chrono::seconds(1))) << "sessions expire";
}

TEST(Logins, FiveFailuresFromAnAddressStopTheNextTryUntilTheWindowPasses) {
  Logins l = staff();
  auto now = Logins::Clock::now();
  for (int i = 0; i < Logins::kFailuresAllowed; ++i) EXPECT_EQ(l.login("td", "guess", "10.0.0.9", now).outcome, Logins::Outcome::refused);
  auto limited = l.login("td", "secret", "10.0.0.9", now);
  EXPECT_EQ(limited.outcome, Logins::Outcome::rate_limited);
  EXPECT_GT(limited.retry_after_s, 0);
  EXPECT_EQ(l.login("td", "secret", "10.0.0.9", now + Logins::kFailureWindow + std::chrono::seconds(1)).outcome, Logins::Outcome::ok);
}

TEST(Logins, AFileWithAPlainPasswordIsRefusedWithItsLine) {
  EXPECT_NE(refusal_of("td director hunter2\n").find(":1:"), std::string::npos) << "a plain password must not load";
}

// A login with a longer name is refused before its password is checked (its name would be kept a minute
// among the failures): a staff member with one could never log in, so the file says so at start.
TEST(Logins, ANameLongerThanALoginMayGiveIsRefusedWithItsLine) {
  const std::string hash = Logins::hash_password("secret", 1000);
  const std::string why = refusal_of("td director " + hash + "\n" + std::string(Logins::kLongestName + 1, 'x') + " director " + hash + "\n");
  EXPECT_NE(why.find(":2: a name is at most 256 bytes"), std::string::npos) << "a name no login can give must not load: " << why;
}

// A refused login for a name not in the file ran a fixed 100000 iterations against the staff's 200000:
// the refusal of a real name took twice as long, so names could be found by timing. The decoy now runs
// the staff's own count (the most common one). A count that would stall the console is refused.
TEST(Logins, ANameNotInTheFileCostsTheStaffsOwnIterations) {
  auto file = std::filesystem::temp_directory_path() / ("logins-" + std::to_string(::getpid()));
  std::ofstream(file) << "td director " << Logins::hash_password("a", 1500) << "\nvu broadcaster " << Logins::hash_password("b", 1500)
                      << "\nold director " << Logins::hash_password("c", 1200) << "\n";
  EXPECT_EQ(Logins::load(file).decoy_iterations(), 1500);
  std::ofstream(file) << "# nobody yet\n";
  EXPECT_EQ(Logins::load(file).decoy_iterations(), Logins::kDefaultIterations);
  std::ofstream(file) << "td director pbkdf2-sha256$2147483647$00112233445566778899aabbccddeeff$"
                      << std::string(64, '0') << "\n";
  try {
    Logins::load(file);
    ADD_FAILURE() << "2147483647 iterations accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(":1: 2147483647 iterations: at most 5000000"), std::string::npos) << e.what();
  }
  std::filesystem::remove(file);
}

// Five wrong passwords for "td" from any machine on the venue's network locked the director out for a
// minute, again and again: a hostile client could keep the TD from logging in all session. A name's
// failures now stop only addresses that have failed themselves lately; a clean address is still heard.
TEST(Logins, AnotherAddressGuessingTheNameDoesNotLockTheDirectorOut) {
  Logins l = staff();
  auto now = Logins::Clock::now();
  for (int i = 0; i < Logins::kFailuresAllowed; ++i) EXPECT_EQ(l.login("td", "guess", "10.0.0.66", now).outcome, Logins::Outcome::refused);
  EXPECT_EQ(l.login("td", "secret", "10.0.0.66", now).outcome, Logins::Outcome::rate_limited) << "the guesser stays limited";
  EXPECT_EQ(l.login("nobody", "x", "10.0.0.67", now).outcome, Logins::Outcome::refused);
  EXPECT_EQ(l.login("td", "guess", "10.0.0.67", now).outcome, Logins::Outcome::rate_limited)
      << "an address that failed lately meets the name's limit: guessers on many machines get one try each";
  EXPECT_EQ(l.login("td", "secret", "10.0.0.5", now).outcome, Logins::Outcome::ok) << "the director, from a clean address";
}

// The table of failures is bounded: past its size it was cleared whole, so a guesser locked out at the
// director's name sprayed made-up addresses until the table overflowed and guessed again at once.
TEST(Logins, ASprayOfMadeUpAddressesDoesNotLiftALockout) {
  Logins l = staff();
  l.remember_failures_of_at_most(100);
  auto now = Logins::Clock::now();
  for (int i = 0; i < Logins::kFailuresAllowed; ++i) EXPECT_EQ(l.login("td", "guess", "10.0.0.66", now).outcome, Logins::Outcome::refused);
  for (int i = 0; i < 200; ++i) l.login("x" + std::to_string(i), "x", "10.1." + std::to_string(i / 250) + "." + std::to_string(i % 250), now);
  EXPECT_EQ(l.login("td", "guess", "10.0.0.66", now).outcome, Logins::Outcome::rate_limited) << "the guesser stays locked out";
  EXPECT_EQ(l.login("td", "secret", "10.0.0.5", now).outcome, Logins::Outcome::ok) << "the director, from a clean address";
}

// The console checks passwords on hashing threads (Logins::login_async); on its one I/O thread each login
// froze every page for the length of a PBKDF2, and a burst of logins for seconds. What comes back runs
// on the io_context, so nothing here depends on how fast the hashing is: a result is taken back only
// when the test runs io.
namespace {
struct Outcomes {
  std::vector<Logins::Result> results;
  std::function<void(Logins::Result)> collect() {
    return [this](Logins::Result r) { results.push_back(std::move(r)); };
  }
  int count(Logins::Outcome o) const {
    return static_cast<int>(std::count_if(results.begin(), results.end(), [o](const auto& r) { return r.outcome == o; }));
  }
};
}  // namespace

TEST(LoginsAsync, TheRightPasswordOpensASessionOnTheIoThread) {
  Logins l = staff();
  boost::asio::io_context io;
  Outcomes got;
  l.login_async("td", "secret", "10.0.0.5", Logins::Clock::now(), io, got.collect());
  EXPECT_TRUE(got.results.empty()) << "the answer comes through io, never at once";
  io.run();
  ASSERT_EQ(got.results.size(), 1u);
  ASSERT_EQ(got.results[0].outcome, Logins::Outcome::ok);
  EXPECT_EQ(got.results[0].role, "director");
  EXPECT_TRUE(l.session(got.results[0].token, Logins::Clock::now()));
  EXPECT_EQ(l.hashes_pending(), 0u);
}

// A flood of logins from many addresses (no address's limit reached) queued PBKDF2 without end; past
// kMostPendingHashes they are refused busy (503) at once, and a busy refusal is no failed login.
TEST(LoginsAsync, ABurstBeyondTheQueueIsRefusedBusyAndCountsAsNoFailure) {
  Logins l = staff();
  boost::asio::io_context io;
  Outcomes got;
  const auto now = Logins::Clock::now();
  for (std::size_t i = 0; i < Logins::kMostPendingHashes; ++i)
    l.login_async("td", "guess", "10.0.1." + std::to_string(i), now, io, got.collect());
  EXPECT_EQ(l.hashes_pending(), Logins::kMostPendingHashes);
  for (int i = 0; i < Logins::kFailuresAllowed + 1; ++i) l.login_async("td", "secret", "10.0.2.1", now, io, got.collect());
  io.run();
  EXPECT_EQ(got.count(Logins::Outcome::refused), static_cast<int>(Logins::kMostPendingHashes));
  EXPECT_EQ(got.count(Logins::Outcome::busy), Logins::kFailuresAllowed + 1);
  for (const auto& r : got.results) EXPECT_TRUE(r.outcome != Logins::Outcome::busy || r.retry_after_s > 0);
  EXPECT_EQ(l.hashes_pending(), 0u);
  got.results.clear();
  l.login_async("td", "secret", "10.0.2.1", now, io, got.collect());
  io.restart();
  io.run();
  ASSERT_EQ(got.results.size(), 1u);
  EXPECT_EQ(got.results[0].outcome, Logins::Outcome::ok) << "six busy refusals did not lock the address out";
}

// Checked one at a time, the sixth guess from an address met the five failures before it. Sent together,
// all ten would pass the limit before the first had failed: an attempt in flight counts as a failure.
TEST(LoginsAsync, GuessesSentTogetherFromOneAddressStillStopAtTheLimit) {
  Logins l = staff();
  boost::asio::io_context io;
  Outcomes got;
  const auto now = Logins::Clock::now();
  for (int i = 0; i < 2 * Logins::kFailuresAllowed; ++i) l.login_async("td", "guess", "10.0.3.3", now, io, got.collect());
  io.run();
  EXPECT_EQ(got.count(Logins::Outcome::refused), Logins::kFailuresAllowed);
  EXPECT_EQ(got.count(Logins::Outcome::rate_limited), Logins::kFailuresAllowed);
}

// The right password, checked while it counted as a failure, leaves no failure behind.
TEST(LoginsAsync, ARightPasswordInFlightLeavesNoFailureBehind) {
  Logins l = staff();
  boost::asio::io_context io;
  Outcomes got;
  const auto now = Logins::Clock::now();
  for (int i = 0; i < Logins::kFailuresAllowed - 1; ++i) l.login_async("td", "guess", "10.0.4.4", now, io, got.collect());
  l.login_async("td", "secret", "10.0.4.4", now, io, got.collect());
  io.run();
  EXPECT_EQ(got.count(Logins::Outcome::ok), 1);
  EXPECT_EQ(l.login("td", "guess", "10.0.4.4", now).outcome, Logins::Outcome::refused) << "the fifth failure, not the sixth";
  EXPECT_EQ(l.login("td", "secret", "10.0.4.4", now).outcome, Logins::Outcome::rate_limited);
}

// The PBKDF2 is the console's own loop (so that it can stop): the hashes in the staff's files were
// written by OpenSSL's PKCS5_PBKDF2_HMAC, and must still open.
TEST(Logins, AHashWrittenByOpenSslsPbkdf2StillOpens) {
  const std::string salt = "0123456789abcdef", password = "td-secret";
  unsigned char key[32];
  ASSERT_EQ(PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()), reinterpret_cast<const unsigned char*>(salt.data()),
                              static_cast<int>(salt.size()), 4099, EVP_sha256(), sizeof key, key), 1);
  auto hex = [](const unsigned char* p, std::size_t n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += "0123456789abcdef"[p[i] >> 4], s += "0123456789abcdef"[p[i] & 15];
    return s;
  };
  auto file = std::filesystem::temp_directory_path() / ("openssl-logins-" + std::to_string(::getpid()));
  std::ofstream(file) << "td director pbkdf2-sha256$4099$" << hex(reinterpret_cast<const unsigned char*>(salt.data()), salt.size()) << "$"
                      << hex(key, sizeof key) << "\n";
  Logins l = Logins::load(file);
  std::filesystem::remove(file);
  auto now = Logins::Clock::now();
  EXPECT_EQ(l.login("td", "td-secret", "10.0.0.5", now).outcome, Logins::Outcome::ok);
  EXPECT_EQ(l.login("td", "td-secreT", "10.0.0.6", now).outcome, Logins::Outcome::refused);
}

// SIGTERM ends the console's io_context, and the Logins goes with the gateway: its hashing threads
// joined only once the login in flight was hashed, 9 s at the most iterations a file may give.
TEST(LoginsAsync, StoppingDoesNotWaitForAPasswordBeingHashed) {
  auto file = std::filesystem::temp_directory_path() / ("slow-logins-" + std::to_string(::getpid()));
  std::ofstream(file) << "td director pbkdf2-sha256$" << Logins::kMostIterations << "$00112233445566778899aabbccddeeff$"
                      << std::string(64, 'a') << "\n";
  auto l = std::make_unique<Logins>(Logins::load(file));
  std::filesystem::remove(file);
  boost::asio::io_context io;
  bool answered = false;
  l->login_async("td", "guess", "10.0.5.5", Logins::Clock::now(), io, [&](Logins::Result) { answered = true; });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the hashing has started
  ASSERT_EQ(l->hashes_pending(), 1u);
  const auto stopping = std::chrono::steady_clock::now();
  l.reset();
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - stopping).count();
  EXPECT_LT(waited, 0.25) << "the hashing threads were joined only after the whole PBKDF2 (a second or more)";
  io.run();
  EXPECT_FALSE(answered) << "a login cut short is no answer (its connection goes with the console)";
}
