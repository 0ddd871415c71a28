#include "reader_models.hpp"

namespace cardtable::devices::test {

std::vector<Bytes> AcrModel::answer(std::uint8_t, const Bytes& w) {
  if (mute) return {};
  if (w.size() < ccid::kHeaderSize) return {};
  ccid::Reply r;
  r.seq = w[6];
  if (w[0] == ccid::kIccPowerOn) {
    r.data = {0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x68};
  } else if (w[0] == ccid::kXfrBlock) {
    Bytes apdu(w.begin() + ccid::kHeaderSize, w.end());
    if (apdu == acr122u::get_firmware()) {
      r.data = {'A', 'C', 'R', '1', '2', '2', 'U', '2', '0', '7'};
    } else if (apdu == acr122u::buzzer_off()) {
      r.data = {0x90, 0x00};
    } else if (apdu.size() >= 7 && apdu[0] == 0xFF && apdu[1] == 0x00 && apdu[4] == apdu.size() - 5 && apdu[5] == pn53x::kHostToPn) {
      std::uint8_t cmd = apdu[6];
      r.data = {pn53x::kPnToHost, static_cast<std::uint8_t>(cmd + 1)};
      if (cmd == pn53x::kGetFirmwareVersion) {
        ++handshakes;
        r.data.insert(r.data.end(), {0x32, 0x01, 0x06, 0x07});
      } else if (cmd == pn53x::kInListPassiveTarget) {
        ++polls;
        std::lock_guard lock(mutex_);
        std::vector<pn53x::Target> t;
        if (tag_) t.push_back({1, 0x0044, 0x00, *tag_});
        Bytes enc = pn53x::encode_targets(t);
        r.data.insert(r.data.end(), enc.begin(), enc.end());
      } else if (cmd == pn53x::kInRelease) {
        r.data.push_back(0x00);
      }
      r.data.insert(r.data.end(), {0x90, 0x00});
    } else {
      r.data = {0x63, 0x00};
    }
  } else {
    r.status = 0x40;  // failed
    r.error = 0x00;   // command not supported
  }
  Bytes out = ccid::encode_reply(r);
  if (corrupt_next > 0) {
    --corrupt_next;
    out.resize(out.size() - 3);  // cut short: dwLength promises more
  }
  std::vector<Bytes> all;
  if (stale_next > 0) {
    --stale_next;
    ccid::Reply old = r;
    old.seq = static_cast<std::uint8_t>(r.seq - 1);
    for (int i = 0; i < stale_frames; ++i) all.push_back(ccid::encode_reply(old));
  }
  all.push_back(std::move(out));
  return all;
}

void BoardModel::place(std::uint8_t antenna, std::vector<board::Tag> tags) {
  std::lock_guard lock(mutex_);
  tags_[antenna] = std::move(tags);
}

void BoardModel::clear() {
  std::lock_guard lock(mutex_);
  for (auto& t : tags_) t.clear();
}

std::vector<Bytes> BoardModel::answer(std::uint8_t, const Bytes& w) {
  if (mute) return {};
  auto frame = board::parse_frame(w);
  if (!frame) return {};
  const std::uint16_t seq = frame.value->header.seq;
  Bytes reply;
  switch (frame.value->header.type) {
    case board::FrameType::Hello: {
      board::BoardInfo info;
      info.antennas = antennas_;
      info.max_tags = 4;
      info.firmware[0] = 1;
      info.firmware[1] = 2;
      info.firmware[2] = 3;
      info.min_poll_ms = static_cast<std::uint16_t>(min_poll_ms.load());
      reply = board::encode(board::FrameType::HelloReply, seq, board::encode_board_info(info));
      break;
    }
    case board::FrameType::Scan: {
      ++scans;
      board::ScanResult s;
      std::lock_guard lock(mutex_);
      s.scan = ++counter_;
      for (std::uint8_t a = 0; a < antennas_; ++a) s.antennas.push_back({a, 0, tags_[a]});
      reply = board::encode(board::FrameType::ScanReply, seq, board::encode_scan(s));
      break;
    }
    case board::FrameType::Reset:
      reply = board::encode(board::FrameType::ResetReply, seq);
      break;
    default: {
      const std::uint8_t err[] = {1, 'b', 'a', 'd'};
      reply = board::encode(board::FrameType::Error, seq, err);
    }
  }
  std::vector<Bytes> out;
  if (stale_next > 0) {
    --stale_next;
    for (int i = 0; i < stale_frames; ++i) out.push_back(board::encode(board::FrameType::ResetReply, static_cast<std::uint16_t>(seq - 1)));
  }
  if (corrupt_next > 0) {
    --corrupt_next;
    reply.back() ^= 0x5A;
  }
  out.push_back(std::move(reply));
  return out;
}

}  // namespace cardtable::devices::test
