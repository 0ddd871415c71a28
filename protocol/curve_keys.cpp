#include "protocol/curve_keys.hpp"

#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string_view>
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

namespace {

// Key files are a few lines: a file much longer is not one, and is not read to its end (/dev/zero).
constexpr std::size_t kMostKeyFileBytes = 64 * 1024;

// A folder, a device or a pipe given as a key file.
std::string not_a_key_file(const std::string& f, const struct stat& st) {
  return f + (S_ISDIR(st.st_mode) ? ": a directory, not a key file" : ": not a regular file (a device or a pipe), not a key file");
}

struct KeyFileText {
  struct stat st{};
  std::string text;
};

// Opens a key file once and reads it whole: its mode (for the secret's check) and its text come from the
// same file, not from two opens of a path that may change between them.
std::optional<KeyFileText> open_key_file(const fs::path& file, std::string& error) {
  if (file.empty()) {
    error = "(an empty file name): no key file named";
    return std::nullopt;
  }
  const std::string f = file.string();
  // O_NONBLOCK: a FIFO given as a key file is refused below instead of waiting for ever for a writer.
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    error = f + ": " + std::strerror(errno);
    return std::nullopt;
  }
  KeyFileText k;
  if (::fstat(fd, &k.st) != 0 || !S_ISREG(k.st.st_mode)) {
    error = not_a_key_file(f, k.st);
    ::close(fd);
    return std::nullopt;
  }
  char buf[4096];
  ssize_t n = 0;
  while (k.text.size() <= kMostKeyFileBytes && (n = ::read(fd, buf, sizeof buf)) > 0) k.text.append(buf, static_cast<std::size_t>(n));
  const int read_errno = errno;
  ::close(fd);
  if (n < 0) {
    error = f + ": " + std::strerror(read_errno);
    return std::nullopt;
  }
  if (k.text.size() > kMostKeyFileBytes) {
    error = f + ": longer than 64 KiB, too long for a key file";
    return std::nullopt;
  }
  return k;
}

}  // namespace

// zmq_setsockopt refuses other text with EINVAL, which cppzmq throws where the key is used, long after
// the file was read (cardtablectl ended with "terminate called"). A NUL inside passed zmq's own decoding.
std::string key_problem(const char* which, const std::string& text) {
  static constexpr std::string_view kZ85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
  if (text.size() != 40)
    return std::string("the ") + which + " key is " + std::to_string(text.size()) + " characters, not 40 (cut short, or not a key)";
  std::uint8_t bytes[32];
  if (text.find_first_not_of(kZ85) != std::string::npos || zmq_z85_decode(bytes, text.c_str()) == nullptr)
    return std::string("the ") + which + " key is not Z85 (characters outside Z85's 85, or garbage)";
  return {};
}

namespace {

std::optional<Keypair> parse_key_file(const fs::path& file, const std::string& text, std::string& error) {
  const std::string f = file.string();
  const char* expected = " (expected \"public = <40 characters of Z85>\", as cardtablectl keygen writes)";
  if (text.empty()) {
    error = f + ": empty, not a key file" + expected;
    return std::nullopt;
  }
  Keypair k;
  bool has_public = false;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::string name = line.substr(0, line.find('='));
    while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
    if (name == "public") {
      k.public_key = value_of(line);
      has_public = true;
    }
    if (name == "secret") k.secret_key = value_of(line);
  }
  if (!has_public) {
    error = f + ": no \"public = \" line, not a key file" + expected;
    return std::nullopt;
  }
  std::string why = key_problem("public", k.public_key);
  if (why.empty() && !k.secret_key.empty()) why = key_problem("secret", k.secret_key);  // said without the secret's text
  if (why.empty() && !k.secret_key.empty()) {
    // A keypair whose halves differ (lines pasted from two files): the server would refuse every handshake.
    char derived[41] = {};
    if (zmq_curve_public(derived, k.secret_key.c_str()) != 0 || k.public_key != derived)
      why = "its public key is not the secret key's (lines from two keypairs?)";
  }
  if (!why.empty()) {
    error = f + ": " + why;
    return std::nullopt;
  }
  return k;
}

}  // namespace

std::optional<Keypair> read_key_file(const fs::path& file, std::string& error) {
  auto k = open_key_file(file, error);
  if (!k) return std::nullopt;
  return parse_key_file(file, k->text, error);
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

namespace {

// secret_key_file_private on a file's stat.
bool private_mode(const fs::path& file, const struct stat& st, std::string& error, const ProcessIds& ids, SecretKeyReader reader) {
  const std::string f = file.string();
  if (!S_ISREG(st.st_mode)) {
    error = not_a_key_file(f, st);
    return false;
  }
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  if (reader == SecretKeyReader::person) {
    // As ssh wants of a private key: no bit for the group or others, whatever the group is (a laptop's
    // shared group is other people).
    if ((st.st_mode & 077) == 0) return true;
    error = f + ": the secret key can be read or written by " +
            ((st.st_mode & 007) != 0 ? std::string("others") : "its group " + group_name(st.st_gid)) + " (mode " + mode +
            "); a person's key is its owner's alone: chmod 600 " + f;
    return false;
  }
  if ((st.st_mode & 007) != 0) {
    error = f + ": the secret key can be read or written by others (mode " + mode + "); chmod 600 " + f +
            " (owner only), or chmod 640 with the service's group (chgrp " + group_name(ids.gid) + ")";
    return false;
  }
  if ((st.st_mode & 030) != 0) {
    error = f + ": the secret key's group (" + group_name(st.st_gid) + ") may write or execute it (mode " + mode + "); chmod 640 " + f + ", or chmod 600 " + f +
            " (owner only)";
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

}  // namespace

bool secret_key_file_private(const fs::path& file, std::string& error, const ProcessIds& ids, SecretKeyReader reader) {
  struct stat st{};
  if (::stat(file.c_str(), &st) != 0) {
    error = file.string() + ": " + std::strerror(errno);
    return false;
  }
  return private_mode(file, st, error, ids, reader);
}

std::optional<Keypair> read_secret_key_file(const fs::path& file, std::string& error, SecretKeyReader reader, const ProcessIds& ids) {
  auto k = open_key_file(file, error);
  if (!k || !private_mode(file, k->st, error, ids, reader)) return std::nullopt;
  auto keys = parse_key_file(file, k->text, error);
  if (keys && keys->secret_key.empty()) {
    error = file.string() + ": holds no secret key (a .pub file?)";
    return std::nullopt;
  }
  return keys;
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
