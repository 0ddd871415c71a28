#include "protocol/curve_keys.hpp"

#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include <algorithm>
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

ProcessIds ProcessIds::current() {
  ProcessIds ids;
  ids.uid = ::geteuid();
  ids.gid = ::getegid();
  int n = ::getgroups(0, nullptr);
  if (n > 0) {
    ids.groups.resize(static_cast<std::size_t>(n));
    n = ::getgroups(n, ids.groups.data());
    ids.groups.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  }
  return ids;
}

namespace {

std::string group_name(gid_t gid) {
  struct group gr{};
  struct group* found = nullptr;
  std::vector<char> buf(4096);
  if (::getgrgid_r(gid, &gr, buf.data(), buf.size(), &found) == 0 && found != nullptr) return found->gr_name;
  return std::to_string(gid);
}

}  // namespace

bool secret_key_file_private(const fs::path& file, std::string& error, const ProcessIds& ids) {
  struct stat st{};
  if (::stat(file.c_str(), &st) != 0) {
    error = file.string() + ": " + std::strerror(errno);
    return false;
  }
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  const std::string f = file.string();
  if ((st.st_mode & 007) != 0) {
    error = f + ": the secret key can be read or written by others (mode " + mode + "); chmod 600 " + f +
            " (owner only), or chmod 640 with the service's group (chgrp " + group_name(ids.gid) + ")";
    return false;
  }
  if ((st.st_mode & 030) != 0) {
    error = f + ": the secret key's group (" + group_name(st.st_gid) + ") may write or execute it (mode " + mode + "); chmod 640 " + f;
    return false;
  }
  if ((st.st_mode & 040) == 0) return true;  // 0600 or 0400: its owner's alone
  // Readable by its group: only the reading process's own group (the service's), with root or the
  // process itself owning the file.
  const bool our_group = st.st_gid == ids.gid || std::find(ids.groups.begin(), ids.groups.end(), st.st_gid) != ids.groups.end();
  if (!our_group) {
    error = f + ": the secret key can be read by group " + group_name(st.st_gid) + " (mode " + mode +
            "), which this process is not in; chgrp " + group_name(ids.gid) + " " + f + ", or chmod 600 " + f;
    return false;
  }
  if (st.st_uid != 0 && st.st_uid != ids.uid) {
    error = f + ": the secret key is readable by its group but owned by uid " + std::to_string(st.st_uid) +
            ", neither root nor this process; chown root " + f;
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
