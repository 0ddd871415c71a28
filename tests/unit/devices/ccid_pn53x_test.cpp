// CCID, ACR122U and PN53x frames against the byte sequences of the ACS API manual and NXP's user manual.
#include <gtest/gtest.h>

#include "devices/ccid_pn53x.hpp"

namespace cardtable::devices {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(Ccid, XfrBlockCarriesTheApduAfterATenByteHeader) {
  // ACR122U Get Firmware in a PC_to_RDR_XfrBlock, bSeq 1.
  EXPECT_EQ(ccid::xfr_block(1, acr122u::get_firmware()), (Bytes{0x6F, 0x05, 0, 0, 0, 0x00, 0x01, 0, 0, 0, 0xFF, 0x00, 0x48, 0x00, 0x00}));
}

TEST(Ccid, DataBlockWithTheFirmwareStringParses) {
  Bytes reply = {0x80, 0x0A, 0, 0, 0, 0x00, 0x01, 0x00, 0x00, 0x00, 'A', 'C', 'R', '1', '2', '2', 'U', '2', '0', '7'};
  auto r = ccid::parse_reply(reply, 1);
  ASSERT_TRUE(r) << r.detail;
  auto fw = acr122u::parse_firmware(r.value->data);
  ASSERT_TRUE(fw);
  EXPECT_EQ(*fw.value, "ACR122U207");
}

TEST(Ccid, ReplyToAnotherSequenceIsOutOfSequence) {
  Bytes reply = ccid::encode_reply(ccid::Reply{0x80, 0, 4, 0, 0, {0x90, 0x00}});
  EXPECT_EQ(ccid::parse_reply(reply, 5).error, FrameError::OutOfSequence);
}

TEST(Ccid, LengthBeyondTheBytesIsShortAndFailedCommandIsFailed) {
  Bytes reply = ccid::encode_reply(ccid::Reply{0x80, 0, 1, 0, 0, {0x90, 0x00}});
  reply.pop_back();
  EXPECT_EQ(ccid::parse_reply(reply, 1).error, FrameError::Short);
  EXPECT_EQ(ccid::parse_reply(ccid::encode_reply(ccid::Reply{0x80, 0, 1, 0x40, 0xFE, {}}), 1).error, FrameError::Failed);
  EXPECT_EQ(ccid::parse_reply(Bytes{0x80, 0xFF, 0xFF, 0xFF, 0x7F, 0, 1, 0, 0, 0}, 1).error, FrameError::Garbage);
}

TEST(Acr122u, DirectTransmitWrapsAPn53xCommand) {
  EXPECT_EQ(acr122u::direct_transmit(pn53x::in_list_passive_target(1)), (Bytes{0xFF, 0x00, 0x00, 0x00, 0x04, 0xD4, 0x4A, 0x01, 0x00}));
}

TEST(Acr122u, StatusWord6300IsAFailure) {
  EXPECT_EQ(acr122u::parse_status_word(Bytes{0x63, 0x00}).error, FrameError::Failed);
  auto ok = acr122u::parse_status_word(Bytes{0xD5, 0x4B, 0x00, 0x90, 0x00});
  ASSERT_TRUE(ok);
  EXPECT_EQ(*ok.value, (Bytes{0xD5, 0x4B, 0x00}));
}

TEST(Pn53x, InListPassiveTargetAnswerForAnNtagGivesItsSevenByteUid) {
  // UM0701-02 InListPassiveTarget 106 kbps type A: NbTg 1, Tg 1, SENS_RES 00 44, SEL_RES 00, NFCID1 of 7.
  Bytes answer = {0xD5, 0x4B, 0x01, 0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6};
  auto p = pn53x::parse_answer(answer, pn53x::kInListPassiveTarget);
  ASSERT_TRUE(p);
  auto t = pn53x::parse_targets(*p.value);
  ASSERT_TRUE(t) << t.detail;
  ASSERT_EQ(t.value->size(), 1u);
  EXPECT_EQ((*t.value)[0].uid.str(), "04A1B2C3D4E5F6");
  EXPECT_EQ((*t.value)[0].sens_res, 0x0044);
}

TEST(Pn53x, Iso14443FourTargetSkipsItsAts) {
  Bytes params = {0x01, 0x01, 0x03, 0x44, 0x20, 0x07, 1, 2, 3, 4, 5, 6, 7, 0x05, 0x75, 0x77, 0x81, 0x02};
  auto t = pn53x::parse_targets(params);
  ASSERT_TRUE(t) << t.detail;
  EXPECT_EQ((*t.value)[0].uid.str(), "01020304050607");
}

TEST(Pn53x, NoTargetIsAnEmptyListAndNonsenseIsRejected) {
  auto none = pn53x::parse_targets(Bytes{0x00});
  ASSERT_TRUE(none);
  EXPECT_TRUE(none.value->empty());
  EXPECT_EQ(pn53x::parse_targets(Bytes{0x03}).error, FrameError::Garbage);
  EXPECT_EQ(pn53x::parse_targets(Bytes{0x01, 0x01, 0x00, 0x44, 0x00, 0x07, 1, 2}).error, FrameError::Short);
  EXPECT_EQ(pn53x::parse_answer(Bytes{0xD5, 0x03}, pn53x::kInListPassiveTarget).error, FrameError::OutOfSequence);
  EXPECT_EQ(pn53x::parse_firmware_version(Bytes{0x32, 0x01}).error, FrameError::Short);
}

}  // namespace
}  // namespace cardtable::devices
