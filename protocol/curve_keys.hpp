// CURVE key files: NAME.key holds a keypair (mode 0600, or 0640 root:GROUP for a service; see
// secret_key_file_private), NAME.pub the public key alone (mode 0644), each
// as "public = <Z85>" / "secret = <Z85>" lines. Every program reads them here, so that a hostile file (a
// folder, a pipe, empty, cut short, garbage, text that is not Z85) is one clear error naming it.
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
// Reads a .key file (both keys) or a .pub file (public only); nullopt with the file and the reason in
// `error`: not a regular file, over 64 KiB, no "public =" line, a key that is not 40 characters of Z85, a
// secret that is not the public key's. The secret's text is never in the error.
std::optional<Keypair> read_key_file(const std::filesystem::path& file, std::string& error);
// What is wrong with a key's text ("the public key is 12 characters, not 40 ..."), or empty when zmq takes
// it: 40 characters of Z85 (ZeroMQ RFC 32). `which` names the key: "public", "secret", "table's".
std::string key_problem(const char* which, const std::string& text);
// Who reads a secret key: a process's user, primary group and supplementary groups.
struct ProcessIds {
  uid_t uid = 0;
  gid_t gid = 0;
  std::vector<gid_t> groups;
  static ProcessIds current();  // geteuid(), getegid(), getgroups()
};
// Who reads a secret key, which decides whether its group may read it.
enum class SecretKeyReader {
  service,  // a service's key (cardtabled, cardtable-hub, cardtable-console): 0600, or 0640 with its group
  person,   // a person's own key (cardtablectl): 0600 or 0400 alone, as ssh wants of a private key
};
// True when a secret key file is private to the process that reads it; otherwise false with the file, its
// mode and the chmod/chgrp that fixes it in `error`. Always refused: not a regular file, any bit for
// others (like ssh), a group that may write or execute it. For a service: accepted, mode 0600 or 0400
// (its owner alone), or the Debian pattern for a service's secret, 0640/0440 owned by root or by `ids.uid`
// with a group that is `ids.gid` or one of `ids.groups` (root:cardtable for cardtabled and cardtable-hub,
// which run as group cardtable); refused, a group the process is not in and a group-readable key owned by
// a third user. For a person: any bit for the group is refused too (a laptop's shared group is other people).
bool secret_key_file_private(const std::filesystem::path& file, std::string& error,
                             const ProcessIds& ids = ProcessIds::current(),
                             SecretKeyReader reader = SecretKeyReader::service);
// A keypair file checked by secret_key_file_private and read by read_key_file, from one open of the file;
// nullopt with the reason in `error`, also when it holds no secret key (a .pub file given).
std::optional<Keypair> read_secret_key_file(const std::filesystem::path& file, std::string& error, SecretKeyReader reader,
                                            const ProcessIds& ids = ProcessIds::current());
// Every public key of the .pub files in a folder.
std::vector<std::string> read_public_keys(const std::filesystem::path& dir, std::string& error);

}  // namespace cardtable::protocol
