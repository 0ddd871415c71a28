#pragma once
// The line-oriented text files vision/ reads and writes (zones files, deck files): one record a line,
// words split on blanks, '#' starts a comment line, and every error names the file and the line, so a
// director who edits one by hand is told where it went wrong.
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace cardtable::vision {

using Words = std::vector<std::string_view>;

// The words of one line (blanks: space, tab, and the '\r' of a file saved on Windows).
Words words(std::string_view line);

// Calls `record(at, words)` for every line that is neither blank nor a comment; `at` is "WHERE:LINE".
void for_each_record(std::string_view text, const std::string& where,
                     const std::function<void(const std::string& at, const Words& words)>& record);

// The whole word as a number, or false (trailing characters, out of range, not finite).
bool whole_number(std::string_view word, int& out);
bool finite_number(std::string_view word, float& out);

// The file's bytes; `what` names it in the error ("cannot read zones file F").
std::string read_text_file(const std::filesystem::path& file, const std::string& what);

}  // namespace cardtable::vision
