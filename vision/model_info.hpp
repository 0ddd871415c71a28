// The model's metadata (model.json beside cards.onnx): input size and scale, where each head sits in the
// output tensor, rank/suit order, the SHA-256 of the ONNX file, attribution of the training data.
// Untrusted input (an operator may point the daemon at any file): every field is checked.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cardtable::vision {

// The point a reader reads at: the confidence floor and the margin over the runner-up below which an
// index is refused, the pair floor two agreeing corners each need, and the views of each index. It is
// chosen with the reader, on the training images (vision/train/choose_point.py; vision/README.md,
// "Operating point"), so it travels in model.json (reader.operating_point) with the weights it was chosen
// for. These defaults are the point of a model.json that names none.
struct OperatingPoint {
  double floor = 0.995;
  double margin = 0.80;
  double pair_floor = 0.80;
  int views = 2;
};

struct ModelInfo {
  std::string onnx = "cards.onnx";  // relative to the metadata file
  std::string sha256;               // of the ONNX file, hex
  int width = 640, height = 640;
  double scale = 1.0 / 255.0;
  int stride = 8;
  int heat = 0, rank = 1, suit = 14, size = 18, feat = 20, channels = 84, feat_dim = 64;
  std::vector<std::string> ranks;   // 13, "2".."A"
  std::vector<std::string> suits;   // 4, "C","D","H","S"
  std::string attribution;
  // The index reader (optional): a second network that reads a square crop around each peak.
  struct Reader {
    std::string onnx;
    std::string sha256;
    int crop = 48;
    double crop_scale = 1.3;  // crop side = this x the box's longer side
    // How a crop is shrunk to `crop` pixels, the way the reader was trained (vision/train/reader.py,
    // crop): `linear`, one bilinear warp (absent from model.json: the readers trained before
    // 2026-11-27), or `area`, a warp at the index's own size, then averaged down (cv::INTER_AREA), so
    // an index three times the crop is not read through aliasing.
    enum class CropFilter { linear, area };
    CropFilter crop_filter = CropFilter::linear;
    int rank = 0, suit = 13, is_index = 17, emb = 18, emb_dim = 64, channels = 82;
    // The same reader in strip form (optional; vision/train/reader.py, StripReader): `crops` crops side
    // by side, `pitch` columns apart, plus a mask channel, in one [1, 4, crop, pitch x crops] input;
    // output [1, channels, 1, crops]. Same readings, less than half the cost in OpenCV 4.6.
    struct Strip {
      std::string onnx;
      std::string sha256;
      int crops = 8;
      int pitch = 40;
    };
    std::optional<Strip> strip;
    std::optional<OperatingPoint> operating_point;  // absent: OperatingPoint's defaults
  };
  std::optional<Reader> reader;
  // The detector's tail (optional; vision/train/export_tail.py): the same network from its s4 stage's
  // output on, for the recogniser that computes the stem and s4 itself (detector_front.hpp). `front`
  // names what the tail expects before it; "cornernet-s4" is the only front there is.
  struct Tail {
    std::string onnx;
    std::string sha256;
    std::string front = "cornernet-s4";
  };
  std::optional<Tail> tail;
};

// Throws std::runtime_error (with `where`) when the text is not a valid cardtable-vision-model.
ModelInfo parse_model_info(std::string_view json_text, const std::string& where);
ModelInfo read_model_info(const std::filesystem::path& file);

// Hex SHA-256 of a file's bytes (OpenSSL-free: a small implementation, the file is a few hundred KB).
std::string sha256_hex(std::string_view bytes);

}  // namespace cardtable::vision
