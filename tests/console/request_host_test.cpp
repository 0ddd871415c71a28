// The Host check against DNS rebinding (console/request_host): which names a request may be addressed to.
#include "console/request_host.hpp"

#include <gtest/gtest.h>

using namespace cardtable::console;
namespace ip = boost::asio::ip;

namespace {
Request to(const std::string& host, const std::string& target = "/api/login") {
  Request r{http::verb::post, target, 11};
  if (!host.empty()) r.set(http::field::host, host);
  return r;
}
}  // namespace

TEST(Host, ALoopbackConsoleAnswersToItsAddressLocalhostAndLoopbackOnly) {
  HostCheck check(ip::make_address("127.0.0.1"), {});
  for (const char* ours : {"127.0.0.1:8080", "127.0.0.1", "LOCALHOST:8080", "localhost", "[::1]:8080", "127.0.0.2:9"})
    EXPECT_FALSE(check.refusal(to(ours))) << ours;
  // A hostile site's name pointed at 127.0.0.1: its page's Origin is that name too, and passed the origin check.
  auto why = check.refusal(to("evil.example:8080"));
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("Host evil.example:8080 does not name this console (it answers to 127.0.0.1, localhost"), std::string::npos) << *why;
  for (const char* theirs : {"localhost.evil.example", "127.0.0.1.evil.example", "10.0.0.2:8080", "", "x y", "evil.example:99999"})
    EXPECT_TRUE(check.refusal(to(theirs))) << "'" << theirs << "'";
  Request two = to("127.0.0.1:8080");
  two.insert(http::field::host, "evil.example");
  EXPECT_TRUE(check.refusal(two)) << "two Host headers";
  EXPECT_TRUE(check.refusal(to("evil.example", "/"))) << "the page too: a rebinding page must not load the console's";
}

TEST(Host, OnTheVenuesNetworkTheListenAddressAndTheAllowedOriginsNames) {
  HostCheck check(ip::make_address("10.0.0.2"), {"https://console.venue.lan:8443", "https://[fd00::2]"});
  for (const char* ours : {"10.0.0.2:8443", "Console.Venue.LAN:8443", "console.venue.lan", "[fd00::2]"})
    EXPECT_FALSE(check.refusal(to(ours))) << ours;
  for (const char* theirs : {"localhost:8443", "127.0.0.1:8443", "10.0.0.3:8443", "evil.example"})
    EXPECT_TRUE(check.refusal(to(theirs))) << theirs << ": not what the console listens on";
}

TEST(Host, ListeningOnEveryAddressAnyAddressLiteralIsOursButNoOtherName) {
  // 0.0.0.0 or ::: the machine's addresses are not known here; an address literal resolves no name, so
  // it cannot be rebound. A name must still be one the operator gave.
  HostCheck check(ip::make_address("::"), {"https://console.venue.lan"});
  for (const char* ours : {"10.0.0.2:8443", "[fe80::1]:8443", "localhost:8443", "console.venue.lan:8443"})
    EXPECT_FALSE(check.refusal(to(ours))) << ours;
  EXPECT_TRUE(check.refusal(to("evil.example:8443")));
}
