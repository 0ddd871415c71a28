// The seam between the table and what reads it. A Device is one source of readings (an RFID reader, a
// reader board, a camera, the simulated table); it runs on its own (a thread, a USB transfer loop) and hands
// what it sees to a DeviceSink, which the daemon drains in its event loop.
//
// Adding a kind of device (e.g. the issue-10 camera):
//   1. a class deriving from Device: start() begins reading and returns at once, stop() ends it and joins
//      its threads, zones() says which table zones it serves, status() describes its health as JSON;
//   2. a factory `std::unique_ptr<Device> make_x(const DeviceConfig&, const DeviceEnvironment&, std::string& error)`;
//   3. one line in devices/builtin_drivers.cpp's table (gpsd's driver table: explicit, so a static library
//      never drops a driver the way a self-registering static object can be dropped by the linker).
// Everything a device reports travels through the sink: readings as table::TableInput, and its life
// (added, lost, error) as DeviceEvent. A device never calls into the table or the wire.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "table/input.hpp"
#include "table/zone.hpp"

namespace cardtable::devices {

using table::Millis;
using table::Zone;

// What happened to a device, for the daemon's `device.added`, `device.lost`, `device.error` events. A lost
// device's zones are unknown until it is added again: the daemon makes them `reading.uncertain` (cause
// "device lost"), never an irregularity.
struct DeviceEvent {
  enum class Kind : std::uint8_t { Added, Lost, Error } kind = Kind::Added;
  std::string device;       // "reader0"
  std::vector<Zone> zones;  // the zones it serves
  std::string reason;       // "unplugged", "reader 2: bulk read: timeout after 3 retries"
  Millis time = 0;
};
const char* to_string(DeviceEvent::Kind kind);

// The tags an antenna heard in one poll, before decks turn them into cards: what `cardtablectl enroll`
// learns a pack from, and what names an unenrolled tag in the daemon's evidence.
struct TagReport {
  std::string device;
  int antenna = 0;             // logical
  Zone zone;
  std::vector<std::string> uids;  // hex, as in deck files
  Millis time = 0;
};

// Where a device's readings and events go. Called from the device's own threads: implementations are
// thread-safe and never block for long. The daemon's is an eventfd-backed queue whose push() waits only
// while its loop is 4096 inputs behind (daemon/device_queue.hpp): the device then polls later, and is
// released when the daemon stops.
class DeviceSink {
 public:
  virtual ~DeviceSink() = default;
  virtual void push(table::TableInput input) = 0;
  virtual void device_event(DeviceEvent event) = 0;
  // Raw tags, from RFID readers only; most sinks ignore them.
  virtual void heard(const TagReport& report) { (void)report; }
};

// Counters every device keeps; `status` shows them. Garbage never stops a device: it is counted here,
// logged with the device and the reason, and dropped.
struct DeviceCounters {
  std::atomic<std::uint64_t> frames{0};          // frames decoded and used
  std::atomic<std::uint64_t> observations{0};    // observations handed to the table
  std::atomic<std::uint64_t> garbage{0};         // frames of an unknown type or a bad magic
  std::atomic<std::uint64_t> short_frames{0};    // frames shorter than their header says
  std::atomic<std::uint64_t> out_of_sequence{0}; // a reply whose sequence number is not the request's
  std::atomic<std::uint64_t> crc_errors{0};      // frames whose CRC does not match
  std::atomic<std::uint64_t> timeouts{0};        // transfers that did not complete in time
  std::atomic<std::uint64_t> resets{0};          // times the device was reset for not answering
  std::atomic<std::uint64_t> crosstalk{0};       // tags seen on several antennas in one poll
  std::atomic<std::uint64_t> unknown_tags{0};    // tags read that no enrolled deck knows
  nlohmann::json json() const;
};

// The clock every device stamps its readings with: the daemon's monotonic clock in milliseconds; tests
// inject theirs.
using Clock = std::function<Millis()>;
Millis steady_millis();  // the default: CLOCK_MONOTONIC, in ms

class DeckLibrary;  // devices/deck.hpp

// What a deployment says about one device (the daemon's configuration maps zones to devices).
struct DeviceConfig {
  std::string name;                              // "reader0": unique in a daemon, used in events and logs
  std::string driver;                            // "acr122u", "cardtable-board", "sim"
  std::map<int, Zone> antennas;                  // antenna (logical, after the quirk file's order) → zone
  std::map<std::string, std::string> options;    // driver options: "port=1-1.2", "poll_ms=100"
  std::optional<std::string> option(const std::string& key) const;
};

// What the daemon lends every device: the clock, the decks (UID → card), the quirk file's folder.
struct DeviceEnvironment {
  Clock clock = steady_millis;
  std::shared_ptr<const DeckLibrary> decks;      // may be null: every tag is then unknown
  std::string quirks_path;                       // the quirk file; empty: the built-in default path
};

class Device {
 public:
  explicit Device(DeviceConfig config) : config_(std::move(config)) {}
  virtual ~Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Begins reading into `sink` (which outlives the device) and returns at once. A device whose hardware
  // is absent still starts: it reports `added` when the hardware arrives. False with `error` only for a
  // configuration it can never serve.
  [[nodiscard]] virtual bool start(DeviceSink& sink, std::string& error) = 0;
  // Stops reading and joins the device's threads; nothing reaches the sink after it returns.
  virtual void stop() = 0;
  // Whether the hardware is there and answering now.
  virtual bool present() const = 0;
  // Driver-specific health, merged into status(): firmware, poll period, last error.
  virtual nlohmann::json health() const { return nlohmann::json::object(); }
  // The period, in ms, at which the device reads its zones, as far as it knows now (an option, the model
  // named, its handshake, a recording's frame period): the daemon checks it against --silence. 0: it reads
  // on no beat of its own (the sim, a live camera) or does not know yet (a reader whose model comes with
  // the hardware).
  virtual int poll_ms() const { return 0; }
  // The option that sets that period, for the advice when it is too long for --silence.
  virtual std::string poll_option() const { return "poll_ms"; }
  // Swaps the decks (on SIGHUP, after the daemon reloaded the folder).
  virtual void set_decks(std::shared_ptr<const DeckLibrary> decks) { (void)decks; }

  const std::string& name() const { return config_.name; }
  const std::string& driver() const { return config_.driver; }
  const DeviceConfig& config() const { return config_; }
  std::vector<Zone> zones() const;
  const DeviceCounters& counters() const { return counters_; }
  // {"name","driver","present","zones":[...],"counters":{...}, ...health()}
  nlohmann::json status() const;
  // A device.added/lost/error of this device: its name and zones, the reason, the time.
  DeviceEvent event_of(DeviceEvent::Kind kind, std::string reason, Millis time) const;

 protected:
  DeviceCounters counters_;

 private:
  DeviceConfig config_;
};

// The registry: driver name → factory.
using DeviceFactory = std::unique_ptr<Device> (*)(const DeviceConfig&, const DeviceEnvironment&, std::string& error);
struct DriverEntry {
  const char* name;         // the `driver` of a DeviceConfig
  const char* description;  // one line for --help
  DeviceFactory make;
};
// Every driver this build knows (devices/builtin_drivers.cpp).
const std::vector<DriverEntry>& drivers();
// Makes a device of config.driver; null with `error` naming the device and the reason.
std::unique_ptr<Device> make_device(const DeviceConfig& config, const DeviceEnvironment& env, std::string& error);

}  // namespace cardtable::devices
