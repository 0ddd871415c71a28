#include "protocol/broadcast_writer.hpp"

#include <cctype>
#include <stdexcept>

#include "bridge/lin_format.hpp"
#include "bridge/pbn_writer.hpp"
#include "protocol/durable_file.hpp"

namespace cardtable::protocol {
namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& p, const std::string& text) {
  // Written beside and renamed (a vugraph reader never sees half a file), and synced with its folder: a
  // board's files, once written, survive a power cut.
  write_file_durably(p, text);
}

}  // namespace

fs::path BroadcastWriter::stem_of(const bridge::BoardRecord& r) const {
  std::string stem = "board-" + std::to_string(r.board) + "-" + (r.session.empty() ? "x" : r.session);
  for (char& ch : stem)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-') ch = '_';
  return dir_ / stem;
}

fs::path BroadcastWriter::write(const bridge::BoardRecord& r) const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error(dir_.string() + ": " + ec.message());
  fs::path stem = stem_of(r);
  write_file(stem.string() + ".lin", bridge::write_lin({r}));
  fs::path pbn = stem.string() + ".pbn";
  write_file(pbn, bridge::write_pbn({r}));
  return pbn;
}

}  // namespace cardtable::protocol
