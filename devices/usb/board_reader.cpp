#include "devices/usb/board_reader.hpp"

#include <algorithm>

#include "devices/log.hpp"

namespace cardtable::devices {

std::unique_ptr<Device> make_board(const DeviceConfig& config, const DeviceEnvironment& env, std::string& error) {
  for (const auto& [antenna, zone] : config.antennas)
    if (antenna < 0 || antenna >= static_cast<int>(board::kMaxAntennas)) {
      error = config.name + ": antenna" + std::to_string(antenna) + " (a board has at most 16, antenna0..antenna15)";
      return nullptr;
    }
  return std::make_unique<BoardReader>(config, env);
}

Outcome BoardReader::request(UsbLink& link, board::FrameType type, std::span<const std::uint8_t> payload, board::FrameType reply,
                             const char* what, std::vector<std::uint8_t>& answer) {
  const std::uint16_t seq = ++seq_;
  int rc = link.send(board::encode(type, seq, payload));
  if (rc == LIBUSB_ERROR_TIMEOUT) ++counters_.timeouts;
  if (rc != 0) return Outcome::from_usb(rc, std::string(what) + ": bulk write");
  // docs/hardware.md: replies to other requests are skipped and the host reads on until the right reply or
  // its timeout (a fixed four reads lost the right reply behind four late ones, and every later request
  // then found more ahead of its own).
  ReplyWait wait(link.timeout_ms());
  while (const int left = wait.next()) {
    std::vector<std::uint8_t> in;
    rc = link.receive(in, board::kMaxFrame, left);
    if (rc == LIBUSB_ERROR_TIMEOUT) ++counters_.timeouts;
    if (rc != 0) return Outcome::from_usb(rc, std::string(what) + ": bulk read");
    auto frame = board::parse_frame(in);
    if (!frame) {
      dropped(frame.error, what, frame.detail);
      return Outcome::failed(std::string(what) + ": " + to_string(frame.error) + ": " + frame.detail);
    }
    if (frame.value->header.seq != seq) {
      dropped(FrameError::OutOfSequence, what, "reply to request " + std::to_string(frame.value->header.seq) + ", expected " + std::to_string(seq));
      continue;
    }
    if (frame.value->header.type == board::FrameType::Error) {
      auto e = board::parse_error(frame.value->payload);
      std::string detail = e ? "board error " + std::to_string(e.value->code) + ": " + e.value->text : e.detail;
      dropped(FrameError::Failed, what, detail);
      return Outcome::failed(std::string(what) + ": " + detail);
    }
    if (frame.value->header.type != reply) {
      dropped(FrameError::Garbage, what, "frame type " + std::to_string(static_cast<int>(frame.value->header.type)) + " in reply");
      return Outcome::failed(std::string(what) + ": unexpected frame type");
    }
    answer = std::move(frame.value->payload);
    ++counters_.frames;
    return Outcome::ok();
  }
  return Outcome::failed(std::string(what) + ": no reply to this request");
}

Outcome BoardReader::handshake(UsbLink& link, const ReaderQuirk& quirk, std::string& info) {
  std::vector<std::uint8_t> answer;
  const std::uint8_t version[] = {board::kVersion};
  if (Outcome o = request(link, board::FrameType::Hello, version, board::FrameType::HelloReply, "HELLO", answer); o.kind != Outcome::Kind::Ok) return o;
  auto b = board::parse_board_info(answer);
  if (!b) {
    dropped(b.error, "HELLO", b.detail);
    return Outcome::failed("HELLO: " + b.detail);
  }
  antennas_ = b.value->antennas;
  min_poll_ms_ = b.value->min_poll_ms;
  have_scan_ = false;
  info = std::to_string(b.value->firmware[0]) + "." + std::to_string(b.value->firmware[1]) + "." + std::to_string(b.value->firmware[2]) +
         ", " + std::to_string(antennas_) + " antennas";
  if (static_cast<int>(antennas_) != quirk.antennas)
    info += " (the quirk file says " + std::to_string(quirk.antennas) + ")";
  // The board says how many antennas it has (the quirk file's count is what is expected, and a board
  // may have more or fewer): a zone on one it lacks would never be read, so it is said with the board's
  // arrival. Zones name logical antennas (the case's labels); the board counts physical ones, which the
  // model's antenna_order maps: a board with fewer antennas than the order lacks the logical antennas of
  // the missing physical ones, not the highest numbers.
  std::vector<int> has;
  for (int p = 0; p < static_cast<int>(antennas_); ++p) has.push_back(quirk.logical_antenna(p));
  std::sort(has.begin(), has.end());
  std::string has_text;
  if (has.size() > 1 && has.front() == 0 && has.back() == static_cast<int>(has.size()) - 1) {
    has_text = "antenna0 to antenna" + std::to_string(has.back());
  } else {
    for (int l : has) has_text += (has_text.empty() ? "it has antenna" : ", antenna") + std::to_string(l);
  }
  for (const auto& [antenna, zone] : config().antennas)
    if (!has_antenna(quirk, antenna)) {
      const std::string lacks = zone.str() + " is on antenna" + std::to_string(antenna) + ", which this board lacks (" + has_text + "): it is never read";
      info += "; " + lacks;
      log(LogLevel::Warning, name(), lacks);
    }
  return Outcome::ok();
}

Outcome BoardReader::poll(UsbLink& link, const ReaderQuirk&, std::vector<AntennaTags>& heard) {
  std::vector<std::uint8_t> answer;
  if (Outcome o = request(link, board::FrameType::Scan, {}, board::FrameType::ScanReply, "SCAN", answer); o.kind != Outcome::Kind::Ok) return o;
  auto scan = board::parse_scan(answer, antennas_);
  if (!scan) {
    dropped(scan.error, "SCAN", scan.detail);
    return Outcome::failed("SCAN: " + scan.detail);
  }
  // The board's scan counter must move on: the same counter twice is a replayed (stale) scan.
  if (have_scan_ && scan.value->scan == last_scan_) {
    dropped(FrameError::OutOfSequence, "SCAN", "scan counter " + std::to_string(last_scan_) + " repeated");
    return Outcome::failed("SCAN: stale scan");
  }
  have_scan_ = true;
  last_scan_ = scan.value->scan;
  for (const board::AntennaReading& r : scan.value->antennas) {
    AntennaTags a;
    a.antenna = r.antenna;
    a.uncertain = (r.flags & (board::kFlagCollision | board::kFlagFieldError | board::kFlagOverflow)) != 0;
    for (const board::Tag& t : r.tags) a.tags.push_back({t.uid, t.strength});
    heard.push_back(std::move(a));
  }
  return Outcome::ok();
}

}  // namespace cardtable::devices
