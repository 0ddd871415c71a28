// The process's one libusb context and its USB thread.
//
// Why one USB thread that enqueues, rather than libusb's pollfds in the daemon's poll set: libusb's
// hotplug callbacks must not open, close or block (libusb API, "Device hotplug event notification"), and
// our readers talk to their hardware with synchronous transfers with timeouts, each reader on its own thread,
// so that a reader that stops answering delays nobody else. One thread runs libusb's event handling (which
// delivers hotplug callbacks and completes every reader's transfers); the callbacks only put the event on a
// queue; a second thread drains that queue and hands each arrival to the readers waiting for that kind of
// device. The daemon sees none of this: readers push what they read into their DeviceSink, whose eventfd is
// the only fd of theirs in its poll set, so the poll set does not change when readers come and go.
#pragma once

#include <libusb-1.0/libusb.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace cardtable::devices {

// A reader that waits for its hardware. offer() is called on the bus's dispatch thread for each device that
// arrives (and each present one when the listener is added): claim it by returning true. left() is called
// when a device it claimed goes away.
class UsbListener {
 public:
  virtual ~UsbListener() = default;
  virtual bool offer(libusb_device* device) = 0;
  virtual void left(libusb_device* device) = 0;
};

class UsbBus {
 public:
  // The shared bus, created on first use and released when its last user lets go (so tests that build a
  // new emulated bus get a new libusb context). Null with `error` when libusb cannot start.
  static std::shared_ptr<UsbBus> shared(std::string& error);
  ~UsbBus();
  UsbBus(const UsbBus&) = delete;
  UsbBus& operator=(const UsbBus&) = delete;

  libusb_context* context() const { return ctx_; }
  void add_listener(UsbListener* listener);
  // After it returns, the listener gets no more calls.
  void remove_listener(UsbListener* listener);
  // A listener gives a device back (it failed to open it); it may be offered to others at the next arrival.
  void release(libusb_device* device);

  // A listener that let go of its device without a LEFT (it died with NO_DEVICE on a hub that keeps the
  // dead port) asks for the free devices again: each is offered to the listeners as if it had just arrived.
  // Returns at once; the offers come on the dispatch thread.
  void offer_again();

  static std::string port_path(libusb_device* device);  // "1-1.2": bus, then the hub ports
  // Whether `port` is one port_path() can write: BUS-PORT[.PORT...], each number 1..255 with no leading
  // zero, at most 7 ports (the hubs USB allows in a row). A port= in another form would match no device.
  static bool is_port_path(std::string_view port);

 private:
  UsbBus() = default;
  bool start(std::string& error);
  static int LIBUSB_CALL on_hotplug(libusb_context* ctx, libusb_device* device, libusb_hotplug_event event, void* self);
  void run_events();
  void run_dispatch();
  void offer_locked(libusb_device* device);
  void offer_free_locked();

  struct Pending {
    bool arrived = true;
    libusb_device* device = nullptr;  // referenced; null: offer_again()
  };
  struct Present {
    libusb_device* device = nullptr;  // referenced
    UsbListener* owner = nullptr;
  };

  libusb_context* ctx_ = nullptr;
  libusb_hotplug_callback_handle hotplug_ = 0;
  bool hotplug_registered_ = false;
  std::thread events_, dispatch_;
  std::mutex mutex_;               // guards everything below
  std::condition_variable wake_;
  std::condition_variable dispatched_;  // the dispatch thread has taken one pending event
  bool stopping_ = false;
  std::deque<Pending> pending_;
  std::vector<Present> present_;
  std::vector<UsbListener*> listeners_;
  std::mutex dispatch_mutex_;      // held while a listener is being called: remove_listener waits on it
};

// libusb's error name and text, for log lines: "LIBUSB_ERROR_TIMEOUT (Operation timed out)".
std::string usb_error(int code);

}  // namespace cardtable::devices
