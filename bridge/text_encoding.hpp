// Record files come in UTF-8 or in ISO-8859-x (PBN's default is ISO-8859-1); inside we use UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace cardtable::bridge {

bool is_valid_utf8(std::string_view text);
// Decodes ISO-8859-1, or ISO-8859-2 when `latin2` (Central European files say so in a %Content-type or
// %Charset directive), into UTF-8.
std::string latin_to_utf8(std::string_view text, bool latin2 = false);
// The text as UTF-8: itself when it is valid UTF-8 (a BOM removed), otherwise decoded into `storage`
// from ISO-8859-1 or -2 according to the file's own charset directive.
std::string_view as_utf8(std::string_view text, std::string& storage);
// Whether a file's header names a Central European charset (ISO-8859-2, windows-1250).
bool mentions_latin2(std::string_view header);

}  // namespace cardtable::bridge
