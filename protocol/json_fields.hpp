// A field of a message that came over the wire, read as the type it should be or not at all: nlohmann's
// value() throws when the field is there with another type ({"severity": 5}, {"ok": "yes"}), and a table's
// event or reply of another shape must not throw out of the hub's loop or a book kept from it.
#pragma once

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

}  // namespace cardtable::protocol
