// The system log: priorities and fields as journald receives them over a real socket, "<N>" lines
// elsewhere, and never a card of a hand.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "daemon/system_log.hpp"

namespace fs = std::filesystem;
using namespace cardtable::daemon;

namespace {

// Reads the journal's native protocol back: KEY=value lines and the binary form for values with newlines.
std::map<std::string, std::string> parse_datagram(const std::string& d) {
  std::map<std::string, std::string> out;
  std::size_t i = 0;
  while (i < d.size()) {
    std::size_t nl = d.find('\n', i);
    std::string line = d.substr(i, nl - i);
    if (auto eq = line.find('='); eq != std::string::npos) {
      out[line.substr(0, eq)] = line.substr(eq + 1);
      i = nl + 1;
      continue;
    }
    std::uint64_t n = 0;
    for (int b = 0; b < 8; ++b) n |= static_cast<std::uint64_t>(static_cast<unsigned char>(d[nl + 1 + static_cast<std::size_t>(b)])) << (8 * b);
    out[line] = d.substr(nl + 9, n);
    i = nl + 9 + n + 1;
  }
  return out;
}

// A stand-in journald: a datagram socket bound in a folder of its own, and a file as "stderr" whose
// device and inode JOURNAL_STREAM names, as systemd does for a unit's stream.
class SystemLog : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("system-log-test-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    socket_path = (dir / "socket").string();
    journald = ::socket(AF_UNIX, SOCK_DGRAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    socket_path.copy(addr.sun_path, socket_path.size());
    ASSERT_EQ(::bind(journald, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    stream = std::fopen((dir / "stream").c_str(), "w+");
    ::unsetenv("JOURNAL_STREAM");
  }
  void TearDown() override {
    ::close(journald);
    std::fclose(stream);
    ::unsetenv("JOURNAL_STREAM");
    fs::remove_all(dir);
  }
  void connect_stream_to_journal() {
    struct stat st {};
    ASSERT_EQ(::fstat(::fileno(stream), &st), 0);
    std::string v = std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
    ::setenv("JOURNAL_STREAM", v.c_str(), 1);
  }
  std::map<std::string, std::string> receive() {
    char buf[65536];
    timeval tv{2, 0};
    ::setsockopt(journald, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ssize_t n = ::recv(journald, buf, sizeof buf, 0);
    if (n <= 0) return {};
    return parse_datagram(std::string(buf, static_cast<std::size_t>(n)));
  }
  std::string stream_text() {
    std::fflush(stream);
    std::string s;
    ::lseek(::fileno(stream), 0, SEEK_SET);
    char buf[4096];
    for (ssize_t n; (n = ::read(::fileno(stream), buf, sizeof buf)) > 0;) s.append(buf, static_cast<std::size_t>(n));
    return s;
  }

  fs::path dir;
  std::string socket_path;
  int journald = -1;
  FILE* stream = nullptr;
};

cardtable::protocol::WireEvent wrong_count() {
  cardtable::protocol::WireEvent e;
  e.seq = 42;
  e.type = "irregularity.wrong_count";
  e.severity = "alert";
  e.tournament = "spring";
  e.section = "A";
  e.table = "7";
  e.board = 12;
  e.message = "West's pocket holds 12 cards";
  return e;
}

}  // namespace

TEST_F(SystemLog, UnderSystemdAnIrregularityReachesJournaldWithItsFieldsAndAWarningPriority) {
  connect_stream_to_journal();
  Logger log("cardtabled", ::fileno(stream), socket_path);
  ASSERT_TRUE(log.to_journal());
  log.event(wrong_count());
  auto f = receive();
  EXPECT_EQ(f["PRIORITY"], "4");  // journalctl -p warning shows it
  EXPECT_EQ(f["SYSLOG_IDENTIFIER"], "cardtabled");
  EXPECT_EQ(f["MESSAGE"], "West's pocket holds 12 cards");
  EXPECT_EQ(f["TABLE"], "spring/A/7");
  EXPECT_EQ(f["BOARD"], "12");
  EXPECT_EQ(f["EVENT_TYPE"], "irregularity.wrong_count");
  EXPECT_EQ(f["EVENT_SEQ"], "42");
  EXPECT_EQ(f["MESSAGE_ID"], message_id("irregularity.wrong_count"));
  EXPECT_EQ(stream_text(), "") << "a line sent to journald is not written twice";
}

TEST_F(SystemLog, AMessageWithANewlineTravelsWholeInTheBinaryForm) {
  connect_stream_to_journal();
  Logger log("cardtabled", ::fileno(stream), socket_path);
  log.log(Priority::Error, "journal: write failed\nno space left", {"spring/A/7", 0, "", 0});
  auto f = receive();
  EXPECT_EQ(f["MESSAGE"], "journal: write failed\nno space left");
  EXPECT_EQ(f["PRIORITY"], "3");
  EXPECT_EQ(f.count("BOARD"), 0u) << "no board, no BOARD field";
}

TEST_F(SystemLog, WithoutJournaldEachLineStartsWithItsPriorityAndSaysWhere) {
  Logger log("cardtabled", ::fileno(stream), socket_path);  // no JOURNAL_STREAM: a terminal, a test, syslog
  EXPECT_FALSE(log.to_journal());
  log.event(wrong_count());
  log.log(Priority::Info, "ready: publishing on bind:ipc:///run/cardtable/pub\nsecond line", {"spring/A/7", 0, "", 0});
  EXPECT_EQ(stream_text(),
            "<4>cardtabled: West's pocket holds 12 cards (table spring/A/7, board 12, irregularity.wrong_count seq 42)\n"
            "<6>cardtabled: ready: publishing on bind:ipc:///run/cardtable/pub second line (table spring/A/7)\n");
}

TEST_F(SystemLog, AStreamThatIsNotTheJournalsIsNotMistakenForIt) {
  ::setenv("JOURNAL_STREAM", "1:2", 1);  // inherited from a parent whose stderr was the journal
  Logger log("cardtabled", ::fileno(stream), socket_path);
  EXPECT_FALSE(log.to_journal());
}

TEST_F(SystemLog, WhenJournaldIsGoneTheLineStillGoesOutOnTheStream) {
  connect_stream_to_journal();
  Logger log("cardtabled", ::fileno(stream), (dir / "no-such-socket").string());
  log.log(Priority::Warning, "reader on play:N lost", {"spring/A/7", 0, "", 0});
  EXPECT_EQ(stream_text(), "<4>cardtabled: reader on play:N lost (table spring/A/7)\n");
}

TEST(SystemLogEvents, SeverityMapsToSyslogPrioritiesAndHandContentsAreNeverLogged) {
  EXPECT_EQ(event_priority("alert"), Priority::Warning);
  EXPECT_EQ(event_priority("warning"), Priority::Notice);
  EXPECT_EQ(event_priority("info"), Priority::Info);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  {
    Logger log("cardtabled", fds[1]);
    cardtable::protocol::WireEvent deal = wrong_count();
    deal.type = "live.deal";
    deal.message = "N:AKQJ.T98.765.432 ...";
    log.event(deal);
    deal.type = "daemon.heartbeat";
    log.event(deal);
    log.log(Priority::Info, "end");
  }
  ::close(fds[1]);
  char buf[512];
  ssize_t n = ::read(fds[0], buf, sizeof buf);
  ::close(fds[0]);
  EXPECT_EQ(std::string(buf, static_cast<std::size_t>(std::max<ssize_t>(n, 0))), "<6>cardtabled: end\n");
}

TEST(SystemLogEvents, EachEventTypeHasItsOwnMessageIdTheSameEverywhere) {
  // Pinned: operations.md and journalctl MESSAGE_ID=... searches rely on these never changing.
  EXPECT_EQ(message_id("irregularity.wrong_count"), "b2dba946d74028a91028d64a55b14a90");
  EXPECT_EQ(message_id("irregularity.missing_card"), "608db138e3eb577b5c2d1d5677268986");
  EXPECT_NE(message_id("irregularity.wrong_count"), message_id("irregularity.revoke"));
  EXPECT_EQ(message_id("irregularity.revoke"), message_id("irregularity.revoke"));
  EXPECT_EQ(message_id("irregularity.wrong_count").find_first_not_of("0123456789abcdef"), std::string::npos);
}
