#include "logins.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace cardtable::console {

namespace {

std::string hex(const unsigned char* p, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}
std::optional<std::string> unhex(const std::string& s) {
  if (s.size() % 2) return std::nullopt;
  std::string out;
  for (std::size_t i = 0; i < s.size(); i += 2) {
    auto v = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
    int a = v(s[i]), b = v(s[i + 1]);
    if (a < 0 || b < 0) return std::nullopt;
    out += static_cast<char>(a * 16 + b);
  }
  return out;
}
std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> b(bytes);
  if (RAND_bytes(b.data(), static_cast<int>(bytes)) != 1) throw std::runtime_error("no random bytes from OpenSSL");
  return hex(b.data(), bytes);
}
std::string pbkdf2(const std::string& password, const std::string& salt, int iterations) {
  unsigned char key[32];
  if (PKCS5_PBKDF2_HMAC(password.data(), static_cast<int>(password.size()), reinterpret_cast<const unsigned char*>(salt.data()),
                        static_cast<int>(salt.size()), iterations, EVP_sha256(), sizeof key, key) != 1)
    throw std::runtime_error("PBKDF2 failed");
  return std::string(reinterpret_cast<char*>(key), sizeof key);
}

}  // namespace

std::string Logins::hash_password(const std::string& password, int iterations) {
  std::string salt = *unhex(random_hex(16));
  std::string key = pbkdf2(password, salt, iterations);
  return "pbkdf2-sha256$" + std::to_string(iterations) + "$" + hex(reinterpret_cast<const unsigned char*>(salt.data()), salt.size()) +
         "$" + hex(reinterpret_cast<const unsigned char*>(key.data()), key.size());
}

Logins Logins::load(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot read the logins file");
  Logins l;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    auto where = [&] { return file.string() + ":" + std::to_string(n) + ": "; };
    if (auto hash = line.find('#'); hash == 0) continue;
    std::istringstream words(line);
    std::string name, role, h, extra;
    if (!(words >> name)) continue;
    if (!(words >> role >> h) || (words >> extra)) throw std::runtime_error(where() + "expected NAME ROLE HASH");
    if (role != "director" && role != "broadcaster") throw std::runtime_error(where() + "role '" + role + "': director or broadcaster");
    std::vector<std::string> parts;
    std::stringstream hs(h);
    for (std::string p; std::getline(hs, p, '$');) parts.push_back(p);
    User u;
    u.role = role;
    try {
      if (parts.size() != 4 || parts[0] != "pbkdf2-sha256") throw std::invalid_argument("scheme");
      u.iterations = std::stoi(parts[1]);
      if (u.iterations < 1000) throw std::invalid_argument("iterations");
    } catch (const std::exception&) {
      throw std::runtime_error(where() + "the hash is not pbkdf2-sha256$ITERATIONS(>=1000)$SALT$KEY (cardtable-console hash-password)");
    }
    if (u.iterations > kMostIterations)
      throw std::runtime_error(where() + std::to_string(u.iterations) + " iterations: at most " + std::to_string(kMostIterations) +
                               " (each login would hold every page of the console that long)");
    auto salt = unhex(parts[2]), key = unhex(parts[3]);
    if (!salt || !key || key->size() != 32) throw std::runtime_error(where() + "salt or key is not hex of the right length");
    u.salt = *salt;
    u.key = *key;
    if (!l.users_.emplace(name, u).second) throw std::runtime_error(where() + "'" + name + "' is there twice");
  }
  std::map<int, int> counts;
  for (const auto& [name, u] : l.users_) ++counts[u.iterations];
  int most = 0;
  for (const auto& [iterations, n] : counts)
    if (n > most) {
      most = n;
      l.decoy_iterations_ = iterations;
    }
  return l;
}

bool Logins::limited(const std::string& who, Clock::time_point now, int& retry_after) {
  auto& q = failures_[who];
  while (!q.empty() && now - q.front() > kFailureWindow) q.pop_front();
  if (static_cast<int>(q.size()) < kFailuresAllowed) return false;
  retry_after = static_cast<int>(std::chrono::duration_cast<std::chrono::seconds>(q.front() + kFailureWindow - now).count()) + 1;
  return true;
}

Logins::Result Logins::login(const std::string& name, const std::string& password, const std::string& client, Clock::time_point now) {
  int retry = 0;
  // Checked before the password, so a limited guesser learns nothing and costs no PBKDF2 time. A name's
  // limit stops only an address that has failed itself within the window: applied to every address, any
  // machine on the venue's network could lock the director out by guessing five times a minute.
  // Guessers on many machines still get one try each at a limited name.
  const std::string by_address = "addr:" + client;
  if (limited(by_address, now, retry)) return {Outcome::rate_limited, {}, {}, retry};
  if (auto own = failures_.find(by_address); own != failures_.end() && !own->second.empty() && limited("name:" + name, now, retry))
    return {Outcome::rate_limited, {}, {}, retry};
  auto it = users_.find(name);
  bool ok = false;
  if (it != users_.end()) {
    std::string key = pbkdf2(password, it->second.salt, it->second.iterations);
    ok = CRYPTO_memcmp(key.data(), it->second.key.data(), key.size()) == 0;
  } else {
    // The same time whether or not the name exists: a fixed 100000 against the staff's 200000 made a
    // refused real name take twice as long as a made-up one.
    pbkdf2(password, "no such user", decoy_iterations_);
  }
  if (!ok) {
    failures_["addr:" + client].push_back(now);
    failures_["name:" + name].push_back(now);
    if (failures_.size() > 100000) failures_.clear();  // bounded memory under a spray of addresses
    return {Outcome::refused, {}, {}, 0};
  }
  // Expired sessions go when a new one comes, so the table stays the size of the logged-in staff.
  for (auto s = sessions_.begin(); s != sessions_.end();) s = s->second.expires < now ? sessions_.erase(s) : std::next(s);
  std::string token = random_hex(32);
  sessions_[token] = {name, it->second.role, now + kSessionLifetime};
  return {Outcome::ok, token, it->second.role, 0};
}

std::optional<Session> Logins::session(const std::string& token, Clock::time_point now) {
  auto it = sessions_.find(token);
  if (it == sessions_.end()) return std::nullopt;
  if (it->second.expires < now) {
    sessions_.erase(it);
    return std::nullopt;
  }
  return it->second;
}

}  // namespace cardtable::console
