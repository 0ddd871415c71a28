// A problem found in a record file, with the place it was found: "file:line:column: error: ...".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cardtable::bridge {

struct SourcePlace {
  std::string file;  // as given by the caller (a path, or "<stdin>")
  int line = 0;      // 1-based; 0 when the format has no lines (DUP)
  int column = 0;    // 1-based; 0 when unknown
  std::string str() const;
};

struct Diagnostic {
  enum class Severity { Error, Warning };
  Severity severity = Severity::Error;
  SourcePlace place;
  std::string message;  // says what was found and what was expected
  std::string str() const;
  bool is_error() const { return severity == Severity::Error; }
};

using Diagnostics = std::vector<Diagnostic>;

// Adds a diagnostic made member by member. gcc 12 at -O3 warns a false -Wmaybe-uninitialized on
// push_back({severity, {file, line, column}, message}) (the brace-initialized temporary's file "used
// uninitialized" on its clean-up path), which a Release -DCARDTABLE_WERROR=ON build refuses.
void add_diagnostic(Diagnostics& to, Diagnostic::Severity severity, std::string file, int line, int column, std::string message);

// A file's name without folder and extension ("dir/Round 1.pbn" -> "Round 1"): the event or session of
// records that do not name one.
std::string file_stem(std::string_view path);

}  // namespace cardtable::bridge
