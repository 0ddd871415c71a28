// The venue's state as the console keeps it: what a director may see, when a tile is an alert, lost or
// done, and what a broadcaster's board holds.
#include "console/venue_state.hpp"

#include <gtest/gtest.h>

using cardtable::console::VenueState;
using json = nlohmann::json;

namespace {

json event(const std::string& type, std::uint64_t seq, const std::string& severity = "info", json evidence = nullptr, double time = 1000) {
  json e = {{"seq", seq}, {"class", type.substr(0, type.find('.'))}, {"type", type}, {"severity", severity}, {"time", time},
            {"mono", 0.0}, {"message", type}, {"tournament", "t"}, {"section", "A"}, {"table", "7"}, {"board", 3}};
  if (!evidence.is_null()) e["evidence"] = evidence;
  return e;
}

}  // namespace

TEST(DirectorView, NeverCarriesTheDealOrThePlay) {
  EXPECT_TRUE(VenueState::director_view(event("live.deal", 1, "info", {{"deal", "N:AKQJ.T98.765.432 ..."}})).is_null());
  EXPECT_TRUE(VenueState::director_view(event("play.card", 2, "info", {{"card", "SA"}})).is_null());
  json verified = VenueState::director_view(event("board.verified", 3, "info", {{"deal", "N:AKQJ.T98.765.432 ..."}}));
  EXPECT_FALSE(verified.contains("evidence")) << "board evidence is not a director's";
  json odd = VenueState::director_view(event("irregularity.deal_mismatch", 4, "alert", {{"hands", "N:..."}, {"misplaced", "SA N->E"}}));
  EXPECT_FALSE(odd["evidence"].contains("hands"));
  EXPECT_EQ(odd["evidence"]["misplaced"], "SA N->E") << "an irregularity's card-level evidence is the director's";
}

TEST(Tile, AnAlertStaysOpenUntilTheDaemonPublishesTheDirectorsAck) {
  VenueState v;
  v.apply_event(event("board.arrived", 1), 1000);
  v.apply_event(event("irregularity.wrong_count", 2, "alert", {{"observed", "N=14 W=12"}}), 1000);
  EXPECT_EQ(v.tile("t/A/7", 1000)["state"], "alert");
  EXPECT_EQ(v.director_snapshot(1000)["alerts"].size(), 1u);
  v.apply_event(event("director.ack", 3, "info", {{"seq", "2"}, {"by", "td"}}), 1001);
  EXPECT_EQ(v.tile("t/A/7", 1001)["state"], "ready");
  EXPECT_TRUE(v.director_snapshot(1001)["alerts"].empty());
}

TEST(Tile, FollowsTheBoardFromArrivalToReturnWithItsDuration) {
  VenueState v(/*allowance_s=*/30);
  v.apply_event(event("board.arrived", 1, "info", nullptr, 1000), 1000);
  v.apply_event(event("auction.period_started", 2, "info", nullptr, 1003), 1003);
  EXPECT_EQ(v.tile("t/A/7", 1003)["state"], "auction");
  v.apply_event(event("auction.period_ended", 3, "info", nullptr, 1010), 1010);
  EXPECT_EQ(v.tile("t/A/7", 1010)["state"], "play");
  v.apply_event(event("board.returned", 4, "info", {{"duration", "37.0 s"}, {"tricks", "13"}}, 1037), 1037);
  json t = v.tile("t/A/7", 1037);
  EXPECT_EQ(t["state"], "done");
  EXPECT_EQ(t["tricks"], 13);
  json history = v.table_detail("t/A/7", 1037)["history"];
  ASSERT_EQ(history.size(), 1u);
  EXPECT_DOUBLE_EQ(history[0]["seconds"].get<double>(), 37.0);
  EXPECT_TRUE(history[0]["slow"].get<bool>()) << "37 s against an allowance of 30";
}

TEST(Tile, ATableThatFallsSilentIsLostAndComesBack) {
  VenueState v(450, /*lost_after_s=*/15);
  v.apply_event(event("board.arrived", 1), 1000);
  EXPECT_TRUE(v.newly_silent(1010).empty());
  EXPECT_EQ(v.tile("t/A/7", 1016)["state"], "lost");
  EXPECT_EQ(v.tile("t/A/7", 1016)["silent"], true) << "lost for its silence, not for a device: the page says which";
  EXPECT_EQ(v.newly_silent(1016).size(), 1u);
  v.apply_event(event("daemon.heartbeat", 0, "info", {{"phase", "auction"}}), 1017);
  EXPECT_EQ(v.tile("t/A/7", 1017)["state"], "auction");
  EXPECT_EQ(v.tile("t/A/7", 1017)["silent"], false);
}

// A table run with --heartbeat 30 showed lost between every two of its heartbeats under the default
// --lost-after of 15 s. Its heartbeats say their period (protocol 1.7): it is lost after three of them.
TEST(Tile, ATableWhoseHeartbeatsComeFurtherApartIsLostOnlyAfterThreeOfThem) {
  VenueState v(450, /*lost_after_s=*/15);
  v.apply_event(event("daemon.heartbeat", 0, "info", {{"phase", "play"}, {"every", "30"}}), 1000);
  EXPECT_EQ(v.tile("t/A/7", 1029)["state"], "play") << "between two heartbeats 30 s apart";
  EXPECT_EQ(v.tile("t/A/7", 1089)["state"], "play");
  EXPECT_EQ(v.tile("t/A/7", 1091)["state"], "lost") << "three heartbeats missed";
  // A period a daemon cannot send (a hostile or broken message) is not believed: --lost-after holds.
  VenueState w(450, 15);
  w.apply_event(event("daemon.heartbeat", 0, "info", {{"phase", "play"}, {"every", "1e9"}}), 1000);
  EXPECT_EQ(w.tile("t/A/7", 1016)["state"], "lost");
  // Beating faster than --lost-after allows for changes nothing: the console's own 15 s still hold.
  VenueState fast(450, 15);
  fast.apply_event(event("daemon.heartbeat", 0, "info", {{"phase", "play"}, {"every", "0.2"}}), 1000);
  EXPECT_EQ(fast.tile("t/A/7", 1010)["state"], "play");
}

TEST(Tile, AnUnpluggedDeviceShowsUntilItReturns) {
  VenueState v;
  v.apply_event(event("device.lost", 1, "warning", {{"device", "reader-2"}}), 1000);
  EXPECT_EQ(v.tile("t/A/7", 1000)["state"], "lost");
  v.apply_event(event("device.added", 2, "info", {{"device", "reader-2"}}), 1001);
  EXPECT_NE(v.tile("t/A/7", 1001)["state"], "lost");
}

// A reader missing many of its replies (device.health, 1.9) still reads: the tile names it, and the table
// is not lost; said good again, it is no longer named.
TEST(Tile, AReaderMissingRepliesIsNamedButTheTableIsNotLost) {
  VenueState v;
  v.apply_event(event("device.health", 1, "warning", {{"device", "board0"}, {"state", "missing replies"}, {"share", "21.5"}}), 1000);
  EXPECT_NE(v.tile("t/A/7", 1000)["state"], "lost");
  EXPECT_EQ(v.tile("t/A/7", 1000)["devices"], (json{{"board0", "missing replies"}}));
  v.apply_event(event("device.health", 2, "info", {{"device", "board0"}, {"state", "good"}, {"share", "2.0"}}), 1001);
  EXPECT_EQ(v.tile("t/A/7", 1001)["devices"], (json{{"board0", "ok"}}));
}

// A zone reads nothing while it is silent or its device is lost, until reading.resumed. Flicker and low
// confidence are said only when they begin (the zone settles without a word), so they left their zone
// "uncertain" for the rest of the session; a stray zone's reading has no end either.
TEST(Tile, AZoneIsUnreadFromItsSilenceToItsResumptionAndAFlickerLeavesItRead) {
  VenueState v;
  auto zones = [&](double now) { return v.tile("t/A/7", now)["devices"]; };
  v.apply_event(event("reading.uncertain", 1, "warning", {{"zone", "play:W"}, {"cause", "flicker"}, {"source", "board0"}}), 1000);
  v.apply_event(event("reading.uncertain", 2, "warning", {{"zone", "play:E"}, {"cause", "low confidence"}, {"source", "cam0"}}), 1000);
  v.apply_event(event("reading.uncertain", 3, "warning", {{"zone", "dummy"}, {"source", "board0"}}), 1000);
  EXPECT_EQ(zones(1000), json::object()) << "nothing unread";
  v.apply_event(event("reading.uncertain", 4, "warning", {{"zone", "play:N"}, {"cause", "silent"}, {"last_heard", "990.0 s"}}), 1001);
  v.apply_event(event("reading.uncertain", 5, "warning", {{"zone", "play:S"}, {"cause", "device lost"}, {"source", "reader-2"}}), 1001);
  EXPECT_EQ(zones(1001), (json{{"play:N", "uncertain"}, {"play:S", "uncertain"}}));
  v.apply_event(event("reading.resumed", 6, "info", {{"zone", "play:N"}, {"source", "board0"}}), 1002);
  EXPECT_EQ(zones(1002), (json{{"play:N", "ok"}, {"play:S", "uncertain"}}));
}

TEST(Broadcast, AFinishedBoardHoldsTheDealAndEachTrick) {
  VenueState v;
  v.apply_live(event("live.deal", 1, "info", {{"deal", "N:AKQJ.T98.765.432 - - -"}, {"dealer", "N"}}));
  v.apply_live(event("live.trick", 2, "info", {{"trick", "1"}, {"cards", "W:SK N:S4 E:S3 S:S2"}, {"winner", "W"}}));
  json boards = v.broadcast_snapshot()["boards"];
  ASSERT_EQ(boards.size(), 1u);
  EXPECT_EQ(boards[0]["deal"], "N:AKQJ.T98.765.432 - - -");
  EXPECT_EQ(boards[0]["tricks"].size(), 1u);
  EXPECT_TRUE(v.director_snapshot(1000).dump().find("AKQJ") == std::string::npos) << "the director's snapshot holds no hand";
}

TEST(Gap, ALaterSeqOrAHeartbeatAheadNamesTheFirstMissingEvent) {
  VenueState v;
  v.apply_event(event("board.arrived", 4), 1000);
  EXPECT_EQ(v.gap_before(event("auction.period_started", 5)), 0u);
  EXPECT_EQ(v.gap_before(event("auction.period_started", 9)), 5u);
  EXPECT_EQ(v.gap_before(event("daemon.heartbeat", 0, "info", {{"last_seq", "7"}})), 5u);
  // The replayed alert opens although it is older than what the tile shows; the gap is then closed.
  v.apply_replayed(event("irregularity.revoke", 7, "alert"));
  EXPECT_EQ(v.tile("t/A/7", 1000)["alerts"], 1);
  EXPECT_EQ(v.gap_before(event("daemon.heartbeat", 0, "info", {{"last_seq", "7"}})), 0u);
}

TEST(Tile, ShowsTricksPlayedAndTheDirectorOnlyCountOfEachSide) {
  VenueState v;
  v.apply_event(event("board.arrived", 1), 1000);
  v.apply_event(event("board.trick", 5, "info", {{"tricks", "4"}}), 1001);
  json t = v.tile("t/A/7", 1001);
  EXPECT_EQ(t["tricks"], 4);
  EXPECT_EQ(t["tricks_ns"], -1) << "who won them comes only from the table's director-only detail";
  EXPECT_TRUE(v.apply_trick_count("t/A/7", 5, {{"trick", "4"}, {"ns", "3"}, {"ew", "1"}}));
  EXPECT_EQ(v.tile("t/A/7", 1001)["tricks_ns"], 3);
  EXPECT_EQ(v.tile("t/A/7", 1001)["tricks_ew"], 1);
  // A late answer about an older trick never undoes a newer count.
  EXPECT_TRUE(v.apply_trick_count("t/A/7", 7, {{"ns", "4"}, {"ew", "1"}}));
  EXPECT_FALSE(v.apply_trick_count("t/A/7", 5, {{"ns", "3"}, {"ew", "1"}}));
  EXPECT_EQ(v.tile("t/A/7", 1001)["tricks_ns"], 4);
  // Nonsense from a table is refused: more than thirteen tricks, a missing side, not an object.
  EXPECT_FALSE(v.apply_trick_count("t/A/7", 9, {{"ns", "12"}, {"ew", "5"}}));
  EXPECT_FALSE(v.apply_trick_count("t/A/7", 9, {{"ns", "2"}}));
  EXPECT_FALSE(v.apply_trick_count("t/A/7", 9, json::array()));
  EXPECT_FALSE(v.apply_trick_count("t/A/9", 9, {{"ns", "2"}, {"ew", "1"}})) << "an unknown table";
  // The next board starts from nothing.
  v.apply_event(event("board.returned", 20, "info", {{"tricks", "13"}}), 1100);
  v.apply_event(event("board.arrived", 21), 1200);
  EXPECT_EQ(v.tile("t/A/7", 1200)["tricks_ns"], -1);
  EXPECT_EQ(v.tile("t/A/7", 1200)["tricks"], 0);
}

TEST(Broadcast, AReleasedBoardGetsItsDoubleDummyTable) {
  VenueState v;
  v.apply_live(event("live.deal", 1, "info", {{"deal", "N:AKQJ.T98.765.432 - - -"}}));
  v.apply_live(event("live.double_dummy", 2, "info",
                     {{"strains", "NT S H D C"}, {"N", "9 10 8 7 6"}, {"S", "9 10 8 7 6"}, {"E", "4 3 5 6 7"}, {"W", "4 3 5 6 7"},
                      {"par", "NS 4S"}, {"optimum_score", "NS 420"}}));
  json b = v.broadcast_snapshot()["boards"][0];
  EXPECT_EQ(b["double_dummy"]["N"], "9 10 8 7 6");
  EXPECT_EQ(b["double_dummy"]["par"], "NS 4S");
  EXPECT_EQ(v.director_snapshot(1000).dump().find("double"), std::string::npos) << "the director's view has no double dummy";
}

TEST(Gap, ATableFirstHeardWithAHistoryMayHoldAlertsNoGapCheckSees) {
  VenueState v;
  EXPECT_TRUE(v.shows_unseen_history(event("board.arrived", 9)));
  EXPECT_FALSE(v.shows_unseen_history(event("daemon.version", 1)));
  json hb = event("daemon.heartbeat", 0, "info", {{"last_seq", "12"}});
  hb.erase("seq");
  EXPECT_TRUE(v.shows_unseen_history(hb));
  v.apply_event(event("board.arrived", 9), 1000);
  EXPECT_FALSE(v.shows_unseen_history(event("auction.period_started", 11))) << "heard before: the gap check covers it";
}

// The live stream, the start's catch-up and a gap's replay carry the same events: each applied once.
// A table restarted on its state folder plays a board again: the broadcaster sees its newest play, not
// both merged (104 cards to a board once).
TEST(LiveBoard, EachLiveEventCountsOnceAndABoardPlayedAgainShowsItsNewestPlay) {
  VenueState v;
  auto card = [](std::uint64_t seq, const char* c) { return event("live.card", seq, "info", {{"card", c}, {"trick", "1"}}); };
  EXPECT_TRUE(v.apply_live(event("live.deal", 1, "info", {{"deal", "N:AKQJ.T98.765.432 - - -"}})));
  EXPECT_TRUE(v.apply_live(card(2, "SA")));
  EXPECT_FALSE(v.apply_live(card(2, "SA"))) << "the same seq again (a replay overlapping the stream)";
  EXPECT_EQ(v.live_board("t/A/7", VenueState::live_key(card(1, "")))["cards"].size(), 1u);
  // The newest play: its deal resets the board; a card of the older play that comes late is not merged.
  EXPECT_TRUE(v.apply_live(event("live.deal", 10, "info", {{"deal", "N:AKQJ.T98.765.432 - - -"}})));
  EXPECT_TRUE(v.apply_live(card(11, "HA")));
  EXPECT_FALSE(v.apply_live(card(3, "SK"))) << "a card of the play before";
  json b = v.live_board("t/A/7", VenueState::live_key(card(1, "")));
  ASSERT_EQ(b["cards"].size(), 1u);
  EXPECT_EQ(b["cards"][0]["card"], "HA");
}

// A gap in the live seq is seen, and the replay that fills it puts its cards where their seqs go.
TEST(LiveBoard, AGapInTheLiveSeqIsSeenAndItsReplayFallsIntoPlayOrder) {
  VenueState v;
  auto card = [](std::uint64_t seq, const char* c) { return event("live.card", seq, "info", {{"card", c}, {"trick", "1"}}); };
  EXPECT_EQ(v.live_gap_before(card(5, "S2")), 0u) << "a table first heard: the start's catch-up covers it";
  v.apply_live(event("live.deal", 1, "info", {{"deal", "N:AKQJ.T98.765.432 - - -"}}));
  v.apply_live(card(2, "SA"));
  EXPECT_EQ(v.live_gap_before(card(3, "SK")), 0u);
  EXPECT_EQ(v.live_gap_before(card(5, "S2")), 3u);
  v.apply_live(card(5, "S2"));
  v.apply_live(card(3, "SK"));
  v.apply_live(card(4, "S3"));
  std::vector<std::string> order;
  const json board = v.live_board("t/A/7", VenueState::live_key(card(1, "")));
  for (const auto& c : board["cards"]) order.push_back(c["card"]);
  EXPECT_EQ(order, (std::vector<std::string>{"SA", "SK", "S3", "S2"}));
}

// A table that fell silent with an alert open showed "alert" for ever, its last_heard frozen: a dead
// table hid behind an unacknowledged alert. Silence comes first; the alert stays counted and listed.
TEST(Tile, ASilentTableIsLostEvenWithAnAlertOpen) {
  VenueState v(450, /*lost_after_s=*/15);
  v.apply_event(event("board.arrived", 1), 1000);
  v.apply_event(event("irregularity.wrong_count", 2, "alert", {{"observed", "N=14 W=12"}}), 1000);
  EXPECT_EQ(v.tile("t/A/7", 1010)["state"], "alert");
  EXPECT_EQ(v.tile("t/A/7", 1016)["state"], "lost");
  EXPECT_EQ(v.tile("t/A/7", 1016)["alerts"], 1);
  EXPECT_EQ(v.director_snapshot(1016)["alerts"].size(), 1u);
}

// A table named in the console's config whose daemon never spoke (its machine off, its daemon dead before
// the console started) showed "idle" for ever: as quiet as a table between rounds. Lost after the same
// silence as a table that stopped, counted from when the console began to wait for it.
TEST(Tile, ADeclaredTableNeverHeardIsLostAfterTheSameSilence) {
  VenueState v(450, /*lost_after_s=*/15);
  v.declare_table("t/A/7", 1000);
  EXPECT_EQ(v.tile("t/A/7", 1010)["state"], "idle");
  EXPECT_TRUE(v.newly_silent(1010).empty());
  EXPECT_EQ(v.tile("t/A/7", 1016)["state"], "lost");
  EXPECT_FALSE(v.tile("t/A/7", 1016)["heard"].get<bool>()) << "the page says it was never heard";
  EXPECT_EQ(v.newly_silent(1016), std::vector<std::string>{"t/A/7"}) << "pages open are told";
  v.apply_event(event("daemon.heartbeat", 0, "info", {{"phase", "auction"}}), 1017);
  EXPECT_EQ(v.tile("t/A/7", 1017)["state"], "auction");
  EXPECT_TRUE(v.tile("t/A/7", 1017)["heard"].get<bool>());
}

namespace {
json of_journal(json e, const std::string& journal) {
  e["journal"] = journal;
  return e;
}

// Table t/A/7's alert `seq` is in its timeline (`timeline` events in all) but not open: not listed, its
// tile no alert.
void expect_shown_not_open(VenueState& v, std::uint64_t seq, double now, std::size_t timeline) {
  EXPECT_FALSE(v.alert_open("t/A/7", seq));
  EXPECT_TRUE(v.director_snapshot(now)["alerts"].empty());
  EXPECT_NE(v.tile("t/A/7", now)["state"], "alert");
  EXPECT_EQ(v.table_detail("t/A/7", now)["timeline"].size(), timeline) << "the alert is in the table's timeline";
}
}  // namespace

// A table whose journal starts again at seq 1 (its state folder wiped, a spare computer at the table): the
// new journal's alert under a seq the old journal used is a new alert, shown beside the old one, which
// stays visible as the replaced journal's (the table can no longer acknowledge it).
TEST(JournalIdentity, ANewJournalStartsTheSeqsAgainAndKeepsTheOldAlertsAsReplaced) {
  VenueState v;
  v.apply_event(of_journal(event("board.arrived", 1), "aaaaaaaaaaaaaaaa"), 1000);
  v.apply_event(of_journal(event("irregularity.wrong_count", 2, "alert", {{"observed", "N=12"}}), "aaaaaaaaaaaaaaaa"), 1000);
  v.apply_event(of_journal(event("board.returned", 3), "aaaaaaaaaaaaaaaa"), 1000);
  EXPECT_FALSE(v.note_journal(of_journal(event("board.arrived", 4), "aaaaaaaaaaaaaaaa"))) << "the same journal goes on";
  EXPECT_EQ(v.tile("t/A/7", 1000)["last_seq"], 3u);

  // The new journal's seq 2, heard first: the seqs it published before it are missing from 1.
  json fresh = of_journal(event("irregularity.wrong_count", 2, "alert", {{"observed", "S=14"}}, 1100), "bbbbbbbbbbbbbbbb");
  auto change = v.note_journal(fresh);
  ASSERT_TRUE(change);
  EXPECT_EQ(change->from, "aaaaaaaaaaaaaaaa");
  EXPECT_EQ(change->to, "bbbbbbbbbbbbbbbb");
  EXPECT_EQ(change->alerts_replaced, 1u);
  EXPECT_EQ(v.gap_before(fresh), 1u) << "replayed from the new journal's seq 1";
  EXPECT_FALSE(v.shows_unseen_history(fresh)) << "the replay from 1 brings its alerts";
  ASSERT_TRUE(v.apply_event(fresh, 1100));
  json tile = v.tile("t/A/7", 1100);
  EXPECT_EQ(tile["last_seq"], 2u);
  EXPECT_EQ(tile["alerts"], 1u);
  EXPECT_EQ(tile["replaced_alerts"], 1u);
  EXPECT_EQ(tile["journal"], "bbbbbbbbbbbbbbbb");
  json alerts = v.director_snapshot(1100)["alerts"];
  ASSERT_EQ(alerts.size(), 2u) << "the old alert is not hidden behind the new one of the same seq, nor the new behind the old";
  EXPECT_EQ(alerts[0]["journal"], "bbbbbbbbbbbbbbbb");
  EXPECT_FALSE(alerts[0].contains("replaced"));
  EXPECT_EQ(alerts[1]["journal"], "aaaaaaaaaaaaaaaa");
  EXPECT_TRUE(alerts[1]["replaced"].get<bool>());
  EXPECT_TRUE(v.journal_replaced("t/A/7"));
  EXPECT_EQ(v.journal_of("t/A/7"), "bbbbbbbbbbbbbbbb");

  // The new journal's ack of its seq 2 closes the new alert only.
  v.apply_event(of_journal(event("director.ack", 3, "info", {{"seq", "2"}, {"by", "td"}}), "bbbbbbbbbbbbbbbb"), 1101);
  alerts = v.director_snapshot(1101)["alerts"];
  ASSERT_EQ(alerts.size(), 1u);
  EXPECT_TRUE(alerts[0]["replaced"].get<bool>());
  EXPECT_NE(v.tile("t/A/7", 1101)["state"], "alert") << "a replaced alert cannot be acknowledged: it does not hold the tile red for ever";

  // An event of the replaced journal (a stale reply, the old daemon still running) is never applied.
  json old = of_journal(event("irregularity.revoke", 9, "alert"), "aaaaaaaaaaaaaaaa");
  EXPECT_TRUE(v.from_replaced_journal(old));
  EXPECT_FALSE(v.note_journal(old));
  EXPECT_FALSE(v.apply_event(old, 1102));
  v.apply_replayed(old);
  EXPECT_EQ(v.director_snapshot(1102)["alerts"].size(), 1u);
  EXPECT_EQ(v.tile("t/A/7", 1102)["last_seq"], 3u);
}

TEST(JournalIdentity, AHeartbeatOfANewJournalShowsTheGapFromSeqOne) {
  VenueState v;
  v.apply_event(of_journal(event("board.arrived", 40), "aaaaaaaaaaaaaaaa"), 1000);
  json hb = of_journal(event("daemon.heartbeat", 0, "info", {{"last_seq", "5"}, {"phase", "waiting"}}), "cccccccccccccccc");
  hb.erase("seq");
  ASSERT_TRUE(v.note_journal(hb));
  EXPECT_EQ(v.gap_before(hb), 1u) << "seqs 1..5 of the new journal, though the old one was at 40";
  // A daemon older than identities (no journal in its events) keeps the seq rules of before.
  VenueState old;
  old.apply_event(event("board.arrived", 40), 1000);
  EXPECT_FALSE(old.note_journal(event("board.arrived", 1)));
  EXPECT_EQ(old.gap_before(event("board.arrived", 42)), 41u);
}

TEST(JournalIdentity, ANewLiveJournalIsAppliedFromItsSeqOne) {
  VenueState v;
  auto live = [](const std::string& type, std::uint64_t seq, const std::string& journal, json evidence) {
    json e = event(type, seq, "info", std::move(evidence));
    e["journal"] = journal;
    e["session"] = "1";
    return e;
  };
  ASSERT_TRUE(v.apply_live(live("live.deal", 1, "1111111111111111", {{"deal", "N:old"}})));
  ASSERT_TRUE(v.apply_live(live("live.card", 2, "1111111111111111", {{"card", "SA"}, {"trick", "1"}})));
  // The live journal started again: its seq 1 and 2 are new releases, not the ones applied.
  json deal = live("live.deal", 2, "2222222222222222", {{"deal", "N:new"}});
  EXPECT_EQ(v.live_gap_before(deal), 1u);
  ASSERT_TRUE(v.apply_live(deal)) << "not taken for the old journal's seq 2";
  json b = v.live_board("t/A/7", "1/3");
  EXPECT_EQ(b["deal"], "N:new");
  EXPECT_TRUE(b["cards"].empty()) << "the old play's cards are not merged into the new one";
  EXPECT_FALSE(v.apply_live(live("live.card", 3, "1111111111111111", {{"card", "SK"}, {"trick", "1"}}))) << "the replaced live journal";
}

// The replaced journal's alerts could not be acknowledged and stayed until the console restarted: a
// director who has dealt with them at the table dismisses one, or all of the table's, and the timeline
// says who did.
TEST(JournalIdentity, ADirectorDismissesReplacedAlertsOneOrAllOfATable) {
  VenueState v;
  v.apply_event(of_journal(event("irregularity.wrong_count", 1, "alert", {{"observed", "N=12"}}), "aaaaaaaaaaaaaaaa"), 1000);
  v.apply_event(of_journal(event("irregularity.revoke", 2, "alert"), "aaaaaaaaaaaaaaaa"), 1000);
  v.apply_event(of_journal(event("irregularity.lead_out_of_turn", 3, "alert"), "aaaaaaaaaaaaaaaa"), 1000);
  json fresh = of_journal(event("irregularity.wrong_count", 1, "alert", {{"observed", "S=14"}}, 1100), "bbbbbbbbbbbbbbbb");
  ASSERT_TRUE(v.note_journal(fresh));
  ASSERT_TRUE(v.apply_event(fresh, 1100));
  ASSERT_EQ(v.tile("t/A/7", 1100)["replaced_alerts"], 3u);

  EXPECT_TRUE(v.dismiss_replaced("t/A/7", "bbbbbbbbbbbbbbbb", 1, "td", 1200).empty()) << "the new journal's alert is acknowledged, not dismissed";
  EXPECT_TRUE(v.dismiss_replaced("t/A/7", "aaaaaaaaaaaaaaaa", 9, "td", 1200).empty());
  EXPECT_TRUE(v.dismiss_replaced("t/A/8", "", 0, "td", 1200).empty()) << "no such table";
  json one = v.dismiss_replaced("t/A/7", "aaaaaaaaaaaaaaaa", 2, "td", 1200);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0], json({{"table", "t/A/7"}, {"journal", "aaaaaaaaaaaaaaaa"}, {"seq", 2}}));
  EXPECT_EQ(v.tile("t/A/7", 1200)["replaced_alerts"], 2u);
  json timeline = v.table_detail("t/A/7", 1200)["timeline"];
  EXPECT_EQ(timeline[0]["type"], "console.replaced_dismissed");
  EXPECT_EQ(timeline[0]["by"], "td");

  EXPECT_EQ(v.dismiss_replaced("t/A/7", "", 0, "td", 1201).size(), 2u) << "all of the table";
  json alerts = v.director_snapshot(1201)["alerts"];
  ASSERT_EQ(alerts.size(), 1u) << "the new journal's open alert stays";
  EXPECT_EQ(alerts[0]["journal"], "bbbbbbbbbbbbbbbb");
  EXPECT_EQ(v.tile("t/A/7", 1201)["alerts"], 1u);
}

// The ack was the event that showed the gap (the hub dropped the alert, or restarted between the two):
// the replayed alert joins the timeline and stays closed. It stayed open for good, its Acknowledge
// refused by the table ("already acknowledged").
TEST(Gap, AnAlertReplayedAfterItsAckStaysClosed) {
  VenueState v;
  v.apply_event(event("board.arrived", 1), 1000);
  v.apply_event(event("director.ack", 3, "info", {{"seq", "2"}, {"by", "td"}}), 1001);
  v.apply_replayed(event("irregularity.wrong_count", 2, "alert"));
  expect_shown_not_open(v, 2, 1001, 3);
}

// A replay answers after the later event that showed the gap: its events take their place by seq in the
// timeline (newest first), which read #4 #2 #3 ... in the order of arrival.
TEST(Gap, ReplayedEventsTakeTheirPlaceInTheTimelineBySeq) {
  VenueState v;
  v.apply_event(event("board.arrived", 1), 1000);
  v.apply_event(event("auction.period_started", 4), 1003);
  v.apply_replayed(event("board.identified", 2));
  v.apply_replayed(event("reading.uncertain", 3, "warning"));
  const json detail = v.table_detail("t/A/7", 1003);
  std::vector<std::uint64_t> seqs;
  for (const auto& e : detail["timeline"]) seqs.push_back(e["seq"].get<std::uint64_t>());
  EXPECT_EQ(seqs, (std::vector<std::uint64_t>{4, 3, 2, 1}));
}

// The missed seqs of a tile: a gap shown again counts once, and seqs replayed after all leave the count
// (a high-water mark could not give back the middle of what it had counted).
TEST(SeqRanges, CountsEachSeqOnceAndGivesBackThoseRecovered) {
  cardtable::console::SeqRanges missed;
  using Pieces = std::vector<cardtable::console::SeqRanges::Range>;
  EXPECT_EQ(missed.add(2, 4), (Pieces{{2, 4}}));
  EXPECT_EQ(missed.add(8, 9), (Pieces{{8, 9}}));
  EXPECT_EQ(missed.add(1, 10), (Pieces{{1, 1}, {5, 7}, {10, 10}})) << "only the seqs not counted before";
  EXPECT_EQ(missed.count(), 10u);
  EXPECT_EQ(missed.remove(3, 5), 3u);
  EXPECT_EQ(missed.remove(3, 5), 0u) << "recovered once";
  EXPECT_EQ(missed.count(), 7u);
  EXPECT_EQ(missed.add(1, 10), (Pieces{{3, 5}})) << "the hole left by a recovery counts again when missed again";
  EXPECT_TRUE(missed.add(0, 0).empty());
}

// A replay's seqs are let go as the runs they make, in any order they came and once each.
TEST(SeqRanges, SeqsAreTakenAsTheRunsTheyMake) {
  using Pieces = std::vector<cardtable::console::SeqRanges::Range>;
  EXPECT_EQ(cardtable::console::SeqRanges::runs_of({12, 7, 9, 8, 8, 14, 13}), (Pieces{{7, 9}, {12, 14}}));
  EXPECT_TRUE(cardtable::console::SeqRanges::runs_of({}).empty());
}

// Seqs start at 1 (protocol): a daemon writes no seq for what it does not journal, so "seq": 0 names no
// event of the journal (protocol::seq_field reads it as none). Such an event still shows on its tile --
// what it says happened -- but counts as no seq: it moves no last seq, shows no gap, asks for no history.
TEST(SeqZero, AnEventOfSeqZeroShowsOnItsTileButCountsAsNoSeq) {
  VenueState v;
  v.apply_event(event("board.arrived", 1), 1000);
  const json unjournalled = event("auction.period_started", 0);
  EXPECT_EQ(v.gap_before(unjournalled), 0u);
  EXPECT_EQ(VenueState::published_before(unjournalled), 0u);
  EXPECT_TRUE(v.apply_event(unjournalled, 1001));
  EXPECT_EQ(v.tile("t/A/7", 1001)["state"], "auction") << "applied to the tile";
  EXPECT_EQ(v.tile("t/A/7", 1001)["last_seq"], 1u) << "not counted";
  EXPECT_EQ(v.gap_before(event("auction.period_ended", 2)), 0u) << "#2 follows #1: no gap";
  VenueState first_heard;
  EXPECT_FALSE(first_heard.shows_unseen_history(unjournalled)) << "no seq past 1: no history to ask for";
}

// An alert of seq 0 could never be acknowledged (an ack names its alert's seq, from 1): held open, it kept
// its tile an alert for good. Shown in the timeline, never held open.
TEST(SeqZero, AnAlertOfSeqZeroIsShownButNeverHeldOpen) {
  VenueState v;
  v.apply_event(event("board.arrived", 1), 1000);
  v.apply_event(event("irregularity.wrong_count", 0, "alert"), 1001);
  expect_shown_not_open(v, 0, 1001, 2);
}

// A table's journal replaced: its new journal's events before the first one heard are replayed from seq 1.
// An event of seq 0 heard first took that for "heard from the new journal": seq 5 then showed no gap, and
// the new journal's #1 to #4 (an alert among them, maybe) were never asked for.
TEST(SeqZero, AnEventOfSeqZeroDoesNotHideTheNewJournalsGapFromSeqOne) {
  VenueState v;
  v.apply_event(of_journal(event("board.arrived", 40), "aaaaaaaaaaaaaaaa"), 1000);
  const json unjournalled = of_journal(event("board.identified", 0), "cccccccccccccccc");
  ASSERT_TRUE(v.note_journal(unjournalled));
  v.apply_event(unjournalled, 1001);
  EXPECT_EQ(v.gap_before(of_journal(event("auction.period_started", 5), "cccccccccccccccc")), 1u) << "#1 to #4 of the new journal";
}

// A replay gives journalled events: one of seq 0 is not one of them (a table's answer of another shape)
// and is skipped, not put into the timeline among the seqs it fills.
TEST(SeqZero, AReplayedEventOfSeqZeroIsSkipped) {
  VenueState v;
  v.apply_event(event("board.arrived", 1), 1000);
  v.apply_replayed(event("irregularity.wrong_count", 0, "alert"));
  EXPECT_FALSE(v.alert_open("t/A/7", 0));
  EXPECT_EQ(v.table_detail("t/A/7", 1000)["timeline"].size(), 1u);
}
