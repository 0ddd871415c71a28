// Record files on disk: which format a file is in, reading a file or a whole folder, writing a format.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bridge/pbn_reader.hpp"

namespace cardtable::bridge {

enum class RecordFormat { Pbn, Lin, Dup, Dlm };
std::optional<RecordFormat> parse_format(std::string_view name);  // "pbn", "lin", "dup", "dlm"
std::string_view format_name(RecordFormat f);
// By extension (any case); nullopt for a file that is no record.
std::optional<RecordFormat> format_of(const std::filesystem::path& path);

// The record files under a path: the file itself, or every record file in a folder (recursively,
// sorted by path). A path that does not exist or holds no record file is an error in `diagnostics`.
std::vector<std::filesystem::path> record_files(const std::filesystem::path& path, Diagnostics& diagnostics);

// Reads one file in its format; records stream to `sink`.
void read_record_file(const std::filesystem::path& path, const BoardSink& sink, Diagnostics& diagnostics);
RecordSet read_record_file(const std::filesystem::path& path);
// Reads every record file under each path.
RecordSet read_records(const std::vector<std::filesystem::path>& paths);

std::string write_records(const std::vector<BoardRecord>& records, RecordFormat format);

}  // namespace cardtable::bridge
