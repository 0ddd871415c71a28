#include "devices/frame_error.hpp"

namespace cardtable::devices {

const char* to_string(FrameError e) {
  switch (e) {
    case FrameError::None: return "ok";
    case FrameError::Short: return "short frame";
    case FrameError::Garbage: return "garbage";
    case FrameError::Crc: return "CRC mismatch";
    case FrameError::OutOfSequence: return "out of sequence";
    case FrameError::Failed: return "reader reports failure";
  }
  return "?";
}

void count(DeviceCounters& counters, FrameError e) {
  switch (e) {
    case FrameError::None: break;
    case FrameError::Short: ++counters.short_frames; break;
    case FrameError::Garbage: ++counters.garbage; break;
    case FrameError::Crc: ++counters.crc_errors; break;
    case FrameError::OutOfSequence: ++counters.out_of_sequence; break;
    case FrameError::Failed: ++counters.garbage; break;
  }
}

}  // namespace cardtable::devices
