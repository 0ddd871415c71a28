// The camera, driver "camera": a V4L2 camera above the table (or over a board-checking station), a video
// file or a folder of frames -- one FrameSource (vision/frame_source.hpp), so a recording replays through
// the unchanged pipeline. Each frame is read by the trained recogniser (vision/recogniser.hpp), or with a
// faces deck by the face reader (vision/face_reader.hpp: lone cards on the cloth), its cards
// are split into zones by the calibration file (vision/zones_file.hpp), and every zone of the file is
// reported to the table each frame, as an RFID reader reports each poll:
//   - a zone whose reading has held `settle` frames in a row is reported as read;
//   - a zone still changing is reported at confidence 0, which the table counts as noise: a card laid
//     down is stable a few frames later, a card flickering in and out never settles and the table says
//     `reading.uncertain` (cause "low confidence"), never an irregularity.
//
// Options (cardtabled --device NAME=camera:KEY=VALUE,...):
//   source=SPEC     v4l2:/dev/video0 | file:clip.mp4 | folder:frames/ (required)
//   zones=PATH      the calibration file (`cardtable-vision calibrate`; required): its zones are the
//                   device's zones (no --zone for a camera)
//   model=PATH      the recogniser's model.json (default: the installed model)
//   deck=PATH       a deck learnt by `cardtable-vision enroll` (cards read by prototype; optional); a
//                   faces deck (`enroll --faces`) reads lone cards by their whole face, with no model
//   settle=3        frames a zone's reading must hold before it is reported as read
//   period_ms=      a recording's frame period, the pace it is replayed at (default: a video file's own
//                   frame rate, so it replays as fast as the camera that made it saw the table; 100 for a
//                   folder of frames, or a video whose container holds no rate). A camera runs at its own
//                   rate
//   width=, height= the V4L2 capture size (default: the camera's)
//   floor=, margin= the recogniser's refusal floor and margin (default: the model's operating point,
//                   model.json reader.operating_point, chosen with its reader)
//   pair_floor=     a card both of whose corners read it at this or above is read (default: the model's)
//   deck_margin=0.20  an embedding deck's cosine margin: an index is read as its nearest prototype only
//                   this far above the runner-up. Its own option, not margin=: the two measure different
//                   things (a probability, a cosine), and one did both until 2026-11-27
// A camera that is unplugged reports `device.lost` and is reopened every second; `device.added` when it
// answers again. A recording's end is a still table: its last frame goes on being seen (and reported); `status` says
// the recording ended.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "devices/device.hpp"
#include "devices/device_worker.hpp"
#include "vision/deck_file.hpp"
#include "vision/frame_source.hpp"
#include "vision/recogniser.hpp"
#include "vision/zones_file.hpp"

namespace cardtable::devices {

struct CameraSettings {
  std::string source;                 // the FrameSource spec
  vision::ZoneMap zones;
  std::string model;                  // model.json
  std::optional<vision::Deck> deck;
  vision::RecogniserOptions recogniser;
  // An embedding deck's cosine margin (vision::apply_deck). On the corpus's photographs a deck of the
  // reader's embeddings read false cards below 0.10 and nothing from 0.10 up (vision/README.md, "Unseen
  // deck"); 0.20 keeps twice that distance, as the deck's unit tests do.
  double deck_margin = 0.20;
  int settle = 3;
  // A recording's frame period, in microseconds: a 30 frames/s video's 33.3 ms paced as 33 ms would run
  // 1 % fast, a minute early in an afternoon's session. And where it came from, for status.
  std::chrono::microseconds period{100000};
  std::string period_from = "the default";
  int width = 0, height = 0;
};

// A camera (v4l2:DEV, /dev/videoN), not a recording: it runs at its own rate.
bool is_live_source(const std::string& source);

class CameraDevice : public Device {
 public:
  // Throws std::runtime_error when the model cannot be loaded.
  CameraDevice(DeviceConfig config, CameraSettings settings, Clock clock);
  ~CameraDevice() override;
  bool start(DeviceSink& sink, std::string& error) override;
  void stop() override;
  bool present() const override { return present_; }
  nlohmann::json health() const override;
  // A recording is replayed at its frame period, each frame reporting every zone (a part of a millisecond
  // counts as one: the silence must cover the whole of three); a camera runs at its own rate, which it
  // alone knows (0).
  int poll_ms() const override { return live() ? 0 : static_cast<int>((settings_.period.count() + 999) / 1000); }
  std::string poll_option() const override { return "period_ms"; }

 private:
  bool live() const { return is_live_source(settings_.source); }
  void run(DeviceSink& sink);
  void event(DeviceSink& sink, DeviceEvent::Kind kind, std::string reason);
  std::unique_ptr<vision::FrameSource> open_source() const;
  std::string last_error() const;

  CameraSettings settings_;
  Clock clock_;
  std::unique_ptr<vision::Recogniser> recogniser_;
  std::atomic<bool> present_{false};
  std::atomic<bool> ended_{false};
  std::atomic<std::uint64_t> refused_{0};       // indices seen but not read
  std::atomic<std::uint64_t> unsettled_{0};     // zone reports sent at confidence 0
  std::atomic<std::int64_t> last_frame_us_{0};  // recogniser time of the last frame
  mutable std::mutex error_mutex_;
  std::string last_error_;
  DeviceWorker worker_;  // last: stopped (joined) before the fields its thread reads go
};

std::unique_ptr<Device> make_camera(const DeviceConfig& config, const DeviceEnvironment& env, std::string& error);

}  // namespace cardtable::devices
