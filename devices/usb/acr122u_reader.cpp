#include "devices/usb/acr122u_reader.hpp"

#include "devices/ccid_pn53x.hpp"

namespace cardtable::devices {

std::unique_ptr<Device> make_acr122u(const DeviceConfig& config, const DeviceEnvironment& env, std::string& error) {
  if (config.antennas.size() > 1 || (config.antennas.size() == 1 && config.antennas.begin()->first != 0)) {
    error = config.name + ": an ACR122U has one antenna (antenna0)";
    return nullptr;
  }
  return std::make_unique<Acr122uReader>(config, env);
}

Outcome Acr122uReader::exchange(UsbLink& link, const std::vector<std::uint8_t>& message, const char* what,
                                std::vector<std::uint8_t>& data) {
  const std::uint8_t seq = message[6];
  if (Outcome o = Outcome::from_usb(link.send(message), std::string(what) + ": bulk write"); o.kind != Outcome::Kind::Ok) {
    if (o.reason.find("TIMEOUT") != std::string::npos) ++counters_.timeouts;
    return o;
  }
  // Stale answers (an older bSeq) are skipped and time extensions waited out, until the answer or the
  // transfer timeout after the command (a fixed four reads lost the answer behind four late ones).
  ReplyWait wait(link.timeout_ms());
  while (const int left = wait.next()) {
    std::vector<std::uint8_t> in;
    int rc = link.receive(in, ccid::kHeaderSize + ccid::kMaxData, left);
    if (rc == LIBUSB_ERROR_TIMEOUT) ++counters_.timeouts;
    if (rc != 0) return Outcome::from_usb(rc, std::string(what) + ": bulk read");
    auto reply = ccid::parse_reply(in, seq);
    if (!reply) {
      dropped(reply.error, what, reply.detail);
      if (reply.error == FrameError::OutOfSequence) continue;  // an old answer: the right one follows
      return Outcome::failed(std::string(what) + ": " + to_string(reply.error) + ": " + reply.detail);
    }
    if (reply.value->time_extension()) {
      if (!wait.extend()) break;
      continue;
    }
    data = std::move(reply.value->data);
    return Outcome::ok();
  }
  return Outcome::failed(std::string(what) + ": no answer to this request");
}

Outcome Acr122uReader::apdu(UsbLink& link, const std::vector<std::uint8_t>& apdu, const char* what, std::vector<std::uint8_t>& answer) {
  return exchange(link, ccid::xfr_block(seq_++, apdu), what, answer);
}

Outcome Acr122uReader::pn_command(UsbLink& link, std::uint8_t code, std::vector<std::uint8_t> params, const char* what,
                             std::vector<std::uint8_t>& answer) {
  std::vector<std::uint8_t> raw;
  if (Outcome o = apdu(link, acr122u::direct_transmit(pn53x::command(code, params)), what, raw); o.kind != Outcome::Kind::Ok) return o;
  auto sw = acr122u::parse_status_word(raw);
  if (!sw) {
    dropped(sw.error, what, sw.detail);
    return Outcome::failed(std::string(what) + ": " + sw.detail);
  }
  auto params_out = pn53x::parse_answer(*sw.value, code);
  if (!params_out) {
    dropped(params_out.error, what, params_out.detail);
    return Outcome::failed(std::string(what) + ": " + params_out.detail);
  }
  answer = std::move(*params_out.value);
  ++counters_.frames;
  return Outcome::ok();
}

Outcome Acr122uReader::handshake(UsbLink& link, const ReaderQuirk& quirk, std::string& info) {
  std::vector<std::uint8_t> data;
  if (quirk.has_bug("needs-power-on")) {
    if (Outcome o = exchange(link, ccid::power_on(seq_++), "IccPowerOn", data); o.kind != Outcome::Kind::Ok) return o;
  }
  std::string reader_firmware;
  if (quirk.protocol == "pn53x-ccid" && quirk.model.rfind("acr", 0) == 0) {
    if (Outcome o = apdu(link, acr122u::get_firmware(), "Get Firmware", data); o.kind != Outcome::Kind::Ok) return o;
    auto fw = acr122u::parse_firmware(data);
    if (!fw) {
      dropped(fw.error, "Get Firmware", fw.detail);
      return Outcome::failed("Get Firmware: " + fw.detail);
    }
    reader_firmware = *fw.value;
  }
  if (quirk.has_bug("beeps-on-detection")) {
    if (Outcome o = apdu(link, acr122u::buzzer_off(), "buzzer off", data); o.kind != Outcome::Kind::Ok) return o;
  }
  if (Outcome o = pn_command(link, pn53x::kGetFirmwareVersion, {}, "GetFirmwareVersion", data); o.kind != Outcome::Kind::Ok) return o;
  auto v = pn53x::parse_firmware_version(data);
  if (!v) {
    dropped(v.error, "GetFirmwareVersion", v.detail);
    return Outcome::failed("GetFirmwareVersion: " + v.detail);
  }
  if (quirk.has_bug("sam-configuration")) {
    if (Outcome o = pn_command(link, pn53x::kSamConfiguration, {0x01, 0x00, 0x00}, "SAMConfiguration", data); o.kind != Outcome::Kind::Ok) return o;
  }
  if (quirk.has_bug("no-passive-activation-limit")) {
    // RFConfiguration item 5 (MaxRetries): MxRtyATR FF, MxRtyPSL 01, MxRtyPassiveActivation 02, so that an
    // empty field answers "no target" at once instead of waiting for a card.
    if (Outcome o = pn_command(link, pn53x::kRfConfiguration, {0x05, 0xFF, 0x01, 0x02}, "RFConfiguration MaxRetries", data); o.kind != Outcome::Kind::Ok) return o;
  }
  // RFConfiguration item 1: RF field on.
  if (Outcome o = pn_command(link, pn53x::kRfConfiguration, {0x01, 0x01}, "RFConfiguration field on", data); o.kind != Outcome::Kind::Ok) return o;
  char pn[32];
  std::snprintf(pn, sizeof pn, "PN5%02X v%u.%u", v.value->ic, v.value->version, v.value->revision);
  info = reader_firmware.empty() ? pn : reader_firmware + " / " + pn;
  return Outcome::ok();
}

Outcome Acr122uReader::poll(UsbLink& link, const ReaderQuirk&, std::vector<AntennaTags>& heard) {
  std::vector<std::uint8_t> data;
  // MaxTg 1: the antenna serves a single-card zone; a second card in the field is a collision the PN53x
  // resolves by anticollision, and we report the one it selects.
  const std::uint8_t max = 1;
  if (Outcome o = pn_command(link, pn53x::kInListPassiveTarget, {max, 0x00}, "InListPassiveTarget", data); o.kind != Outcome::Kind::Ok) return o;
  auto targets = pn53x::parse_targets(data);
  if (!targets) {
    dropped(targets.error, "InListPassiveTarget", targets.detail);
    return Outcome::failed("InListPassiveTarget: " + targets.detail);
  }
  AntennaTags a;
  a.antenna = 0;
  for (const pn53x::Target& t : *targets.value) a.tags.push_back({t.uid, 0});
  if (!a.tags.empty()) {
    // Release the target so the next poll selects it afresh (a selected tag ignores REQA).
    if (Outcome o = pn_command(link, pn53x::kInRelease, {0x00}, "InRelease", data); o.kind != Outcome::Kind::Ok) return o;
  }
  heard.push_back(std::move(a));
  return Outcome::ok();
}

}  // namespace cardtable::devices
