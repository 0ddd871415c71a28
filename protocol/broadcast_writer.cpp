#include "protocol/broadcast_writer.hpp"

#include <cctype>
#include <fstream>
#include <stdexcept>

#include "bridge/lin_format.hpp"
#include "bridge/pbn_writer.hpp"

namespace cardtable::protocol {
namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& p, const std::string& text) {
  // Written beside and renamed: a vugraph reader never sees half a file.
  fs::path tmp = p.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error(tmp.string() + ": cannot write");
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  if (ec) throw std::runtime_error(p.string() + ": " + ec.message());
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
