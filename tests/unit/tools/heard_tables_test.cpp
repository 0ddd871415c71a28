// Watch's "nothing heard": three of the daemons' heartbeats missed, whatever their period. A fixed 15 s
// called a daemon run with --heartbeat 30 silent every 15 s, between two of its heartbeats.
#include <gtest/gtest.h>

#include <functional>

#include "heard_tables.hpp"

namespace cardtable::tools {
namespace {
using namespace std::chrono_literals;
using Clock = HeardTables::Clock;

std::string said(const std::function<void()>& f) {
  testing::internal::CaptureStderr();
  f();
  return testing::internal::GetCapturedStderr();
}
}  // namespace

TEST(HeardTables, AnEndpointIsSilentAfterThreeOfItsDaemonsHeartbeats) {
  const Clock::time_point t0{};
  HeardTables slow("tcp://table:5551", true, 30, t0);
  EXPECT_EQ(said([&] { slow.nothing(t0 + 16s); }), "") << "two heartbeats of 30 s are not yet missed at 16 s";
  slow.message(t0 + 30s);
  EXPECT_EQ(said([&] { slow.nothing(t0 + 119s); }), "");
  std::string out = said([&] { slow.nothing(t0 + 121s); });
  EXPECT_NE(out.find("nothing from tcp://table:5551 for 90 s, not even a heartbeat (expected every 30 s"), std::string::npos) << out;
  EXPECT_EQ(said([&] { slow.nothing(t0 + 200s); }), "") << "said once";

  HeardTables usual("tcp://table:5551", true, 5, t0);
  out = said([&] { usual.nothing(t0 + 15100ms); });
  EXPECT_NE(out.find("for 15 s, not even a heartbeat (expected every 5 s"), std::string::npos) << out;

  HeardTables live("tcp://table:5553", false, 5, t0);  // the live endpoint carries no heartbeat
  EXPECT_EQ(said([&] { live.nothing(t0 + 1h); }), "");
}

// Each heartbeat says its period (protocol 1.7): a table's silence is three of its own heartbeats, and the
// endpoint's three of the longest period heard, whatever watch's --heartbeat.
TEST(HeardTables, TheSilenceIsCountedInThePeriodTheHeartbeatsSay) {
  const Clock::time_point t0{};
  HeardTables slow("tcp://table:5551", true, 5, t0);  // watch left at its default
  slow.message(t0);
  slow.table("default/A/1", t0);
  slow.heartbeat_period("default/A/1", 30);
  EXPECT_EQ(said([&] { slow.nothing(t0 + 16s); }), "") << "three of 5 s are not three of the 30 s the heartbeats say";
  std::string out = said([&] { slow.nothing(t0 + 91s); });
  EXPECT_NE(out.find("for 90 s, not even a heartbeat (expected every 30 s, as its heartbeats said)"), std::string::npos) << out;

  HeardTables venue("tcp://hub:5561", true, 5, t0);
  venue.table("default/A/1", t0);
  venue.table("default/A/2", t0);
  venue.heartbeat_period("default/A/1", 0.2);
  venue.table("default/A/2", t0 + 700ms);
  venue.message(t0 + 700ms);
  out = said([&] { venue.say_silent_tables(t0 + 700ms); });
  EXPECT_EQ(out, "cardtablectl watch: table default/A/1: nothing from it for 0.6 s, not even a heartbeat, while other tables are heard: its "
                 "daemon stopped, or its machine or network is down. Still listening.\n")
      << "table 1 beats every 0.2 s; table 2, not saying, is held to --heartbeat";
}

TEST(HeardTables, ThroughAHubATableSilentWhileOthersAreHeardIsNamedOnceAndAgainWhenBack) {
  const Clock::time_point t0{};
  HeardTables venue("tcp://hub:5561", true, 0.5, t0);
  EXPECT_TRUE(venue.table("default/A/1", t0));
  EXPECT_TRUE(venue.table("default/A/2", t0));
  EXPECT_FALSE(venue.table("default/A/1", t0 + 1s));
  venue.message(t0 + 1s);
  EXPECT_EQ(said([&] { venue.say_silent_tables(t0 + 1s); }), "") << "1 s: not yet three of its 0.5 s heartbeats";
  venue.table("default/A/1", t0 + 1600ms);
  venue.message(t0 + 1600ms);
  std::string out = said([&] { venue.say_silent_tables(t0 + 1600ms); });
  EXPECT_EQ(out, "cardtablectl watch: table default/A/2: nothing from it for 1.5 s, not even a heartbeat, while other tables are heard: its "
                 "daemon stopped, or its machine or network is down. Still listening.\n");
  EXPECT_EQ(said([&] { venue.say_silent_tables(t0 + 1700ms); }), "") << "said once";
  out = said([&] { venue.table("default/A/2", t0 + 2s); });
  EXPECT_EQ(out, "cardtablectl watch: table default/A/2: heard again\n");
}

}  // namespace cardtable::tools
