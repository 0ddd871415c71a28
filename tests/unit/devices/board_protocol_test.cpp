// The reader-board frames, checked against the byte examples of docs/hardware.md (written out by hand
// there, so the parser is not only checked against its own encoder).
#include <gtest/gtest.h>

#include "devices/board_protocol.hpp"

namespace cardtable::devices::board {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(BoardCrc, IsCcittFalseWhoseCheckValueIs29B1) {
  const std::string check = "123456789";
  EXPECT_EQ(crc16(Bytes(check.begin(), check.end())), 0x29B1);
}

TEST(BoardFrame, ScanRequestOfTheDocsParses) {
  // docs/hardware.md, "Example: a poll": SCAN, seq 7, no payload.
  Bytes scan = {0x43, 0x54, 0x01, 0x02, 0x07, 0x00, 0x00, 0x00};
  std::uint16_t crc = crc16(scan);
  scan.push_back(static_cast<std::uint8_t>(crc & 0xFF));
  scan.push_back(static_cast<std::uint8_t>(crc >> 8));
  EXPECT_EQ(scan, encode(FrameType::Scan, 7));
  auto f = parse_frame(scan);
  ASSERT_TRUE(f) << f.detail;
  EXPECT_EQ(f.value->header.type, FrameType::Scan);
  EXPECT_EQ(f.value->header.seq, 7);
  EXPECT_TRUE(f.value->payload.empty());
}

TEST(BoardFrame, ScanReplyWithOneTagOnAntennaOneOfTwo) {
  // counter 0x12, two antennas; antenna 0 empty; antenna 1 one 7-byte UID at strength 0x80.
  Bytes payload = {0x12, 0x00, 0x00, 0x00, 0x02,
                   0x00, 0x00, 0x00,
                   0x01, 0x00, 0x01, 0x07, 0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6, 0x80};
  auto s = parse_scan(payload, 2);
  ASSERT_TRUE(s) << s.detail;
  EXPECT_EQ(s.value->scan, 0x12u);
  ASSERT_EQ(s.value->antennas.size(), 2u);
  EXPECT_TRUE(s.value->antennas[0].tags.empty());
  ASSERT_EQ(s.value->antennas[1].tags.size(), 1u);
  EXPECT_EQ(s.value->antennas[1].tags[0].uid.str(), "04A1B2C3D4E5F6");
  EXPECT_EQ(s.value->antennas[1].tags[0].strength, 0x80);
  EXPECT_EQ(encode_scan(*s.value), payload);
}

TEST(BoardFrame, EveryCutOfAGoodFrameIsShortNeverACrash) {
  Bytes payload = encode_board_info(BoardInfo{1, 4, 4, {1, 0, 0}, 20});
  Bytes good = encode(FrameType::HelloReply, 1, payload);
  for (std::size_t n = 0; n < good.size(); ++n) {
    auto f = parse_frame(std::span(good).first(n));
    EXPECT_FALSE(f);
    EXPECT_EQ(f.error, FrameError::Short) << n;
  }
  EXPECT_TRUE(parse_frame(good));
}

TEST(BoardFrame, FlippedBitIsACrcMismatch) {
  Bytes good = encode(FrameType::ScanReply, 3, encode_scan(ScanResult{1, {{0, 0, {}}}}));
  good[9] ^= 0x01;
  EXPECT_EQ(parse_frame(good).error, FrameError::Crc);
}

TEST(BoardFrame, BadMagicUnknownTypeAndTrailingBytesAreGarbage) {
  Bytes f = encode(FrameType::Scan, 1);
  Bytes bad_magic = f;
  bad_magic[0] = 'X';
  EXPECT_EQ(parse_frame(bad_magic).error, FrameError::Garbage);
  Bytes bad_type = encode(FrameType::Scan, 1);
  bad_type[3] = 0x55;
  EXPECT_EQ(parse_frame(bad_type).error, FrameError::Garbage);
  Bytes trailing = f;
  trailing.push_back(0);
  EXPECT_EQ(parse_frame(trailing).error, FrameError::Garbage);
}

TEST(BoardScan, AntennaOutOfRangeTwiceOrWithUnknownFlagsIsGarbage) {
  EXPECT_EQ(parse_scan(Bytes{1, 0, 0, 0, 1, 5, 0, 0}, 1).error, FrameError::Garbage);
  EXPECT_EQ(parse_scan(Bytes{1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0}, 2).error, FrameError::Garbage);
  EXPECT_EQ(parse_scan(Bytes{1, 0, 0, 0, 1, 0, 0x80, 0}, 1).error, FrameError::Garbage);
  EXPECT_EQ(parse_scan(Bytes{1, 0, 0, 0, 1, 0, 0, 1, 5, 1, 2, 3, 4, 5, 9}, 1).error, FrameError::Garbage);  // UID of 5 bytes
  EXPECT_EQ(parse_scan(Bytes{1, 0, 0, 0, 1, 0, 0, 1, 4, 1, 2}, 1).error, FrameError::Short);
}

TEST(BoardHello, AntennaCountOutsideOneToSixteenIsGarbage) {
  EXPECT_EQ(parse_board_info(encode_board_info(BoardInfo{1, 0, 4, {}, 0})).error, FrameError::Garbage);
  EXPECT_EQ(parse_board_info(encode_board_info(BoardInfo{1, 17, 4, {}, 0})).error, FrameError::Garbage);
  EXPECT_TRUE(parse_board_info(encode_board_info(BoardInfo{1, 16, 8, {}, 0})));
  EXPECT_EQ(parse_board_info(Bytes{1, 4}).error, FrameError::Short);
}

}  // namespace
}  // namespace cardtable::devices::board
