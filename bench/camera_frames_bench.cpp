// What the camera device pays per frame before the recogniser: a frame taken from its source, the way
// it was taken before (next(): a new Frame, so a new image buffer, each time) and the way the device takes
// it now (next_into(): decoded into the last frame's buffer). From a 640x640 MJPEG recording (the
// format a USB camera delivers and a video file replays) and from a folder of JPEG frames (decoded into a
// new image either way: vision/frame_source.cpp says why). Counted: cv::Mat
// buffers allocated per frame (every allocation OpenCV makes through its default allocator, the decoder's
// own included).
// Run: build/bench/camera_frames_bench   (time per frame; mat_allocs = buffers allocated per frame)
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include <benchmark/benchmark.h>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "vision/frame_source.hpp"

namespace {

namespace fs = std::filesystem;

// OpenCV's own allocator, counting the buffers it hands out.
class CountingAllocator final : public cv::MatAllocator {
 public:
  explicit CountingAllocator(cv::MatAllocator* inner) : inner_(inner) {}
  cv::UMatData* allocate(int dims, const int* sizes, int type, void* data, size_t* step, cv::AccessFlag flags,
                         cv::UMatUsageFlags usage) const override {
    if (!data) ++allocations;
    return inner_->allocate(dims, sizes, type, data, step, flags, usage);
  }
  bool allocate(cv::UMatData* data, cv::AccessFlag flags, cv::UMatUsageFlags usage) const override {
    return inner_->allocate(data, flags, usage);
  }
  void deallocate(cv::UMatData* data) const override { inner_->deallocate(data); }
  mutable std::atomic<long> allocations{0};

 private:
  cv::MatAllocator* inner_;
};

CountingAllocator& counting() {
  static CountingAllocator* a = [] {
    auto* c = new CountingAllocator(cv::Mat::getStdAllocator());
    cv::Mat::setDefaultAllocator(c);
    return c;
  }();
  return *a;
}

// A table-like 640x640 frame: noise, so that JPEG has work to do as on a camera's picture.
cv::Mat scene(int i) {
  cv::Mat m(640, 640, CV_8UC3);
  cv::randu(m, 0, 255);
  cv::rectangle(m, {100 + i % 200, 200, 120, 170}, {255, 255, 255}, cv::FILLED);
  return m;
}

const fs::path& recording() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("cardtable-camera-frames-bench-" + std::to_string(::getpid()));
    fs::create_directories(d / "frames");
    cv::VideoWriter w((d / "clip.avi").string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 30, cv::Size(640, 640));
    for (int i = 0; i < 120; ++i) {
      cv::Mat m = scene(i);
      if (w.isOpened()) w.write(m);
      if (i < 30) cv::imwrite((d / "frames" / (std::to_string(1000 + i) + ".jpg")).string(), m);
    }
    return d;
  }();
  static const struct Remove {
    ~Remove() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } remove;
  return dir;
}

// range(0): 0 a new frame each time (next()), 1 the last frame's buffer (next_into()).
void read_frames(benchmark::State& state, const std::string& spec) {
  const bool reuse = state.range(0) != 0;
  CountingAllocator& c = counting();
  std::unique_ptr<cardtable::vision::FrameSource> source = cardtable::vision::open_source(spec);
  cardtable::vision::Frame frame;
  long frames = 0;
  const long before = c.allocations.load();
  for (auto _ : state) {
    bool got = false;
    if (reuse) {
      got = source->next_into(frame);
    } else if (auto f = source->next()) {
      frame = std::move(*f);  // the device kept its frame until the next one, as this does
      got = true;
    }
    if (!got) {  // the recording's end: start it again, outside the timing
      state.PauseTiming();
      source = cardtable::vision::open_source(spec);
      state.ResumeTiming();
      continue;
    }
    benchmark::DoNotOptimize(frame.image.data);
    ++frames;
  }
  if (frames == 0) {
    state.SkipWithError(("no frame from " + spec + " (OpenCV without an MJPEG writer or reader?)").c_str());
    return;
  }
  state.counters["mat_allocs"] = static_cast<double>(c.allocations.load() - before) / static_cast<double>(frames);
  state.SetItemsProcessed(frames);
}

void BM_VideoFileFrame640(benchmark::State& state) { read_frames(state, "file:" + (recording() / "clip.avi").string()); }
void BM_FolderFrame640(benchmark::State& state) { read_frames(state, "folder:" + (recording() / "frames").string()); }
BENCHMARK(BM_VideoFileFrame640)->ArgName("reuse")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FolderFrame640)->ArgName("reuse")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
BENCHMARK_MAIN();
