// The origin check against cross-site requests (console/request_origin): which requests it stops.
#include "console/request_origin.hpp"

#include <gtest/gtest.h>

using namespace cardtable::console;

namespace {
Request request(http::verb method, const std::string& target, const std::string& host, std::vector<std::pair<http::field, std::string>> headers = {}) {
  Request r{method, target, 11};
  if (!host.empty()) r.set(http::field::host, host);
  for (const auto& [f, v] : headers) r.insert(f, v);
  return r;
}
}  // namespace

TEST(Origin, NormalizedAsBrowsersCompareThem) {
  std::string error;
  EXPECT_EQ(normalize_origin("HTTPS://Console.Venue.LAN:443/", error).value_or("?"), "https://console.venue.lan");
  EXPECT_EQ(normalize_origin("http://127.0.0.1:80", error).value_or("?"), "http://127.0.0.1");
  EXPECT_EQ(normalize_origin("http://[::1]:8080", error).value_or("?"), "http://[::1]:8080");
  EXPECT_EQ(normalize_origin("https://console.venue.lan:8443", error).value_or("?"), "https://console.venue.lan:8443");
  for (const char* bad : {"console.venue.lan", "null", "ftp://x", "https://x/console", "https://user@x", "https://x:99999", "https://:8443"}) {
    EXPECT_FALSE(normalize_origin(bad, error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
  EXPECT_THROW(OriginCheck({"console.venue.lan"}), std::invalid_argument);
}

TEST(Origin, AStateChangingRequestFromAnotherSiteIsRefused) {
  OriginCheck check;
  const std::string host = "127.0.0.1:8080";
  EXPECT_FALSE(check.refusal(request(http::verb::post, "/api/ack", host, {{http::field::origin, "http://127.0.0.1:8080"}}), false));
  auto why = check.refusal(request(http::verb::post, "/api/ack", host, {{http::field::origin, "http://evil.example"}}), false);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("Origin http://evil.example is not this console's (http://127.0.0.1:8080"), std::string::npos) << *why;
  // A sandboxed frame or a data: page sends "null": what a hostile page can make itself into.
  EXPECT_TRUE(check.refusal(request(http::verb::post, "/api/login", host, {{http::field::origin, "null"}}), false));
  // The same host and port over the other scheme is another origin.
  EXPECT_TRUE(check.refusal(request(http::verb::post, "/api/ack", host, {{http::field::origin, "https://127.0.0.1:8080"}}), false));
  EXPECT_TRUE(check.refusal(request(http::verb::post, "/api/ack", host, {{http::field::origin, "http://127.0.0.1:8081"}}), false));
  // Any method that is not GET or HEAD, even where the console routes none.
  EXPECT_TRUE(check.refusal(request(http::verb::put, "/", host, {{http::field::origin, "http://evil.example"}}), false));
  EXPECT_TRUE(check.refusal(request(http::verb::post, "/api/ack", host,
                                    {{http::field::origin, "http://127.0.0.1:8080"}, {http::field::origin, "http://evil.example"}}), false));
  EXPECT_TRUE(check.refusal(request(http::verb::post, "/api/ack", "", {{http::field::origin, "http://127.0.0.1:8080"}}), false))
      << "without Host there is no own origin to match";
}

TEST(Origin, WithoutOriginTheRefererIsChecked) {
  OriginCheck check;
  const std::string host = "console.venue.lan";
  EXPECT_FALSE(check.refusal(request(http::verb::post, "/api/ack", host, {{http::field::referer, "https://console.venue.lan/?x=1"}}), true));
  EXPECT_TRUE(check.refusal(request(http::verb::post, "/api/ack", host, {{http::field::referer, "https://evil.example/console.venue.lan"}}), true));
  // Neither: not a browser (curl, a script); every browser names the origin of a cross-site POST.
  EXPECT_FALSE(check.refusal(request(http::verb::post, "/api/ack", host), true));
}

TEST(Origin, TheApiReadByAnotherSiteIsRefusedThePageIsNot) {
  OriginCheck check;
  const std::string host = "127.0.0.1:8080";
  // A cross-site EventSource names its origin: the stream is refused before any cookie is looked at.
  EXPECT_TRUE(check.refusal(request(http::verb::get, "/api/stream", host, {{http::field::origin, "http://evil.example"}}), false));
  EXPECT_FALSE(check.refusal(request(http::verb::get, "/api/stream", host), false)) << "a same-origin EventSource names none";
  EXPECT_FALSE(check.refusal(request(http::verb::get, "/console.js", host, {{http::field::origin, "http://evil.example"}}), false));
  EXPECT_FALSE(check.refusal(request(http::verb::get, "/api/me", host, {{http::field::referer, "http://evil.example/"}}), false))
      << "a GET is checked by its Origin only: a link followed from elsewhere carries the Referer";
}

TEST(Origin, AnOperatorNamesTheOriginsOfAReverseProxy) {
  OriginCheck check({"https://Console.Venue.LAN:443"});
  // Behind the proxy the Host is the console's own address; the browser's origin is the proxy's.
  EXPECT_FALSE(check.refusal(request(http::verb::post, "/api/ack", "127.0.0.1:8080", {{http::field::origin, "https://console.venue.lan"}}), false));
  auto why = check.refusal(request(http::verb::post, "/api/ack", "127.0.0.1:8080", {{http::field::origin, "https://console.venue.lan:8443"}}), false);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("or an --allowed-origin"), std::string::npos) << *why;
}
