#include "bridge/record_file.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "bridge/duplimate_formats.hpp"
#include "bridge/lin_format.hpp"
#include "bridge/pbn_writer.hpp"

namespace cardtable::bridge {
namespace fs = std::filesystem;

std::optional<RecordFormat> parse_format(std::string_view name) {
  std::string n;
  for (char c : name) n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n == "pbn") return RecordFormat::Pbn;
  if (n == "lin") return RecordFormat::Lin;
  if (n == "dup") return RecordFormat::Dup;
  if (n == "dlm") return RecordFormat::Dlm;
  return std::nullopt;
}

std::string_view format_name(RecordFormat f) {
  switch (f) {
    case RecordFormat::Pbn: return "pbn";
    case RecordFormat::Lin: return "lin";
    case RecordFormat::Dup: return "dup";
    case RecordFormat::Dlm: return "dlm";
  }
  return "?";
}

std::optional<RecordFormat> format_of(const fs::path& path) {
  std::string ext = path.extension().string();
  if (ext.size() < 2) return std::nullopt;
  return parse_format(std::string_view(ext).substr(1));
}

std::vector<fs::path> record_files(const fs::path& path, Diagnostics& diagnostics) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file(ec) && format_of(it->path())) out.push_back(it->path());
    std::sort(out.begin(), out.end());
    if (out.empty())
      add_diagnostic(diagnostics, Diagnostic::Severity::Error, path.string(), 0, 0, "no .pbn, .lin, .dup or .dlm file in this folder");
  } else if (fs::exists(path, ec)) {
    // Read whole, so only a regular file: a FIFO held the daemon's loop until something wrote to it.
    if (!fs::is_regular_file(path, ec))
      add_diagnostic(diagnostics, Diagnostic::Severity::Error, path.string(), 0, 0, "not a regular file (a pipe, a device...): not read");
    else if (!format_of(path))
      add_diagnostic(diagnostics, Diagnostic::Severity::Error, path.string(), 0, 0,
                     "unknown record format (expected a .pbn, .lin, .dup or .dlm file)");
    else
      out.push_back(path);
  } else {
    add_diagnostic(diagnostics, Diagnostic::Severity::Error, path.string(), 0, 0, "no such file or folder");
  }
  return out;
}

void read_record_file(const fs::path& path, const BoardSink& sink, Diagnostics& diagnostics) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    add_diagnostic(diagnostics, Diagnostic::Severity::Error, path.string(), 0, 0, "cannot open the file for reading");
    return;
  }
  if (format_of(path).value_or(RecordFormat::Pbn) == RecordFormat::Pbn) {  // the big ones: streamed
    read_pbn(in, path.string(), sink, diagnostics);
    return;
  }
  std::string bytes;
  in.seekg(0, std::ios::end);
  auto size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size > 0) {
    bytes.resize(static_cast<std::size_t>(size));
    in.read(bytes.data(), size);
  }
  std::string name = path.string();
  switch (format_of(path).value_or(RecordFormat::Pbn)) {
    case RecordFormat::Pbn: read_pbn(bytes, name, sink, diagnostics); break;
    case RecordFormat::Lin: read_lin(bytes, name, sink, diagnostics); break;
    case RecordFormat::Dup:
    case RecordFormat::Dlm: {
      RecordSet set = format_of(path) == RecordFormat::Dup ? read_dup(bytes, name) : read_dlm(bytes, name);
      for (BoardRecord& r : set.boards) sink(std::move(r));
      diagnostics.insert(diagnostics.end(), set.diagnostics.begin(), set.diagnostics.end());
      break;
    }
  }
}

RecordSet read_record_file(const fs::path& path) {
  RecordSet out;
  read_record_file(path, [&](BoardRecord&& r) { out.boards.push_back(std::move(r)); }, out.diagnostics);
  return out;
}

RecordSet read_records(const std::vector<fs::path>& paths) {
  RecordSet out;
  for (const fs::path& p : paths)
    for (const fs::path& f : record_files(p, out.diagnostics))
      read_record_file(f, [&](BoardRecord&& r) { out.boards.push_back(std::move(r)); }, out.diagnostics);
  return out;
}

std::string write_records(const std::vector<BoardRecord>& records, RecordFormat format) {
  switch (format) {
    case RecordFormat::Pbn: return write_pbn(records);
    case RecordFormat::Lin: return write_lin(records);
    case RecordFormat::Dup: return write_dup(records);
    case RecordFormat::Dlm: return write_dlm(records);
  }
  return {};
}

}  // namespace cardtable::bridge
