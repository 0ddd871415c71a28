#include "tls_certificate.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <sys/stat.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>

namespace cardtable::console {

namespace {
template <auto Free>
struct Deleter {
  template <class T>
  void operator()(T* p) const { Free(p); }
};
using Key = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY_free>>;
using Cert = std::unique_ptr<X509, Deleter<X509_free>>;

void write_pem(const std::filesystem::path& file, bool secret, const std::function<int(FILE*)>& write) {
  if (std::filesystem::exists(file)) throw std::runtime_error(file.string() + ": already there; not overwritten");
  FILE* f = std::fopen(file.c_str(), "wx");
  if (!f) throw std::runtime_error(file.string() + ": cannot create");
  if (secret) ::fchmod(fileno(f), 0600);
  int ok = write(f);
  std::fclose(f);
  if (ok != 1) throw std::runtime_error(file.string() + ": OpenSSL could not write it");
}
}  // namespace

void make_self_signed_certificate(const std::filesystem::path& dir, const std::vector<std::string>& names, int days) {
  if (names.empty()) throw std::runtime_error("name the host (--name console.venue.lan, --name 192.168.1.10)");
  Key key(EVP_EC_gen("P-256"));
  if (!key) throw std::runtime_error("OpenSSL could not make an EC key");
  Cert cert(X509_new());
  X509_set_version(cert.get(), 2);
  unsigned char serial[16];
  std::FILE* r = std::fopen("/dev/urandom", "rb");
  if (!r || std::fread(serial, 1, sizeof serial, r) != sizeof serial) throw std::runtime_error("/dev/urandom: cannot read");
  std::fclose(r);
  serial[0] &= 0x7f;
  BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
  BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get()));
  BN_free(bn);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), static_cast<long>(days) * 86400);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* subject = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(names[0].c_str()), -1, -1, 0);
  X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>("cardtable-console"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), subject);
  // Browsers read the names from subjectAltName only.
  std::string san;
  for (const auto& n : names) {
    bool ip = n.find_first_not_of("0123456789.") == std::string::npos || n.find(':') != std::string::npos;
    san += (san.empty() ? "" : ",") + std::string(ip ? "IP:" : "DNS:") + n;
  }
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, cert.get(), cert.get(), nullptr, nullptr, 0);
  for (auto [nid, value] : {std::pair{NID_subject_alt_name, san}, {NID_basic_constraints, std::string("critical,CA:FALSE")},
                            {NID_ext_key_usage, std::string("serverAuth")}}) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    if (!ext) throw std::runtime_error("OpenSSL refused the extension " + value);
    X509_add_ext(cert.get(), ext, -1);
    X509_EXTENSION_free(ext);
  }
  if (!X509_sign(cert.get(), key.get(), EVP_sha256())) throw std::runtime_error("OpenSSL could not sign the certificate");
  std::filesystem::create_directories(dir);
  write_pem(dir / "console.key", true, [&](FILE* f) { return PEM_write_PrivateKey(f, key.get(), nullptr, nullptr, 0, nullptr, nullptr); });
  write_pem(dir / "console.crt", false, [&](FILE* f) { return PEM_write_X509(f, cert.get()); });
}

}  // namespace cardtable::console
