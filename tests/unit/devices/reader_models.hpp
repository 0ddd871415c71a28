// Small models of the two readers for the emulated USB devices: they answer the way the real hardware does
// (ACR122U API manual, PN533 user manual; the reader-board protocol of docs/hardware.md), and can be told to
// misbehave: stay silent (a timeout), send a corrupt frame, answer a stale request first.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>

#include "devices/board_protocol.hpp"
#include "devices/ccid_pn53x.hpp"
#include "fake_usb.hpp"

namespace cardtable::devices::test {

class AcrModel : public UsbModel {
 public:
  AcrModel() { in_endpoint = 0x82; }
  std::vector<Bytes> answer(std::uint8_t endpoint, const Bytes& written) override;
  void place(std::optional<Uid> tag) {
    std::lock_guard lock(mutex_);
    tag_ = tag;
  }
  std::atomic<bool> mute{false};          // answers nothing: the host's read times out
  std::atomic<int> corrupt_next{0};       // the next N answers come back cut short
  std::atomic<int> stale_next{0};         // the next N answers are preceded by stale_frames answers to an older bSeq
  std::atomic<int> stale_frames{1};
  std::atomic<int> polls{0};              // InListPassiveTarget commands seen
  std::atomic<int> handshakes{0};         // GetFirmwareVersion commands seen

 private:
  std::mutex mutex_;
  std::optional<Uid> tag_;
};

class BoardModel : public UsbModel {
 public:
  explicit BoardModel(std::uint8_t antennas = 4) : antennas_(antennas) { in_endpoint = 0x81; }
  std::vector<Bytes> answer(std::uint8_t endpoint, const Bytes& written) override;
  // Physical antenna → the tags on it (with strengths).
  void place(std::uint8_t antenna, std::vector<board::Tag> tags);
  void clear();
  std::atomic<bool> mute{false};
  std::atomic<int> corrupt_next{0};  // the next N replies have a wrong CRC
  std::atomic<int> stale_next{0};    // the next N replies are preceded by stale_frames replies to an older request
  std::atomic<int> stale_frames{1};
  std::atomic<int> min_poll_ms{20};  // HELLO's shortest poll period
  std::atomic<int> scans{0};

 private:
  std::mutex mutex_;
  std::uint8_t antennas_;
  std::vector<std::vector<board::Tag>> tags_ = std::vector<std::vector<board::Tag>>(16);
  std::uint32_t counter_ = 0;
};

}  // namespace cardtable::devices::test
