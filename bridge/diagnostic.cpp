#include "bridge/diagnostic.hpp"

namespace cardtable::bridge {

std::string SourcePlace::str() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  if (line > 0 && column > 0) out += ":" + std::to_string(column);
  return out;
}

std::string file_stem(std::string_view path) {
  auto slash = path.find_last_of('/');
  if (slash != std::string_view::npos) path.remove_prefix(slash + 1);
  auto dot = path.find_last_of('.');
  if (dot != std::string_view::npos && dot > 0) path = path.substr(0, dot);
  return std::string(path);
}

std::string Diagnostic::str() const {
  return place.str() + (severity == Severity::Error ? ": error: " : ": warning: ") + message;
}

}  // namespace cardtable::bridge
