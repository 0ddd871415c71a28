// The operating point (floor, margin, pair floor, views) belongs to the reader it was chosen for: it
// travels in model.json, the recogniser reads at it, and an option that sets a part of it overrides
// that part alone.
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "vision/model_info.hpp"
#include "vision/recogniser.hpp"

using namespace cardtable::vision;
namespace fs = std::filesystem;

TEST(OperatingPoint, OptionsOverrideTheModelsPointPartByPart) {
  const OperatingPoint model{0.97, 0.5, 0.6, 4};
  RecogniserOptions o;
  auto p = operating_point(o, model);
  EXPECT_DOUBLE_EQ(p.floor, 0.97);
  EXPECT_DOUBLE_EQ(p.margin, 0.5);
  EXPECT_DOUBLE_EQ(p.pair_floor, 0.6);
  EXPECT_EQ(p.views, 4);
  o.floor = 0.999;
  o.reader_views = 1;
  p = operating_point(o, model);
  EXPECT_DOUBLE_EQ(p.floor, 0.999);
  EXPECT_DOUBLE_EQ(p.margin, 0.5) << "an option left unset keeps the model's";
  EXPECT_DOUBLE_EQ(p.pair_floor, 0.6);
  EXPECT_EQ(p.views, 1);
  // A model that names no point: the defaults.
  p = operating_point(RecogniserOptions{}, std::nullopt);
  EXPECT_DOUBLE_EQ(p.floor, OperatingPoint{}.floor);
  EXPECT_EQ(p.views, OperatingPoint{}.views);
}

// The committed model names the point its reader was chosen at, and the recogniser reads at it; an
// option overrides one part and leaves the rest the model's.
TEST(OperatingPoint, TheRecogniserReadsAtItsModelsPoint) {
  const auto info = read_model_info(CARDTABLE_VISION_MODEL);
  ASSERT_TRUE(info.reader && info.reader->operating_point) << "the committed reader was chosen at a point: model.json says which";
  const OperatingPoint want = *info.reader->operating_point;
  const Recogniser rec{CARDTABLE_VISION_MODEL};
  const auto got = operating_point(rec.options());
  EXPECT_DOUBLE_EQ(got.floor, want.floor);
  EXPECT_DOUBLE_EQ(got.margin, want.margin);
  EXPECT_DOUBLE_EQ(got.pair_floor, want.pair_floor);
  EXPECT_EQ(got.views, want.views);
  RecogniserOptions o;
  o.pair_floor = 1.0;
  const Recogniser over{CARDTABLE_VISION_MODEL, o};
  EXPECT_DOUBLE_EQ(*over.options().pair_floor, 1.0);
  EXPECT_DOUBLE_EQ(*over.options().floor, want.floor);
  EXPECT_EQ(*over.options().reader_views, want.views);
}

// A model.json without a point (a reader just exported, before one is chosen) reads at the defaults.
TEST(OperatingPoint, AModelWithoutAPointReadsAtTheDefaults) {
  const fs::path model(CARDTABLE_VISION_MODEL);
  const fs::path dir = fs::temp_directory_path() / ("cardtable-point-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& e : fs::directory_iterator(model.parent_path()))
    if (e.path().extension() == ".onnx") fs::copy_file(e.path(), dir / e.path().filename());
  auto j = nlohmann::json::parse(std::ifstream(model));
  j["reader"].erase("operating_point");
  std::ofstream(dir / "model.json") << j.dump(1);
  const Recogniser rec{dir / "model.json"};
  const auto got = operating_point(rec.options());
  EXPECT_DOUBLE_EQ(got.floor, OperatingPoint{}.floor);
  EXPECT_DOUBLE_EQ(got.pair_floor, OperatingPoint{}.pair_floor);
  EXPECT_EQ(got.views, OperatingPoint{}.views);
  fs::remove_all(dir);
}
