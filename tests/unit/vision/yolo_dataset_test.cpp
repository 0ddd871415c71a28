#include "vision/yolo_dataset.hpp"

#include <gtest/gtest.h>

using cardtable::bridge::Card;
using namespace cardtable::vision;

namespace {
const std::vector<std::string> kNames = {"10C", "10D", "AS", "BACK", "BLACK JOKER", "QH"};
}

TEST(YoloDataset, ClassNamesAreCardsExceptBacksAndJokers) {
  EXPECT_EQ(card_of_class_name("10H"), Card::parse("H10"));
  EXPECT_EQ(card_of_class_name("AS"), Card::parse("SA"));
  EXPECT_EQ(card_of_class_name("QD"), Card::parse("DQ"));
  EXPECT_FALSE(card_of_class_name("BACK"));
  EXPECT_FALSE(card_of_class_name("BLACK JOKER"));
  EXPECT_FALSE(card_of_class_name("RED JOKER"));
  EXPECT_FALSE(card_of_class_name("TS")) << "the corpus writes 10, never T";
  EXPECT_FALSE(card_of_class_name("1H"));
}

TEST(YoloDataset, DataYamlFlowListGivesTheNames) {
  const auto names = parse_data_yaml_names("train: a\nnc: 3\nnames: ['10C', \"AS\", BACK]\nroboflow:\n", "data.yaml");
  EXPECT_EQ(names, (std::vector<std::string>{"10C", "AS", "BACK"}));
  EXPECT_THROW(parse_data_yaml_names("nc: 3\n", "data.yaml"), std::runtime_error);
  EXPECT_THROW(parse_data_yaml_names("names: ['a'", "data.yaml"), std::runtime_error);
}

TEST(YoloDataset, BoxRowsAndPolygonRowsBothGiveBoxes) {
  const auto boxes = parse_label_rows("2 0.5 0.5 0.1 0.2\n5 0.1 0.1 0.3 0.1 0.3 0.4 0.1 0.4\n\n3 0.2 0.2 0.1 0.1\n", kNames, "x.txt");
  ASSERT_EQ(boxes.size(), 3U);
  EXPECT_EQ(boxes[0].card, Card::parse("SA"));
  EXPECT_DOUBLE_EQ(boxes[0].w, 0.1);
  // The polygon's bounding box: x 0.1..0.3, y 0.1..0.4.
  EXPECT_EQ(boxes[1].card, Card::parse("HQ"));
  EXPECT_DOUBLE_EQ(boxes[1].cx, 0.2);
  EXPECT_DOUBLE_EQ(boxes[1].cy, 0.25);
  EXPECT_NEAR(boxes[1].h, 0.3, 1e-12);
  EXPECT_FALSE(boxes[2].card) << "BACK is labelled but is no card";
}

TEST(YoloDataset, DistinctCardsPerImage) {
  LabelledImage im;
  im.boxes = parse_label_rows("2 0.1 0.1 0.1 0.1\n2 0.9 0.9 0.1 0.1\n3 0.5 0.5 0.1 0.1\n", kNames, "x.txt");
  EXPECT_EQ(im.cards().size(), 1) << "two corners of the ace of spades are one card; BACK is none";
}

TEST(YoloDataset, BadRowsAreErrorsThatNameFileAndLine) {
  try {
    parse_label_rows("2 0.5 0.5 0.1 0.2\n9 0.5 0.5 0.1 0.1\n", kNames, "lab.txt");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("lab.txt:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_label_rows("2 0.5 0.5 0.1\n", kNames, "x"), std::runtime_error);
  EXPECT_THROW(parse_label_rows("2 0.5 0.5 0.1 0.1 0.3\n", kNames, "x"), std::runtime_error);
  EXPECT_THROW(parse_label_rows("2 0.5 nan 0.1 0.1\n", kNames, "x"), std::runtime_error);
  EXPECT_THROW(parse_label_rows("1.5 0.5 0.5 0.1 0.1\n", kNames, "x"), std::runtime_error);
  EXPECT_THROW(parse_label_rows("-1 0.5 0.5 0.1 0.1\n", kNames, "x"), std::runtime_error);
}
