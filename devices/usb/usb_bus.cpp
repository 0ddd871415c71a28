#include "devices/usb/usb_bus.hpp"

#include <algorithm>
#include <array>

namespace cardtable::devices {

std::string usb_error(int code) {
  return std::string(libusb_error_name(code)) + " (" + libusb_strerror(code) + ")";
}

std::shared_ptr<UsbBus> UsbBus::shared(std::string& error) {
  static std::mutex m;
  static std::weak_ptr<UsbBus> current;
  std::lock_guard lock(m);
  if (auto bus = current.lock()) return bus;
  std::shared_ptr<UsbBus> bus(new UsbBus());
  if (!bus->start(error)) return nullptr;
  current = bus;
  return bus;
}

bool UsbBus::start(std::string& error) {
  int rc = libusb_init(&ctx_);
  if (rc != 0) {
    error = "libusb_init: " + usb_error(rc);
    ctx_ = nullptr;
    return false;
  }
  if (!libusb_has_capability(LIBUSB_CAP_HAS_HOTPLUG)) {
    error = "libusb has no hotplug support on this system";
    return false;
  }
  // The event thread must run before the callback registers: ENUMERATE delivers the present devices from
  // inside libusb_hotplug_register_callback, and the callback only enqueues, so that is safe.
  events_ = std::thread([this] { run_events(); });
  dispatch_ = std::thread([this] { run_dispatch(); });
  rc = libusb_hotplug_register_callback(ctx_, LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED | LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT,
                                        LIBUSB_HOTPLUG_ENUMERATE, LIBUSB_HOTPLUG_MATCH_ANY, LIBUSB_HOTPLUG_MATCH_ANY,
                                        LIBUSB_HOTPLUG_MATCH_ANY, &UsbBus::on_hotplug, this, &hotplug_);
  if (rc != 0) {
    error = "libusb hotplug: " + usb_error(rc);
    return false;
  }
  hotplug_registered_ = true;
  return true;
}

UsbBus::~UsbBus() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (ctx_ && hotplug_registered_) libusb_hotplug_deregister_callback(ctx_, hotplug_);
  if (ctx_) libusb_interrupt_event_handler(ctx_);
  if (events_.joinable()) events_.join();
  if (dispatch_.joinable()) dispatch_.join();
  for (Pending& p : pending_)
    if (p.device) libusb_unref_device(p.device);
  for (Present& p : present_) libusb_unref_device(p.device);
  if (ctx_) libusb_exit(ctx_);
}

int LIBUSB_CALL UsbBus::on_hotplug(libusb_context*, libusb_device* device, libusb_hotplug_event event, void* self) {
  // libusb forbids opening, closing or blocking here: enqueue and return.
  auto* bus = static_cast<UsbBus*>(self);
  {
    std::lock_guard lock(bus->mutex_);
    bus->pending_.push_back({event == LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED, libusb_ref_device(device)});
  }
  bus->wake_.notify_all();
  return 0;  // stay registered
}

void UsbBus::run_events() {
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    timeval tv{0, 100000};
    libusb_handle_events_timeout_completed(ctx_, &tv, nullptr);
  }
}

void UsbBus::run_dispatch() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
    if (stopping_) return;
    Pending p = pending_.front();
    pending_.pop_front();
    dispatched_.notify_all();  // add_listener looks again once this one is handled (under this lock)
    if (!p.device) {
      offer_free_locked();  // offer_again()
      continue;
    }
    if (p.arrived) {
      auto it = std::find_if(present_.begin(), present_.end(), [&](const Present& x) { return x.device == p.device; });
      if (it != present_.end()) {
        libusb_unref_device(p.device);  // ENUMERATE and a real arrival can both report one device
        continue;
      }
      present_.push_back({p.device, nullptr});
      offer_locked(p.device);
    } else {
      auto it = std::find_if(present_.begin(), present_.end(), [&](const Present& x) { return x.device == p.device; });
      UsbListener* owner = it != present_.end() ? it->owner : nullptr;
      if (it != present_.end()) {
        libusb_unref_device(it->device);
        present_.erase(it);
      }
      if (owner) {
        lock.unlock();
        {
          std::lock_guard call(dispatch_mutex_);
          // The owner may have been removed while unlocked: check again under the dispatch lock.
          bool still;
          {
            std::lock_guard again(mutex_);
            still = std::find(listeners_.begin(), listeners_.end(), owner) != listeners_.end();
          }
          if (still) owner->left(p.device);
        }
        lock.lock();
      }
      libusb_unref_device(p.device);
      // Its owner is free now: a device of its kind plugged in while it had one (and refused then) is
      // taken at once, as it is when the owner ends on its own (offer_again).
      if (owner) offer_free_locked();
    }
  }
}

// Offers an unowned device to each listener in turn. Called with mutex_ held; releases it around the calls.
void UsbBus::offer_locked(libusb_device* device) {
  std::vector<UsbListener*> candidates = listeners_;
  libusb_ref_device(device);
  for (UsbListener* l : candidates) {
    mutex_.unlock();
    bool taken = false;
    {
      std::lock_guard call(dispatch_mutex_);
      bool still;
      {
        std::lock_guard again(mutex_);
        still = std::find(listeners_.begin(), listeners_.end(), l) != listeners_.end();
      }
      if (still) taken = l->offer(device);
    }
    mutex_.lock();
    if (taken) {
      auto it = std::find_if(present_.begin(), present_.end(), [&](const Present& x) { return x.device == device; });
      if (it != present_.end()) it->owner = l;
      break;
    }
  }
  libusb_unref_device(device);
}

void UsbBus::add_listener(UsbListener* listener) {
  std::unique_lock lock(mutex_);
  // What ENUMERATE found at the bus's start is queued, not yet present: wait (a moment) until the
  // dispatch thread has taken it, so that a reader starting now is offered its hardware at once and
  // can tell "not plugged in" from "not yet dispatched".
  dispatched_.wait_for(lock, std::chrono::seconds(2), [&] { return stopping_ || pending_.empty(); });
  listeners_.push_back(listener);
  // Offer what is already plugged in and unclaimed, as if it had just arrived.
  offer_free_locked();
}

void UsbBus::remove_listener(UsbListener* listener) {
  std::lock_guard call(dispatch_mutex_);  // waits for a call in progress
  std::lock_guard lock(mutex_);
  std::erase(listeners_, listener);
  for (Present& p : present_)
    if (p.owner == listener) p.owner = nullptr;
}

void UsbBus::release(libusb_device* device) {
  std::lock_guard lock(mutex_);
  for (Present& p : present_)
    if (p.device == device) p.owner = nullptr;
}

void UsbBus::offer_again() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    pending_.push_back({true, nullptr});
  }
  wake_.notify_all();
}

// Offers every unowned device to the listeners (with mutex_ held, released around each offer).
void UsbBus::offer_free_locked() {
  std::vector<libusb_device*> free;
  for (const Present& p : present_)
    if (!p.owner) free.push_back(p.device);
  for (libusb_device* d : free) {
    // Look again: while unlocked for an offer, a device may have been taken or gone.
    auto it = std::find_if(present_.begin(), present_.end(), [&](const Present& x) { return x.device == d; });
    if (it != present_.end() && !it->owner) offer_locked(d);
  }
}

bool UsbBus::is_port_path(std::string_view port) {
  // port_path(): the bus number, '-', then the port on each hub, '.'-separated; libusb numbers both
  // from 1, and each fits in a byte.
  int numbers = 0;
  std::size_t at = 0;
  while (true) {
    std::size_t end = at;
    while (end < port.size() && port[end] >= '0' && port[end] <= '9') ++end;
    const std::string_view digits = port.substr(at, end - at);
    if (digits.empty() || digits.size() > 3 || digits[0] == '0' || std::stoi(std::string(digits)) > 255) return false;
    ++numbers;
    if (end == port.size()) return numbers >= 2 && numbers <= 8;  // the bus and 1..7 ports
    if (port[end] != (numbers == 1 ? '-' : '.')) return false;
    at = end + 1;
  }
}

std::string UsbBus::port_path(libusb_device* device) {
  std::array<std::uint8_t, 8> ports{};
  int n = libusb_get_port_numbers(device, ports.data(), static_cast<int>(ports.size()));
  std::string s = std::to_string(libusb_get_bus_number(device));
  for (int i = 0; i < n; ++i) s += (i == 0 ? "-" : ".") + std::to_string(ports[static_cast<std::size_t>(i)]);
  return s;
}

}  // namespace cardtable::devices
