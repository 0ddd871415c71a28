#include "protocol/curve_keys.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace cardtable::protocol {
namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& p, const std::string& text, mode_t mode) {
  // O_EXCL: never overwrite a key; the mode is set at creation, so the secret is never readable by others.
  int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) throw std::runtime_error(p.string() + ": " + std::strerror(errno));
  ssize_t n = ::write(fd, text.data(), text.size());
  ::fchmod(fd, mode);  // whatever the umask said
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size())) throw std::runtime_error(p.string() + ": short write");
}

std::string value_of(const std::string& line) {
  auto eq = line.find('=');
  if (eq == std::string::npos) return {};
  std::string v = line.substr(eq + 1);
  while (!v.empty() && (v.front() == ' ' || v.front() == '"')) v.erase(0, 1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '"' || v.back() == '\r')) v.pop_back();
  return v;
}

}  // namespace

Keypair write_keypair(const fs::path& dir, const std::string& name) {
  char pub[41] = {}, sec[41] = {};
  if (zmq_curve_keypair(pub, sec) != 0) throw std::runtime_error(std::string("zmq_curve_keypair: ") + zmq_strerror(zmq_errno()));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir.string() + ": " + ec.message());
  write_file(dir / (name + ".key"), "# cardtable CURVE keypair: keep secret\npublic = " + std::string(pub) + "\nsecret = " + sec + "\n", 0600);
  write_file(dir / (name + ".pub"), "# cardtable CURVE public key\npublic = " + std::string(pub) + "\n", 0644);
  return {pub, sec};
}

std::optional<Keypair> read_key_file(const fs::path& file, std::string& error) {
  std::ifstream in(file);
  if (!in) {
    error = file.string() + ": cannot read";
    return std::nullopt;
  }
  Keypair k;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("public")) k.public_key = value_of(line);
    if (line.starts_with("secret")) k.secret_key = value_of(line);
  }
  if (k.public_key.size() != 40 || (!k.secret_key.empty() && k.secret_key.size() != 40)) {
    error = file.string() + ": not a key file (expected \"public = <40 characters of Z85>\")";
    return std::nullopt;
  }
  return k;
}

bool secret_key_file_private(const fs::path& file, std::string& error) {
  struct stat st{};
  if (::stat(file.c_str(), &st) != 0) {
    error = file.string() + ": " + std::strerror(errno);
    return false;
  }
  if ((st.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    error = file.string() + ": the secret key can be read or written by others (mode " + mode + "); chmod 600 " + file.string();
    return false;
  }
  return true;
}

std::vector<std::string> read_public_keys(const fs::path& dir, std::string& error) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".pub") continue;
    auto k = read_key_file(e.path(), error);
    if (!k) return {};
    out.push_back(k->public_key);
  }
  if (ec) error = dir.string() + ": " + ec.message();
  return out;
}

}  // namespace cardtable::protocol
