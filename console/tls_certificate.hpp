// A self-signed certificate for a console on the venue's network (`cardtable-console make-cert`): an
// EC P-256 key and a certificate naming the host (and its addresses) for browsers to trust once.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cardtable::console {

// Writes DIR/console.key (0600) and DIR/console.crt, valid `days`; names are DNS names or IP addresses.
// Throws std::runtime_error with the reason; refuses to overwrite.
void make_self_signed_certificate(const std::filesystem::path& dir, const std::vector<std::string>& names, int days);

}  // namespace cardtable::console
