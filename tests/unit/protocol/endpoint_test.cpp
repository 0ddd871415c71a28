// Endpoints: parsed whole, and plain text only where nothing leaves the machine (one rule for the
// daemon and the hub).
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "protocol/endpoint.hpp"

// Every endpoint here is only parsed and judged, never bound or dialled. Where the port does not matter it
// is `*` (an ephemeral port), so that no test names a fixed port.
using namespace cardtable::protocol;

namespace {
std::optional<std::string> plain(const std::string& text) {
  std::string error;
  auto e = parse_endpoint(text, error);
  if (!e) return "unparsed: " + error;
  return check_endpoint_security(*e, true, false);
}
}  // namespace

TEST(Endpoint, ParsesBindConnectTcpIpcAndTheSourceSyntax) {
  std::string error;
  auto e = parse_endpoint("connect:tcp://127.0.0.1:0;192.0.2.10:*", error);
  ASSERT_TRUE(e) << error;
  EXPECT_FALSE(e->bind);
  auto parts = parse_tcp(e->address, error);
  ASSERT_TRUE(parts);
  ASSERT_TRUE(parts->source);
  EXPECT_EQ(parts->source->host, "127.0.0.1");
  EXPECT_EQ(parts->target.host, "192.0.2.10");
  EXPECT_EQ(parts->target.port, "*");
  EXPECT_TRUE(parse_endpoint("ipc:///run/cardtable/events", error));
  EXPECT_TRUE(parse_endpoint("bind:tcp://[::1]:*", error));
}

TEST(Endpoint, MalformedEndpointsAreRefusedWithTheReason) {
  std::string error;
  const std::string out_of_range = "tcp://127.0.0.1:" + std::to_string(65535 + 1);  // a port that cannot exist
  for (const char* bad : {"tcp://127.0.0.1", "tcp://:*", out_of_range.c_str(), "tcp://127.0.0.1:x5", "udp://x:*", "ipc://",
                          "tcp://[::1:*", "tcp://a;b;c:*", "tcp://bad host:*", "tcp://::1:*"}) {
    error.clear();
    EXPECT_FALSE(parse_endpoint(bad, error)) << bad;
    EXPECT_FALSE(error.empty()) << bad;
  }
}

// The daemon and the hub started with --control on --publish's ipc path: the second bind took the
// socket file, the first endpoint was dead and nothing said so.
TEST(Endpoint, NoTwoEndpointsOfOneProgramShareAnAddress) {
  auto e = [](const std::string& text) {
    std::string error;
    return *parse_endpoint(text, error);
  };
  auto why = check_distinct_endpoints({{"--publish", e("ipc:///run/ct/a")}, {"--control", e("ipc:///run/ct/a")}, {"--live", e("ipc:///run/ct/b")}});
  ASSERT_TRUE(why);
  EXPECT_EQ(*why, "--control: ipc:///run/ct/a is --publish's endpoint too; each endpoint needs its own address");
  // bind: or connect:, one address is one address.
  EXPECT_TRUE(check_distinct_endpoints({{"--publish", e("ipc:///run/ct/a")}, {"--live", e("connect:ipc:///run/ct/a")}}));
  EXPECT_FALSE(check_distinct_endpoints({{"--publish", e("ipc:///run/ct/a")}, {"--control", e("ipc:///run/ct/b")}}));
  // Any free port is a different port each time.
  EXPECT_FALSE(check_distinct_endpoints({{"--publish", e("tcp://127.0.0.1:*")}, {"--control", e("tcp://127.0.0.1:*")}}));
}

TEST(Endpoint, PlainTextOnlyOnLoopbackAndIpc) {
  EXPECT_EQ(plain("tcp://127.0.0.1:*"), std::nullopt);
  EXPECT_EQ(plain("tcp://[::1]:*"), std::nullopt);
  EXPECT_EQ(plain("tcp://localhost:*"), std::nullopt);
  EXPECT_EQ(plain("ipc:///tmp/x"), std::nullopt);
  EXPECT_EQ(plain("tcp://lo:*"), std::nullopt);
}

TEST(Endpoint, ANameThatStartsLikeLoopbackIsStillAName) {
  EXPECT_NE(plain("connect:tcp://127.example.org:*"), std::nullopt);
  EXPECT_NE(plain("tcp://localhost.example.org:*"), std::nullopt);
}

TEST(Endpoint, TheSourceSyntaxCannotSmuggleARemoteTarget) {
  EXPECT_NE(plain("connect:tcp://127.0.0.1:0;192.0.2.10:*"), std::nullopt);
  EXPECT_NE(plain("connect:tcp://192.0.2.10:0;127.0.0.1:*"), std::nullopt);
  EXPECT_EQ(plain("connect:tcp://127.0.0.1:0;127.0.0.1:*"), std::nullopt);
}

TEST(Endpoint, EveryInterfaceIsNotLoopback) {
  EXPECT_NE(plain("tcp://*:*"), std::nullopt);
  EXPECT_NE(plain("tcp://0.0.0.0:*"), std::nullopt);
  EXPECT_NE(plain("tcp://10.1.2.3:*"), std::nullopt);
}

TEST(Endpoint, PlainTextMustBeAskedFor) {
  Endpoint e{true, "tcp://127.0.0.1:*"};
  EXPECT_NE(check_endpoint_security(e, false, false), std::nullopt);
  EXPECT_EQ(check_endpoint_security(Endpoint{true, "tcp://10.1.2.3:*"}, false, true), std::nullopt) << "CURVE: anywhere";
}

// A second daemon or hub started on an ipc path a running one listens on: ZeroMQ's bind unlinked the
// socket file and took the path, and the first was cut off from every new connection without a word. A
// file left by a program that is gone (kill -9) is free to take.
TEST(Endpoint, AnIpcPathARunningProgramListensOnIsNotFree) {
  namespace fs = std::filesystem;
  const fs::path path = fs::temp_directory_path() / ("endpoint-test-" + std::to_string(::getpid()) + ".sock");
  fs::remove(path);
  cardtable::protocol::Endpoint e;
  e.address = "ipc://" + path.string();
  EXPECT_FALSE(cardtable::protocol::check_ipc_free(e)) << "no file: free";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.c_str(), path.string().size());
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(::listen(fd, 4), 0);
  auto why = cardtable::protocol::check_ipc_free(e);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("a running program listens on it"), std::string::npos) << *why;
  e.bind = false;
  EXPECT_FALSE(cardtable::protocol::check_ipc_free(e)) << "connecting to it is what it is for";
  e.bind = true;
  ::close(fd);  // the program is gone, its file stays
  EXPECT_TRUE(fs::exists(path));
  EXPECT_FALSE(cardtable::protocol::check_ipc_free(e)) << "a stale file is free to take";
  fs::remove(path);
}
