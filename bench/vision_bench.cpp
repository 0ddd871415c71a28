// The camera pipeline's speed on one core: a 640x640 frame through the recogniser (letterbox, network,
// peak decoding, NMS, card grouping) -- the bar is 30 frames/s -- and, apart, decoding a JPEG
// frame (a camera delivering MJPEG pays it; a raw YUYV camera does not); and the face reader, which reads
// lone cards against an enrolled faces deck with no network.
// Run: build/bench/vision_bench   (items_per_second = frames/s); CARDTABLE_BENCH_MODEL=DIR/model.json
// measures another model (a retrained one, or the same networks with another tail) instead of the
// committed vision/model.
#include <array>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <vector>

#include <benchmark/benchmark.h>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgcodecs.hpp>

#include "rendered_table.hpp"
#include "vision/face_reader.hpp"
#include "vision/recogniser.hpp"

namespace {

std::string model_json() {
  const char* other = std::getenv("CARDTABLE_BENCH_MODEL");
  return other && *other ? other : CARDTABLE_VISION_MODEL;
}

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

// The standard deck enrolled face by face from the renderer's photos, one card alone on the cloth each.
cardtable::vision::Deck enrolled_faces(cardtable::test::TableRenderer& art) {
  std::map<int, std::vector<cardtable::vision::FaceViews>> photos;
  for (int id = 0; id < 52; ++id)
    if (auto v = cardtable::vision::enrolment_face(art.scene({{cardtable::bridge::Card::from_id(id), 320, 320, 0}}), cardtable::vision::kFaceWidth,
                                                          cardtable::vision::kFaceHeight))
      photos[id].push_back(*v);
  return cardtable::vision::make_face_deck("standard", photos, cardtable::vision::kFaceWidth, cardtable::vision::kFaceHeight);
}

// The arguments: the reader's views of each index (RecogniserOptions::reader_views; 4 is the default),
// whether the odd views are read only where they could still change the decision (early_refusal, the
// default) or always, the detector's input side (RecogniserOptions::detector_side; 0 = the model's), and
// whether the views combine by their geometric mean (geometric_views, the default) or the arithmetic, and
// whether the reader reads its crops side by side in strips (strip_reader, the default) or one per batch
// row, and whether the detector's stem and s4 are computed by hand before cv::dnn runs the rest
// (detector_front, the default) or cv::dnn runs the whole detector, and whether the reader is computed
// by hand (hand_reader, the default) or by cv::dnn in the form `strip` says, and, with the front, whether
// the rest of the detector is computed by hand too (detector_tail, the default) or by cv::dnn.
void BM_ReadFrame640(benchmark::State& state) {
  cv::setNumThreads(1);
  cardtable::vision::RecogniserOptions opt;
  opt.reader_views = static_cast<int>(state.range(0));
  opt.early_refusal = state.range(1) != 0;
  opt.detector_side = static_cast<int>(state.range(2));
  opt.geometric_views = state.range(3) != 0;
  opt.strip_reader = state.range(4) != 0;
  opt.detector_front = state.range(5) != 0;
  opt.hand_reader = state.range(6) != 0;
  opt.detector_tail = state.range(7) != 0;
  cardtable::vision::Recogniser rec(model_json(), opt);
  const cv::Mat frame = cv::imdecode(jpeg_frame(), cv::IMREAD_COLOR);
  std::size_t indices = 0, read = 0;
  for (auto _ : state) {
    auto r = rec.read(frame);
    indices = r.indices.size();
    read = r.indices.size() - static_cast<std::size_t>(r.refused);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["indices"] = static_cast<double>(indices);
  state.counters["read"] = static_cast<double>(read);
}
BENCHMARK(BM_ReadFrame640)->ArgNames({"views", "early", "side", "geo", "strip", "front", "hand", "tail"})
    ->Args({1, 1, 0, 1, 1, 1, 1, 1})->Args({2, 1, 0, 1, 1, 1, 1, 1})->Args({2, 1, 0, 1, 1, 1, 1, 0})->Args({4, 1, 0, 1, 1, 1, 1, 1})->Args({4, 1, 0, 1, 1, 1, 0, 1})->Args({4, 1, 0, 1, 1, 0, 0, 1})->Args({4, 0, 0, 1, 1, 1, 1, 1})->Args({4, 1, 0, 0, 1, 1, 1, 1})->Args({4, 0, 0, 0, 1, 1, 1, 1})
    ->Args({4, 1, 0, 1, 0, 1, 0, 1})->Args({4, 0, 0, 1, 0, 1, 0, 1})->Args({1, 1, 0, 1, 0, 1, 0, 1})
    ->Args({4, 1, 576, 1, 1, 1, 1, 1})->Args({4, 1, 512, 1, 1, 1, 1, 1})->Args({4, 1, 448, 1, 1, 1, 1, 1})
    ->Unit(benchmark::kMillisecond)->UseRealTime();

// The face reader (no network): a faces deck enrolled from the test renderer's Debian card art, then a
// 640x640 frame of a trick -- four lone cards, one in each play area -- read against all 52 faces.
void BM_ReadFacesTrick640(benchmark::State& state) {
  cv::setNumThreads(1);
  cardtable::test::TableRenderer art(std::filesystem::temp_directory_path() / "cardtable-bench-art");
  if (!art.available()) {
    state.SkipWithError("needs kdegames-card-data-kf5 and rsvg-convert");
    return;
  }
  using cardtable::bridge::Card;
  const auto deck = enrolled_faces(art);
  const cv::Mat frame = art.scene({{Card::from_id(2), 320, 150, 180}, {Card::from_id(14), 490, 320, 90},
                                   {Card::from_id(27), 320, 490, 0}, {Card::from_id(51), 150, 320, -90}});
  std::size_t read = 0;
  for (auto _ : state) read = cardtable::vision::read_faces(frame, deck).cards.size();
  state.counters["cards_read"] = static_cast<double>(read);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReadFacesTrick640)->Unit(benchmark::kMillisecond)->UseRealTime();

// The station: a 1280x1280 frame of the tray, the four hands spread in its quarters, 52 lone cards.
void BM_ReadFacesStation1280(benchmark::State& state) {
  cv::setNumThreads(1);
  cardtable::test::TableRenderer art(std::filesystem::temp_directory_path() / "cardtable-bench-art");
  if (!art.available()) {
    state.SkipWithError("needs kdegames-card-data-kf5 and rsvg-convert");
    return;
  }
  std::array<cardtable::bridge::Hand, 4> hands{};
  for (int id = 0; id < 52; ++id) hands[static_cast<std::size_t>(id % 4)].add(cardtable::bridge::Card::from_id(id));
  const auto deck = enrolled_faces(art);
  const cv::Mat frame = art.station_frame(hands);
  std::size_t read = 0;
  for (auto _ : state) read = cardtable::vision::read_faces(frame, deck).cards.size();
  state.counters["cards_read"] = static_cast<double>(read);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReadFacesStation1280)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_DecodeJpeg640(benchmark::State& state) {
  cv::setNumThreads(1);
  const auto buf = jpeg_frame();
  for (auto _ : state) benchmark::DoNotOptimize(cv::imdecode(buf, cv::IMREAD_COLOR));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DecodeJpeg640)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
