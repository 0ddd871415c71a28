// An emulated USB device for the drivers' tests: umockdev's testbed gives it a sysfs entry and a device node,
// and a UMockdevIoctlBase handler answers the usbdevfs ioctls libusb makes (submit, reap, discard, claim,
// reset) from a small model of the reader. The drivers' real libusb code runs unchanged against it.
// Programs using it run under umockdev-wrapper (LD_PRELOAD=libumockdev-preload.so.0).
// ../shared/notes/umockdev.md explains why a programmable handler rather than .ioctl or pcap replays:
// timeouts, several URBs in flight, two devices and unplug with NO_DEVICE all work only this way.
#pragma once

#include <umockdev.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace cardtable::devices::test {

using Bytes = std::vector<std::uint8_t>;

// The reader's side: given what the host wrote to a bulk OUT endpoint, what it answers on bulk IN (zero,
// one or more transfers). Called on umockdev's handler thread.
class UsbModel {
 public:
  virtual ~UsbModel() = default;
  virtual std::vector<Bytes> answer(std::uint8_t endpoint, const Bytes& written) = 0;
  std::uint8_t in_endpoint = 0x82;
};

// Whether this process runs with umockdev's preload (tests skip visibly otherwise).
bool umockdev_available();

class FakeUsbDevice {
 public:
  // Adds device bus/devnum at sysfs port `port` ("1-1") with these descriptors (device + configuration,
  // as in sysfs `descriptors`), answering with `model`.
  FakeUsbDevice(UMockdevTestbed* testbed, int bus, int devnum, const std::string& port, const std::string& descriptors_hex, UsbModel& model);
  ~FakeUsbDevice();
  FakeUsbDevice(const FakeUsbDevice&) = delete;
  FakeUsbDevice& operator=(const FakeUsbDevice&) = delete;

  // Pulls the plug: URBs in flight complete with -ENODEV (LIBUSB_TRANSFER_NO_DEVICE), every later ioctl
  // fails with ENODEV (LIBUSB_ERROR_NO_DEVICE), and udev sends "remove" (libusb's hotplug LEFT).
  // With `udev` false the device dies without a "remove" uevent (a hub that keeps a dead port): only
  // the transfers see NO_DEVICE.
  void unplug(bool udev = true);
  int writes() const;   // bulk OUT transfers so far
  int resets() const;   // USBDEVFS_RESET calls

 private:
  static gboolean on_ioctl(UMockdevIoctlBase* handler, UMockdevIoctlClient* client, gpointer self);
  gboolean handle(UMockdevIoctlClient* client);
  void deliver_locked();

  struct Urb {
    UMockdevIoctlData* data = nullptr;    // the struct usbdevfs_urb (referenced)
    UMockdevIoctlData* buffer = nullptr;  // its buffer (referenced)
  };
  UMockdevTestbed* testbed_;
  UMockdevIoctlBase* handler_;
  std::string devnode_, syspath_;
  UsbModel& model_;
  mutable std::mutex mutex_;
  std::deque<Urb> flying_;                     // IN URBs waiting for data
  std::deque<Urb> done_;                       // completed, waiting to be reaped
  std::map<std::uint8_t, std::deque<Bytes>> in_;  // data the model has queued per IN endpoint
  bool unplugged_ = false;
  bool removed_ = false;  // udev told
  int writes_ = 0, resets_ = 0;
};

// Descriptors (device + configuration) of the emulated readers.
extern const char* const kAcr122uDescriptors;  // 072f:2200, CCID class, bulk 0x02 OUT / 0x82 IN, interrupt 0x81
extern const char* const kBoardDescriptors;    // 1209:0001, vendor class, bulk 0x01 OUT / 0x81 IN

}  // namespace cardtable::devices::test
