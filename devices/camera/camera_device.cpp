#include "devices/camera/camera_device.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <utility>

#include "data_files/source_or_installed.hpp"
#include "devices/device_options.hpp"
#include "devices/log.hpp"
#include "vision/face_reader.hpp"
#include "vision/frame_stabiliser.hpp"

#ifndef CARDTABLE_VISION_MODEL_INSTALLED
#define CARDTABLE_VISION_MODEL_INSTALLED "/usr/share/cardtable/vision/model.json"
#endif
#ifndef CARDTABLE_VISION_MODEL_SOURCE
#define CARDTABLE_VISION_MODEL_SOURCE ""
#endif

namespace cardtable::devices {

CameraDevice::CameraDevice(DeviceConfig config, CameraSettings settings, Clock clock)
    : Device(std::move(config)), settings_(std::move(settings)), clock_(std::move(clock)) {
  // A faces deck reads lone cards face to face: no network to load (vision/face_reader.hpp). Its whole
  // pack was checked when its file was read (vision::parse_deck).
  if (settings_.deck && settings_.deck->faces()) return;
  settings_.recogniser.keep_features = settings_.deck.has_value();
  recogniser_ = std::make_unique<vision::Recogniser>(settings_.model, settings_.recogniser);
  if (settings_.deck && settings_.deck->dim != recogniser_->info().feat_dim &&
      !(recogniser_->info().reader && settings_.deck->dim == recogniser_->info().reader->emb_dim))
    throw std::runtime_error("deck '" + settings_.deck->name + "' has " + std::to_string(settings_.deck->dim) +
                             "-d prototypes; the model's embedding is not that size (enrolled with another model?)");
}

CameraDevice::~CameraDevice() { stop(); }

bool CameraDevice::start(DeviceSink& sink, std::string&) {
  worker_.start([this, &sink] { run(sink); });
  return true;
}

void CameraDevice::stop() { worker_.stop(); }

nlohmann::json CameraDevice::health() const {
  nlohmann::json j = {{"source", settings_.source},
                      {"reader", recogniser_ ? "network" : "faces"},
                      {"model", recogniser_ ? settings_.model : std::string()},
                      {"settle_frames", settings_.settle},
                      {"recording_ended", ended_.load()},
                      {"refused_indices", refused_.load()},
                      {"unsettled_reports", unsettled_.load()},
                      {"last_frame_ms", static_cast<double>(last_frame_us_.load()) / 1000.0}};
  if (!live()) {
    // The pace a recording is replayed at, and why: a video file's own rate unless period_ms= says another.
    j["period_ms"] = static_cast<double>(settings_.period.count()) / 1000.0;
    j["period_from"] = settings_.period_from;
  }
  if (recogniser_) {
    // The operating point the camera reads at, so a director sees what the options made of it.
    // (the model's own where the device's options leave it unset).
    const auto pt = vision::operating_point(recogniser_->options());
    j["floor"] = pt.floor;
    j["margin"] = pt.margin;
    j["pair_floor"] = pt.pair_floor;
    j["views"] = pt.views;
    j["engines"] = recogniser_->engines();  // what runs each network, and with which kernels
  }
  if (settings_.deck) j["deck"] = settings_.deck->name;
  if (recogniser_ && settings_.deck) j["deck_margin"] = settings_.deck_margin;
  std::lock_guard lock(error_mutex_);
  if (!last_error_.empty()) j["last_error"] = last_error_;
  return j;
}

void CameraDevice::event(DeviceSink& sink, DeviceEvent::Kind kind, std::string reason) {
  DeviceEvent e = event_of(kind, std::move(reason), clock_());
  if (kind == DeviceEvent::Kind::Error) {
    std::lock_guard lock(error_mutex_);
    last_error_ = e.reason;
  }
  sink.device_event(std::move(e));
}

std::string CameraDevice::last_error() const {
  std::lock_guard lock(error_mutex_);
  return last_error_;
}

std::unique_ptr<vision::FrameSource> CameraDevice::open_source() const {
  const std::string& s = settings_.source;
  if (s.rfind("v4l2:", 0) == 0) return vision::open_camera(s.substr(5), settings_.width, settings_.height);
  if (s.rfind("folder:", 0) == 0) return vision::open_image_folder(s.substr(7), settings_.period.count() / 1000);
  return vision::open_source(s);
}

void CameraDevice::run(DeviceSink& sink) {
  using steady = std::chrono::steady_clock;
  std::unique_ptr<vision::FrameSource> source;
  try {
    source = open_source();
  } catch (const std::exception& e) {
    // A recording that is not there: said once, and the device stays absent (its zones unknown).
    event(sink, DeviceEvent::Kind::Error, e.what());  // each source's error names its path
    return;
  }
  const bool live = this->live();
  vision::FrameStabiliser stabiliser(settings_.settle);
  std::map<int, table::Observation> last_by_zone;  // the last frame's reading, for a recording's end
  auto next_due = steady::now();
  bool frame_error_said = false;  // a bad frame's device.error is said once, until a frame is read again
  // A camera that gives no frame for its first seconds is not there (unplugged, another /dev/video):
  // said once, as an RFID reader not plugged in is; it is added when it answers.
  const auto started = steady::now();
  bool absent_said = false;
  // One frame for the whole run: the camera decodes each frame into the buffer of the one before (same
  // size), not into a new 1.2 MB buffer 30 times a second.
  vision::Frame frame;
  while (true) {
    if (!live) {
      // A recording is replayed at its frame period, as the camera that made it saw the table.
      next_due += settings_.period;
      if (!worker_.sleep_until(next_due)) return;
    } else if (worker_.stopping()) {
      return;
    }
    const bool got = !ended_ && source->next_into(frame);
    // A recording's frames that are gone or damaged (its folder deleted mid-replay): each counted, the
    // first said, until a frame is read again.
    for (const std::string& why : source->take_skipped()) {
      ++counters_.garbage;
      if (!std::exchange(frame_error_said, true)) event(sink, DeviceEvent::Kind::Error, source->describe() + ": " + why);
    }
    if (!got) {
      if (!live && source->finished()) {
        if (!counters_.frames) {  // none of its frames could be read: there is no last frame
          ended_ = true;
          // Said with why: "no frame could be read" came after 25 frames read at the wrong size.
          const std::string why = last_error();
          event(sink, DeviceEvent::Kind::Error,
                source->describe() + ": no usable frame" +
                    (counters_.garbage ? " (" + std::to_string(counters_.garbage) + " frames refused; the last error: " + why + ")"
                                       : ": none could be read"));
          if (present_.exchange(false))
            event(sink, DeviceEvent::Kind::Lost, source->describe() + ": the recording ended with no usable frame; its zones are unknown");
          return;
        }
        if (!ended_) {
          ended_ = true;
          log(LogLevel::Info, name(), source->describe() + ": recording ended; its last frame goes on being read (a still table)");
        }
        // A still table: the camera would go on seeing the last frame, so it goes on being fed (it settles
        // like any other reading) and reported, and no zone falls silent.
        const Millis t = clock_();
        (void)stabiliser.feed(last_by_zone, settings_.zones, t, name());
        for (const auto& o : stabiliser.report(settings_.zones, t)) sink.push({table::TableInput::Kind::Observe, o, {}, o.time});
        continue;
      }
      if (present_ && !source->healthy()) {
        present_ = false;
        event(sink, DeviceEvent::Kind::Lost, source->describe() + ": the camera does not answer (unplugged?)");
      }
      if (live && !present_ && !absent_said && !counters_.frames && steady::now() - started > std::chrono::seconds(3)) {
        absent_said = true;
        log(LogLevel::Warning, name(), source->describe() + ": no frame in 3 s: waiting for the camera; its zones are unknown until it answers");
      }
      if (!worker_.sleep_for(std::chrono::milliseconds(live ? 200 : 1))) return;
      continue;
    }
    if (settings_.zones.width > 0 &&
        (frame.image.cols != settings_.zones.width || frame.image.rows != settings_.zones.height)) {
      // The calibration is for another frame size: its polygons would name the wrong zones. Said once
      // (not 30 times a second); every such frame is counted.
      ++counters_.garbage;
      if (std::exchange(frame_error_said, true)) continue;
      event(sink, DeviceEvent::Kind::Error, source->describe() + ": frame " + std::to_string(frame.image.cols) + "x" +
                                                std::to_string(frame.image.rows) + " is not the calibration's " +
                                                std::to_string(settings_.zones.width) + "x" + std::to_string(settings_.zones.height));
      continue;
    }
    // A camera's frame is stamped at capture (steady clock); the table runs on the daemon's clock, which
    // starts at 0: the frame's time is the daemon's now less the frame's age.
    const Millis age = live ? std::chrono::duration_cast<std::chrono::milliseconds>(steady::now().time_since_epoch()).count() - frame.time_ms : 0;
    const Millis now = clock_() - std::clamp<Millis>(age, 0, 10000);
    vision::FrameReading reading;
    try {
      const auto t0 = steady::now();
      if (!recogniser_) reading = vision::read_faces(frame.image, *settings_.deck);
      else reading = recogniser_->read(frame.image);
      if (recogniser_ && settings_.deck) vision::apply_deck(reading, *settings_.deck, settings_.deck_margin, settings_.recogniser.single_corner);
      last_frame_us_ = std::chrono::duration_cast<std::chrono::microseconds>(steady::now() - t0).count();
    } catch (const std::exception& e) {
      ++counters_.garbage;
      if (!std::exchange(frame_error_said, true)) event(sink, DeviceEvent::Kind::Error, frame.origin + ": " + e.what());
      continue;
    }
    // Frames read again: the trouble is over (said in its device.error, in the journal), and status's
    // last_error is the camera's trouble now, as the RFID readers' is once a board answers again.
    if (std::exchange(frame_error_said, false)) {
      std::lock_guard lock(error_mutex_);
      last_error_.clear();
    }
    // Added once a frame is usable: a camera whose every frame was the wrong size was announced, then
    // stayed present for good after it had stopped, its zones never reported.
    if (!present_) {
      present_ = true;
      event(sink, DeviceEvent::Kind::Added, source->describe() + ", " + std::to_string(frame.image.cols) + "x" +
                                                std::to_string(frame.image.rows) + ", " + std::to_string(settings_.zones.regions.size()) +
                                                " zones");
    }
    ++counters_.frames;
    refused_ += static_cast<std::uint64_t>(reading.refused);
    last_by_zone = vision::observations_by_zone(reading, settings_.zones, now, name());
    (void)stabiliser.feed(last_by_zone, settings_.zones, now, name());
    for (const auto& o : stabiliser.report(settings_.zones, now)) {
      if (o.confidence == 0) ++unsettled_;
      ++counters_.observations;
      sink.push({table::TableInput::Kind::Observe, o, {}, o.time});
    }
  }
}

bool is_live_source(const std::string& source) { return source.rfind("v4l2:", 0) == 0 || source.rfind("/dev/video", 0) == 0; }

namespace {

// A video file replays at the pace it was recorded at, which its container says: at the 100 ms default
// a 30 frames/s recording of a session ran three times slower than the table it shows, and every time
// the table measures (a card's stable_ms, the flicker window, --silence) met a table three times slower
// than it was. The file is opened here, before the daemon starts its devices, so that the period is
// known when --silence is checked against it (daemon/poll_silence.hpp); a file that is not there is left
// to the device's start, which says so as it does for any recording.
void recording_period(CameraSettings& s) {
  std::error_code ec;
  if (is_live_source(s.source) || s.source.rfind("folder:", 0) == 0 || std::filesystem::is_directory(s.source, ec)) return;
  try {
    const auto source = vision::open_source(s.source);
    if (const auto ms = source->frame_period_ms()) {
      s.period = std::chrono::microseconds(std::llround(*ms * 1000.0));
      char text[64];
      std::snprintf(text, sizeof text, "the file's %.4g frames/s", 1000.0 / *ms);
      s.period_from = text;
    } else {
      s.period_from = "the default: the file says no frame rate";
    }
  } catch (const std::exception&) {
    // Not there, or not a video OpenCV opens: the device says so when it starts, with the file's name.
  }
}

}  // namespace

std::unique_ptr<Device> make_camera(const DeviceConfig& config, const DeviceEnvironment& env, std::string& error) {
  DeviceOptions o(config, {"source", "zones", "model", "deck", "settle", "period_ms", "width", "height", "floor", "margin", "pair_floor",
                           "deck_margin"});
  CameraSettings s;
  auto source = config.option("source");
  auto zones = config.option("zones");
  if (!source || source->empty() || !zones) {
    error = config.name + ": a camera needs source=SPEC (v4l2:/dev/video0, file:F, folder:D) and zones=CALIBRATION_FILE";
    return nullptr;
  }
  if (!config.antennas.empty()) {
    error = config.name + ": a camera's zones come from its calibration file (zones=" + *zones + "), not from --zone";
    return nullptr;
  }
  s.source = *source;
  s.model = config.option("model").value_or(data_files::source_or_installed(CARDTABLE_VISION_MODEL_SOURCE, CARDTABLE_VISION_MODEL_INSTALLED));
  if (auto v = o.whole("settle", 1, 100)) s.settle = static_cast<int>(*v);
  if (auto v = o.whole("period_ms", 1, 60000)) {
    s.period = std::chrono::milliseconds(*v);
    s.period_from = "period_ms=";
  }
  if (auto v = o.whole("width", 1, 16384)) s.width = static_cast<int>(*v);
  if (auto v = o.whole("height", 1, 16384)) s.height = static_cast<int>(*v);
  // The operating point: the model's own (model.json reader.operating_point) unless set here.
  for (const auto& [key, field] : {std::pair{"floor", &s.recogniser.floor}, std::pair{"margin", &s.recogniser.margin},
                                   std::pair{"pair_floor", &s.recogniser.pair_floor}})
    if (auto v = o.number(key, 0, 1)) *field = *v;
  if (auto v = o.number("deck_margin", 0, 1)) s.deck_margin = *v;
  if (!o.ok()) {
    error = o.error();
    return nullptr;
  }
  DeviceConfig c = config;
  try {
    s.zones = vision::read_zones(*zones);
    if (auto deck = config.option("deck")) s.deck = vision::read_deck(*deck);
    // A cosine margin with nothing to apply it to is a mistake worth saying (margin= was meant, or deck=
    // was forgotten), not an option silently unused.
    if (config.option("deck_margin") && (!s.deck || s.deck->faces()))
      throw std::runtime_error("deck_margin= is the margin of an embedding deck (deck= from `cardtable-vision enroll`, not --faces); "
                               "the network's own margin is margin=");
    // The calibration file's zones are the device's: one "antenna" per region, in the file's order.
    int i = 0;
    for (const auto& r : s.zones.regions) {
      for (const auto& [a, z] : c.antennas)
        if (z == r.zone) throw std::runtime_error(*zones + ": zone " + r.zone.str() + " is listed twice");
      c.antennas[i++] = r.zone;
    }
    if (c.antennas.empty()) throw std::runtime_error(*zones + ": no zone");
    if (!config.option("period_ms")) recording_period(s);
    return std::make_unique<CameraDevice>(std::move(c), std::move(s), env.clock);
  } catch (const std::exception& e) {
    error = config.name + ": " + e.what();
    return nullptr;
  }
}

}  // namespace cardtable::devices
