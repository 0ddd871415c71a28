// Files that must survive a power cut once the daemon has acted on them (embargoed boards, broadcast
// files): written beside, fsync'd, renamed into place, and the folder fsync'd so that the rename itself
// is on the disk (a rename is a change to the folder, which the file's own fsync does not cover).
#pragma once

#include <filesystem>
#include <string_view>

namespace cardtable::protocol {

// Writes `text` to `path` whole or not at all, durably. Throws std::runtime_error naming the file and
// the failing step.
void write_file_durably(const std::filesystem::path& path, std::string_view text);
// fsync on the folder: its entries (a file created, renamed or removed) reach the disk. Throws
// std::runtime_error naming the folder.
void sync_directory(const std::filesystem::path& dir);

}  // namespace cardtable::protocol
