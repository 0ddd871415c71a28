// The decoding laws on hand-made output maps: read rank and suit together, refuse below the margin,
// corners agree, the master deal breaks ties but never invents a card.
#include <gtest/gtest.h>

#include "vision/recogniser.hpp"

using cardtable::bridge::Card;
using cardtable::bridge::Hand;
using namespace cardtable::vision;

namespace {

ModelInfo info() {
  ModelInfo m;
  m.channels = 20;
  m.feat_dim = 0;
  m.feat = 20;
  return m;
}

struct Maps {
  cv::Mat m;
  Maps() {
    const int sz[4] = {1, 20, 10, 10};
    m = cv::Mat(4, sz, CV_32F, cv::Scalar(0));
    for (int c = 1; c < 18; ++c) set(c, -1, -1, 0);  // flat logits everywhere
  }
  void set(int c, int y, int x, float v) {
    if (y < 0) {
      for (int yy = 0; yy < 10; ++yy)
        for (int xx = 0; xx < 10; ++xx) set(c, yy, xx, v);
      return;
    }
    const int idx[4] = {0, c, y, x};
    m.at<float>(idx) = v;
  }
  // An index at (y, x): heat, and strong logits for rank r (0 = two .. 12 = ace) and suit s (C D H S).
  void index(int y, int x, int r, int s, float strength = 12, float heat = 0.9f) {
    set(0, y, x, heat);
    set(1 + r, y, x, strength);
    set(14 + s, y, x, strength);
  }
};

}  // namespace

TEST(Decode, RankAndSuitAreReadTogether) {
  Maps m;
  m.index(2, 2, 8, 2);  // ten of hearts
  const auto r = decode_maps(m.m, info(), {}, 1.0, std::nullopt);
  ASSERT_EQ(r.cards.size(), 1U);
  EXPECT_EQ(r.cards[0].card, Card::parse("H10"));
  EXPECT_EQ(r.refused, 0);
}

TEST(Decode, TwoCornersAgreeingGiveFullConfidenceOneCornerLess) {
  Maps two, one;
  two.index(1, 1, 12, 3);
  two.index(8, 8, 12, 3);
  one.index(1, 1, 12, 3);
  const auto a = decode_maps(two.m, info(), {}, 1.0, std::nullopt);
  const auto b = decode_maps(one.m, info(), {}, 1.0, std::nullopt);
  ASSERT_EQ(a.cards.size(), 1U);
  ASSERT_EQ(b.cards.size(), 1U);
  EXPECT_EQ(a.cards[0].corners, 2);
  EXPECT_GT(a.cards[0].confidence, b.cards[0].confidence);
}

TEST(Decode, AReadingCloseToItsRunnerUpIsRefusedNotGuessed) {
  Maps m;
  m.index(4, 4, 5, 0);   // seven of clubs...
  m.set(1 + 6, 4, 4, 12);  // ...or eight of clubs, equally likely
  const auto r = decode_maps(m.m, info(), {}, 1.0, std::nullopt);
  EXPECT_TRUE(r.cards.empty());
  EXPECT_EQ(r.refused, 1);
}

TEST(Decode, TheMasterDealBreaksATieButNeverInventsACard) {
  Maps m;
  m.index(4, 4, 5, 0);
  m.set(1 + 6, 4, 4, 12);  // C7 or C8
  Hand expects_c8;
  expects_c8.add(*Card::parse("C8"));
  const auto r = decode_maps(m.m, info(), {}, 1.0, expects_c8);
  ASSERT_EQ(r.cards.size(), 1U);
  EXPECT_EQ(r.cards[0].card, Card::parse("C8"));
  EXPECT_TRUE(r.indices[0].tie_broken);

  Hand expects_other;  // neither candidate expected: still refused, the deal adds nothing
  expects_other.add(*Card::parse("SA"));
  const auto q = decode_maps(m.m, info(), {}, 1.0, expects_other);
  EXPECT_TRUE(q.cards.empty());
  EXPECT_EQ(q.refused, 1);

  Hand expects_both;  // both expected: no tie to break
  expects_both.add(*Card::parse("C7"));
  expects_both.add(*Card::parse("C8"));
  EXPECT_TRUE(decode_maps(m.m, info(), {}, 1.0, expects_both).cards.empty());
}

TEST(Decode, WeakPeaksAreNoIndexAndOnePeakPerIndex) {
  Maps m;
  m.index(5, 5, 0, 1, 12, 0.2f);  // below presence
  EXPECT_TRUE(decode_maps(m.m, info(), {}, 1.0, std::nullopt).indices.empty());
  Maps n;
  n.index(5, 5, 0, 1);
  n.index(5, 6, 0, 1, 12, 0.85f);  // a shoulder of the same peak
  EXPECT_EQ(decode_maps(n.m, info(), {}, 1.0, std::nullopt).indices.size(), 1U);
}

TEST(Decode, MapsOfTheWrongShapeAreAnError) {
  const int sz[4] = {1, 7, 4, 4};
  cv::Mat bad(4, sz, CV_32F, cv::Scalar(0));
  EXPECT_THROW(decode_maps(bad, info(), {}, 1.0, std::nullopt), std::runtime_error);
}

namespace {
// An index read at about 0.81 (rank 0.9 x suit 0.9): under the floor, over the pair floor.
void unsure_index(Maps& m, int y, int x, int r, int s) {
  m.set(0, y, x, 0.9f);
  m.set(1 + r, y, x, 4.68f);   // e^4.68 / (e^4.68 + 12) = 0.90 (the other logits are 0)
  m.set(14 + s, y, x, 3.30f);  // e^3.30 / (e^3.30 + 3) = 0.90
}
}  // namespace

// Each corner that shows should agree before a card is reported with full confidence; two
// corners that agree are also more evidence than one: two readings of the same card at the pair floor
// read it, though neither reaches the floor alone. One such reading alone, or two that disagree, do not.
TEST(Decode, TwoCornersAgreeingAtThePairFloorReadTheCardOneAloneIsRefused) {
  Maps two, one, disagree;
  unsure_index(two, 1, 1, 9, 1);  // jack of diamonds, twice
  unsure_index(two, 8, 8, 9, 1);
  unsure_index(one, 1, 1, 9, 1);
  unsure_index(disagree, 1, 1, 9, 1);
  unsure_index(disagree, 8, 8, 10, 1);  // queen of diamonds
  const auto a = decode_maps(two.m, info(), {}, 1.0, std::nullopt);
  ASSERT_EQ(a.indices.size(), 2U);
  EXPECT_LT(a.indices[0].confidence, OperatingPoint{}.floor);
  ASSERT_EQ(a.cards.size(), 1U);
  EXPECT_EQ(a.cards[0].card, Card::parse("DJ"));
  EXPECT_EQ(a.cards[0].corners, 2);
  EXPECT_TRUE(a.indices[0].paired && a.indices[1].paired);
  EXPECT_EQ(a.refused, 0);

  const auto b = decode_maps(one.m, info(), {}, 1.0, std::nullopt);
  EXPECT_TRUE(b.cards.empty());
  EXPECT_EQ(b.refused, 1);
  const auto c = decode_maps(disagree.m, info(), {}, 1.0, std::nullopt);
  EXPECT_TRUE(c.cards.empty());
  EXPECT_EQ(c.refused, 2);

  RecogniserOptions off;
  off.pair_floor = 1.0;
  EXPECT_TRUE(decode_maps(two.m, info(), off, 1.0, std::nullopt).cards.empty());
}

// A large index can leave two heat-map peaks that the NMS keeps (boxes overlapping under its IoU). Both
// read the same card, but from one place: that is one corner, not two that agree, so neither reaches
// the pair floor's rule. Two corners of one card never overlap.
TEST(Decode, TwoPeaksOnOneIndexAreNotTwoCornersThatAgree) {
  Maps m;
  for (int x : {1, 3}) {  // 32 px boxes 16 px apart: IoU 1/3, under the NMS's 0.4
    unsure_index(m, 1, x, 9, 1);
    m.set(18, 1, x, 1.386f);  // log(32 / 8)
    m.set(19, 1, x, 1.386f);
  }
  const auto r = decode_maps(m.m, info(), {}, 1.0, std::nullopt);
  ASSERT_EQ(r.indices.size(), 2U) << "the NMS should keep both peaks for this test to mean anything";
  EXPECT_TRUE(r.cards.empty());
  EXPECT_EQ(r.refused, 2);
  EXPECT_FALSE(r.indices[0].paired || r.indices[1].paired);
}

// The reader's four views of one index, combined (RecogniserOptions::geometric_views). Each view is a
// distribution over the same five candidates; candidate 0 is the card the index shows.
namespace {
std::vector<double> view(double best, int doubt, double doubt_p) {
  std::vector<double> v(5, (1.0 - best - doubt_p) / 3);
  v[0] = best;
  v[static_cast<std::size_t>(doubt)] = doubt_p;
  return v;
}
}  // namespace

// Every view is fairly sure of the card, and each has a different doubt (a webcam's blur here, a glint
// there). Averaged, the card stays at the views' own 0.90, under the floor; by the geometric mean each
// doubt is outvoted by the views that all but exclude it, and the card is read.
TEST(CombineViews, ADoubtThatOnlyOneViewHasIsOutvoted) {
  const std::vector<std::vector<double>> views = {view(0.90, 1, 0.0997), view(0.90, 2, 0.0997), view(0.90, 3, 0.0997),
                                                  view(0.90, 4, 0.0997)};
  const OperatingPoint opt;
  EXPECT_NEAR(combine_views(views, false)[0], 0.90, 1e-9);
  EXPECT_GE(combine_views(views, true)[0], opt.floor);
}

// A doubt that every view shares is the index's, not a view's: both means keep it, and the card stays
// under the floor, refused.
TEST(CombineViews, ADoubtEveryViewSharesStays) {
  const std::vector<std::vector<double>> views(4, view(0.90, 1, 0.0997));
  const OperatingPoint opt;
  EXPECT_NEAR(combine_views(views, true)[0], 0.90, 1e-6);
  EXPECT_LT(combine_views(views, true)[0], opt.floor);
}

// Views that read two different cards give neither: the geometric mean splits them as the arithmetic
// mean does, far under the floor.
TEST(CombineViews, ViewsThatReadDifferentCardsReadNone) {
  const std::vector<std::vector<double>> views = {view(0.98, 1, 0.0199), view(0.0199, 1, 0.98), view(0.98, 1, 0.0199),
                                                  view(0.0199, 1, 0.98)};
  const OperatingPoint opt;
  for (bool geometric : {false, true}) {
    const auto p = combine_views(views, geometric);
    EXPECT_NEAR(p[0], 0.5, 0.01) << geometric;
    EXPECT_NEAR(p[1], 0.5, 0.01) << geometric;
    EXPECT_LT(p[0], opt.floor);
  }
}

TEST(CombineViews, TheCombinedReadingIsADistribution) {
  const std::vector<std::vector<double>> views = {view(0.7, 2, 0.2), view(0.6, 3, 0.3), {1, 0, 0, 0, 0}};
  for (bool geometric : {false, true}) {
    const auto p = combine_views(views, geometric);
    double sum = 0;
    for (double v : p) {
      EXPECT_GE(v, 0);
      sum += v;
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
  EXPECT_THROW(combine_views({}, true), std::invalid_argument);
  EXPECT_THROW(combine_views({{0.5, 0.5}, {1.0}}, true), std::invalid_argument);
}
