#include "devices/ccid_pn53x.hpp"

#include <cstdio>

namespace cardtable::devices::ccid {

namespace {
std::vector<std::uint8_t> header(std::uint8_t type, std::size_t length, std::uint8_t seq) {
  std::vector<std::uint8_t> out(kHeaderSize, 0);
  out[0] = type;
  for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(1 + i)] = static_cast<std::uint8_t>((length >> (8 * i)) & 0xFF);
  out[6] = seq;
  return out;
}
}  // namespace

std::vector<std::uint8_t> power_on(std::uint8_t seq) {
  auto out = header(kIccPowerOn, 0, seq);
  out[7] = 0x00;  // bPowerSelect: automatic voltage selection
  return out;
}

std::vector<std::uint8_t> xfr_block(std::uint8_t seq, std::span<const std::uint8_t> apdu) {
  auto out = header(kXfrBlock, apdu.size(), seq);
  out.insert(out.end(), apdu.begin(), apdu.end());
  return out;
}

Parsed<Reply> parse_reply(std::span<const std::uint8_t> b, std::uint8_t seq) {
  using R = Parsed<Reply>;
  if (b.size() < kHeaderSize) return R::fail(FrameError::Short, "CCID reply of " + std::to_string(b.size()) + " bytes, header needs 10");
  if (b[0] != kDataBlock && b[0] != kSlotStatus) return R::fail(FrameError::Garbage, "CCID message type " + std::to_string(b[0]));
  std::uint32_t length = static_cast<std::uint32_t>(b[1] | (b[2] << 8) | (b[3] << 16)) | (static_cast<std::uint32_t>(b[4]) << 24);
  if (length > kMaxData) return R::fail(FrameError::Garbage, "CCID dwLength " + std::to_string(length));
  if (b.size() < kHeaderSize + length) return R::fail(FrameError::Short, "CCID reply says " + std::to_string(length) + " data bytes, has " + std::to_string(b.size() - kHeaderSize));
  if (b.size() > kHeaderSize + length) return R::fail(FrameError::Garbage, "CCID reply: " + std::to_string(b.size() - kHeaderSize - length) + " bytes after the data");
  Reply r;
  r.type = b[0];
  r.slot = b[5];
  r.seq = b[6];
  r.status = b[7];
  r.error = b[8];
  if (r.seq != seq) return R::fail(FrameError::OutOfSequence, "CCID bSeq " + std::to_string(r.seq) + ", expected " + std::to_string(seq));
  if ((r.status >> 6) == 1) return R::fail(FrameError::Failed, "CCID command failed, bError " + std::to_string(r.error));
  if ((r.status >> 6) == 3) return R::fail(FrameError::Garbage, "CCID bmCommandStatus 3 (reserved)");
  r.data.assign(b.begin() + kHeaderSize, b.end());
  return R::ok(std::move(r));
}

std::vector<std::uint8_t> encode_reply(const Reply& r) {
  auto out = header(r.type, r.data.size(), r.seq);
  out[5] = r.slot;
  out[7] = r.status;
  out[8] = r.error;
  out.insert(out.end(), r.data.begin(), r.data.end());
  return out;
}

}  // namespace cardtable::devices::ccid

namespace cardtable::devices::acr122u {

std::vector<std::uint8_t> get_firmware() { return {0xFF, 0x00, 0x48, 0x00, 0x00}; }
std::vector<std::uint8_t> buzzer_off() { return {0xFF, 0x00, 0x52, 0x00, 0x00}; }

std::vector<std::uint8_t> direct_transmit(std::span<const std::uint8_t> pn53x) {
  std::vector<std::uint8_t> out = {0xFF, 0x00, 0x00, 0x00, static_cast<std::uint8_t>(pn53x.size())};
  out.insert(out.end(), pn53x.begin(), pn53x.end());
  return out;
}

Parsed<std::vector<std::uint8_t>> parse_status_word(std::span<const std::uint8_t> a) {
  using R = Parsed<std::vector<std::uint8_t>>;
  if (a.size() < 2) return R::fail(FrameError::Short, "answer without a status word");
  std::uint8_t sw1 = a[a.size() - 2], sw2 = a[a.size() - 1];
  if (sw1 != 0x90 || sw2 != 0x00) {
    char sw[8];
    std::snprintf(sw, sizeof sw, "%02X %02X", sw1, sw2);
    return R::fail(FrameError::Failed, std::string("status word ") + sw);
  }
  return R::ok(std::vector<std::uint8_t>(a.begin(), a.end() - 2));
}

Parsed<std::string> parse_firmware(std::span<const std::uint8_t> a) {
  if (a.empty() || a.size() > 32) return Parsed<std::string>::fail(FrameError::Garbage, "firmware string of " + std::to_string(a.size()) + " bytes");
  std::string s;
  for (std::uint8_t c : a) {
    if (c < 0x20 || c >= 0x7F) return Parsed<std::string>::fail(FrameError::Garbage, "firmware string not printable");
    s += static_cast<char>(c);
  }
  return Parsed<std::string>::ok(s);
}

}  // namespace cardtable::devices::acr122u

namespace cardtable::devices::pn53x {

std::vector<std::uint8_t> command(std::uint8_t code, std::span<const std::uint8_t> params) {
  std::vector<std::uint8_t> out = {kHostToPn, code};
  out.insert(out.end(), params.begin(), params.end());
  return out;
}

Parsed<std::vector<std::uint8_t>> parse_answer(std::span<const std::uint8_t> b, std::uint8_t code) {
  using R = Parsed<std::vector<std::uint8_t>>;
  if (b.size() < 2) return R::fail(FrameError::Short, "PN53x answer of " + std::to_string(b.size()) + " bytes");
  if (b[0] != kPnToHost) return R::fail(FrameError::Garbage, "PN53x answer without D5");
  if (b[1] != static_cast<std::uint8_t>(code + 1)) return R::fail(FrameError::OutOfSequence, "PN53x answer " + std::to_string(b[1]) + " to command " + std::to_string(code));
  return R::ok(std::vector<std::uint8_t>(b.begin() + 2, b.end()));
}

Parsed<FirmwareVersion> parse_firmware_version(std::span<const std::uint8_t> p) {
  if (p.size() != 4) return Parsed<FirmwareVersion>::fail(p.size() < 4 ? FrameError::Short : FrameError::Garbage, "GetFirmwareVersion answer of " + std::to_string(p.size()) + " bytes, needs 4");
  return Parsed<FirmwareVersion>::ok(FirmwareVersion{p[0], p[1], p[2], p[3]});
}

std::vector<std::uint8_t> in_list_passive_target(std::uint8_t max) {
  const std::uint8_t params[] = {max, 0x00};  // MaxTg, BrTy 0: 106 kbps type A
  return command(kInListPassiveTarget, params);
}

Parsed<std::vector<Target>> parse_targets(std::span<const std::uint8_t> p) {
  using R = Parsed<std::vector<Target>>;
  if (p.empty()) return R::fail(FrameError::Short, "InListPassiveTarget answer without NbTg");
  std::size_t count = p[0];
  if (count > 2) return R::fail(FrameError::Garbage, "NbTg " + std::to_string(count) + " (a PN53x lists at most 2)");
  std::vector<Target> out;
  std::size_t at = 1;
  for (std::size_t i = 0; i < count; ++i) {
    if (p.size() < at + 5) return R::fail(FrameError::Short, "target record cut after " + std::to_string(p.size() - at) + " bytes");
    Target t;
    t.number = p[at];
    t.sens_res = static_cast<std::uint16_t>((p[at + 1] << 8) | p[at + 2]);
    t.sel_res = p[at + 3];
    std::size_t len = p[at + 4];
    at += 5;
    if (!Uid::valid_length(len)) return R::fail(FrameError::Garbage, "NFCID1 length " + std::to_string(len));
    if (p.size() < at + len) return R::fail(FrameError::Short, "NFCID1 cut short");
    t.uid = *Uid::from_bytes(p.subspan(at, len));
    at += len;
    if (t.sel_res & 0x20) {  // ISO 14443-4 compliant: the ATS follows, its first byte counts itself
      if (p.size() < at + 1 || p[at] == 0) return R::fail(FrameError::Short, "ATS missing");
      std::size_t ats = p[at];
      if (p.size() < at + ats) return R::fail(FrameError::Short, "ATS cut short");
      at += ats;
    }
    out.push_back(t);
  }
  if (at != p.size()) return R::fail(FrameError::Garbage, std::to_string(p.size() - at) + " bytes after the targets");
  return R::ok(std::move(out));
}

std::vector<std::uint8_t> encode_targets(const std::vector<Target>& targets) {
  std::vector<std::uint8_t> out = {static_cast<std::uint8_t>(targets.size())};
  for (const Target& t : targets) {
    out.push_back(t.number);
    out.push_back(static_cast<std::uint8_t>(t.sens_res >> 8));
    out.push_back(static_cast<std::uint8_t>(t.sens_res & 0xFF));
    out.push_back(static_cast<std::uint8_t>(t.sel_res & ~0x20));  // emulated tags are NTAG-like: no ATS
    out.push_back(static_cast<std::uint8_t>(t.uid.size()));
    out.insert(out.end(), t.uid.bytes().begin(), t.uid.bytes().end());
  }
  return out;
}

}  // namespace cardtable::devices::pn53x
