// Signals are read from a file descriptor, in the loop: SIGHUP arrives as a number, not a handler.
#include <gtest/gtest.h>

#include <poll.h>
#include <signal.h>

#include "daemon/signal_set.hpp"

TEST(SignalSet, ASighupSentToTheProcessIsReadFromTheDescriptor) {
  cardtable::daemon::SignalSet signals;
  ::kill(::getpid(), SIGHUP);
  pollfd p{signals.fd(), POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 2000), 1);
  auto got = signals.take();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], SIGHUP);
  EXPECT_TRUE(signals.take().empty());
}
