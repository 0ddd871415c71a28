// The open cardtable reader board (devices/board_protocol.hpp, docs/hardware.md): several antennas, a
// scan per poll, UIDs with signal strength, sequence numbers and a CRC. Driver name "cardtable-board".
#pragma once

#include "devices/board_protocol.hpp"
#include "devices/usb/usb_reader.hpp"

namespace cardtable::devices {

class BoardReader : public UsbReader {
 public:
  BoardReader(DeviceConfig config, const DeviceEnvironment& env) : UsbReader(std::move(config), env, "cardtable-board") {}
  ~BoardReader() override { stop(); }

 protected:
  Outcome handshake(UsbLink& link, const ReaderQuirk& quirk, std::string& info) override;
  Outcome poll(UsbLink& link, const ReaderQuirk& quirk, std::vector<AntennaTags>& heard) override;
  int physical_antennas() const override { return static_cast<int>(antennas_); }
  int shortest_poll_ms() const override { return min_poll_ms_; }

 private:
  // Sends a request and reads until the reply with its sequence number (earlier replies are counted out of
  // sequence and skipped) or the timeout.
  Outcome request(UsbLink& link, board::FrameType type, std::span<const std::uint8_t> payload, board::FrameType reply,
                  const char* what, std::vector<std::uint8_t>& answer);
  std::uint16_t seq_ = 0;
  std::size_t antennas_ = 0;
  int min_poll_ms_ = 0;  // HELLO's shortest poll period
  std::uint32_t last_scan_ = 0;
  bool have_scan_ = false;
};

std::unique_ptr<Device> make_board(const DeviceConfig& config, const DeviceEnvironment& env, std::string& error);

}  // namespace cardtable::devices
