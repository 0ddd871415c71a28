#include "vision/word_lines.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cardtable::vision {

Words words(std::string_view line) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  Words out;
  for (std::size_t i = 0; i < line.size();) {
    while (i < line.size() && blank(line[i])) ++i;
    std::size_t j = i;
    while (j < line.size() && !blank(line[j])) ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

void for_each_record(std::string_view text, const std::string& where,
                     const std::function<void(const std::string& at, const Words& words)>& record) {
  int line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const auto line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    const auto w = words(line);
    if (w.empty() || w[0][0] == '#') continue;
    record(where + ":" + std::to_string(line_no), w);
  }
}

bool whole_number(std::string_view word, int& out) {
  const auto [p, ec] = std::from_chars(word.data(), word.data() + word.size(), out);
  return ec == std::errc() && p == word.data() + word.size();
}

bool finite_number(std::string_view word, float& out) {
  const auto [p, ec] = std::from_chars(word.data(), word.data() + word.size(), out);
  return ec == std::errc() && p == word.data() + word.size() && std::isfinite(out);
}

std::string read_text_file(const std::filesystem::path& file, const std::string& what) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + what + " " + file.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace cardtable::vision
