#include "devices/usb/usb_reader.hpp"

#include "devices/device_options.hpp"
#include "devices/log.hpp"
#include "devices/observe.hpp"

namespace cardtable::devices {

int UsbLink::send(std::span<const std::uint8_t> bytes) {
  int done = 0;
  int rc = libusb_bulk_transfer(handle_, ep_out_, const_cast<std::uint8_t*>(bytes.data()), static_cast<int>(bytes.size()), &done,
                                static_cast<unsigned>(timeout_ms_));
  if (rc == 0 && done != static_cast<int>(bytes.size())) return LIBUSB_ERROR_IO;
  return rc;
}

int UsbLink::receive(std::vector<std::uint8_t>& bytes, std::size_t max) { return receive(bytes, max, timeout_ms_); }

int UsbLink::receive(std::vector<std::uint8_t>& bytes, std::size_t max, int timeout_ms) {
  bytes.assign(max, 0);
  int done = 0;
  int rc = libusb_bulk_transfer(handle_, ep_in_, bytes.data(), static_cast<int>(max), &done, static_cast<unsigned>(timeout_ms));
  bytes.resize(rc == 0 ? static_cast<std::size_t>(done) : 0);
  return rc;
}

Outcome Outcome::from_usb(int rc, const std::string& what) {
  if (rc == 0) return ok();
  std::string r = what + ": " + usb_error(rc);
  return rc == LIBUSB_ERROR_NO_DEVICE ? gone(std::move(r)) : failed(std::move(r));
}

UsbReader::UsbReader(DeviceConfig config, const DeviceEnvironment& env, std::string protocol)
    : Device(std::move(config)), protocol_(std::move(protocol)), env_(env), decks_(env.decks) {
  std::vector<QuirkProblem> problems;
  quirks_path_ = env.quirks_path.empty() ? QuirkTable::default_path() : env.quirks_path;
  quirks_ = QuirkTable::load(quirks_path_, problems);
  // Every USB reader loads the file: its warnings are said once a process (the first reader says them),
  // with the file's name, since --quirks, the installed file or the source tree's may be the one read.
  static std::mutex said_mutex;
  static std::set<std::string> said;
  for (const QuirkProblem& p : problems) {
    if (p.fatal) {
      quirks_refused_.push_back(p);
      continue;
    }
    const std::string line = "quirk file " + quirks_path_ + (p.line ? " line " + std::to_string(p.line) : "") + ": " + p.message;
    std::lock_guard lock(said_mutex);
    if (said.insert(line).second) log(LogLevel::Warning, name(), line);
  }
}

UsbReader::~UsbReader() { stop(); }

bool UsbReader::start(DeviceSink& sink, std::string& error) {
  if (!quirks_refused_.empty()) {
    error = name() + ": the quirk file " + quirks_path_;
    for (std::size_t i = 0; i < quirks_refused_.size(); ++i)
      error += (i ? "; line " : " line ") + std::to_string(quirks_refused_[i].line) + ": " + quirks_refused_[i].message;
    return false;
  }
  if (quirks_.by_protocol(protocol_).empty()) {
    // Said with the file's name: a missing file (a daemon not installed, --quirks mistyped) reads as an
    // empty one, and the reader's protocol is then what looks wrong.
    error = name() + ": the quirk file " + quirks_path_ + " names no reader model of protocol " + protocol_ +
            (quirks_.all().empty() ? " (it holds none: is it there? --quirks names another)" : "");
    return false;
  }
  DeviceOptions o(config(), {"model", "port", "poll_ms"});
  const auto poll = o.whole("poll_ms", 10, 10000);
  if (!o.ok()) {
    error = o.error();
    return false;
  }
  // offer() compares port= with UsbBus::port_path(): one in another form (empty, a word, 1-02) matches
  // no device, and the reader would wait for ever, saying none is plugged in there.
  if (auto port = o.text("port"); port && !UsbBus::is_port_path(*port)) {
    error = name() + ": port=" + *port + " is not a USB port path: BUS-PORT[.PORT...] as status shows it, e.g. 1-2 or 3-1.4.2 (numbers 1..255, up to 7 ports)";
    return false;
  }
  if (auto model = o.text("model"); model && !quirks_.by_model(*model)) {
    error = name() + ": model '" + *model + "' is not in the quirk file";
    return false;
  } else if (model && quirks_.by_model(*model)->protocol != protocol_) {
    // offer() takes only devices of the driver's protocol: a model of another would never be taken, and
    // the reader would wait for it for ever, saying that none is plugged in.
    std::string takes;
    for (const ReaderQuirk* q : quirks_.by_protocol(protocol_)) takes += (takes.empty() ? "" : ", ") + q->model;
    error = name() + ": model '" + *model + "' is a " + quirks_.by_model(*model)->protocol + " reader; " + config().driver + " takes " + takes;
    return false;
  }
  if (poll) poll_ms_ = option_poll_ms_ = static_cast<int>(*poll);
  else poll_ms_ = expected_poll_ms(o.text("model"));
  warn_whole_hands();
  sink_ = &sink;
  {
    std::lock_guard lock(mutex_);
    stopping_ = false;
  }
  std::string bus_error;
  bus_ = UsbBus::shared(bus_error);
  if (!bus_) {
    error = name() + ": " + bus_error;
    return false;
  }
  bus_->add_listener(this);  // offers what is plugged in now, before it returns
  bool found = false;
  {
    std::lock_guard lock(mutex_);
    found = attached_ != nullptr;
  }
  // Said once at start: a reader not plugged in leaves its zones unknown, and without this line only
  // `status` would show it. It is taken the moment it is plugged in (device.added).
  if (!found) {
    const auto model = config().option("model"), port = config().option("port");
    log(LogLevel::Warning, name(), "no " + (model ? *model : config().driver) + " reader" + (port ? " on USB port " + *port : "") +
                                       " is plugged in: waiting for it; its zones are unknown until it is");
  }
  return true;
}

void UsbReader::warn_whole_hands() const {
  // An HF antenna resolves one tag reliably, sometimes two; a stack of 13 is not dependable (DESIGN,
  // docs/hardware.md "What an RFID antenna can do"). A hand: zone is a whole pocket's 13 cards for the
  // station's check: the tags not heard would be a hand short of cards there, a false wrong count. Taken
  // all the same, but said once at start.
  std::string pockets;
  for (const auto& [antenna, zone] : config().antennas) {
    if (zone.kind == table::ZoneKind::Pocket)
      pockets += (pockets.empty() ? "" : ", ") + zone.str() + " on antenna" + std::to_string(antenna);
    if (zone.kind == table::ZoneKind::Hand)
      log(LogLevel::Warning, name(),
          zone.str() + " is on antenna" + std::to_string(antenna) + " of an RFID reader, which does not dependably read a hand of 13 cards: " +
              "a card not heard makes the hand short and the board a false wrong count. A camera reads hand: zones; " +
              "with RFID, pass the cards over the scan slot (docs/hardware.md, \"What an RFID antenna can do\")");
  }
  // A pocket's antenna has the same limit: it is read for presence, but where the four pockets happen to
  // name 40 cards or more the table counts them at the board's return (docs/laws.md, Law 7C), and a card
  // not heard is then a false wrong count. One line for the reader's pockets (a board serves all four).
  if (!pockets.empty())
    log(LogLevel::Warning, name(),
        pockets + " of an RFID reader are read for presence, not dependably for their 13 cards: where the pockets name 40 " +
            "cards or more the table counts them at the board's return, and a card not heard makes a false wrong count. " +
            "A camera over a board-checking station reads hands in full (docs/hardware.md, \"What an RFID antenna can do\")");
}

void UsbReader::stop() {
  if (bus_) bus_->remove_listener(this);
  detach();
  bus_.reset();
}

void UsbReader::detach() {
  std::thread t;
  libusb_device* dev = nullptr;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    t = std::move(thread_);
    dev = attached_;
    attached_ = nullptr;
    ended_ = false;
  }
  wake_.notify_all();
  if (t.joinable()) t.join();
  if (dev) libusb_unref_device(dev);
}

nlohmann::json UsbReader::health() const {
  std::lock_guard lock(mutex_);
  nlohmann::json j = {{"protocol", protocol_}};
  if (!model_.empty()) j["model"] = model_;
  if (!port_.empty()) j["port"] = port_;
  if (!firmware_.empty()) j["firmware"] = firmware_;
  if (poll_ms_ > 0) j["poll_ms"] = poll_ms_;
  if (!last_error_.empty()) j["last_error"] = last_error_;
  return j;
}

int UsbReader::poll_ms() const {
  std::lock_guard lock(mutex_);
  return poll_ms_;
}

// Before the hardware is there, the period it will be polled at is known when the model is: named by
// model=, or the only period the quirk file gives the driver's protocol. A board's HELLO may lengthen it.
int UsbReader::expected_poll_ms(const std::optional<std::string>& model) const {
  if (model) return quirks_.by_model(*model)->poll_ms;
  int period = 0;
  for (const ReaderQuirk* q : quirks_.by_protocol(protocol_)) {
    if (period && q->poll_ms != period) return 0;
    period = q->poll_ms;
  }
  return period;
}

void UsbReader::set_decks(std::shared_ptr<const DeckLibrary> decks) {
  std::lock_guard lock(mutex_);
  decks_ = std::move(decks);
  unknown_logged_.clear();
}

bool UsbReader::has_antenna(const ReaderQuirk& quirk, int logical) const {
  const std::optional<int> physical = quirk.physical_antenna(logical);
  return physical && *physical < physical_antennas();
}

void UsbReader::dropped(FrameError e, const std::string& what, const std::string& detail) {
  count(counters_, e);
  say_held_drops(false);
  if (drop_log_.take(std::chrono::steady_clock::now()))
    log(LogLevel::Warning, name(), what + ": " + to_string(e) + ": " + detail + "; frame dropped");
}

void UsbReader::say_held_drops(bool closing) {
  if (auto held = drop_log_.held(std::chrono::steady_clock::now(), closing))
    log(LogLevel::Warning, name(), std::to_string(held->frames) + " more frames dropped in the last " + std::to_string(held->over.count()) +
                                       " s, not logged one by one (status counts each)");
}

bool UsbReader::offer(libusb_device* device) {
  libusb_device_descriptor desc{};
  if (libusb_get_device_descriptor(device, &desc) != 0) return false;
  const ReaderQuirk* q = quirks_.by_usb(desc.idVendor, desc.idProduct);
  if (!q || q->protocol != protocol_) return false;
  if (auto model = config().option("model"); model && *model != q->model) return false;
  std::string port = UsbBus::port_path(device);
  if (auto want = config().option("port"); want && *want != port) return false;
  std::thread dead;
  libusb_device* dead_device = nullptr;
  {
    std::lock_guard lock(mutex_);
    if ((attached_ || thread_.joinable()) && !ended_) return false;  // this reader already has its hardware
    dead = std::move(thread_);
    dead_device = attached_;
    attached_ = nullptr;
    ended_ = false;
  }
  // A thread that ended on its own has closed its handle; it is joined here, on the bus's dispatch
  // thread (offer() and left() are never called on a reader's own thread).
  if (dead.joinable()) dead.join();
  if (dead_device) libusb_unref_device(dead_device);
  std::lock_guard lock(mutex_);
  attached_ = libusb_ref_device(device);
  stopping_ = false;
  port_ = port;
  model_ = q->model;
  // Another device (a replacement for a dead board, or the same one plugged back): what `status` said of
  // the last one -- its error, its firmware -- is not this one's. The dead one's reason is in its device.lost.
  last_error_.clear();
  firmware_.clear();
  poll_ms_ = option_poll_ms_ ? option_poll_ms_ : q->poll_ms;
  thread_ = std::thread([this, device, quirk = *q] { run(device, quirk); });
  return true;
}

void UsbReader::left(libusb_device* device) {
  {
    std::lock_guard lock(mutex_);
    if (device != attached_) return;
  }
  detach();  // the thread sees NO_DEVICE or the stop flag and ends
  mark_lost("unplugged");
}

void UsbReader::report(DeviceEvent::Kind kind, std::string reason) {
  if (!sink_) return;
  sink_->device_event(event_of(kind, std::move(reason), env_.clock()));
}

void UsbReader::mark_lost(const std::string& reason) {
  present_ = false;
  if (reported_lost_.exchange(true)) return;  // once per loss, whoever notices first
  log(LogLevel::Warning, name(), "lost: " + reason);
  report(DeviceEvent::Kind::Lost, reason);
}

bool UsbReader::wait_for(int ms) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return stopping_; });
}

bool UsbReader::wait_until(std::chrono::steady_clock::time_point t) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_until(lock, t, [&] { return stopping_; });
}

Outcome UsbReader::open_and_handshake(libusb_device* device, const ReaderQuirk& quirk, libusb_device_handle*& handle,
                                      std::unique_ptr<UsbLink>& link) {
  if (!handle) {
    int rc = libusb_open(device, &handle);
    if (rc != 0) {
      handle = nullptr;
      return Outcome::from_usb(rc, "open");
    }
    // A kernel driver (pn533_usb for the ACR122U) may hold the interface; take it over.
    if (libusb_kernel_driver_active(handle, 0) == 1) libusb_detach_kernel_driver(handle, 0);
    rc = libusb_claim_interface(handle, 0);
    if (rc != 0) return Outcome::from_usb(rc, "claim interface 0");
    // The first bulk OUT and bulk IN endpoints of interface 0.
    libusb_config_descriptor* cfg = nullptr;
    rc = libusb_get_active_config_descriptor(device, &cfg);
    if (rc != 0) return Outcome::from_usb(rc, "config descriptor");
    std::uint8_t out = 0, in = 0;
    if (cfg->bNumInterfaces > 0 && cfg->interface[0].num_altsetting > 0) {
      const libusb_interface_descriptor& alt = cfg->interface[0].altsetting[0];
      for (int i = 0; i < alt.bNumEndpoints; ++i) {
        const libusb_endpoint_descriptor& ep = alt.endpoint[i];
        if ((ep.bmAttributes & 0x3) != LIBUSB_TRANSFER_TYPE_BULK) continue;
        if (ep.bEndpointAddress & LIBUSB_ENDPOINT_IN) { if (!in) in = ep.bEndpointAddress; }
        else if (!out) out = ep.bEndpointAddress;
      }
    }
    libusb_free_config_descriptor(cfg);
    if (!in || !out) return Outcome::failed("interface 0 has no bulk IN and OUT endpoints");
    link = std::make_unique<UsbLink>(handle, out, in, quirk.timeout_ms);
  }
  std::string info;
  Outcome o = handshake(*link, quirk, info);
  if (o.kind == Outcome::Kind::Ok) {
    // A reader that says how often it can scan (the board's HELLO) is polled no faster: asked sooner,
    // it would answer late or with the last scan again.
    const int wanted = option_poll_ms_ ? option_poll_ms_ : quirk.poll_ms;
    const int period = std::max(wanted, shortest_poll_ms());
    {
      std::lock_guard lock(mutex_);
      firmware_ = info;
      poll_ms_ = period;
    }
    if (period > wanted)
      log(LogLevel::Warning, name(), "polled every " + std::to_string(period) + " ms, not " + std::to_string(wanted) +
                                         ": the reader scans no faster (its handshake says so)");
  }
  return o;
}

void UsbReader::run(libusb_device* device, ReaderQuirk quirk) {
  libusb_device_handle* handle = nullptr;
  std::unique_ptr<UsbLink> link;
  int failures = 0;
  bool reset_tried = false;
  bool reported_dead = false;
  bool shaken = false;
  bool gone = false;  // the device died (NO_DEVICE): the thread ends without stop() or left()
  auto note_error = [&](const std::string& r) {
    std::lock_guard lock(mutex_);
    last_error_ = r;
  };
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) break;
    }
    say_held_drops(false);  // a burst that is over is said though no frame is dropped after it
    int period = 0;
    {
      std::lock_guard lock(mutex_);
      period = poll_ms_;
    }
    // Polls start on a fixed beat of `period` (not `period` after the last poll ended): the rate is the
    // quirk file's, whatever a transfer takes, so a card faced is read within one period and stable
    // (three equal reads) within three -- the latency bound of docs/hardware.md. A poll that overran
    // its period is followed at once.
    const auto poll_started = std::chrono::steady_clock::now();
    Outcome o;
    if (!shaken) {
      o = open_and_handshake(device, quirk, handle, link);
      if (o.kind == Outcome::Kind::Ok) {
        // Answering again (device.added): the failures that made it lost are over, and said in the
        // device.error/device.lost events of the journal; status's last_error is of this run.
        note_error({});
        shaken = true;
        failures = 0;
        present_ = true;
        reported_lost_ = false;
        std::string fw;
        {
          std::lock_guard lock(mutex_);
          fw = firmware_;
        }
        log(LogLevel::Info, name(), quirk.model + " on USB " + UsbBus::port_path(device) + ", firmware " + fw);
        report(DeviceEvent::Kind::Added, quirk.model + " on USB " + UsbBus::port_path(device) + ", firmware " + fw);
        reported_dead = false;
        reset_tried = false;
        continue;  // poll at once: a re-plugged reader reads within one poll period
      }
    } else {
      std::vector<AntennaTags> heard;
      o = poll(*link, quirk, heard);
      if (o.kind == Outcome::Kind::Ok) {
        failures = 0;
        reset_tried = false;
        publish(quirk, std::move(heard));
      }
    }
    if (o.kind == Outcome::Kind::Gone) {
      note_error(o.reason);
      mark_lost("unplugged (" + o.reason + ")");
      gone = true;
      break;
    }
    if (o.kind == Outcome::Kind::Failed) {
      note_error(o.reason);
      ++failures;
      log(LogLevel::Warning, name(), o.reason);
      if (failures >= quirk.retries) {
        if (!reset_tried && handle) {
          // A reader that stops answering is reset once (USB port reset), then handshaken again.
          reset_tried = true;
          ++counters_.resets;
          log(LogLevel::Warning, name(), "not answering after " + std::to_string(failures) + " tries: resetting it");
          int rc = libusb_reset_device(handle);
          if (rc == LIBUSB_ERROR_NO_DEVICE || rc == LIBUSB_ERROR_NOT_FOUND) {
            mark_lost("unplugged during reset");
            gone = true;
            break;
          }
          shaken = false;
          failures = 0;
          continue;
        }
        if (!reported_dead) {
          reported_dead = true;
          std::string why = "not answering after a reset: " + o.reason;
          log(LogLevel::Error, name(), why);
          report(DeviceEvent::Kind::Error, why);
          mark_lost(why);
        }
        shaken = false;  // keep trying the handshake, once a second
        failures = 0;
        if (!wait_for(1000)) break;
        continue;
      }
    }
    if (!(shaken ? wait_until(poll_started + std::chrono::milliseconds(period)) : wait_for(1000))) break;
  }
  say_held_drops(true);  // stopped, unplugged or dead: what the window held is said now
  if (handle) {
    libusb_release_interface(handle, 0);
    libusb_close(handle);
  }
  if (!gone) return;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;  // stop() or left() is joining this thread and frees the reader itself
    ended_ = true;
  }
  // A board may have been plugged in (and refused: this reader had one) before this one died; with no
  // arrival after the death it would never be offered again.
  bus_->offer_again();
}

void UsbReader::publish(const ReaderQuirk& quirk, std::vector<AntennaTags> heard) {
  for (AntennaTags& a : heard) a.antenna = quirk.logical_antenna(a.antenna);
  std::set<AntennaGroup> together;
  counters_.crosstalk += static_cast<std::uint64_t>(resolve_crosstalk(heard, quirk.crosstalk_margin, &together));
  std::shared_ptr<const DeckLibrary> decks;
  {
    std::lock_guard lock(mutex_);
    decks = decks_;
    // Said once per group of antennas (it recurs at every poll while the card lies there): the counter
    // alone told that it happened, not which antennas nor what to do about it.
    for (const AntennaGroup& g : together)
      if (crosstalk_said_.size() < 64 && crosstalk_said_.insert(g).second) log(LogLevel::Warning, name(), crosstalk_advice(g, config().antennas));
  }
  const Millis now = env_.clock();
  for (const auto& [antenna, zone] : config().antennas) {
    // An antenna the reader lacks hears nothing: its zone is not reported at all (unknown, as a silent
    // zone is), never as read empty, which would look like a seat with no card.
    if (!has_antenna(quirk, antenna)) continue;
    AntennaTags none{antenna, {}, false};
    const AntennaTags* a = &none;
    for (const AntennaTags& h : heard)
      if (h.antenna == antenna) a = &h;
    table::TableInput in;
    in.kind = table::TableInput::Kind::Observe;
    in.observation = observe(zone, *a, decks.get(), name(), now, counters_);
    in.time = now;
    for (const Sighting& s : a->tags) {
      if (decks && decks->find(s.uid)) continue;
      // Logged once per tag (not at every poll); the table reports it as an unknown card.
      std::lock_guard lock(mutex_);
      if (unknown_logged_.size() < 1024 && unknown_logged_.insert(s.uid).second)
        log(LogLevel::Warning, name(), "antenna " + std::to_string(antenna) + " (" + zone.str() + "): tag " + s.uid.str() + " is in no enrolled deck");
    }
    sink_->push(std::move(in));
    TagReport report{name(), antenna, zone, {}, now};
    for (const Sighting& s : a->tags) report.uids.push_back(s.uid.str());
    sink_->heard(report);
  }
}

}  // namespace cardtable::devices
