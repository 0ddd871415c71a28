#include "vision/yolo_dataset.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

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
  // Not fractions of the image: accepted and scored before.
  EXPECT_THROW(parse_label_rows("2 0.5 0.5 inf 0.1\n", kNames, "x"), std::runtime_error);
  EXPECT_THROW(parse_label_rows("2 0.5 0.5 -0.1 0.1\n", kNames, "x"), std::runtime_error);
  EXPECT_THROW(parse_label_rows("2 1.5 0.5 0.1 0.1\n", kNames, "x"), std::runtime_error);
  EXPECT_THROW(parse_label_rows("2 0.1 0.1 0.2 0.1 0.2 0.1\n", kNames, "x"), std::runtime_error) << "a polygon with no area";
}

namespace {
namespace fs = std::filesystem;
fs::path one_group(const std::string& name, bool with_labels) {
  const fs::path d = fs::temp_directory_path() / ("cardtable-yolo-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(d);
  fs::create_directories(d / "images");
  std::ofstream(d / "data.yaml") << "names: ['10C', '10D', 'AS', 'BACK', 'BLACK JOKER', 'QH']\n";
  std::ofstream(d / "images" / "a.jpg") << "x";
  std::ofstream(d / "images" / "b.jpg") << "x";
  if (with_labels) {
    fs::create_directories(d / "labels");
    std::ofstream(d / "labels" / "a.txt") << "2 0.5 0.5 0.1 0.1\n";
  }
  return d;
}
}  // namespace

// Measuring nothing, or against no labels, was reported as figures: a list naming no image of the
// dataset gave precision and recall 1.0 over 0 images, its names that matched nothing were dropped
// without a word, and a group without labels/ counted every card read as false.
TEST(YoloDataset, AListNameWithNoImageAndAGroupWithoutLabelsAreErrors) {
  const fs::path d = one_group("list", true);
  const auto groups = read_yolo_dataset(d, {});
  ASSERT_EQ(groups.size(), 1U);
  ASSERT_EQ(groups[0].images.size(), 2U);
  EXPECT_TRUE(groups[0].images[0].labelled);
  EXPECT_FALSE(groups[0].images[1].labelled) << "b.jpg has no label file: YOLO's way of saying no object, told apart";
  const std::string group = groups[0].name;
  EXPECT_EQ(read_yolo_dataset(d, {group + "/a.jpg"})[0].images.size(), 1U);
  try {
    read_yolo_dataset(d, {group + "/a.jpg", "other/c.jpg"});
    FAIL() << "a listed image not in the dataset was dropped";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("1 of the 2 images listed are not in"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'other/c.jpg'"), std::string::npos) << e.what();
  }
  fs::remove_all(d);
  const fs::path bare = one_group("bare", false);
  try {
    read_yolo_dataset(bare, {});
    FAIL() << "a group without labels/ was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("labels: no such folder beside images/"), std::string::npos) << e.what();
  }
  fs::remove_all(bare);
}
