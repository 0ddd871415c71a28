#include "bridge/diagnostic.hpp"

namespace cardtable::bridge {

std::string SourcePlace::str() const {
  // Appended piece by piece: gcc 12 at -O3 warns a false -Wrestrict (a memcpy "overlapping" at offset -3)
  // on ":" + std::to_string(n), the const char* + string&& operator, which a Release -Werror build refuses.
  std::string out = file;
  if (line <= 0) return out;
  out += ':';
  out += std::to_string(line);
  if (column > 0) {
    out += ':';
    out += std::to_string(column);
  }
  return out;
}

std::string file_stem(std::string_view path) {
  auto slash = path.find_last_of('/');
  if (slash != std::string_view::npos) path.remove_prefix(slash + 1);
  auto dot = path.find_last_of('.');
  if (dot != std::string_view::npos && dot > 0) path = path.substr(0, dot);
  return std::string(path);
}

void add_diagnostic(Diagnostics& to, Diagnostic::Severity severity, std::string file, int line, int column, std::string message) {
  Diagnostic d;
  d.severity = severity;
  d.place.file = std::move(file);
  d.place.line = line;
  d.place.column = column;
  d.message = std::move(message);
  to.push_back(std::move(d));
}

std::string Diagnostic::str() const {
  return place.str() + (severity == Severity::Error ? ": error: " : ": warning: ") + message;
}

}  // namespace cardtable::bridge
