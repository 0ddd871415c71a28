// Logins: hashed passwords, sessions, and the limit on failed attempts.
#include "console/logins.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using cardtable::console::Logins;

namespace {
Logins staff() {
  auto file = std::filesystem::temp_directory_path() / ("logins-" + std::to_string(::getpid()));
  std::ofstream(file) << "# the staff\ntd director " << Logins::hash_password("secret", 1000) << "\n";
  Logins l = Logins::load(file);
  std::filesystem::remove(file);
  return l;
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
  auto file = std::filesystem::temp_directory_path() / ("bad-logins-" + std::to_string(::getpid()));
  std::ofstream(file) << "td director hunter2\n";
  try {
    Logins::load(file);
    FAIL() << "a plain password must not load";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(":1:"), std::string::npos) << e.what();
  }
  std::filesystem::remove(file);
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
