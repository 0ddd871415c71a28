// CURVE key files: NAME.key holds a keypair (mode 0600), NAME.pub the public key alone (mode 0644), each
// as "public = <Z85>" / "secret = <Z85>" lines.
#pragma once

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
// True when a secret key file can be read by its owner only (like ssh, a key others can read is refused);
// otherwise false with the reason in `error` ("chmod 600 FILE").
bool secret_key_file_private(const std::filesystem::path& file, std::string& error);
// Every public key of the .pub files in a folder.
std::vector<std::string> read_public_keys(const std::filesystem::path& dir, std::string& error);

}  // namespace cardtable::protocol
