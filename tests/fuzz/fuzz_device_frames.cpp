// libFuzzer targets for what readers send us: every frame parser must report (a FrameError), never crash,
// read out of bounds or hang. CARDTABLE_FUZZ_FRAMES picks the family: board (the reader-board frames and
// their payloads) or ccid (CCID replies, ACR122U status words and firmware, PN53x answers and targets).
#include <cstddef>
#include <cstdint>
#include <span>

#include "devices/board_protocol.hpp"
#include "devices/ccid_pn53x.hpp"

using namespace cardtable::devices;

namespace {
[[maybe_unused]] void board_frames(std::span<const std::uint8_t> in) {
  auto frame = board::parse_frame(in);
  if (frame) {
    // A well-formed frame: its payload through every payload parser, as a confused host would.
    (void)board::parse_board_info(frame.value->payload);
    for (std::size_t antennas : {std::size_t{1}, std::size_t{4}, std::size_t{16}}) {
      auto scan = board::parse_scan(frame.value->payload, antennas);
      if (scan) (void)board::encode_scan(*scan.value);
    }
    (void)board::parse_error(frame.value->payload);
  }
  // The payload parsers on raw bytes too (a fuzzer seldom gets a CRC right).
  if (!in.empty()) {
    (void)board::parse_scan(in.subspan(1), in[0] % 17);
    (void)board::parse_board_info(in);
    (void)board::parse_error(in);
  }
}

[[maybe_unused]] void ccid_frames(std::span<const std::uint8_t> in) {
  if (in.empty()) return;
  auto reply = ccid::parse_reply(in.subspan(1), in[0]);
  std::span<const std::uint8_t> data = reply ? std::span<const std::uint8_t>(reply.value->data) : in;
  (void)acr122u::parse_firmware(data);
  auto sw = acr122u::parse_status_word(data);
  std::span<const std::uint8_t> pn = sw ? std::span<const std::uint8_t>(*sw.value) : data;
  auto answer = pn53x::parse_answer(pn, pn53x::kInListPassiveTarget);
  (void)pn53x::parse_targets(answer ? std::span<const std::uint8_t>(*answer.value) : pn);
  (void)pn53x::parse_firmware_version(pn);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  CARDTABLE_FUZZ_FRAMES(std::span<const std::uint8_t>(data, size));
  return 0;
}
