#include "vision/frame_source.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <utility>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

namespace cardtable::vision {

namespace fs = std::filesystem;

namespace {

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class CameraSource final : public FrameSource {
 public:
  CameraSource(std::string device, int w, int h, std::chrono::milliseconds retry)
      : device_(std::move(device)), w_(w), h_(h), retry_(retry) {
    open();
  }
  bool next_into(Frame& f) override {
    if (!cap_.isOpened()) {
      // Unplugged (or never there): try again, but not in a busy loop.
      if (std::chrono::steady_clock::now() - last_try_ < retry_ || !open()) return false;
    }
    if (!cap_.grab()) {  // the camera went away: reopen on a later call
      cap_.release();
      return false;
    }
    f.time_ms = now_ms();  // at capture: grab() returned the newest frame, retrieve() only decodes it
    // Into the caller's buffer: retrieve() reallocates it only when the frame's size or type changed.
    if (!cap_.retrieve(f.image) || f.image.empty()) {
      cap_.release();
      return false;
    }
    if (f.origin != device_) f.origin = device_;
    return true;
  }
  bool finished() const override { return false; }
  bool healthy() const override { return cap_.isOpened(); }
  std::string describe() const override { return "v4l2:" + device_; }

 private:
  bool open() {
    last_try_ = std::chrono::steady_clock::now();
    cap_.open(device_, cv::CAP_V4L2);
    if (!cap_.isOpened()) return false;
    cap_.set(cv::CAP_PROP_BUFFERSIZE, 1);  // the newest frame, not one queued while we were busy
    if (w_ > 0) cap_.set(cv::CAP_PROP_FRAME_WIDTH, w_);
    if (h_ > 0) cap_.set(cv::CAP_PROP_FRAME_HEIGHT, h_);
    return true;
  }
  std::string device_;
  int w_, h_;
  std::chrono::milliseconds retry_;
  std::chrono::steady_clock::time_point last_try_{};
  cv::VideoCapture cap_;
};

class VideoFileSource final : public FrameSource {
 public:
  explicit VideoFileSource(const fs::path& file) : file_(file) {
    // Checked before OpenCV: for a path that is not there it tries GStreamer and an image sequence and
    // prints three lines of its own warnings before "cannot open".
    std::error_code ec;
    if (!fs::exists(file, ec)) throw std::runtime_error(file.string() + ": no such file");
    if (!cap_.open(file.string())) throw std::runtime_error(file.string() + ": OpenCV cannot open this video");
    // 0 (or NaN) where the container holds no rate; a rate that puts frames more than a minute apart, or
    // less than a millisecond, is no camera's and is not believed either.
    const double fps = cap_.get(cv::CAP_PROP_FPS);
    if (std::isfinite(fps) && fps >= 1.0 / 60.0 && fps <= 1000.0) period_ms_ = 1000.0 / fps;
  }
  bool next_into(Frame& f) override {
    if (done_ || !cap_.read(f.image) || f.image.empty()) {  // read() decodes into f's buffer when it fits
      done_ = true;
      return false;
    }
    f.time_ms = static_cast<std::int64_t>(cap_.get(cv::CAP_PROP_POS_MSEC));
    if (f.origin != file_.string()) f.origin = file_.string();
    return true;
  }
  bool finished() const override { return done_; }
  bool healthy() const override { return true; }
  std::string describe() const override { return "file:" + file_.string(); }
  std::optional<double> frame_period_ms() const override { return period_ms_; }

 private:
  fs::path file_;
  cv::VideoCapture cap_;
  bool done_ = false;
  std::optional<double> period_ms_;
};

class ImageFolderSource final : public FrameSource {
 public:
  ImageFolderSource(const fs::path& dir, std::int64_t period) : dir_(dir), period_(period) {
    if (!fs::is_directory(dir)) throw std::runtime_error(dir.string() + " is not a folder of frames");
    for (const auto& e : fs::directory_iterator(dir)) {
      auto ext = e.path().extension().string();
      std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (e.is_regular_file() && (ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp")) files_.push_back(e.path());
    }
    std::sort(files_.begin(), files_.end());
    if (files_.empty()) throw std::runtime_error(dir.string() + ": no frame in the folder (.png, .jpg, .jpeg or .bmp files)");
  }
  bool next_into(Frame& f) override {
    while (i_ < files_.size()) {
      const auto& p = files_[i_];
      const std::int64_t time = static_cast<std::int64_t>(i_) * period_;
      ++i_;
      // Read here and decoded from memory: cv::imread said only "[ WARN ] can't open/read file" on
      // OpenCV's own stderr line, and the device could not tell a file gone from a damaged one.
      std::ifstream in(p, std::ios::binary);
      if (!in) {
        skip(p.filename().string() + ": cannot be opened (" + std::strerror(errno) + ")");
        continue;
      }
      bytes_.assign(std::istreambuf_iterator<char>(in), {});  // the file's bytes, in the last file's room
      // Into a new image, not f's buffer: imdecode(buf, flags, &dst) leaves dst as it was when the file
      // does not decode, and returns it (OpenCV 4.6), so a damaged frame would pass for the last good one.
      cv::Mat image;
      try {
        if (!bytes_.empty()) image = cv::imdecode(bytes_, cv::IMREAD_COLOR);
      } catch (const cv::Exception&) {
        image.release();
      }
      if (!image.empty()) {
        f.image = std::move(image);
        f.time_ms = time;
        f.origin = p.string();
        return true;
      }
      skip(p.filename().string() + ": does not decode as an image");
    }
    return false;
  }
  bool finished() const override { return i_ >= files_.size(); }
  bool healthy() const override { return bad_.empty(); }
  std::string describe() const override { return "folder:" + dir_.string(); }
  std::optional<double> frame_period_ms() const override { return static_cast<double>(period_); }
  std::vector<std::string> take_skipped() override { return std::exchange(skipped_, {}); }

 private:
  fs::path dir_;
  std::int64_t period_;
  std::vector<fs::path> files_;
  std::size_t i_ = 0;
  std::vector<unsigned char> bytes_;  // the frame file read, kept for the next
  std::vector<std::string> bad_;      // every file skipped (healthy() is false once there is one)
  std::vector<std::string> skipped_;  // those not yet taken by the device
  void skip(std::string why) {
    bad_.push_back(why);
    skipped_.push_back(std::move(why));
  }
};

}  // namespace

std::unique_ptr<FrameSource> open_camera(const std::string& device, int width, int height, std::chrono::milliseconds retry) {
  return std::make_unique<CameraSource>(device, width, height, retry);
}
std::unique_ptr<FrameSource> open_video_file(const fs::path& file) { return std::make_unique<VideoFileSource>(file); }
std::unique_ptr<FrameSource> open_image_folder(const fs::path& dir, std::int64_t period_ms) {
  return std::make_unique<ImageFolderSource>(dir, period_ms);
}

std::unique_ptr<FrameSource> open_source(const std::string& spec) {
  auto starts = [&](const char* p) { return spec.rfind(p, 0) == 0; };
  if (starts("v4l2:")) return open_camera(spec.substr(5));
  if (starts("file:")) return open_video_file(spec.substr(5));
  if (starts("folder:")) return open_image_folder(spec.substr(7));
  if (fs::is_directory(spec)) return open_image_folder(spec);
  if (spec.rfind("/dev/video", 0) == 0) return open_camera(spec);
  return open_video_file(spec);
}

}  // namespace cardtable::vision
