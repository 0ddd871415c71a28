#include "vision/frame_stabiliser.hpp"

#include <gtest/gtest.h>

using namespace cardtable;
using namespace cardtable::vision;

namespace {

ZoneMap two_zones() { return parse_zones("frame 100 100\nzone play:N 0,0 50,0 50,50 0,50\nzone play:S 0,50 50,50 50,100 0,100\n", "z"); }

FrameReading reading(const char* card, float x, float y) {
  FrameReading r;
  CardReading c;
  c.card = *bridge::Card::parse(card);
  c.confidence = 0.95;
  c.corners = 2;
  c.box = cv::Rect2f(x - 2, y - 2, 4, 4);
  r.cards.push_back(c);
  return r;
}

}  // namespace

TEST(FrameStabiliser, ACardReachesTheTableOnlyAfterItHeldForSeveralFrames) {
  const auto zones = two_zones();
  FrameStabiliser st(3);
  const auto frame = observations_by_zone(reading("SA", 20, 20), zones, 0, "cam");
  EXPECT_EQ(frame.at(zones.regions[0].zone.index()).cards.size(), 1);
  std::vector<table::Observation> sent;
  for (int i = 0; i < 3; ++i) {
    auto out = st.feed(frame, zones, i * 100, "cam");
    for (auto& o : out) sent.push_back(o);
  }
  // Third frame: play:N holds SA, play:S holds nothing; both are now stable and sent once.
  ASSERT_EQ(sent.size(), 2U);
  EXPECT_EQ(sent[0].zone.str(), "play:N");
  EXPECT_TRUE(sent[0].cards.contains(*bridge::Card::parse("SA")));
  EXPECT_TRUE(sent[1].cards.empty());
  EXPECT_TRUE(st.feed(frame, zones, 400, "cam").empty()) << "an unchanged reading is not sent again";
}

TEST(FrameStabiliser, OneFramesMisreadingNeverReachesTheTable) {
  const auto zones = two_zones();
  FrameStabiliser st(3);
  const auto good = observations_by_zone(reading("SA", 20, 20), zones, 0, "cam");
  const auto bad = observations_by_zone(reading("SK", 20, 20), zones, 0, "cam");
  for (int i = 0; i < 3; ++i) st.feed(good, zones, i, "cam");
  EXPECT_TRUE(st.feed(bad, zones, 4, "cam").empty());
  EXPECT_TRUE(st.feed(good, zones, 5, "cam").empty());
  EXPECT_TRUE(st.feed(good, zones, 6, "cam").empty());
}

// A corner the network could not read is uncertainty, never a card of its own: it went to the table as an
// unknown card, which in a play area is irregularity.unknown_card ("2 tags ... no card of the enrolled
// deck"), for a real card the network was unsure of. Its zone reaches the table as noise (confidence 0, no
// unknown card), so a run of it is reading.uncertain; once the corner reads, the zone is sent as read.
TEST(FrameStabiliser, ARefusedCornerMakesItsZoneUncertainNeverAnUnknownCard) {
  const auto zones = two_zones();
  FrameStabiliser st(3);
  FrameReading r = reading("SA", 20, 70);
  IndexReading i;
  i.refused = true;
  i.box = cv::Rect2f(18, 80, 4, 4);
  r.indices.push_back(i);
  const auto unsure = observations_by_zone(r, zones, 0, "cam");
  EXPECT_EQ(unsure.at(zones.regions[1].zone.index()).unknown, 1) << "the stabiliser keeps the refusal as part of the reading";
  std::vector<table::Observation> sent;
  for (int f = 0; f < 5; ++f) {
    for (auto& o : st.feed(unsure, zones, f, "cam")) sent.push_back(o);
    const auto south = st.report(zones, f)[1];
    EXPECT_EQ(south.unknown, 0) << "frame " << f;
    EXPECT_EQ(south.confidence, 0) << "frame " << f;
  }
  ASSERT_EQ(sent.size(), 2U);
  EXPECT_EQ(sent[1].zone.str(), "play:S");
  EXPECT_EQ(sent[1].unknown, 0);
  EXPECT_EQ(sent[1].confidence, 0);
  // The corner reads: the zone is a new reading, sent at its confidence once it has held.
  const auto read = observations_by_zone(reading("SA", 20, 70), zones, 10, "cam");
  sent.clear();
  for (int f = 10; f < 13; ++f)
    for (auto& o : st.feed(read, zones, f, "cam")) sent.push_back(o);
  ASSERT_EQ(sent.size(), 1U);
  EXPECT_EQ(sent[0].confidence, 0.95);
  EXPECT_TRUE(sent[0].cards.contains(*bridge::Card::parse("SA")));
}

// What a camera reports each frame (FrameStabiliser::report): every zone, a settled reading as read, a zone
// still changing at confidence 0 (noise to the table, whose run of four such is reading.uncertain).
TEST(FrameStabiliser, EachFrameReportsEveryZoneAndAZoneStillChangingAtConfidenceZero) {
  const auto zones = two_zones();
  FrameStabiliser st(3);
  const auto card = observations_by_zone(reading("SA", 20, 20), zones, 0, "cam");
  const std::map<int, table::Observation> empty;
  std::vector<double> north;
  for (int i = 0; i < 4; ++i) {
    st.feed(card, zones, i, "cam");
    const auto r = st.report(zones, i);
    ASSERT_EQ(r.size(), 2U);
    EXPECT_EQ(r[0].zone.str(), "play:N");
    north.push_back(r[0].confidence);
  }
  EXPECT_EQ(north, (std::vector<double>{0, 0, 0.95, 0.95}));
  // A card flickering in and out: never held for three frames, every report is noise.
  for (int i = 0; i < 8; ++i) {
    st.feed(i % 2 ? card : empty, zones, 10 + i, "cam");
    EXPECT_EQ(st.report(zones, 10 + i)[0].confidence, 0) << "frame " << i;
  }
}

TEST(FrameStabiliser, OneFramesMisreadingCostsFewerNoiseReportsThanTheTableCallsUncertain) {
  const auto zones = two_zones();
  FrameStabiliser st(3);
  const auto good = observations_by_zone(reading("SA", 20, 20), zones, 0, "cam");
  const auto bad = observations_by_zone(reading("SK", 20, 20), zones, 0, "cam");
  for (int i = 0; i < 3; ++i) st.feed(good, zones, i, "cam");
  int noise = 0;
  st.feed(bad, zones, 3, "cam");
  noise += st.report(zones, 3)[0].confidence == 0;
  for (int i = 4; i < 10; ++i) {
    st.feed(good, zones, i, "cam");
    const auto r = st.report(zones, i)[0];
    noise += r.confidence == 0;
    EXPECT_TRUE(r.cards.contains(*bridge::Card::parse("SA")));
  }
  EXPECT_LT(noise, 4) << "the table's flicker_changes: four noise reports in a row are reading.uncertain";
}
