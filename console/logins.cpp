#include "logins.hpp"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iostream>
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
// PBKDF2-HMAC-SHA256 of one 32-byte block (RFC 8018 5.2), the same key as OpenSSL's PKCS5_PBKDF2_HMAC,
// written out so that it can stop: OpenSSL's call cannot be interrupted, and a console told to stop
// (SIGTERM) waited for the login in flight, up to 9 s at kMostIterations. nullopt: `stop` was set.
std::optional<std::string> pbkdf2(const std::string& password, const std::string& salt, int iterations, const std::atomic<bool>* stop) {
  using Mac = std::unique_ptr<EVP_MAC, decltype(&EVP_MAC_free)>;
  using MacContext = std::unique_ptr<EVP_MAC_CTX, decltype(&EVP_MAC_CTX_free)>;
  Mac mac(EVP_MAC_fetch(nullptr, "HMAC", nullptr), EVP_MAC_free);
  MacContext ctx(mac ? EVP_MAC_CTX_new(mac.get()) : nullptr, EVP_MAC_CTX_free);
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0), OSSL_PARAM_construct_end()};
  constexpr std::size_t kKeyBytes = 32;
  unsigned char u[kKeyBytes], key[kKeyBytes];
  std::size_t n = 0;
  const unsigned char first_block[4] = {0, 0, 0, 1};
  // U1 = HMAC(password, salt || INT(1))
  if (!ctx || !EVP_MAC_init(ctx.get(), reinterpret_cast<const unsigned char*>(password.data()), password.size(), params) ||
      !EVP_MAC_update(ctx.get(), reinterpret_cast<const unsigned char*>(salt.data()), salt.size()) ||
      !EVP_MAC_update(ctx.get(), first_block, sizeof first_block) || !EVP_MAC_final(ctx.get(), u, &n, sizeof u) || n != kKeyBytes)
    throw std::runtime_error("PBKDF2 failed");
  std::memcpy(key, u, kKeyBytes);
  // Ui = HMAC(password, Ui-1), the key the XOR of them all. Init without a key keeps the password's
  // (its inner and outer pads computed once): as fast as OpenSSL's own loop.
  for (int i = 1; i < iterations; ++i) {
    // A check every 4096 iterations: a few milliseconds, and nothing measurable on the hashing's cost.
    if (i % 4096 == 0 && stop && stop->load(std::memory_order_relaxed)) return std::nullopt;
    if (!EVP_MAC_init(ctx.get(), nullptr, 0, nullptr) || !EVP_MAC_update(ctx.get(), u, kKeyBytes) || !EVP_MAC_final(ctx.get(), u, &n, sizeof u))
      throw std::runtime_error("PBKDF2 failed");
    for (std::size_t k = 0; k < kKeyBytes; ++k) key[k] ^= u[k];
  }
  return std::string(reinterpret_cast<char*>(key), kKeyBytes);
}

}  // namespace

std::string Logins::hash_password(const std::string& password, int iterations) {
  std::string salt = *unhex(random_hex(16));
  std::string key = *pbkdf2(password, salt, iterations, nullptr);
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
    if (name.size() > kLongestName) throw std::runtime_error(where() + "a name is at most " + std::to_string(kLongestName) + " bytes");
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

std::optional<Logins::Attempt> Logins::begin(const std::string& name, const std::string& client, Clock::time_point now, Result& stopped) {
  int retry = 0;
  // Checked before the password, so a limited guesser learns nothing and costs no PBKDF2 time. A name's
  // limit stops only an address that has failed itself within the window: applied to every address, any
  // machine on the venue's network could lock the director out by guessing five times a minute.
  // Guessers on many machines still get one try each at a limited name.
  const std::string by_address = "addr:" + client, by_name = "name:" + name;
  if (limited(by_address, now, retry) ||
      (failures_.count(by_address) && !failures_[by_address].empty() && limited(by_name, now, retry))) {
    stopped = {Outcome::rate_limited, {}, {}, retry};
    return std::nullopt;
  }
  Attempt a{name, client, {}, false, now};
  if (auto it = users_.find(name); it != users_.end()) {
    a.user = it->second;
    a.known = true;
  } else {
    // The same time whether or not the name exists: a fixed 100000 against the staff's 200000 made a
    // refused real name take twice as long as a made-up one.
    a.user.salt = "no such user";
    a.user.iterations = decoy_iterations_;
  }
  // Counted as failed until it succeeds: the hashing is no longer done one login at a time, and ten
  // guesses sent together from one address must not all pass the check above before the first fails.
  failures_[by_address].push_back(now);
  failures_[by_name].push_back(now);
  if (failures_.size() > most_failure_entries_) forget_failures(now, by_address, by_name);
  return a;
}

// Memory stays bounded under a spray of addresses and names, but a guesser who is locked out stays locked
// out: clearing the whole table (as it was) let one attacker reset every lockout, its own included, by
// spraying 100,000 made-up addresses. What goes first: marks past the window, then entries that limit no
// one (under kFailuresAllowed); only a table of nothing but lockouts is cleared.
void Logins::forget_failures(Clock::time_point now, const std::string& by_address, const std::string& by_name) {
  for (auto f = failures_.begin(); f != failures_.end();) {
    auto& q = f->second;
    while (!q.empty() && now - q.front() > kFailureWindow) q.pop_front();
    f = static_cast<int>(q.size()) < kFailuresAllowed && f->first != by_address && f->first != by_name ? failures_.erase(f)
                                                                                                      : std::next(f);
  }
  if (failures_.size() > most_failure_entries_) {
    failures_.clear();
    failures_[by_address].push_back(now);
    failures_[by_name].push_back(now);
  }
}

std::optional<bool> Logins::password_matches(const Attempt& a, const std::string& password, const std::atomic<bool>* stop) {
  auto key = pbkdf2(password, a.user.salt, a.user.iterations, stop);
  if (!key) return std::nullopt;
  return a.known && CRYPTO_memcmp(key->data(), a.user.key.data(), key->size()) == 0;
}

Logins::Result Logins::finish(const Attempt& a, bool matches, Clock::time_point now) {
  if (!matches) return {Outcome::refused, {}, {}, 0};  // its failure was counted when it began
  // A right password is no failure: the attempt's marks go (one each, at the time it began).
  for (const std::string& who : {"addr:" + a.client, "name:" + a.name})
    if (auto f = failures_.find(who); f != failures_.end()) {
      if (auto mark = std::find(f->second.begin(), f->second.end(), a.at); mark != f->second.end()) f->second.erase(mark);
      if (f->second.empty()) failures_.erase(f);
    }
  // Expired sessions go when a new one comes, so the table stays the size of the logged-in staff.
  for (auto s = sessions_.begin(); s != sessions_.end();) s = s->second.expires < now ? sessions_.erase(s) : std::next(s);
  std::string token = random_hex(32);
  sessions_[token] = {a.name, a.user.role, now + kSessionLifetime};
  return {Outcome::ok, token, a.user.role, 0};
}

Logins::Result Logins::login(const std::string& name, const std::string& password, const std::string& client, Clock::time_point now) {
  Result stopped{};
  auto a = begin(name, client, now, stopped);
  if (!a) return stopped;
  return finish(*a, *password_matches(*a, password, nullptr), now);
}

void Logins::login_async(const std::string& name, std::string password, const std::string& client, Clock::time_point now,
                         boost::asio::io_context& io, std::function<void(Result)> done) {
  auto answer = [&io, &done](Result r) { boost::asio::post(io, [done = std::move(done), r = std::move(r)] { done(r); }); };
  if (pending_ >= kMostPendingHashes) {
    // Before the limits: a refusal for being busy is not a failed login, and must not count as one.
    if (auto tail = busy_log_.due(now))
      std::cerr << "cardtable-console: a login from " << client << " refused (503): " << kMostPendingHashes
                << " logins are being checked already (a burst of logins, or a flood)" << *tail << std::endl;
    return answer({Outcome::busy, {}, {}, 1});
  }
  Result stopped{};
  auto a = begin(name, client, now, stopped);
  if (!a) return answer(stopped);
  if (!hashers_) hashers_ = std::make_unique<Hashers>();
  ++pending_;
  // The guard keeps io.run() from returning while a password is being checked (nothing else may be queued).
  boost::asio::post(hashers_->pool, [this, &io, stop = &hashers_->stopping, work = boost::asio::make_work_guard(io), a = std::move(*a),
                                     password = std::move(password), done = std::move(done)]() mutable {
    const auto matches = password_matches(a, password, stop);
    if (!matches) return;  // the console is stopping: io runs no more, the login is dropped with its connection
    boost::asio::post(io, [this, work = std::move(work), a = std::move(a), matches = *matches, done = std::move(done)] {
      --pending_;
      done(finish(a, matches, Clock::now()));
    });
  });
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
