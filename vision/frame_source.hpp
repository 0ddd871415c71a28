// Where frames come from: a V4L2 camera, a video file, or a folder of images -- one interface, so a
// recording replays through the unchanged pipeline.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace cardtable::vision {

struct Frame {
  cv::Mat image;            // BGR
  std::int64_t time_ms = 0; // when it was captured (steady clock for cameras; file order for recordings)
  std::string origin;       // file name or device
};

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  // The next frame, into `frame`: false when there is none now (camera unplugged: it keeps trying to
  // reopen) or none left (a recording's end: `finished()` then says so), and `frame` then holds nothing to
  // read. The image is decoded into `frame`'s buffer when the size is the same, so a reader of every frame
  // (the camera device, 30 a second) allocates no 1.2 MB buffer each time.
  virtual bool next_into(Frame& frame) = 0;
  // The same into a new frame (a reader of a few frames); nullopt where next_into() is false.
  std::optional<Frame> next() {
    Frame f;
    if (!next_into(f)) return std::nullopt;
    return f;
  }
  virtual bool finished() const = 0;
  virtual bool healthy() const = 0;       // the camera answers
  virtual std::string describe() const = 0;
  // The frames skipped since the last call, each with why ("0007.png: does not decode as an image"): a
  // folder's file that is gone or damaged is said and counted, not skipped without a word.
  virtual std::vector<std::string> take_skipped() { return {}; }
  // The time from one frame to the next as the recording says it: a video file's own frame rate, a
  // folder's period. None where the source does not say it (a camera runs at its own rate; a video file
  // whose container holds no rate, or one outside 1 ms to 60 s).
  virtual std::optional<double> frame_period_ms() const { return std::nullopt; }
};

// A V4L2 camera (/dev/videoN) through OpenCV's CAP_V4L2 with a buffer of one frame, so a frame is the
// scene now, not a queued one; reopened after it is unplugged, at most every `retry`.
std::unique_ptr<FrameSource> open_camera(const std::string& device, int width = 0, int height = 0,
                                         std::chrono::milliseconds retry = std::chrono::milliseconds(1000));
// A video file, frame by frame; time from the file's own position, its frame period from its frame rate.
std::unique_ptr<FrameSource> open_video_file(const std::filesystem::path& file);
// The images of a folder in name order, `period_ms` apart (a recording of frames).
std::unique_ptr<FrameSource> open_image_folder(const std::filesystem::path& dir, std::int64_t period_ms = 100);
// "v4l2:/dev/video0", "file:clip.mp4", "folder:frames/" -- or a bare path (folder or file).
std::unique_ptr<FrameSource> open_source(const std::string& spec);

}  // namespace cardtable::vision
