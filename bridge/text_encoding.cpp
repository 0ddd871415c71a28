#include "bridge/text_encoding.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>

namespace cardtable::bridge {
namespace {

// ISO-8859-2 code points for bytes 0xA0..0xFF.
constexpr std::array<std::uint16_t, 96> kLatin2 = {
    0x00A0, 0x0104, 0x02D8, 0x0141, 0x00A4, 0x013D, 0x015A, 0x00A7, 0x00A8, 0x0160, 0x015E, 0x0164, 0x0179, 0x00AD,
    0x017D, 0x017B, 0x00B0, 0x0105, 0x02DB, 0x0142, 0x00B4, 0x013E, 0x015B, 0x02C7, 0x00B8, 0x0161, 0x015F, 0x0165,
    0x017A, 0x02DD, 0x017E, 0x017C, 0x0154, 0x00C1, 0x00C2, 0x0102, 0x00C4, 0x0139, 0x0106, 0x00C7, 0x010C, 0x00C9,
    0x0118, 0x00CB, 0x011A, 0x00CD, 0x00CE, 0x010E, 0x0110, 0x0143, 0x0147, 0x00D3, 0x00D4, 0x0150, 0x00D6, 0x00D7,
    0x0158, 0x016E, 0x00DA, 0x0170, 0x00DC, 0x00DD, 0x0162, 0x00DF, 0x0155, 0x00E1, 0x00E2, 0x0103, 0x00E4, 0x013A,
    0x0107, 0x00E7, 0x010D, 0x00E9, 0x0119, 0x00EB, 0x011B, 0x00ED, 0x00EE, 0x010F, 0x0111, 0x0144, 0x0148, 0x00F3,
    0x00F4, 0x0151, 0x00F6, 0x00F7, 0x0159, 0x016F, 0x00FA, 0x0171, 0x00FC, 0x00FD, 0x0163, 0x02D9};

void append_code_point(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}


}  // namespace

bool is_valid_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    // Fast path over ASCII, eight bytes at a time.
    while (end - p >= 8) {
      std::uint64_t w;
      std::copy(p, p + 8, reinterpret_cast<unsigned char*>(&w));
      if (w & 0x8080808080808080ULL) break;
      p += 8;
    }
    if (p >= end) break;
    unsigned char c = *p;
    int extra;
    if (c < 0x80) { ++p; continue; }
    if (c >= 0xC2 && c <= 0xDF) extra = 1;
    else if (c >= 0xE0 && c <= 0xEF) extra = 2;
    else if (c >= 0xF0 && c <= 0xF4) extra = 3;
    else return false;
    if (end - p <= extra) return false;
    for (int i = 1; i <= extra; ++i)
      if ((p[i] & 0xC0) != 0x80) return false;
    p += extra + 1;
  }
  return true;
}

std::string latin_to_utf8(std::string_view text, bool latin2) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c < 0x80) out += ch;
    else if (latin2 && c >= 0xA0) append_code_point(out, kLatin2[c - 0xA0]);
    else append_code_point(out, c);
  }
  return out;
}

bool mentions_latin2(std::string_view text) {
  // Only the header matters; look at the first few kilobytes.
  std::string head(text.substr(0, 4096));
  std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return head.find("8859-2") != std::string::npos || head.find("latin2") != std::string::npos ||
         head.find("windows-1250") != std::string::npos || head.find("cp1250") != std::string::npos;
}

std::string_view as_utf8(std::string_view text, std::string& storage) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (is_valid_utf8(text)) return text;
  storage = latin_to_utf8(text, mentions_latin2(text));
  return storage;
}

}  // namespace cardtable::bridge
