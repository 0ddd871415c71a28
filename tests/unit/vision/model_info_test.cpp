#include "vision/model_info.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace cardtable::vision;

namespace {

// Valid metadata with a reader, its reader object left open for the entries a test adds.
std::string with_reader_head() {
  return R"({"format":"cardtable-vision-model","onnx":"cards.onnx","sha256":")" + std::string(64, 'a') +
         R"(","input":{"width":640,"height":640,"scale":0.0039},"output":{"stride":8,"channels":84,"feat_dim":64,
         "heat":0,"rank":1,"suit":14,"size":18,"feat":20},"ranks":["2","3","4","5","6","7","8","9","10","J","Q","K","A"],
         "suits":["C","D","H","S"],"reader":{"onnx":"reader.onnx","sha256":")" + std::string(64, 'b') +
         R"(","crop":32,"crop_scale":1.3,"channels":82,"emb_dim":64,"rank":0,"suit":13,"is_index":17,"emb":18)";
}

}  // namespace

TEST(ModelInfo, Sha256OfKnownText) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(std::string(1000, 'a')), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST(ModelInfo, TheCommittedMetadataParses) {
  const auto m = read_model_info(CARDTABLE_VISION_MODEL);
  EXPECT_EQ(m.ranks.size(), 13U);
  EXPECT_EQ(m.suits.size(), 4U);
  EXPECT_NE(m.attribution.find("CC BY 4.0"), std::string::npos) << "the photographs' licence asks for attribution";
  ASSERT_TRUE(m.reader && m.reader->strip);
  EXPECT_EQ(m.reader->strip->onnx, "reader_strip.onnx");
  EXPECT_GT(m.reader->strip->pitch, m.reader->crop) << "crops in a strip must not touch";
}

// The strip reader's entry is checked like the reader's: a file beside the metadata, a SHA-256, and crops
// that do not touch (a crop touching the next would read it where its padding should be).
TEST(ModelInfo, TheStripReadersEntryIsChecked) {
  const std::string head = with_reader_head();
  auto with = [&](const std::string& strip) { return head + strip + "}}"; };
  const auto m = parse_model_info(with(R"(,"strip":{"onnx":"reader_strip.onnx","sha256":")" + std::string(64, 'c') + R"(","crops":8,"pitch":40})"), "m");
  ASSERT_TRUE(m.reader->strip);
  EXPECT_EQ(m.reader->strip->crops, 8);
  EXPECT_EQ(m.reader->strip->pitch, 40);
  EXPECT_FALSE(parse_model_info(with(""), "m").reader->strip) << "the strip is optional: the batch reader serves alone";
  const std::string sha = std::string(64, 'c');
  for (const std::string& bad : std::vector<std::string>{R"(,"strip":[])",
                                R"(,"strip":{"sha256":")" + sha + R"(","crops":8,"pitch":40})",
                                R"(,"strip":{"onnx":"../s.onnx","sha256":")" + sha + R"(","crops":8,"pitch":40})",
                                R"(,"strip":{"onnx":"s.onnx","sha256":"abc","crops":8,"pitch":40})",
                                R"(,"strip":{"onnx":"s.onnx","sha256":")" + sha + R"(","crops":0,"pitch":40})",
                                R"(,"strip":{"onnx":"s.onnx","sha256":")" + sha + R"(","crops":8,"pitch":32})"})
    EXPECT_THROW(parse_model_info(with(bad), "m"), std::runtime_error) << bad;
}

// How the reader's crops are shrunk is the reader's own (it learnt from crops made one way): model.json
// says it, a reader written before it did was trained on bilinear crops, and any other word is an error,
// not a silent fallback to crops the reader never saw.
TEST(ModelInfo, TheReadersCropFilterIsTheOneItWasTrainedWith) {
  const std::string head = with_reader_head();
  using Filter = ModelInfo::Reader::CropFilter;
  EXPECT_EQ(parse_model_info(head + "}}", "m").reader->crop_filter, Filter::linear);
  EXPECT_EQ(parse_model_info(head + R"(,"crop_filter":"linear"}})", "m").reader->crop_filter, Filter::linear);
  EXPECT_EQ(parse_model_info(head + R"(,"crop_filter":"area"}})", "m").reader->crop_filter, Filter::area);
  for (const std::string bad : {R"("cubic")", R"("AREA")", "1", "null", "[]"}) {
    try {
      parse_model_info(head + R"(,"crop_filter":)" + bad + "}}", "m");
      ADD_FAILURE() << bad << " was taken";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("crop_filter"), std::string::npos) << e.what();
    }
  }
}

// The operating point is chosen with the reader and travels with it: a floor that refuses nothing, a
// probability out of 0..1 or a number of views the recogniser cannot read are errors, not points.
TEST(ModelInfo, TheReadersOperatingPointIsChecked) {
  const std::string head = with_reader_head();
  EXPECT_FALSE(parse_model_info(head + "}}", "m").reader->operating_point) << "optional: the defaults serve";
  const auto m = parse_model_info(head + R"(,"operating_point":{"floor":0.99,"margin":0.8,"pair_floor":0.75,"views":4}}})", "m");
  ASSERT_TRUE(m.reader->operating_point);
  EXPECT_DOUBLE_EQ(m.reader->operating_point->floor, 0.99);
  EXPECT_DOUBLE_EQ(m.reader->operating_point->margin, 0.8);
  EXPECT_DOUBLE_EQ(m.reader->operating_point->pair_floor, 0.75);
  EXPECT_EQ(m.reader->operating_point->views, 4);
  for (const std::string bad : {R"([])", R"({"floor":0.3,"margin":0.8,"pair_floor":0.8,"views":2})",
                                R"({"floor":1.5,"margin":0.8,"pair_floor":0.8,"views":2})", R"({"floor":0.99,"margin":-0.1,"pair_floor":0.8,"views":2})",
                                R"({"floor":0.99,"margin":0.8,"pair_floor":"0.8","views":2})", R"({"floor":0.99,"margin":0.8,"pair_floor":0.8,"views":0})",
                                R"({"floor":0.99,"margin":0.8,"pair_floor":0.8,"views":2.5})", R"({"floor":0.99,"margin":0.8,"pair_floor":0.8})"}) {
    try {
      parse_model_info(head + R"(,"operating_point":)" + bad + "}}", "m");
      ADD_FAILURE() << bad << " was taken";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("operating_point"), std::string::npos) << e.what();
    }
  }
}

TEST(ModelInfo, BadMetadataIsAClearError) {
  EXPECT_THROW(parse_model_info("[]", "m"), std::runtime_error);
  EXPECT_THROW(parse_model_info(R"({"format":"other"})", "m"), std::runtime_error);
  const std::string ok = R"({"format":"cardtable-vision-model","onnx":"cards.onnx","sha256":")" + std::string(64, 'a') +
                         R"(","input":{"width":640,"height":640,"scale":0.0039},"output":{"stride":8,"channels":84,"feat_dim":64,
                         "heat":0,"rank":1,"suit":14,"size":18,"feat":20},"ranks":["2","3","4","5","6","7","8","9","10","J","Q","K","A"],
                         "suits":["C","D","H","S"]})";
  EXPECT_NO_THROW(parse_model_info(ok, "m"));
  auto bad = ok;
  bad.replace(bad.find("\"feat\":20"), 9, "\"feat\":80");  // features would run past the output
  EXPECT_THROW(parse_model_info(bad, "m"), std::runtime_error);
  bad = ok;
  bad.replace(bad.find("cards.onnx"), 10, "../x.onnx");
  EXPECT_THROW(parse_model_info(bad, "m"), std::runtime_error);
  // A field of the wrong type is the same clear error, not a JSON type error out of the parser (the
  // fuzz target found {"format":0}: an uncaught nlohmann type_error).
  bad = ok;
  bad.replace(bad.find("\"cardtable-vision-model\""), 24, "0");
  EXPECT_THROW(parse_model_info(bad, "m"), std::runtime_error);
  bad = ok;
  bad.replace(bad.find("\"suits\""), 7, "\"attribution\":[1],\"suits\"");
  try {
    (void)parse_model_info(bad, "model.json");
    FAIL() << "an attribution that is not a string was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'attribution'"), std::string::npos) << e.what();
  }
}

// The detector's tail (export_tail.py) is checked like the other networks' files, and must expect the
// one front this program computes (detector_front.hpp): a tail for another front would be handed a
// tensor of the wrong meaning.
TEST(ModelInfo, TheTailsEntryIsCheckedAndNamesTheFrontThisProgramComputes) {
  const auto committed = read_model_info(CARDTABLE_VISION_MODEL);
  ASSERT_TRUE(committed.tail);
  EXPECT_EQ(committed.tail->onnx, "cards_tail.onnx");
  const std::string head = R"({"format":"cardtable-vision-model","onnx":"cards.onnx","sha256":")" + std::string(64, 'a') +
                           R"(","input":{"width":640,"height":640,"scale":0.0039},"output":{"stride":8,"channels":84,"feat_dim":64,
                           "heat":0,"rank":1,"suit":14,"size":18,"feat":20},"ranks":["2","3","4","5","6","7","8","9","10","J","Q","K","A"],
                           "suits":["C","D","H","S"])";
  auto with = [&](const std::string& tail) { return head + tail + "}"; };
  const std::string sha = std::string(64, 'd');
  const auto m = parse_model_info(with(R"(,"tail":{"onnx":"t.onnx","sha256":")" + sha + R"(","front":"cornernet-s4","channels":32,"stride":4})"), "m");
  ASSERT_TRUE(m.tail);
  EXPECT_EQ(m.tail->onnx, "t.onnx");
  EXPECT_FALSE(parse_model_info(with(""), "m").tail) << "the tail is optional: the whole detector serves alone";
  for (const std::string& bad : std::vector<std::string>{
           R"(,"tail":"t.onnx")",
           R"(,"tail":{"onnx":"../t.onnx","sha256":")" + sha + R"(","front":"cornernet-s4","channels":32,"stride":4})",
           R"(,"tail":{"onnx":"t.onnx","sha256":"abc","front":"cornernet-s4","channels":32,"stride":4})",
           R"(,"tail":{"onnx":"t.onnx","sha256":")" + sha + R"(","front":"cornernet-s8","channels":32,"stride":4})",
           R"(,"tail":{"onnx":"t.onnx","sha256":")" + sha + R"(","channels":32,"stride":4})",
           R"(,"tail":{"onnx":"t.onnx","sha256":")" + sha + R"(","front":"cornernet-s4","channels":64,"stride":4})",
           R"(,"tail":{"onnx":"t.onnx","sha256":")" + sha + R"(","front":"cornernet-s4","channels":32,"stride":8})"})
    EXPECT_THROW(parse_model_info(with(bad), "m"), std::runtime_error) << bad;
}
