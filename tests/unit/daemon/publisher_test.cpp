// The publisher: journalled before published, live.* held under embargo and then live-journalled.
#include <gtest/gtest.h>

#include <unistd.h>

#include <thread>
#include <zmq_addon.hpp>

#include "daemon/publisher.hpp"

using namespace cardtable;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {
struct Fixture {
  fs::path dir = fs::temp_directory_path() / ("publisher-test-" + std::to_string(::getpid()));
  zmq::context_t ctx;
  Fixture() { fs::remove_all(dir); }
  ~Fixture() { fs::remove_all(dir); }
};
protocol::WireEvent event(std::string type) {
  protocol::WireEvent e;
  e.type = std::move(type);
  e.tournament = "t";
  e.section = "A";
  e.table = "1";
  return e;
}
}  // namespace

TEST(Publisher, AnEventIsJournalledWithItsSeqAndPublishedOnItsTopic) {
  Fixture f;
  daemon::Publisher p(f.ctx, {f.dir, {}, std::chrono::duration<double>(0)});
  std::string ep = "ipc://" + (f.dir / "pub").string();
  p.events_socket().bind(ep);
  zmq::socket_t sub(f.ctx, zmq::socket_type::sub);
  sub.set(zmq::sockopt::subscribe, "");
  sub.set(zmq::sockopt::rcvtimeo, 2000);
  sub.connect(ep);
  std::this_thread::sleep_for(200ms);  // the slow joiner
  auto e = event("board.arrived");
  p.publish(e, true);
  EXPECT_EQ(e.seq, 1u);
  EXPECT_EQ(p.journal().last_seq(), 1u);
  std::vector<zmq::message_t> frames;
  ASSERT_TRUE(zmq::recv_multipart(sub, std::back_inserter(frames)));
  EXPECT_EQ(frames[0].to_string(), "board/t/A/1/board.arrived");
  EXPECT_EQ(nlohmann::json::parse(frames[1].to_string_view())["seq"], 1);
}

TEST(Publisher, LiveEventsWaitForTheEmbargoThenGoToTheLiveJournal) {
  Fixture f;
  daemon::Publisher p(f.ctx, {f.dir, {}, std::chrono::duration<double>(0.3)});
  p.embargo({event("live.deal"), event("live.card")});
  EXPECT_EQ(p.boards_under_embargo(), 1u);
  EXPECT_TRUE(p.release_due().empty());
  EXPECT_EQ(p.live_journal().last_seq(), 0u);
  std::this_thread::sleep_for(400ms);
  auto released = p.release_due();
  ASSERT_EQ(released.size(), 1u);
  EXPECT_EQ(released[0].size(), 2u);
  EXPECT_EQ(p.live_journal().last_seq(), 2u);
  EXPECT_EQ(p.journal().last_seq(), 0u) << "hand contents never reach the events journal";
}
