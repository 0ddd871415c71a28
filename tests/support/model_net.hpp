// One network of the committed model (vision/model), loaded as the recogniser loads it: cv::dnn's own
// backend on the CPU. For the tests and benches that compare the recogniser's hand-computed layers
// with cv::dnn's.
#pragma once

#include <filesystem>
#include <string>

#include <opencv2/dnn.hpp>

namespace cardtable::test {

// `file` beside `model_json` (a name model.json gives: cards.onnx, reader.onnx...).
inline cv::dnn::Net model_net(const std::filesystem::path& model_json, const std::string& file) {
  cv::dnn::Net net = cv::dnn::readNetFromONNX((model_json.parent_path() / file).string());
  net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
  net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
  return net;
}

}  // namespace cardtable::test
