// The camera pipeline's speed on one core: a 640x640 frame through the recogniser (letterbox, network,
// peak decoding, NMS, card grouping) -- the bar is 30 frames/s -- and, apart, decoding a JPEG
// frame (a camera delivering MJPEG pays it; a raw YUYV camera does not).
// Run: build/bench/vision_bench   (items_per_second = frames/s)
#include <filesystem>
#include <vector>

#include <benchmark/benchmark.h>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>

#include "vision/recogniser.hpp"

namespace {

std::vector<uchar> jpeg_frame() {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(CARDTABLE_CORPUS_DIR) / "images/roboflow_card_detection_v12/webcam_multi_card/images";
  cv::Mat frame;
  if (!std::string(CARDTABLE_CORPUS_DIR).empty() && fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir)) { frame = cv::imread(e.path().string()); break; }
  if (frame.empty()) {  // no corpus: a noisy frame of the same size
    frame = cv::Mat(640, 640, CV_8UC3);
    cv::randu(frame, 0, 255);
  }
  std::vector<uchar> buf;
  cv::imencode(".jpg", frame, buf);
  return buf;
}

void BM_ReadFrame640(benchmark::State& state) {
  cv::setNumThreads(1);
  cardtable::vision::Recogniser rec(CARDTABLE_VISION_MODEL);
  const cv::Mat frame = cv::imdecode(jpeg_frame(), cv::IMREAD_COLOR);
  for (auto _ : state) benchmark::DoNotOptimize(rec.read(frame));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReadFrame640)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DecodeJpeg640(benchmark::State& state) {
  cv::setNumThreads(1);
  const auto buf = jpeg_frame();
  for (auto _ : state) benchmark::DoNotOptimize(cv::imdecode(buf, cv::IMREAD_COLOR));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DecodeJpeg640)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
