// Finished boards as vugraph software wants them: LIN (a pc per card) and PBN (the Play section and,
// when known, Contract, Declarer and Result), in one folder, one pair of files per board. Fed with the
// board itself (bridge::BoardRecord), never with event text to parse back.
#pragma once

#include <filesystem>
#include <string>

#include "bridge/board_record.hpp"

namespace cardtable::protocol {

class BroadcastWriter {
 public:
  explicit BroadcastWriter(std::filesystem::path dir) : dir_(std::move(dir)) {}
  // Writes board-<N>-<session>.lin and .pbn (replacing a previous pair) and returns the .pbn's path;
  // throws std::runtime_error naming the file when it cannot be written.
  std::filesystem::path write(const bridge::BoardRecord& board) const;
  std::filesystem::path stem_of(const bridge::BoardRecord& board) const;

 private:
  std::filesystem::path dir_;
};

}  // namespace cardtable::protocol
