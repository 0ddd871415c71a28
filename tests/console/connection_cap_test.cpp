// --max-connections and --max-connections-per-address hold at every moment, a burst of newcomers included:
// the real listener on a loopback port, its one I/O thread driven a handler at a time, the caps checked
// after each one.
#include "console/http_listener.hpp"
#include "tests/console/console_folder.hpp"

#include <boost/asio/io_context.hpp>
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <optional>
#include <vector>

namespace net = boost::asio;
using tcp = net::ip::tcp;
using namespace cardtable::console;

namespace {

// A console's gateway and listener on 127.0.0.1 (an ephemeral port), with no table and one login.
struct Console {
  explicit Console(GatewayLimits limits)
      : folder(std::filesystem::temp_directory_path() / ("connection-cap-" + std::to_string(::getpid()))),
        gateway(io, venue, test_folder::one_director_logins(folder), requests, {}, test_folder::one_page_www(folder), limits),
        listener(std::make_shared<HttpListener>(io, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0), gateway, nullptr, hosts, origins)) {
    listener->start();
  }
  ~Console() { std::filesystem::remove_all(folder); }


  // A browser on the venue's network (its own loopback address) opens a connection and sends nothing
  // yet: it waits for its request, as an idle keep-alive does. Connected in the kernel's backlog at once,
  // accepted when the I/O thread gets to it.
  tcp::socket connect_from(const std::string& address) {
    tcp::socket s(client_io);
    s.open(tcp::v4());
    s.bind(tcp::endpoint(net::ip::make_address(address), 0));
    s.connect(listener->local_endpoint());
    return s;
  }

  std::size_t open_connections() const { return listener->open_connections(); }
  std::size_t open_connections_from(const std::string& address) const { return listener->open_connections_from(address); }

  // Runs the console's handlers one at a time until none is ready for 100 ms; calls check after each.
  template <class Check>
  void run_each_handler(Check check) {
    while (io.run_one_for(std::chrono::milliseconds(100)) > 0) check();
  }

  std::filesystem::path folder;
  net::io_context io{1};
  net::io_context client_io;
  VenueState venue;
  TableRequests requests;
  HostCheck hosts{net::ip::make_address("127.0.0.1"), {}};
  OriginCheck origins;
  Gateway gateway;
  std::shared_ptr<HttpListener> listener;
};

// Whether the console closed this client's connection (it reads end of file or a reset at once).
bool closed_by_console(tcp::socket& s) {
  s.non_blocking(true);
  std::array<char, 4096> sink;
  boost::system::error_code ec;
  while (!ec) s.read_some(net::buffer(sink), ec);  // a refusal's 503 first, then the end
  return ec != net::error::would_block;
}

}  // namespace

// A newcomer when all --max-connections are open closes the connection that has waited longest and takes
// its place: at no moment are more than --max-connections counted, however many newcomers arrive together.
// The connection closed for room was counted until its session's cancelled handlers had run, so each
// newcomer of a burst added one before the closed one was taken off.
TEST(ConnectionCap, ABurstOfNewcomersNeverTakesTheCountPastMaxConnections) {
  GatewayLimits limits;
  limits.max_connections = 6;
  limits.max_connections_per_address = 3;
  Console console(limits);
  std::vector<tcp::socket> first, newcomers;
  for (const char* address : {"127.0.0.2", "127.0.0.3"})
    for (int i = 0; i < 3; ++i) first.push_back(console.connect_from(address));
  console.run_each_handler([] {});
  ASSERT_EQ(console.open_connections(), 6u);

  for (const char* address : {"127.0.0.4", "127.0.0.5"})
    for (int i = 0; i < 3; ++i) newcomers.push_back(console.connect_from(address));
  std::size_t most = 0, most_from_one_address = 0;
  console.run_each_handler([&] {
    most = std::max(most, console.open_connections());
    for (const char* address : {"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"})
      most_from_one_address = std::max(most_from_one_address, console.open_connections_from(address));
  });
  EXPECT_LE(most, limits.max_connections) << "connections counted at once during the burst";
  EXPECT_LE(most_from_one_address, limits.max_connections_per_address) << "connections of one address counted at once";
  EXPECT_EQ(console.open_connections(), 6u);
  // The six that waited longest made room; the newcomers hold every connection.
  for (auto& s : first) EXPECT_TRUE(closed_by_console(s));
  for (auto& s : newcomers) EXPECT_FALSE(closed_by_console(s));
}

// The count itself: a connection counts from its admission until it is given back, once.
TEST(ConnectionCount, AConnectionCountsUntilItsSocketClosesNotUntilItsSessionGoes) {
  ConnectionCount count;
  auto first = count.admit("127.0.0.2");
  auto second = count.admit("127.0.0.2");
  auto third = count.admit("127.0.0.3");
  EXPECT_EQ(count.total(), 3u);
  EXPECT_EQ(count.from("127.0.0.2"), 2u);
  first.release();  // its socket closed; the session still waits for its cancelled handlers
  EXPECT_EQ(count.total(), 2u);
  EXPECT_EQ(count.from("127.0.0.2"), 1u);
  first.release();  // closed twice (the deadline and the newcomer both): given back once
  EXPECT_EQ(count.total(), 2u);
  { auto moved = std::move(second); }  // a session gone without closing gives its place back
  EXPECT_EQ(count.total(), 1u);
  EXPECT_EQ(count.from("127.0.0.2"), 0u);
  EXPECT_EQ(count.from("127.0.0.3"), 1u);
}

// A session may outlive the listener when the console stops: its admission keeps the count alive.
TEST(ConnectionCount, AnAdmissionOutlivesItsCount) {
  std::optional<ConnectionCount> count{std::in_place};
  auto admission = count->admit("127.0.0.2");
  count.reset();
  admission.release();
  SUCCEED();
}
