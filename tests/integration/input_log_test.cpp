// The input log (daemon/input_log.hpp) on its own: what a restart replays of the board in progress, a
// cut last line, a file written for another master record or other zones (never replayed into them).
#include "daemon/input_log.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_folder.hpp"

namespace fs = std::filesystem;
using cardtable::daemon::InputLog;
using cardtable::table::TableInput;

namespace {

class InputLogFile : public ::testing::Test {
 protected:
  static TableInput read(const std::string& zone, std::uint64_t bits, cardtable::table::Millis t) {
    TableInput in;
    in.kind = TableInput::Kind::Observe;
    in.observation.zone = *cardtable::table::Zone::parse(zone);
    in.observation.cards = cardtable::bridge::Hand::from_bits(bits);
    in.observation.source = "rfid0";
    in.observation.time = t;
    in.time = t;
    return in;
  }
  static TableInput tick(cardtable::table::Millis t) {
    TableInput in;
    in.time = t;
    return in;
  }
  // A board's inputs as the event loop records them: pockets read for 10 s (500 reads), a contract, a
  // tick that said something and one that did not, a card faced.
  void write_board(InputLog& log) {
    log.start(7, 1000.0);
    for (int i = 0; i < 500; ++i) log.record(read("pocket:N", 0, i * 20), false, 1000.0 + i * 0.02);
    TableInput contract;
    contract.kind = TableInput::Kind::Command;
    contract.command.kind = cardtable::table::Command::Kind::Contract;
    contract.command.text = "4H S";
    contract.command.time = 10000;
    contract.time = 10000;
    log.record(contract, true, 1010.0);
    log.record(tick(10100), false, 1010.1);
    log.record(tick(10200), true, 1010.2);
    log.record(read("play:W", 1, 10300), true, 1010.3);
    log.poll();
  }
  std::string text() const {
    std::ifstream in(file());
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path file() const { return dir / "board-in-progress.inputs"; }
  InputLog::Identity identity{"0123abcd/2", {"pocket:N", "play:W"}};
  cardtable::test::TestFolder folder{"input-log-test"};
  fs::path dir = folder.path();
};

TEST_F(InputLogFile, ABoardIsReplayedRunsExpandedTicksThatSaidNothingLeftOut) {
  {
    InputLog log(file(), identity);
    write_board(log);
  }
  EXPECT_LT(text().size(), 1000u) << "500 identical reads are one record: " << text();
  InputLog again(file(), identity);
  std::vector<std::string> warnings;
  auto resumed = again.load(warnings);
  ASSERT_TRUE(resumed);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(resumed->first_seq, 7u);
  EXPECT_EQ(resumed->records, 4u);
  ASSERT_EQ(resumed->inputs.size(), InputLog::kMaxReadsPerRun + 3);
  EXPECT_EQ(resumed->inputs.front().observation.time, 0);
  EXPECT_EQ(resumed->inputs[InputLog::kMaxReadsPerRun - 1].observation.time, 499 * 20)
      << "a run ends at its last read";
  const TableInput& c = resumed->inputs[InputLog::kMaxReadsPerRun];
  EXPECT_EQ(c.kind, TableInput::Kind::Command);
  EXPECT_EQ(c.command.text, "4H S");
  EXPECT_EQ(resumed->inputs[InputLog::kMaxReadsPerRun + 1].time, 10200)
      << "the tick that said nothing is not there";
  EXPECT_EQ(resumed->inputs.back().observation.cards.bits(), 1u);
  EXPECT_EQ(resumed->inputs.back().observation.source, "rfid0");
  EXPECT_EQ(resumed->last_time, 10300);
  EXPECT_DOUBLE_EQ(resumed->last_wall, 1010.3);
}

// Hours between boards: every zone read every 20 ms, nothing changing. The file stays the size of one
// run per zone (the first cut wrote a record per read whenever several zones took turns: 1.3 MB in 30 s).
TEST_F(InputLogFile, ZonesTakingTurnsWithTheSameReadingsKeepTheFileTheSameSize) {
  InputLog log(file(), identity);
  log.start(1, 1000.0);
  for (int t = 0; t < 10 * 60 * 1000; t += 20) {  // ten minutes
    log.record(read("pocket:N", 0, t), false, 1000.0 + t / 1000.0);
    log.record(read("play:W", 0, t + 3), false, 1000.0 + t / 1000.0);
  }
  log.poll();
  EXPECT_LT(log.size(), 400u) << text();
}

// A zone's run goes on while another zone changes: the replay merges them by time, as they were read.
TEST_F(InputLogFile, RunsOfSeveralZonesAreReplayedInTheOrderTheyWereRead) {
  {
    InputLog log(file(), identity);
    log.start(1, 1000.0);
    for (int t = 0; t <= 2000; t += 20) {
      log.record(read("pocket:N", 0, t), false, 1000.0 + t / 1000.0);
      if (t >= 500) log.record(read("play:W", 1, t + 5), false, 1000.0 + t / 1000.0);
    }
  }
  std::vector<std::string> warnings;
  auto resumed = InputLog(file(), identity).load(warnings);
  ASSERT_TRUE(resumed);
  for (std::size_t i = 1; i < resumed->inputs.size(); ++i)
    ASSERT_LE(resumed->inputs[i - 1].time, resumed->inputs[i].time) << "input " << i << " goes back in time";
  EXPECT_EQ(resumed->inputs.back().time, 2005);
  EXPECT_EQ(resumed->inputs.front().observation.zone.str(), "pocket:N");
}

// A device reads several zones at one moment, in its own order, and the table weighs each read as it
// comes: Law 7C's settle time is judged at every read, so whether North's pocket steadied at 12 before
// East's read of the same moment decides whether the board went back "with 11 cards in North's pocket".
// A restart just then replayed the reads of one moment in the order the runs were written (East's run,
// open since the pockets came back, before North's, newer), and the resumed board judged the return
// with 11 cards during the replay: the live alert (12 cards) was never said.
TEST_F(InputLogFile, ReadsOfOneMomentAreReplayedInTheOrderTheyWereRead) {
  {
    InputLog log(file(), identity);
    log.start(1, 1000.0);
    for (int t = 0; t <= 2000; t += 100) {
      log.record(read("pocket:N", t < 1000 ? 0 : 1, t), false, 1000.0 + t / 1000.0);  // changes at 1 s
      log.record(read("play:W", 1, t), false, 1000.0 + t / 1000.0);                    // the same all along
      log.record(tick(t), false, 1000.0 + t / 1000.0);
    }
  }
  std::vector<std::string> warnings;
  auto resumed = InputLog(file(), identity).load(warnings);
  ASSERT_TRUE(resumed);
  ASSERT_EQ(resumed->inputs.size(), 42u);
  for (std::size_t i = 0; i < resumed->inputs.size(); i += 2) {
    EXPECT_EQ(resumed->inputs[i].observation.zone.str(), "pocket:N") << "at " << resumed->inputs[i].time << " ms";
    EXPECT_EQ(resumed->inputs[i + 1].observation.zone.str(), "play:W") << "at " << resumed->inputs[i].time << " ms";
  }
}

// The tags' UIDs of the cards read travel through a restart: the resumed board must tell one card heard by
// two pocket readers (the same UID) from a second card of another pack (another UID) as the live one did.
TEST_F(InputLogFile, TheTagIdsOfTheCardsReadAreReplayed) {
  const auto sa = *cardtable::bridge::Card::parse("SA");
  const auto hk = *cardtable::bridge::Card::parse("HK");
  {
    InputLog log(file(), identity);
    log.start(1, 1000.0);
    TableInput in = read("pocket:N", 0, 0);
    in.observation.cards.add(sa);
    in.observation.cards.add(hk);
    in.observation.card_ids = {{sa, "04A1B2C3D4E5F6"}, {hk, "04A1B2C3D4E5F7"}};
    log.record(in, true, 1000.0);
    TableInput other = in;  // the same cards, another ♠A's tag: another run, never folded into the first
    other.observation.card_ids = {{sa, "04FFFFFFFFFF01"}, {hk, "04A1B2C3D4E5F7"}};
    other.observation.time = other.time = 20;
    log.record(other, true, 1000.02);
    TableInput both = in;  // both ♠A in the pocket: two cards of one face (Law 13C), 3 cards, not 2
    both.observation.card_ids.emplace(sa, "04FFFFFFFFFF01");
    both.observation.time = both.time = 40;
    log.record(both, true, 1000.04);
    log.poll();
  }
  std::vector<std::string> warnings;
  auto resumed = InputLog(file(), identity).load(warnings);
  ASSERT_TRUE(resumed);
  ASSERT_EQ(resumed->inputs.size(), 3u) << text();
  using Ids = std::multimap<cardtable::bridge::Card, std::string>;
  EXPECT_EQ(resumed->inputs[0].observation.card_ids, (Ids{{sa, "04A1B2C3D4E5F6"}, {hk, "04A1B2C3D4E5F7"}}));
  EXPECT_EQ(resumed->inputs[1].observation.card_ids, (Ids{{sa, "04FFFFFFFFFF01"}, {hk, "04A1B2C3D4E5F7"}}));
  EXPECT_EQ(resumed->inputs[2].observation.card_ids, (Ids{{sa, "04A1B2C3D4E5F6"}, {sa, "04FFFFFFFFFF01"}, {hk, "04A1B2C3D4E5F7"}}));
  EXPECT_EQ(resumed->inputs[2].observation.count(), 3);
}

TEST_F(InputLogFile, ACutLastLineIsSkippedWithAWarningTheRestReplayed) {
  {
    InputLog log(file(), identity);
    write_board(log);
  }
  std::ofstream(file(), std::ios::app)
      << R"({"o":"play:N","c":"2","t":104)";  // the power went while writing it
  InputLog again(file(), identity);
  std::vector<std::string> warnings;
  auto resumed = again.load(warnings);
  ASSERT_TRUE(resumed);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("board-in-progress.inputs:6: the last line is cut short"), std::string::npos)
      << warnings[0];
  EXPECT_EQ(resumed->records, 4u);
  // The file goes on after the last whole record: the cut line is gone.
  again.continue_file();
  again.record(tick(10400), true, 1010.4);
  again.poll();
  EXPECT_EQ(text().find("play:N"), std::string::npos) << text();
  std::vector<std::string> none;
  auto twice = InputLog(file(), identity).load(none);
  ASSERT_TRUE(twice);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(twice->records, 5u);
}

TEST_F(InputLogFile, AnotherRecordOrOtherZonesAreNeverReplayedInto) {
  {
    InputLog log(file(), identity);
    write_board(log);
  }
  std::vector<std::string> warnings;
  EXPECT_FALSE(InputLog(file(), {"ffff0000/2", identity.zones}).load(warnings));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find(
                "written for another master record (0123abcd/2, this one is ffff0000/2); not replayed"),
            std::string::npos)
      << warnings[0];
  warnings.clear();
  EXPECT_FALSE(InputLog(file(), {identity.record, {"pocket:N"}}).load(warnings));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("another set of zones"), std::string::npos) << warnings[0];
}

TEST_F(InputLogFile, ARecordReloadedDuringTheBoardMakesItUnreplayable) {
  {
    InputLog log(file(), identity);
    write_board(log);
    log.record_changed("99990000/3");
    log.record(tick(10500), true, 1010.5);
  }
  std::vector<std::string> warnings;
  EXPECT_FALSE(InputLog(file(), identity).load(warnings));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("the master record was reloaded during the board"), std::string::npos)
      << warnings[0];
}

}  // namespace
