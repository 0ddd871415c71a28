#include "devices/sim/simulator_device.hpp"

#include <array>
#include <charconv>

#include "devices/device_options.hpp"

namespace cardtable::devices {

std::optional<table::TableInput> FaultInjector::apply(table::TableInput in) {
  if (in.kind != table::TableInput::Kind::Observe) return in;
  if (unplugged_at(in.time)) return std::nullopt;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  if (faults_.drop > 0 && u(rng_) < faults_.drop) return std::nullopt;
  if (faults_.flicker > 0 && u(rng_) < faults_.flicker) {
    in.observation.cards = {};
    in.observation.unknown = 0;
    return in;
  }
  if (faults_.misread > 0 && in.observation.cards.size() == 1 && u(rng_) < faults_.misread) {
    std::uniform_int_distribution<int> card(0, bridge::kCards - 1);
    in.observation.cards = {};
    in.observation.cards.add(bridge::Card::from_id(card(rng_)));
  }
  return in;
}

bool FaultInjector::unplugged_at(Millis t) const {
  return faults_.unplug && t >= faults_.unplug->first && t < faults_.unplug->first + faults_.unplug->second;
}

SimulatorDevice::SimulatorDevice(DeviceConfig config, InputScript script, double speed, bool loop, SimFaults faults,
                                 Clock clock)
    : Device(std::move(config)), script_(std::move(script)), speed_(speed), loop_(loop), faults_(faults), clock_(std::move(clock)) {}

SimulatorDevice::~SimulatorDevice() { stop(); }

bool SimulatorDevice::start(DeviceSink& sink, std::string&) {
  worker_.start([this, &sink] { run(sink); });
  return true;
}

void SimulatorDevice::stop() { worker_.stop(); }

nlohmann::json SimulatorDevice::health() const {
  return {{"speed", speed_}, {"loop", loop_}, {"passes", passes_.load()}, {"finished", finished_.load()}};
}

void SimulatorDevice::event(DeviceSink& sink, DeviceEvent::Kind kind, std::string reason) {
  sink.device_event(event_of(kind, std::move(reason), clock_()));
}

void SimulatorDevice::run(DeviceSink& sink) {
  using clock = std::chrono::steady_clock;
  present_ = true;
  event(sink, DeviceEvent::Kind::Added, "simulated table");
  FaultInjector faults(faults_);
  // The zones read in the previous pass (their last reading), for the start of the next one.
  std::array<std::optional<table::Observation>, table::kZoneCount> last{};
  table::Millis offset = 0;  // each pass continues the table's clock
  const auto start = clock::now();
  const table::Millis base = daemon_clock_ ? clock_() : 0;
  bool unplugged = false;
  do {
    std::array<bool, table::kZoneCount> read_this_pass{};
    table::Millis pass_last = 0;  // the pass's last input's time: the next pass starts after it
    bool pass_empty = true;
    InputCursor cursor = script_();
    while (auto step = cursor()) {
      table::TableInput in = *std::move(step);
      pass_last = in.time;
      pass_empty = false;
      const table::Millis script_time = in.time;
      auto due = start + std::chrono::microseconds(static_cast<long long>(static_cast<double>(in.time + offset) * 1000.0 / speed_));
      in.time += offset + base;
      in.observation.time += offset + base;
      in.command.time += offset + base;
      if (!worker_.sleep_until(due)) return;
      bool now_unplugged = faults.unplugged_at(script_time);
      if (now_unplugged != unplugged) {
        unplugged = now_unplugged;
        present_ = !unplugged;
        event(sink, unplugged ? DeviceEvent::Kind::Lost : DeviceEvent::Kind::Added, unplugged ? "simulated unplug" : "simulated re-plug");
      }
      if (in.kind == table::TableInput::Kind::Tick && offset > 0 && !unplugged) {
        // A looped pass: the table is reset between passes, so a zone the new pass has not read yet reads
        // empty (nothing on it), never silent: no reading.uncertain/resumed pair marks each restart.
        for (std::size_t z = 0; z < last.size(); ++z) {
          if (read_this_pass[z] || !last[z]) continue;
          table::TableInput cleared;
          cleared.kind = table::TableInput::Kind::Observe;
          cleared.observation = *last[z];
          cleared.observation.cards = {};
          cleared.observation.unknown = 0;
          cleared.observation.confidence = 1.0;
          cleared.observation.complete = true;
          cleared.observation.time = in.time;
          cleared.time = in.time;
          sink.push(std::move(cleared));
        }
      }
      if (in.kind == table::TableInput::Kind::Observe) {
        auto z = static_cast<std::size_t>(in.observation.zone.index());
        read_this_pass[z] = true;
        last[z] = in.observation;
      }
      if (auto faulty = faults.apply(std::move(in))) {
        if (faulty->kind == table::TableInput::Kind::Observe) ++counters_.observations;
        sink.push(std::move(*faulty));
      }
    }
    offset += pass_empty ? 1000 : pass_last + 100;
    ++passes_;
  } while (loop_);
  finished_ = true;
}

namespace {
ScriptLoader& loader() {
  static ScriptLoader l;
  return l;
}
}  // namespace

void set_script_loader(ScriptLoader l) { loader() = std::move(l); }

std::unique_ptr<Device> make_simulator(const DeviceConfig& config, const DeviceEnvironment& env, std::string& error) {
  DeviceOptions o(config, {"script", "speed", "loop", "drop", "misread", "flicker", "seed", "unplug", "clock"});
  // The same range as cardtabled's --speed: a thousandth of real time holds a board in play for tests.
  const double speed = o.number("speed", 0.001, 10000).value_or(1.0);
  const bool loop = o.yes_no("loop").value_or(false);
  SimFaults faults;
  for (auto [key, field] : {std::pair{"drop", &faults.drop}, std::pair{"misread", &faults.misread}, std::pair{"flicker", &faults.flicker}})
    if (auto p = o.number(key, 0, 1)) *field = *p;  // probabilities
  if (auto seed = o.whole("seed", 0, 4294967295LL)) faults.seed = static_cast<std::uint32_t>(*seed);
  if (!o.ok()) {
    error = o.error();
    return nullptr;
  }
  auto path = config.option("script");
  if (!path) {
    error = config.name + ": the sim driver needs script=PATH";
    return nullptr;
  }
  if (!loader()) {
    error = config.name + ": no script loader in this program";
    return nullptr;
  }
  std::string why;
  auto script = loader()(*path, why);
  if (!script) {
    error = config.name + ": " + why;
    return nullptr;
  }
  if (auto v = config.option("unplug")) {
    std::size_t plus = v->find('+');
    long long at = 0, len = 0;
    bool ok = plus != std::string::npos;
    if (ok) {
      auto r1 = std::from_chars(v->data(), v->data() + plus, at);
      auto r2 = std::from_chars(v->data() + plus + 1, v->data() + v->size(), len);
      ok = r1.ec == std::errc{} && r1.ptr == v->data() + plus && r2.ec == std::errc{} && r2.ptr == v->data() + v->size() && at >= 0 && len > 0;
    }
    if (!ok) {
      error = config.name + ": unplug=AT+FOR in ms, e.g. 12000+3000";
      return nullptr;
    }
    faults.unplug = std::pair{static_cast<Millis>(at), static_cast<Millis>(len)};
  }
  DeviceConfig c = config;
  if (c.antennas.empty()) {  // the zones the script names, not a pass through it to see (InputScript)
    int i = 0;
    for (const Zone& z : script->zones()) c.antennas[i++] = z;
  }
  std::string clock = config.option("clock").value_or("script");
  if (clock != "script" && clock != "daemon") {
    error = config.name + ": clock is script or daemon";
    return nullptr;
  }
  if (clock == "daemon" && speed != 1.0) {
    error = config.name + ": clock=daemon needs speed 1 (the daemon's clock runs at real time)";
    return nullptr;
  }
  auto sim = std::make_unique<SimulatorDevice>(std::move(c), std::move(*script), speed, loop, faults, env.clock);
  sim->set_daemon_clock(clock == "daemon");
  return sim;
}

}  // namespace cardtable::devices
