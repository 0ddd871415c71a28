// What both RFID drivers share: waiting on the bus for a device of their protocol (quirk file), one thread per
// attached reader that opens it, shakes hands, polls at the model's period, and turns each poll into one
// observation per served zone; timeouts on every transfer; reset after `retries` failed polls in a row, then
// a report; unplug (LIBUSB_ERROR_NO_DEVICE or the hotplug LEFT event) reported once as lost.
//
// Options every USB reader takes (DeviceConfig::options):
//   model=acr122u      take only this model of the quirk file, one of the driver's protocol (default: any of them)
//   port=1-1.2         take only the device on this USB port (BUS-PORT[.PORT...], as UsbBus::port_path
//                      writes it; anything else is refused at start); default: the first free one
//   poll_ms=100        override the model's poll period
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <thread>
#include <vector>

#include "devices/crosstalk.hpp"
#include "devices/deck.hpp"
#include "devices/device.hpp"
#include "devices/drop_log.hpp"
#include "devices/frame_error.hpp"
#include "devices/quirks.hpp"
#include "devices/usb/usb_bus.hpp"

namespace cardtable::devices {

// One open reader: the handle, its bulk endpoints, the model's timeouts. Every transfer goes through here.
class UsbLink {
 public:
  UsbLink(libusb_device_handle* handle, std::uint8_t ep_out, std::uint8_t ep_in, int timeout_ms)
      : handle_(handle), ep_out_(ep_out), ep_in_(ep_in), timeout_ms_(timeout_ms) {}
  // 0, or a libusb error (LIBUSB_ERROR_TIMEOUT, LIBUSB_ERROR_NO_DEVICE, ...).
  [[nodiscard]] int send(std::span<const std::uint8_t> bytes);
  [[nodiscard]] int receive(std::vector<std::uint8_t>& bytes, std::size_t max);
  [[nodiscard]] int receive(std::vector<std::uint8_t>& bytes, std::size_t max, int timeout_ms);
  libusb_device_handle* handle() const { return handle_; }
  int timeout_ms() const { return timeout_ms_; }

 private:
  libusb_device_handle* handle_;
  std::uint8_t ep_out_, ep_in_;
  int timeout_ms_;
};

// Reading on for one request's reply, past replies to earlier requests (a reader answers every request,
// also one the host gave up on, so late answers queue up ahead of the right one): until the reply or the
// model's timeout after the request. The frame budget bounds a reader that floods the host with frames
// arriving faster than the clock moves; it is far above what a reader queues (a few late replies).
class ReplyWait {
 public:
  static constexpr int kFrameBudget = 256;
  static constexpr int kExtensions = 8;
  explicit ReplyWait(int timeout_ms) : timeout_(timeout_ms), deadline_(std::chrono::steady_clock::now() + timeout_) {}
  // The reader asked for more time (a CCID time extension): the timeout starts again, a few times at most.
  bool extend() {
    if (extensions_++ >= kExtensions) return false;
    deadline_ = std::chrono::steady_clock::now() + timeout_;
    return true;
  }
  // The time left for the next read, in ms (at least 1); 0 when the wait is over.
  int next() {
    if (frames_++ >= kFrameBudget) return 0;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now()).count();
    if (frames_ > 1 && left <= 0) return 0;
    return static_cast<int>(std::max<long long>(left, 1));
  }

 private:
  std::chrono::milliseconds timeout_;
  std::chrono::steady_clock::time_point deadline_;
  int frames_ = 0, extensions_ = 0;
};

// How one step of talking to a reader ended.
struct Outcome {
  enum class Kind : std::uint8_t { Ok, Failed, Gone } kind = Kind::Ok;
  std::string reason;  // for Failed/Gone: "SCAN: bulk read: LIBUSB_ERROR_TIMEOUT (...)"
  static Outcome ok() { return {}; }
  static Outcome failed(std::string r) { return {Kind::Failed, std::move(r)}; }
  static Outcome gone(std::string r) { return {Kind::Gone, std::move(r)}; }
  // Maps a libusb return code: NO_DEVICE is Gone, any other error Failed.
  static Outcome from_usb(int rc, const std::string& what);
};

class UsbReader : public Device, private UsbListener {
 public:
  UsbReader(DeviceConfig config, const DeviceEnvironment& env, std::string protocol);
  ~UsbReader() override;

  bool start(DeviceSink& sink, std::string& error) override;
  void stop() override;
  bool present() const override { return present_; }
  nlohmann::json health() const override;
  int poll_ms() const override;
  void set_decks(std::shared_ptr<const DeckLibrary> decks) override;

 protected:
  // The protocol's handshake after open (firmware, antenna count...); `info` goes to status().
  virtual Outcome handshake(UsbLink& link, const ReaderQuirk& quirk, std::string& info) = 0;
  // One poll: what each antenna heard, antennas numbered as the hardware numbers them (physical).
  virtual Outcome poll(UsbLink& link, const ReaderQuirk& quirk, std::vector<AntennaTags>& heard) = 0;

  // Counts a dropped frame and logs it with the reason.
  void dropped(FrameError e, const std::string& what, const std::string& detail);
  // How many antennas the reader has, as it said in its handshake (read on the reader's own thread, after
  // it), counted as the hardware numbers them (physical: 0 .. n-1); by default every configured antenna is
  // taken to be there.
  virtual int physical_antennas() const { return std::numeric_limits<int>::max(); }
  // Whether a logical antenna (the one a zone names) has a physical antenna on this reader. A board may
  // have fewer antennas than its model's antenna_order lists: with the order 2,0,1,3 a two-antenna board
  // has antenna2 and antenna0, not antenna0 and antenna1.
  bool has_antenna(const ReaderQuirk& quirk, int logical) const;
  // The shortest poll period the reader said it can take in its handshake (0: it says none).
  virtual int shortest_poll_ms() const { return 0; }

 private:
  bool offer(libusb_device* device) override;
  int expected_poll_ms(const std::optional<std::string>& model) const;
  void left(libusb_device* device) override;
  void run(libusb_device* device, ReaderQuirk quirk);
  Outcome open_and_handshake(libusb_device* device, const ReaderQuirk& quirk, libusb_device_handle*& handle,
                             std::unique_ptr<UsbLink>& link);
  void publish(const ReaderQuirk& quirk, std::vector<AntennaTags> heard);
  void report(DeviceEvent::Kind kind, std::string reason);
  void mark_lost(const std::string& reason);
  bool wait_for(int ms);  // false when stopping
  bool wait_until(std::chrono::steady_clock::time_point t);  // false: stopping
  void detach();
  // A hand: zone (a pocket's 13 cards) or a pocket: zone on an RFID antenna is said at start: the reader is
  // taken, but the cards it misses would make a hand short of cards.
  void warn_whole_hands() const;
  // The frames not said one by one (drop_log_), once their window is over or (`closing`) the thread ends.
  void say_held_drops(bool closing);

  std::string protocol_;
  DeviceEnvironment env_;
  QuirkTable quirks_;
  std::string quirks_path_;  // the file quirks_ came from, for messages
  std::vector<QuirkProblem> quirks_refused_;  // its fatal problems: start() refuses
  DeviceSink* sink_ = nullptr;
  std::shared_ptr<UsbBus> bus_;

  mutable std::mutex mutex_;            // guards the fields below
  std::condition_variable wake_;
  std::shared_ptr<const DeckLibrary> decks_;
  libusb_device* attached_ = nullptr;   // referenced while claimed
  std::thread thread_;
  bool stopping_ = false;               // stop() or left(): the reader thread ends
  // The reader thread ended on its own: its device died (NO_DEVICE) and it closed the handle. A hub that
  // keeps the dead port sends no LEFT, so left() would never free the reader: offer() joins the thread
  // (it cannot join itself) and takes the new device; a LEFT that comes late for the dead one is not ours.
  bool ended_ = false;
  std::string firmware_, port_, model_, last_error_;
  int poll_ms_ = 0;                     // the period polled at: option or model, no shorter than the reader's own
  int option_poll_ms_ = 0;              // poll_ms= (0: none)
  std::set<Uid> unknown_logged_;
  std::set<AntennaGroup> crosstalk_said_;  // antennas said to hear one tag (publish)
  DropLog drop_log_;  // dropped frames in the log (the reader's thread only)

  std::atomic<bool> present_{false};    // handshake done and answering
  std::atomic<bool> reported_lost_{true};
};

}  // namespace cardtable::devices
