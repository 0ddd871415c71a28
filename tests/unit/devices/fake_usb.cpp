#include "fake_usb.hpp"

#include <linux/ioctl.h>
#include <linux/usbdevice_fs.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

// LeakSanitizer (ASan builds): GLib's type system and umockdev's preload keep allocations for the life of
// the process by design; those are not our leaks, ours are still reported.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libglib-2.0.so\nleak:libgobject-2.0.so\nleak:libgio-2.0.so\nleak:libumockdev.so\nleak:libumockdev-preload.so\n";
}

namespace cardtable::devices::test {

const char* const kAcr122uDescriptors =
    "12010002000000082F07002214020102000109022700010100803209040000030B0000000705810308000A0705020240000007058202400000";
const char* const kBoardDescriptors =
    "1201000200000040091201000001010203010902200001010080320904000002FF0000000705010240000007058102400000";

bool umockdev_available() {
  const char* preload = std::getenv("LD_PRELOAD");
  return preload && std::strstr(preload, "umockdev-preload");
}

FakeUsbDevice::FakeUsbDevice(UMockdevTestbed* testbed, int bus, int devnum, const std::string& port, const std::string& descriptors_hex,
                             UsbModel& model)
    : testbed_(testbed), handler_(umockdev_ioctl_base_new()), model_(model) {
  char node[64], num[16];
  std::snprintf(node, sizeof node, "/dev/bus/usb/%03d/%03d", bus, devnum);
  std::snprintf(num, sizeof num, "%03d", devnum);
  devnode_ = node;
  syspath_ = "/sys/devices/pci0000:00/0000:00:14.0/usb" + std::to_string(bus) + "/" + port;
  g_signal_connect(handler_, "handle-ioctl", G_CALLBACK(&FakeUsbDevice::on_ioctl), this);
  // The handler first, so that libusb can open the device as soon as the "add" uevent arrives.
  umockdev_testbed_attach_ioctl(testbed_, devnode_.c_str(), handler_, nullptr);
  std::string desc = "P: /devices/pci0000:00/0000:00:14.0/usb" + std::to_string(bus) + "/" + port + "\n" +
                     "N: bus/usb/" + std::string(node + 13) + "\n" +
                     "E: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\nE: DRIVER=usb\n" +
                     "E: BUSNUM=" + std::string(node + 13, 3) + "\nE: DEVNUM=" + num + "\nE: DEVNAME=" + devnode_ + "\n" +
                     "A: busnum=" + std::to_string(bus) + "\\n\nA: devnum=" + std::to_string(devnum) + "\\n\n" +
                     "A: speed=12\\n\nA: bConfigurationValue=1\\n\n" +
                     "H: descriptors=" + descriptors_hex + "\n";
  GError* error = nullptr;
  if (!umockdev_testbed_add_from_string(testbed_, desc.c_str(), &error)) {
    std::fprintf(stderr, "umockdev: %s\n", error ? error->message : "add_from_string failed");
    if (error) g_error_free(error);
  }
}

FakeUsbDevice::~FakeUsbDevice() {
  unplug();
  umockdev_testbed_detach_ioctl(testbed_, devnode_.c_str(), nullptr);
  std::lock_guard lock(mutex_);
  for (auto* list : {&flying_, &done_})
    for (Urb& u : *list) {
      umockdev_ioctl_data_unref(u.data);
      umockdev_ioctl_data_unref(u.buffer);
    }
  g_object_unref(handler_);
}

void FakeUsbDevice::unplug(bool udev) {
  {
    std::lock_guard lock(mutex_);
    if (removed_ || (unplugged_ && !udev)) return;
    removed_ = udev;
    unplugged_ = true;
    for (Urb& u : flying_) {
      auto* urb = reinterpret_cast<usbdevfs_urb*>(u.data->data);
      urb->status = -ENODEV;
      urb->actual_length = 0;
      done_.push_back(u);
    }
    flying_.clear();
  }
  if (!udev) return;
  // The uevent while the sysfs entry (and its DEVNAME) still exists; then the entry goes.
  umockdev_testbed_uevent(testbed_, syspath_.c_str(), "remove");
  umockdev_testbed_remove_device(testbed_, syspath_.c_str());
}

int FakeUsbDevice::writes() const {
  std::lock_guard lock(mutex_);
  return writes_;
}

int FakeUsbDevice::resets() const {
  std::lock_guard lock(mutex_);
  return resets_;
}

gboolean FakeUsbDevice::on_ioctl(UMockdevIoctlBase*, UMockdevIoctlClient* client, gpointer self) {
  return static_cast<FakeUsbDevice*>(self)->handle(client);
}

// Completes IN URBs for which the model has data (with mutex_ held).
void FakeUsbDevice::deliver_locked() {
  for (auto it = flying_.begin(); it != flying_.end();) {
    auto* urb = reinterpret_cast<usbdevfs_urb*>(it->data->data);
    auto& queue = in_[urb->endpoint];
    if (queue.empty()) {
      ++it;
      continue;
    }
    Bytes b = std::move(queue.front());
    queue.pop_front();
    std::size_t n = std::min<std::size_t>(b.size(), static_cast<std::size_t>(urb->buffer_length));
    std::memcpy(it->buffer->data, b.data(), n);
    std::memcpy(urb->buffer, b.data(), n);  // the client shares our address space
    urb->actual_length = static_cast<int>(n);
    urb->status = 0;
    done_.push_back(*it);
    it = flying_.erase(it);
  }
}

gboolean FakeUsbDevice::handle(UMockdevIoctlClient* client) {
  const unsigned long request = umockdev_ioctl_client_get_request(client);
  UMockdevIoctlData* arg = umockdev_ioctl_client_get_arg(client);
  std::lock_guard lock(mutex_);
  const bool reap = request == USBDEVFS_REAPURB || request == USBDEVFS_REAPURBNDELAY;
  if (unplugged_ && !(reap && !done_.empty())) {
    umockdev_ioctl_client_complete(client, -1, ENODEV);
    return TRUE;
  }
  switch (request) {
    case USBDEVFS_GET_CAPABILITIES: {
      UMockdevIoctlData* d = umockdev_ioctl_data_resolve(arg, 0, sizeof(guint32), nullptr);
      *reinterpret_cast<guint32*>(d->data) = USBDEVFS_CAP_BULK_CONTINUATION | USBDEVFS_CAP_NO_PACKET_SIZE_LIM | USBDEVFS_CAP_REAP_AFTER_DISCONNECT;
      umockdev_ioctl_data_unref(d);
      umockdev_ioctl_client_complete(client, 0, 0);
      return TRUE;
    }
    case USBDEVFS_RESET:
      ++resets_;
      [[fallthrough]];
    case USBDEVFS_CLAIMINTERFACE:
    case USBDEVFS_RELEASEINTERFACE:
    case USBDEVFS_CLEAR_HALT:
    case USBDEVFS_RESETEP:
    case USBDEVFS_SETINTERFACE:
    case USBDEVFS_SETCONFIGURATION:
      umockdev_ioctl_client_complete(client, 0, 0);
      return TRUE;
    case USBDEVFS_GETDRIVER:
    case USBDEVFS_IOCTL:
      umockdev_ioctl_client_complete(client, -1, ENODATA);  // no kernel driver bound
      return TRUE;
    case USBDEVFS_SUBMITURB: {
      UMockdevIoctlData* data = umockdev_ioctl_data_resolve(arg, 0, sizeof(usbdevfs_urb), nullptr);
      auto* urb = reinterpret_cast<usbdevfs_urb*>(data->data);
      UMockdevIoctlData* buffer = umockdev_ioctl_data_resolve(data, G_STRUCT_OFFSET(usbdevfs_urb, buffer),
                                                              static_cast<gsize>(urb->buffer_length), nullptr);
      if (urb->type != USBDEVFS_URB_TYPE_BULK) {
        umockdev_ioctl_data_unref(buffer);
        umockdev_ioctl_data_unref(data);
        umockdev_ioctl_client_complete(client, -1, EINVAL);
        return TRUE;
      }
      if (urb->endpoint & 0x80) {
        flying_.push_back({data, buffer});
      } else {
        Bytes written(buffer->data, buffer->data + urb->buffer_length);
        ++writes_;
        for (Bytes& b : model_.answer(urb->endpoint, written)) in_[model_.in_endpoint].push_back(std::move(b));
        urb->actual_length = urb->buffer_length;
        urb->status = 0;
        done_.push_back({data, buffer});
      }
      deliver_locked();
      umockdev_ioctl_client_complete(client, 0, 0);
      return TRUE;
    }
    case USBDEVFS_REAPURB:
    case USBDEVFS_REAPURBNDELAY: {
      if (done_.empty()) {
        umockdev_ioctl_client_complete(client, -1, EAGAIN);
        return TRUE;
      }
      Urb u = done_.front();
      done_.pop_front();
      UMockdevIoctlData* ptr = umockdev_ioctl_data_resolve(arg, 0, sizeof(gpointer), nullptr);
      umockdev_ioctl_data_set_ptr(ptr, 0, u.data);
      umockdev_ioctl_data_unref(ptr);
      umockdev_ioctl_data_unref(u.buffer);
      umockdev_ioctl_data_unref(u.data);
      umockdev_ioctl_client_complete(client, 0, 0);
      return TRUE;
    }
    case USBDEVFS_DISCARDURB: {
      void* addr = *reinterpret_cast<void**>(arg->data);
      auto it = std::find_if(flying_.begin(), flying_.end(), [&](const Urb& u) { return u.data->client_addr == reinterpret_cast<gulong>(addr); });
      if (it == flying_.end()) {
        umockdev_ioctl_client_complete(client, -1, EINVAL);
        return TRUE;
      }
      auto* urb = reinterpret_cast<usbdevfs_urb*>(it->data->data);
      urb->status = -ENOENT;
      urb->actual_length = 0;
      done_.push_back(*it);
      flying_.erase(it);
      umockdev_ioctl_client_complete(client, 0, 0);
      return TRUE;
    }
    default:
      return FALSE;
  }
}

}  // namespace cardtable::devices::test
