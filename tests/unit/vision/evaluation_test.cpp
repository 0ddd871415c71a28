#include "vision/evaluation.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using cardtable::bridge::Card;
using namespace cardtable::vision;

namespace {
const std::vector<std::string> kNames = {"10H", "AS", "BACK", "KS"};

LabelledImage image(const char* rows) {
  LabelledImage im;
  im.boxes = parse_label_rows(rows, kNames, "t");
  return im;
}
}  // namespace

TEST(Evaluation, CountsDistinctCardsAndNamesWhatAFalseCardStoodOn) {
  std::vector<Confusion> conf;
  // Truth: 10H (two corners) and AS; read: 10H twice (two corners), KS on the ace's corner.
  const auto im = image("0 0.1 0.1 0.05 0.05\n0 0.9 0.9 0.05 0.05\n1 0.5 0.5 0.05 0.05\n2 0.3 0.3 0.1 0.1\n");
  const auto s = score_image(im, {{*Card::parse("H10"), 0.1, 0.1}, {*Card::parse("H10"), 0.9, 0.9}, {*Card::parse("SK"), 0.51, 0.5}}, conf);
  EXPECT_EQ(s.true_cards, 1);
  EXPECT_EQ(s.false_cards, 1);
  EXPECT_EQ(s.missed_cards, 1);
  EXPECT_EQ(s.exact, 0);
  EXPECT_EQ(conf, (std::vector<Confusion>{{"AS", "SK"}}));
}

// A false card read at both its corners is one false card, as a true one is one true card.
TEST(Evaluation, AFalseCardReadAtBothCornersIsOneFalseCard) {
  std::vector<Confusion> conf;
  const auto s = score_image(image("1 0.5 0.5 0.05 0.05\n"), {{*Card::parse("SK"), 0.5, 0.5}, {*Card::parse("SK"), 0.2, 0.2}}, conf);
  EXPECT_EQ(s.false_cards, 1);
  EXPECT_EQ(conf, (std::vector<Confusion>{{"AS", "SK"}}));
}

// Whoever checks a model must look at the photograph under each false card (a reader's error, or a card
// the labels miss): the text and the JSON name the image.
TEST(Evaluation, EveryFalseCardNamesItsImage) {
  Evaluation e;
  e.overall.images = 1;
  e.overall.false_cards = 1;
  e.confusions[{"-", "CA"}] = 1;
  e.false_cards.push_back({"wood/IMG_1.jpg", {"-", "CA"}});
  EXPECT_NE(evaluation_text(e).find("wood/IMG_1.jpg: - -> CA"), std::string::npos) << evaluation_text(e);
  const auto j = nlohmann::json::parse(evaluation_json(e)).at("false_card_images");
  ASSERT_EQ(j.size(), 1U);
  EXPECT_EQ(j[0].at("image").get<std::string>(), "wood/IMG_1.jpg");
  EXPECT_EQ(j[0].at("label").get<std::string>(), "-");
  EXPECT_EQ(j[0].at("read").get<std::string>(), "CA");
}

// Recall that is missing lies in one of three places: an index not found, found and read as another
// card, or read right and refused as not sure enough. The found indices' best candidates tell them apart.
TEST(Evaluation, TheIndicesTellAMissedIndexFromAWrongReadingFromARefusedRightOne) {
  std::vector<Confusion> conf;
  // Labelled: 10H at two corners, AS, KS; a BACK, which is no card index.
  const auto im = image("0 0.1 0.1 0.05 0.05\n0 0.9 0.9 0.05 0.05\n1 0.5 0.5 0.05 0.05\n3 0.3 0.7 0.05 0.05\n2 0.3 0.3 0.1 0.1\n");
  // Found: the 10H's first corner, its best candidate right (refused: nothing read); the ace's corner
  // read best as the KS, with a nearer peak inside the box that is right (the nearest one counts); the
  // KS's corner at its box's edge, best right; a peak on the BACK. The 10H's second corner not found.
  const std::vector<FoundIndex> found = {{0.11, 0.1, *Card::parse("H10")},
                                         {0.52, 0.5, *Card::parse("SK")},
                                         {0.501, 0.5, *Card::parse("SA")},
                                         {0.324, 0.7, *Card::parse("SK")},
                                         {0.3, 0.3, *Card::parse("CK")}};
  const auto s = score_image(im, {}, conf, found);
  EXPECT_EQ(s.labelled_indices, 4);
  EXPECT_EQ(s.found_indices, 3);
  EXPECT_EQ(s.best_right_indices, 3);
  EXPECT_DOUBLE_EQ(s.best_right_share(), 0.75);
  // The same, the ace's nearest peak read wrong: found, not right.
  const std::vector<FoundIndex> wrong = {{0.501, 0.5, *Card::parse("SK")}, {0.52, 0.5, *Card::parse("SA")}};
  const auto w = score_image(im, {}, conf, wrong);
  EXPECT_EQ(w.found_indices, 1);
  EXPECT_EQ(w.best_right_indices, 0);
  Evaluation e;
  e.groups.emplace_back("g", s);
  e.overall = s;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(evaluation_json(e)).at("index_best_right").get<double>(), 0.75);
  EXPECT_NE(evaluation_text(e).find("best candidate right"), std::string::npos) << evaluation_text(e);
}

TEST(Evaluation, AnImageOfBacksReadAsNothingIsExact) {
  std::vector<Confusion> conf;
  const auto s = score_image(image("2 0.3 0.3 0.1 0.1\n"), {}, conf);
  EXPECT_EQ(s.exact, 1);
  EXPECT_DOUBLE_EQ(s.precision(), 1.0);
}

TEST(Evaluation, JsonHasOverallPrecisionAndRecallAsFractions) {
  Evaluation e;
  Score s;
  s.images = 2; s.true_cards = 3; s.false_cards = 1; s.missed_cards = 1;
  e.groups.emplace_back("g", s);
  e.overall = s;
  const auto j = nlohmann::json::parse(evaluation_json(e));
  EXPECT_DOUBLE_EQ(j.at("precision").get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(j.at("recall").get<double>(), 0.75);
  EXPECT_TRUE(j.at("groups").contains("g"));
}

// Figures without the operating point that gave them cannot be compared: the JSON and the text name it.
TEST(Evaluation, TheFiguresNameTheOperatingPointTheyWereMeasuredAt) {
  Evaluation e;
  e.overall.images = 1;
  EXPECT_FALSE(nlohmann::json::parse(evaluation_json(e)).contains("operating_point"));
  RecogniserOptions o;
  o.floor = 0.985;
  o.reader_views = 4;
  o.geometric_views = false;
  e.options = o;
  const auto j = nlohmann::json::parse(evaluation_json(e)).at("operating_point");
  EXPECT_DOUBLE_EQ(j.at("floor").get<double>(), 0.985);
  EXPECT_DOUBLE_EQ(j.at("pair_floor").get<double>(), OperatingPoint{}.pair_floor);
  EXPECT_EQ(j.at("views").get<int>(), 4);
  EXPECT_EQ(j.at("views_mean").get<std::string>(), "arithmetic");
  EXPECT_NE(evaluation_text(e).find("operating point: 4 views (arithmetic mean), floor 0.985"), std::string::npos)
      << evaluation_text(e);
}

// A figure on a few hundred cards is a range, not a point: eval says what it establishes. Wilson's
// interval at its textbook values, and at the ends, where 109 cards read without a false one put
// precision at 96.6 % or more (109 / (109 + 1.96^2)), and where the 99.5 % needs 765 such cards.
TEST(Evaluation, AShareIsGivenWithTheRangeItEstablishes) {
  const auto half = wilson_interval(5, 10);
  EXPECT_NEAR(half.low, 0.2366, 1e-4);
  EXPECT_NEAR(half.high, 0.7634, 1e-4);
  const auto none = wilson_interval(0, 10);
  EXPECT_DOUBLE_EQ(none.low, 0.0);
  EXPECT_NEAR(none.high, 0.2775, 1e-4);
  const auto all = wilson_interval(109, 109);
  EXPECT_NEAR(all.low, 109 / (109 + 1.959963984540054 * 1.959963984540054), 1e-12);
  EXPECT_DOUBLE_EQ(all.high, 1.0);
  EXPECT_LT(wilson_interval(764, 764).low, 0.995);
  EXPECT_GE(wilson_interval(765, 765).low, 0.995);
  const auto nothing = wilson_interval(0, 0);  // nothing measured establishes nothing
  EXPECT_DOUBLE_EQ(nothing.low, 0.0);
  EXPECT_DOUBLE_EQ(nothing.high, 1.0);

  Evaluation e;
  Score s;
  s.images = 10; s.exact = 5; s.true_cards = 109; s.missed_cards = 49;
  e.groups.emplace_back("g", s);
  e.overall = s;
  const auto j = nlohmann::json::parse(evaluation_json(e));
  EXPECT_NEAR(j.at("precision_interval").at(0).get<double>(), all.low, 1e-12);
  EXPECT_NEAR(j.at("recall_interval").at(0).get<double>(), wilson_interval(109, 158).low, 1e-12);
  EXPECT_NEAR(j.at("groups").at("g").at("exact_share_interval").at(1).get<double>(), half.high, 1e-12);
  EXPECT_NE(evaluation_text(e).find("95% ranges (Wilson)"), std::string::npos) << evaluation_text(e);
  EXPECT_NE(evaluation_text(e).find(" 96.6-100.0%"), std::string::npos) << evaluation_text(e);
}
