#include "counted_words.hpp"

namespace cardtable::tools {

std::string counted(std::uint64_t n, std::string_view noun) {
  std::string out = std::to_string(n);
  out += ' ';
  out += noun;
  if (n != 1) out += 's';
  return out;
}

std::string seq_run(std::uint64_t first, std::uint64_t last) {
  // Appended: gcc 12 at -O3 warns a false -Wrestrict on "..." + std::string (see since_plan.cpp).
  std::string out = "#";
  out += std::to_string(first);
  if (last == first) return out;
  out += " to #";
  out += std::to_string(last);
  return out;
}

std::string events_numbered(std::uint64_t first, std::uint64_t last) {
  std::string out = first == last ? "event " : "events ";
  out += seq_run(first, last);
  return out;
}

}  // namespace cardtable::tools
