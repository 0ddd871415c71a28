// The layers the recogniser can compute itself, each against the same layers in cv::dnn, on one core:
// the detector's front (stem and s4 stage) and its tail (the rest) on a 640x640 frame, and the index
// reader on its crops.
// Whether the recogniser uses its own layers on a processor is decided by these figures
// (hand_layers.hpp, hand_kernels_pay_off), so they are measured for each build of the kernels: the
// AVX2 + FMA one (x86-64) and the baseline one (what arm64 and x86-64 without AVX2 run).
// Run: build/bench/vision_layers_bench   (items_per_second = frames/s or crops/s)
#include <filesystem>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <opencv2/core/utility.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include "model_net.hpp"
#include "vision/detector_front.hpp"
#include "vision/detector_tail.hpp"
#include "vision/hand_reader.hpp"
#include "vision/index_crop.hpp"
#include "vision/model_info.hpp"

namespace {

namespace fs = std::filesystem;
using cardtable::vision::Kernels;

const fs::path kModel = CARDTABLE_VISION_MODEL;

cv::dnn::Net load(const std::string& file) { return cardtable::test::model_net(kModel, file); }

cv::Mat noise(int rows, int cols, int seed) {
  cv::Mat m(rows, cols, CV_8UC3);
  cv::RNG rng(static_cast<std::uint64_t>(seed));
  rng.fill(m, cv::RNG::UNIFORM, 0, 256);
  return m;
}

// The argument: 0 the kernels' best build on this processor, 1 the baseline build, 2 cv::dnn, 3 cv::dnn
// without its run-time choice of instruction sets (cv::setUseOptimized(false)): on x86-64 that is what
// compares with the baseline build, the two as a processor without AVX2 runs them.
const char* engine_name(std::int64_t e) { return e == 0 ? "best" : e == 1 ? "baseline" : e == 2 ? "cv::dnn" : "cv::dnn, baseline"; }

// Sets cv::setUseOptimized for one benchmark, and back on when it ends.
struct Optimised {
  explicit Optimised(std::int64_t engine) { cv::setUseOptimized(engine != 3); }
  ~Optimised() { cv::setUseOptimized(true); }
};

void BM_DetectorFront640(benchmark::State& state) {
  cv::setNumThreads(1);
  const Optimised optimised(state.range(0));
  const auto info = cardtable::vision::read_model_info(kModel);
  cv::dnn::Net whole = load(info.onnx);
  const cv::Mat frame = noise(640, 640, 1);
  cv::Mat out;
  if (state.range(0) >= 2) {
    std::string last;  // cv::dnn runs the network up to the front's last layer, s4's last ReLU
    for (const auto& n : whole.getLayerNames())
      if (n.ends_with("/s4/s4.1/s4.1.5/Relu")) last = n;
    for (auto _ : state) {
      whole.setInput(cv::dnn::blobFromImage(frame, info.scale));
      out = whole.forward(last);
      benchmark::DoNotOptimize(out.data);
    }
    state.SetLabel(engine_name(state.range(0)));
  } else {
    cardtable::vision::DetectorFront front(whole, info.scale, state.range(0) == 0 ? Kernels::best : Kernels::baseline);
    state.SetLabel(front.kernels());
    for (auto _ : state) {
      front.run(frame, out);
      benchmark::DoNotOptimize(out.data);
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DetectorFront640)->ArgName("engine")->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->UseRealTime();

// The detector's tail on the front's output of a 640x640 frame: computed here (DetectorTail) or by
// cv::dnn from the model's cards_tail.onnx, as the recogniser runs the one or the other.
void BM_DetectorTail640(benchmark::State& state) {
  cv::setNumThreads(1);
  const Optimised optimised(state.range(0));
  const auto info = cardtable::vision::read_model_info(kModel);
  cv::dnn::Net whole = load(info.onnx);
  cardtable::vision::DetectorFront front(whole, info.scale);
  cv::Mat s4, out;
  front.run(noise(640, 640, 1), s4);
  if (state.range(0) >= 2) {
    cv::dnn::Net tail = load(info.tail->onnx);
    for (auto _ : state) {
      tail.setInput(s4);
      out = tail.forward();
      benchmark::DoNotOptimize(out.data);
    }
    state.SetLabel(engine_name(state.range(0)));
  } else {
    cardtable::vision::DetectorTail tail(whole, state.range(0) == 0 ? Kernels::best : Kernels::baseline);
    state.SetLabel(tail.kernels());
    for (auto _ : state) {
      tail.run(s4, out);
      benchmark::DoNotOptimize(out.data);
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DetectorTail640)->ArgName("engine")->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->UseRealTime();

// 64 crops a pass: about what a frame of 16 indices read in 4 views costs; `crop` pixels square (the
// committed reader's 32, or the 40 and 48 a retrained reader may read: the same weights read any).
void BM_ReaderCrops(benchmark::State& state) {
  cv::setNumThreads(1);
  const Optimised optimised(state.range(0));
  const auto info = cardtable::vision::read_model_info(kModel);
  cv::dnn::Net net = load(info.reader->onnx);
  std::vector<cv::Mat> crops;
  const int side = static_cast<int>(state.range(1));
  for (int k = 0; k < 64; ++k) crops.push_back(noise(side, side, 10 + k));
  if (state.range(0) >= 2) {
    // cv::dnn on batches of 8 crops (the strip form's count; vision_bench compares the strip form).
    std::vector<cv::Mat> batch(8);
    for (auto _ : state)
      for (std::size_t first = 0; first < crops.size(); first += 8) {
        std::copy(crops.begin() + static_cast<std::ptrdiff_t>(first), crops.begin() + static_cast<std::ptrdiff_t>(first + 8), batch.begin());
        net.setInput(cv::dnn::blobFromImages(batch, info.scale));
        const cv::Mat out = net.forward();
        benchmark::DoNotOptimize(out.data);
      }
    state.SetLabel(engine_name(state.range(0)));
  } else {
    cardtable::vision::HandReader reader(net, info.scale, side, state.range(0) == 0 ? Kernels::best : Kernels::baseline);
    state.SetLabel(reader.kernels());
    float out[cardtable::vision::HandReader::kChannels];
    for (auto _ : state)
      for (const auto& c : crops) {
        reader.read(c, out);
        benchmark::DoNotOptimize(out);
      }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(crops.size()));
}
BENCHMARK(BM_ReaderCrops)
    ->ArgNames({"engine", "crop"})
    ->ArgsProduct({{0, 1, 2, 3}, {32, 40, 48}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The reader's crops (index_crop.hpp): 16 indices `side` pixels across in a 640x640 frame, 4 views
// each (64 crops), each filter (0 linear, 1 area). 60 px is a webcam's index (about 47 px, times the
// crop scale 1.3), 140 a phone's close up.
void BM_IndexCrops(benchmark::State& state) {
  cv::setNumThreads(1);
  const cv::Mat frame = noise(640, 640, 3);
  const auto filter = state.range(0) == 0 ? cardtable::vision::ModelInfo::Reader::CropFilter::linear
                                          : cardtable::vision::ModelInfo::Reader::CropFilter::area;
  const double side = static_cast<double>(state.range(1));
  cv::Mat out;
  for (auto _ : state)
    for (int k = 0; k < 16; ++k) {
      cv::Mat upright;  // one index's
      for (int view = 0; view < 4; ++view) {
        cardtable::vision::index_crop(frame, 100.3 + 25 * k, 120.6 + 20 * k, side, 90.0 * view, 32, filter, upright, out);
        benchmark::DoNotOptimize(out.data);
      }
    }
  state.SetItemsProcessed(state.iterations() * 64);
}
BENCHMARK(BM_IndexCrops)->ArgNames({"area", "side"})->ArgsProduct({{0, 1}, {60, 140}})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
