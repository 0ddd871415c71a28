// What a broadcaster gets of a board, and when: nothing while it is played; after the embargo its deal,
// its play and its files; a restart during the embargo loses none of them.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <thread>

#include "bridge/master_record.hpp"
#include "daemon/board_broadcast.hpp"

using namespace cardtable;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {
struct Fixture {
  fs::path dir = fs::temp_directory_path() / ("board-broadcast-test-" + std::to_string(::getpid()));
  zmq::context_t ctx;
  bridge::MasterRecord master;
  daemon::Options options;
  Fixture() {
    fs::remove_all(dir);
    fs::create_directories(dir);
    EXPECT_TRUE(master.load({CARDTABLE_SAMPLE_PBN}).empty() || master.size() > 0);
    options.state_dir = (dir / "state").string();
    options.analyzer = "/nonexistent/cardtablectl";  // no double-dummy helper: this test is about the embargo
  }
  ~Fixture() { fs::remove_all(dir); }
};
protocol::WireEvent event(std::string type, int board) {
  protocol::WireEvent e;
  e.type = std::move(type);
  e.event = "cardtable sample pairs";
  e.session = "1";
  e.board = board;
  return e;
}
std::size_t files_in(const fs::path& d) {
  std::error_code ec;
  if (!fs::is_directory(d, ec)) return 0;
  std::size_t n = 0;
  for (const auto& f : fs::recursive_directory_iterator(d)) n += f.is_regular_file() ? 1U : 0U;
  return n;
}
}  // namespace

TEST(BoardBroadcast, ABoardsPlayAndDealWaitForTheEmbargoAndItsFilesStayPrivateUntilThen) {
  Fixture f;
  daemon::Publisher publisher(f.ctx, {f.options.state_dir, {}, std::chrono::duration<double>(0.5)});
  daemon::BoardBroadcast broadcast(publisher, f.options, "/nonexistent/cardtabled");
  broadcast.hold(event("live.card", 1));
  broadcast.hold(event("live.trick", 1));
  EXPECT_EQ(broadcast.held(), 2u);
  broadcast.finish(event("board.returned", 1), f.master);
  EXPECT_EQ(broadcast.held(), 0u);
  EXPECT_EQ(publisher.boards_under_embargo(), 1u);
  EXPECT_EQ(publisher.live_journal().last_seq(), 0u) << "nothing reaches a broadcaster before the embargo";
  EXPECT_EQ(files_in(broadcast.broadcast_dir()), 0u);
  EXPECT_GE(files_in(publisher.embargo_dir()), 2u) << "the board's events and its PBN wait in the private folder";
  std::this_thread::sleep_for(700ms);
  broadcast.poll();
  EXPECT_EQ(publisher.boards_under_embargo(), 0u);
  EXPECT_EQ(publisher.live_journal().last_seq(), 3u) << "live.deal, then the play";
  std::vector<std::string> types;
  publisher.live_journal().replay(1, [&](const std::string& line, std::uint64_t) {
    types.push_back(nlohmann::json::parse(line)["type"]);
    return true;
  });
  EXPECT_EQ(types, (std::vector<std::string>{"live.deal", "live.card", "live.trick"}));
  EXPECT_TRUE(fs::exists(broadcast.broadcast_dir()));
  bool pbn = false;
  for (const auto& file : fs::directory_iterator(broadcast.broadcast_dir())) pbn = pbn || file.path().extension() == ".pbn";
  EXPECT_TRUE(pbn) << "the board's PBN is in broadcast/ after the embargo";
  EXPECT_EQ(files_in(publisher.embargo_dir()), 0u) << "nothing is left in the private folder";
}

TEST(BoardBroadcast, ABoardNotInTheMasterRecordGoesUnderEmbargoWithItsPlayButNoDealOrFiles) {
  Fixture f;
  daemon::Publisher publisher(f.ctx, {f.options.state_dir, {}, std::chrono::duration<double>(0)});
  daemon::BoardBroadcast broadcast(publisher, f.options, "/nonexistent/cardtabled");
  broadcast.hold(event("live.card", 99));
  broadcast.finish(event("board.returned", 99), f.master);
  // Embargo 0: released at once.
  EXPECT_EQ(publisher.live_journal().last_seq(), 1u);
  EXPECT_EQ(files_in(broadcast.broadcast_dir()), 0u);
}

TEST(BoardBroadcast, ABoardUnderEmbargoAtARestartIsReleasedWithItsFilesAfterIt) {
  Fixture f;
  {
    daemon::Publisher publisher(f.ctx, {f.options.state_dir, {}, std::chrono::duration<double>(0.4)});
    daemon::BoardBroadcast broadcast(publisher, f.options, "/nonexistent/cardtabled");
    broadcast.hold(event("live.card", 1));
    broadcast.finish(event("board.returned", 1), f.master);
  }  // the daemon stops (SIGTERM, or kill -9: everything was on the disk already)
  daemon::Publisher publisher(f.ctx, {f.options.state_dir, {}, std::chrono::duration<double>(0.4)});
  daemon::BoardBroadcast broadcast(publisher, f.options, "/nonexistent/cardtabled");
  EXPECT_EQ(publisher.boards_under_embargo(), 1u);
  std::this_thread::sleep_for(600ms);
  broadcast.poll();
  EXPECT_EQ(publisher.live_journal().last_seq(), 2u);
  EXPECT_GE(files_in(broadcast.broadcast_dir()), 1u);
}
