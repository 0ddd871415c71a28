// The lines of the small text files devices/ reads (the reader quirk file, deck files) as people write
// them: '#' starts a comment, blanks (and a Windows '\r') around a line are dropped, empty lines are
// skipped, and each line keeps its number for the messages that name it.
#pragma once

#include <string_view>

namespace cardtable::devices {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// while (lines.next()) { lines.line(), lines.number() }
class DataLines {
 public:
  explicit DataLines(std::string_view text) : rest_(text) {}
  bool next() {
    while (!rest_.empty()) {
      const std::size_t nl = rest_.find('\n');
      std::string_view line = rest_.substr(0, nl);
      rest_ = nl == std::string_view::npos ? std::string_view{} : rest_.substr(nl + 1);
      ++number_;
      if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
      line_ = trim(line);
      if (!line_.empty()) return true;
    }
    return false;
  }
  std::string_view line() const { return line_; }
  int number() const { return number_; }  // 1-based, counting the skipped lines too

 private:
  std::string_view rest_, line_;
  int number_ = 0;
};

}  // namespace cardtable::devices
