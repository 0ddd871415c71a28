// Frames of PN533-family USB readers (ACS ACR122U and kin): USB CCID bulk messages that carry ACR122U
// pseudo-APDUs, which carry NXP PN53x commands. Sources: USB CCID 1.1 (sections 6.1 and 6.2), ACS "ACR122U
// Application Programming Interface" (Direct Transmit FF 00 00 00 Lc, Get Firmware FF 00 48, buzzer FF 00 52),
// NXP PN533 user manual UM0701-02 (GetFirmwareVersion, SAMConfiguration, RFConfiguration,
// InListPassiveTarget, InRelease). Every layout is written once here: struct, parse with size checks, encode.
//
//   CCID header (10 bytes): bMessageType, dwLength (LE, bytes after the header), bSlot, bSeq, then 3 bytes
//   that depend on the message (bulk OUT: bBWI/wLevelParameter or bPowerSelect; bulk IN: bStatus, bError,
//   bChainParameter/bClockStatus).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "devices/frame_error.hpp"
#include "devices/uid.hpp"

namespace cardtable::devices::ccid {

inline constexpr std::size_t kHeaderSize = 10;
inline constexpr std::size_t kMaxData = 512;  // far above the ACR122U's longest answer (a PN53x frame is <= 264)
inline constexpr std::uint8_t kIccPowerOn = 0x62;    // PC_to_RDR_IccPowerOn
inline constexpr std::uint8_t kXfrBlock = 0x6F;      // PC_to_RDR_XfrBlock
inline constexpr std::uint8_t kDataBlock = 0x80;     // RDR_to_PC_DataBlock
inline constexpr std::uint8_t kSlotStatus = 0x81;    // RDR_to_PC_SlotStatus

struct Reply {
  std::uint8_t type = kDataBlock;
  std::uint8_t slot = 0;
  std::uint8_t seq = 0;
  std::uint8_t status = 0;  // bStatus: bits 7..6 bmCommandStatus (0 ok, 1 failed, 2 time extension)
  std::uint8_t error = 0;   // bError when failed
  std::vector<std::uint8_t> data;
  bool time_extension() const { return (status >> 6) == 2; }
};

std::vector<std::uint8_t> power_on(std::uint8_t seq);
std::vector<std::uint8_t> xfr_block(std::uint8_t seq, std::span<const std::uint8_t> apdu);
// A reply to request `seq`. A time-extension reply parses (the caller reads again); a failed command is
// FrameError::Failed with bError in the detail.
Parsed<Reply> parse_reply(std::span<const std::uint8_t> bytes, std::uint8_t seq);
// What an emulated reader answers (tests, benchmarks).
std::vector<std::uint8_t> encode_reply(const Reply& reply);

}  // namespace cardtable::devices::ccid

namespace cardtable::devices::acr122u {

// ACR122U pseudo-APDUs (class FF).
std::vector<std::uint8_t> get_firmware();                                   // FF 00 48 00 00 → "ACR122U207"
std::vector<std::uint8_t> buzzer_off();                                     // FF 00 52 00 00: no beep on detection
std::vector<std::uint8_t> direct_transmit(std::span<const std::uint8_t> pn53x);  // FF 00 00 00 Lc <D4 ...>
// The answer to a pseudo-APDU: data then SW1 SW2. 90 00 is success; 63 00 "operation failed" (e.g. PN53x
// timeout) is FrameError::Failed. Returns the data without the status word.
Parsed<std::vector<std::uint8_t>> parse_status_word(std::span<const std::uint8_t> answer);
// The firmware string ("ACR122U207"): printable ASCII, no status word (ACR122U API 4.3).
Parsed<std::string> parse_firmware(std::span<const std::uint8_t> answer);

}  // namespace cardtable::devices::acr122u

namespace cardtable::devices::pn53x {

inline constexpr std::uint8_t kHostToPn = 0xD4, kPnToHost = 0xD5;
inline constexpr std::uint8_t kGetFirmwareVersion = 0x02;
inline constexpr std::uint8_t kSamConfiguration = 0x14;
inline constexpr std::uint8_t kRfConfiguration = 0x32;
inline constexpr std::uint8_t kInListPassiveTarget = 0x4A;
inline constexpr std::uint8_t kInRelease = 0x52;

std::vector<std::uint8_t> command(std::uint8_t code, std::span<const std::uint8_t> params = {});
// The parameters of the answer to `code` (D5, code + 1, params...).
Parsed<std::vector<std::uint8_t>> parse_answer(std::span<const std::uint8_t> bytes, std::uint8_t code);

struct FirmwareVersion {
  std::uint8_t ic = 0, version = 0, revision = 0, support = 0;  // PN533: 33 xx xx 07; PN532: 32 01 06 07
};
Parsed<FirmwareVersion> parse_firmware_version(std::span<const std::uint8_t> params);

// InListPassiveTarget for ISO 14443-A at 106 kbps (BrTy 00), up to `max` targets (1 or 2).
std::vector<std::uint8_t> in_list_passive_target(std::uint8_t max);
struct Target {
  std::uint8_t number = 0;   // Tg
  std::uint16_t sens_res = 0;
  std::uint8_t sel_res = 0;  // 0x00: NTAG/Ultralight; bit 0x20: ISO 14443-4, an ATS follows
  Uid uid;
};
Parsed<std::vector<Target>> parse_targets(std::span<const std::uint8_t> params);
std::vector<std::uint8_t> encode_targets(const std::vector<Target>& targets);  // for emulated readers

}  // namespace cardtable::devices::pn53x
