#include <gtest/gtest.h>

#include "bridge/text_encoding.hpp"

using namespace cardtable::bridge;

TEST(TextEncoding, Utf8PassesThroughAndLatin1IsDecoded) {
  std::string storage;
  EXPECT_EQ(as_utf8("Z\xC3\xBCrich", storage), "Z\xC3\xBCrich");
  EXPECT_EQ(as_utf8("Z\xFCrich", storage), "Z\xC3\xBCrich");
  EXPECT_EQ(as_utf8("\xEF\xBB\xBFok", storage), "ok");
  EXPECT_FALSE(is_valid_utf8("\xC3"));
  EXPECT_FALSE(is_valid_utf8("\xFF"));
}

TEST(TextEncoding, CharsetDirectiveSelectsLatin2) {
  std::string storage;
  // 0xB3 is l-stroke in ISO-8859-2, superscript three in ISO-8859-1.
  EXPECT_EQ(as_utf8("%Content-type: text/x-pbn; charset=ISO-8859-2\n\xB3", storage),
            "%Content-type: text/x-pbn; charset=ISO-8859-2\n\xC5\x82");
  EXPECT_EQ(as_utf8("\xB3", storage), "\xC2\xB3");
}
