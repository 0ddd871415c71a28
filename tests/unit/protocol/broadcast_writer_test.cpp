// Broadcast files: a finished board as LIN and PBN, with Contract, Declarer and Result when known.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "protocol/broadcast_writer.hpp"

using namespace cardtable;
namespace fs = std::filesystem;

TEST(BroadcastWriter, WritesLinAndPbnWithTheContractTagsOfTheRecord) {
  fs::path dir = fs::temp_directory_path() / ("broadcast-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  bridge::BoardRecord r;
  r.board = 3;
  r.session = "R 1";
  r.event = "Club";
  r.deal = bridge::Deal::parse_pbn("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432");
  ASSERT_TRUE(r.deal);
  r.set_tag("Contract", "3NT");
  r.set_tag("Declarer", "N");
  r.set_tag("Result", "9");
  fs::path pbn = protocol::BroadcastWriter(dir).write(r);
  EXPECT_EQ(pbn.filename(), "board-3-R_1.pbn");
  std::stringstream text;
  text << std::ifstream(pbn).rdbuf();
  EXPECT_NE(text.str().find("[Contract \"3NT\"]"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("[Declarer \"N\"]"), std::string::npos);
  EXPECT_NE(text.str().find("[Result \"9\"]"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir / "board-3-R_1.lin"));
  EXPECT_FALSE(fs::exists(pbn.string() + ".tmp"));
  fs::remove_all(dir);
}
