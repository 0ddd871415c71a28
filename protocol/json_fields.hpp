// A field of a message that came over the wire, read as the type it should be or not at all: nlohmann's
// value() throws when the field is there with another type ({"severity": 5}, {"ok": "yes"}), and a table's
// event or reply of another shape must not throw out of the hub's loop or a book kept from it.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace cardtable::protocol {

// The text of `key`, or `fallback` when it is missing or not text.
inline std::string string_field(const nlohmann::json& o, const char* key, const std::string& fallback = "") {
  if (!o.is_object()) return fallback;
  const auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// Whether `key` is the boolean true: missing, false or anything else is not.
inline bool is_true(const nlohmann::json& o, const char* key) {
  if (!o.is_object()) return false;
  const auto it = o.find(key);
  return it != o.end() && *it == true;
}

// A seq (or a count) given as a positive integer; 0 for anything else (missing, negative, text, a
// fraction): seqs start at 1, so 0 is "none" wherever a seq is read.
inline std::uint64_t positive_number(const nlohmann::json& j) {
  if (j.is_number_unsigned()) return j.get<std::uint64_t>();
  if (j.is_number_integer() && j.get<std::int64_t>() > 0) return static_cast<std::uint64_t>(j.get<std::int64_t>());
  return 0;
}

// The positive integer of `key` ("seq" by default), or 0 (see positive_number).
inline std::uint64_t seq_field(const nlohmann::json& o, const char* key = "seq") {
  if (!o.is_object()) return 0;
  const auto it = o.find(key);
  return it != o.end() ? positive_number(*it) : 0;
}

}  // namespace cardtable::protocol
