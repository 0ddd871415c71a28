// CURVE key files: NAME.key holds a keypair (mode 0600, or 0640 root:GROUP for a service; see
// secret_key_file_private), NAME.pub the public key alone (mode 0644), each
// as "public = <Z85>" / "secret = <Z85>" lines.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cardtable::protocol {

struct Keypair {
  std::string public_key;  // 40 characters of Z85
  std::string secret_key;
};

// Creates a keypair and writes DIR/NAME.key and DIR/NAME.pub; refuses to overwrite. Throws
// std::runtime_error with the path and reason.
Keypair write_keypair(const std::filesystem::path& dir, const std::string& name);
// Reads a .key file (both keys) or a .pub file (public only); nullopt with the reason in `error`.
std::optional<Keypair> read_key_file(const std::filesystem::path& file, std::string& error);
// Who reads a secret key: a process's user, primary group and supplementary groups.
struct ProcessIds {
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;
  static ProcessIds current();  // geteuid(), getegid(), getgroups()
};
// True when a secret key file is private to the process that reads it; otherwise false with the reason
// (and the chmod/chgrp that fixes it) in `error`. Accepted: mode 0600 or 0400 (its owner alone), or the
// Debian pattern for a service's secret, 0640/0440 owned by root or by `ids.uid` with a group that is
// `ids.gid` or one of `ids.groups` (root:cardtable for cardtabled and cardtable-hub, which run as group
// cardtable). Refused: any bit for others (like ssh), a group that may write or execute it, a group the
// process is not in, and a group-readable key owned by a third user.
bool secret_key_file_private(const std::filesystem::path& file, std::string& error,
                             const ProcessIds& ids = ProcessIds::current());
// Every public key of the .pub files in a folder.
std::vector<std::string> read_public_keys(const std::filesystem::path& dir, std::string& error);

}  // namespace cardtable::protocol
