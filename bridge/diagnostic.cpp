#include "bridge/diagnostic.hpp"

namespace cardtable::bridge {

std::string SourcePlace::str() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  if (line > 0 && column > 0) out += ":" + std::to_string(column);
  return out;
}

std::string Diagnostic::str() const {
  return place.str() + (severity == Severity::Error ? ": error: " : ": warning: ") + message;
}

}  // namespace cardtable::bridge
