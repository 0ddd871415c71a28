// Replays do not hold up the daemon (issue 8): journal reads are served by a thread of their own, at most
// a few per client. Through the real daemon and real sockets: a client's excess replay requests are
// refused at once with an error naming the bound while the rest are served whole, and live events keep
// arriving -- in order, none lost -- between the replies of a flood. Orderings and bounds, not timings:
// the figures are bench/replay_flood.py's.
#include <zmq.hpp>

#include "daemon_fixture.hpp"

namespace {

const std::string kReplay = json{{"command", "replay"}, {"since", 1}}.dump();

// A replay reply served whole: from seq 1, consecutive, up to the last seq the daemon had written.
void expect_whole(const json& r) {
  ASSERT_TRUE(r["ok"].get<bool>()) << r.dump().substr(0, 300);
  ASSERT_EQ(r["first_available"], 1);
  const json& events = r["events"];
  ASSERT_FALSE(events.empty());
  for (std::size_t i = 0; i < events.size(); ++i) ASSERT_EQ(events[i]["seq"].get<std::uint64_t>(), i + 1);
  if (!r["more"].get<bool>()) {
    EXPECT_EQ(events.back()["seq"], r["last_seq"]);
  }
}

}  // namespace

TEST_F(Daemon, AClientsExcessReplayRequestsAreRefusedNamingTheBoundAndTheRestServedWhole) {
  start("play-clean-board.scn", 200, {"--loop"});
  ASSERT_TRUE(wait_for([&] {
    auto s = request({{"command", "status"}}, 500);
    return s && (*s)["status"]["last_seq"].get<std::uint64_t>() >= 40;
  })) << log();
  zmq::socket_t dealer(ctx, zmq::socket_type::dealer);
  dealer.set(zmq::sockopt::linger, 0);
  dealer.connect(ctl);
  constexpr int kSent = 100;
  for (int i = 0; i < kSent; ++i) dealer.send(zmq::buffer(kReplay));  // all at once, none waited for
  int served = 0, refused = 0;
  for (int i = 0; i < kSent; ++i) {
    zmq::pollitem_t item{dealer.handle(), 0, ZMQ_POLLIN, 0};
    ASSERT_EQ(zmq::poll(&item, 1, std::chrono::milliseconds(20000)), 1) << "request " << i << " got no reply\n" << log();
    zmq::message_t m;
    ASSERT_TRUE(dealer.recv(m));
    json r = json::parse(m.to_string_view());
    if (r["ok"].get<bool>()) {
      ++served;
      expect_whole(r);
    } else {
      ++refused;
      EXPECT_EQ(r["error"].get<std::string>().find("replay: refused: this client already has 4 journal reads"), 0u) << r.dump();
    }
  }
  // The daemon reads up to 8 requests a turn and takes 4 of a client's: of a burst, some are refused.
  EXPECT_GE(served, 4);
  EXPECT_GE(refused, 1);
  EXPECT_EQ(served + refused, kSent);
  auto s = request({{"command", "status"}});
  ASSERT_TRUE(s) << "the daemon lives";
  EXPECT_GE((*s)["status"]["control_errors"].get<std::uint64_t>(), static_cast<std::uint64_t>(refused));
  // Refusals are logged, but not one line each: at most 20 a second.
  std::string text = log();
  std::size_t lines = 0;
  for (auto at = text.find("request refused"); at != std::string::npos; at = text.find("request refused", at + 1)) ++lines;
  EXPECT_LE(lines, static_cast<std::size_t>(refused));
  if (refused > 40) {
    EXPECT_TRUE(wait_for([&] { return log().find("more requests refused in the last second, not logged one by one") != std::string::npos; }))
        << "the refusals not logged are counted";
  }
}

TEST_F(Daemon, LiveEventsKeepArrivingInOrderBetweenTheRepliesOfAReplayFlood) {
  heartbeat = "0.1";  // the shortest the daemon keeps (protocol/heartbeat.hpp)
  start("play-clean-board.scn", 200, {"--loop"});
  ASSERT_TRUE(wait_for([&] {
    auto s = request({{"command", "status"}}, 500);
    return s && (*s)["status"]["last_seq"].get<std::uint64_t>() >= 40;
  })) << log();
  zmq::socket_t sub(ctx, zmq::socket_type::sub);
  sub.set(zmq::sockopt::linger, 0);
  sub.set(zmq::sockopt::subscribe, "");
  sub.connect(pub);
  // Four clients, each keeping 4 replays outstanding (the bound) until 100 each are served; one thread
  // polls them all and the subscriber, so the order of arrivals is exact.
  constexpr std::size_t kClients = 4;
  constexpr int kEach = 100, kWindow = 4;
  std::vector<zmq::socket_t> clients;
  for (std::size_t c = 0; c < kClients; ++c) {
    clients.emplace_back(ctx, zmq::socket_type::dealer);
    clients.back().set(zmq::sockopt::linger, 0);
    clients.back().connect(ctl);
  }
  std::vector<int> sent(kClients, 0), answered(kClients, 0);
  int replies = 0, live_between = 0;
  std::vector<json> arrived;  // every event received from the first reply to the last, in arrival order
  for (std::size_t c = 0; c < kClients; ++c)
    for (; sent[c] < kWindow; ++sent[c]) clients[c].send(zmq::buffer(kReplay));
  while (replies < static_cast<int>(kClients) * kEach) {
    std::vector<zmq::pollitem_t> items;
    for (auto& c : clients) items.push_back({c.handle(), 0, ZMQ_POLLIN, 0});
    items.push_back({sub.handle(), 0, ZMQ_POLLIN, 0});
    ASSERT_GT(zmq::poll(items, std::chrono::milliseconds(20000)), 0) << replies << " replies, then none\n" << log();
    if (items.back().revents & ZMQ_POLLIN) {
      std::vector<zmq::message_t> f;
      ASSERT_TRUE(zmq::recv_multipart(sub, std::back_inserter(f)));
      if (replies > 0) {
        arrived.push_back(json::parse(f.back().to_string_view()));
        ++live_between;
      }
    }
    for (std::size_t c = 0; c < kClients; ++c) {
      if (!(items[c].revents & ZMQ_POLLIN)) continue;
      zmq::message_t m;
      ASSERT_TRUE(clients[c].recv(m));
      json r = json::parse(m.to_string_view());
      ASSERT_TRUE(r["ok"].get<bool>()) << "within the bound nothing is refused: " << r.dump().substr(0, 300);
      expect_whole(r);
      ++replies;
      if (++answered[c] < kEach && sent[c] < kEach) {
        clients[c].send(zmq::buffer(kReplay));
        ++sent[c];
      }
    }
  }
  // Live events came between the replies, and in order: the journalled ones consecutive (none lost, none
  // held back), each heartbeat later than the one before (a stalled loop stamps a backlog with one time).
  ASSERT_GE(live_between, 2) << "no live event between the first and the last of 400 replay replies";
  std::uint64_t last_seq = 0;
  double last_heartbeat = 0;
  for (const json& e : arrived) {
    if (e["type"] == "daemon.heartbeat") {
      EXPECT_GT(e["time"].get<double>(), last_heartbeat);
      last_heartbeat = e["time"].get<double>();
      continue;
    }
    std::uint64_t seq = e["seq"].get<std::uint64_t>();
    if (last_seq) {
      EXPECT_EQ(seq, last_seq + 1) << "a live event lost or out of order";
    }
    last_seq = seq;
  }
  std::cout << "replay flood: " << replies << " replies served, " << live_between << " live events arrived between them\n";
}
