// Replays and evidence answered from the journal alone (on the reader thread): pages of at most 5000,
// no card detail in a replay, the card detail only in `evidence`.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>

#include "daemon/journal_requests.hpp"

using namespace cardtable;
namespace fs = std::filesystem;

namespace {
struct Fixture {
  fs::path dir = fs::temp_directory_path() / ("journal-requests-test-" + std::to_string(::getpid()));
  std::unique_ptr<protocol::Journal> journal;
  Fixture() {
    fs::remove_all(dir);
    protocol::Journal::Limits limits;
    limits.sync_each = false;  // what a power cut keeps is journal_power_cut_test's; these are about reads
    journal = std::make_unique<protocol::Journal>(dir, limits);
  }
  ~Fixture() {
    journal.reset();
    fs::remove_all(dir);
  }
  void append(int n, bool with_cards = false) {
    for (int i = 0; i < n; ++i) {
      protocol::WireEvent e;
      e.type = "irregularity.revoke";
      e.message = "East revoked";
      if (with_cards) {
        e.card_message = "East revoked: played D4 holding hearts HQ";
        e.card_evidence = {{"holding", "HQ"}};
      }
      journal->append(e);
    }
  }
};
}  // namespace

TEST(JournalRequests, AReplayNeverCarriesTheCardDetailThatOnlyEvidenceGivesADirector) {
  Fixture f;
  f.append(3, true);
  auto replay = daemon::replay_reply(*f.journal, 1, f.journal->last_seq());
  ASSERT_EQ(replay["events"].size(), 3u);
  EXPECT_EQ(replay["events"].dump().find("HQ"), std::string::npos) << replay.dump();
  auto evidence = daemon::evidence_reply(*f.journal, 2, f.journal->last_seq());
  EXPECT_TRUE(evidence["ok"]);
  EXPECT_EQ(evidence["card_message"], "East revoked: played D4 holding hearts HQ");
  EXPECT_EQ(evidence["card_evidence"]["holding"], "HQ");
}

TEST(JournalRequests, AReplayComesInPagesOfAtMost5000AndSaysWhenThereIsMore) {
  Fixture f;
  f.append(5003);
  auto first = daemon::replay_reply(*f.journal, 1, f.journal->last_seq());
  EXPECT_EQ(first["events"].size(), 5000u);
  EXPECT_TRUE(first["more"]);
  auto rest = daemon::replay_reply(*f.journal, 5001, f.journal->last_seq());
  EXPECT_EQ(rest["events"].size(), 3u);
  EXPECT_FALSE(rest["more"]);
}

TEST(JournalRequests, AReadSeesOnlyWhatWasWrittenWhenTheRequestCame) {
  Fixture f;
  f.append(2);
  auto read = daemon::journal_read(protocol::ReplayRequest{1}, {*f.journal, *f.journal, 1, [] { return nlohmann::json::object(); }});
  ASSERT_TRUE(read);
  f.append(5);  // published while the reader thread had the request queued
  auto reply = read();
  EXPECT_EQ(reply["events"].size(), 2u);
  EXPECT_EQ(reply["last_seq"], 2);
}

TEST(JournalRequests, EvidenceForAnEventNotInTheJournalIsAnErrorThatSaysWhatItHolds) {
  Fixture f;
  f.append(2);
  auto reply = daemon::evidence_reply(*f.journal, 9, f.journal->last_seq());
  EXPECT_FALSE(reply["ok"]);
  EXPECT_NE(reply["error"].get<std::string>().find("holds 1 to 2"), std::string::npos) << reply.dump();
}

TEST(JournalRequests, ARequestThatActsOnTheTableIsNoJournalRead) {
  Fixture f;
  EXPECT_FALSE(daemon::journal_read(protocol::VersionRequest{}, {*f.journal, *f.journal, 1, [] { return nlohmann::json::object(); }}));
}

// A line damaged on the disk (its seq readable, the rest not JSON) was left out of a replay without a
// word, and evidence said "no event 2 in the journal (it holds 1 to 3)". Both now say it is damaged.
TEST(JournalRequests, ADamagedLineIsNamedUnreadableNotLeftOutWithoutAWord) {
  Fixture f;
  f.append(3);
  for (const auto& file : fs::directory_iterator(f.dir)) {
    if (file.path().extension() != ".jsonl") continue;
    std::ifstream in(file.path());
    std::string text((std::istreambuf_iterator<char>(in)), {});
    const auto second = text.find("{\"seq\":2,");
    ASSERT_NE(second, std::string::npos);
    text.replace(second + 9, 12, std::string(12, '\0'));  // a bad block inside the line: still {"seq":2,...}
    std::ofstream(file.path(), std::ios::binary | std::ios::trunc) << text;
  }
  auto replay = daemon::replay_reply(*f.journal, 1, f.journal->last_seq());
  EXPECT_EQ(replay["events"].size(), 2u);
  EXPECT_EQ(replay["unreadable"], nlohmann::json::array({2}));
  auto evidence = daemon::evidence_reply(*f.journal, 2, f.journal->last_seq());
  EXPECT_FALSE(evidence["ok"]);
  EXPECT_NE(evidence["error"].get<std::string>().find("event 2 is in the journal but its line is damaged"), std::string::npos) << evidence.dump();
}
