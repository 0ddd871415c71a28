// PN533-family readers over CCID (ACS ACR122U, SCL3711): one antenna, one card at a time, polled with
// InListPassiveTarget. Driver name "acr122u"; models of protocol pn53x-ccid in the quirk file.
#pragma once

#include "devices/usb/usb_reader.hpp"

namespace cardtable::devices {

class Acr122uReader : public UsbReader {
 public:
  Acr122uReader(DeviceConfig config, const DeviceEnvironment& env) : UsbReader(std::move(config), env, "pn53x-ccid") {}
  ~Acr122uReader() override { stop(); }

 protected:
  Outcome handshake(UsbLink& link, const ReaderQuirk& quirk, std::string& info) override;
  Outcome poll(UsbLink& link, const ReaderQuirk& quirk, std::vector<AntennaTags>& heard) override;

 private:
  // One CCID exchange: the message out, the reply to the same bSeq in (stale replies to an earlier,
  // timed-out request are counted and skipped; time extensions are waited out).
  Outcome exchange(UsbLink& link, const std::vector<std::uint8_t>& message, const char* what, std::vector<std::uint8_t>& data);
  Outcome apdu(UsbLink& link, const std::vector<std::uint8_t>& apdu, const char* what, std::vector<std::uint8_t>& answer);
  Outcome pn_command(UsbLink& link, std::uint8_t code, std::vector<std::uint8_t> params, const char* what, std::vector<std::uint8_t>& answer);
  std::uint8_t seq_ = 0;
};

std::unique_ptr<Device> make_acr122u(const DeviceConfig& config, const DeviceEnvironment& env, std::string& error);

}  // namespace cardtable::devices
