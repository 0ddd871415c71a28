// The ZAP handler admits listed keys in the domains the policy allows, with the User-Id it gives, over
// real CURVE sockets on ipc in a temporary folder.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>
#include <zmq_addon.hpp>

#include "protocol/curve_keys.hpp"
#include "protocol/zap_authenticator.hpp"

using namespace cardtable::protocol;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {
struct Keys {
  fs::path dir = fs::temp_directory_path() / ("zap-test-" + std::to_string(::getpid()));
  Keypair server, director, stranger;
  Keys() {
    fs::remove_all(dir);
    server = write_keypair(dir / "server", "server");
    director = write_keypair(dir / "clients" / "director", "anne");
    stranger = write_keypair(dir / "other", "eve");
  }
  ~Keys() { fs::remove_all(dir); }
};

// Sends one request from a client with `key`; the server's reply body, or nothing when refused.
std::optional<std::string> round_trip(zmq::context_t& ctx, zmq::socket_t& server, ZapAuthenticator& zap, const std::string& ep,
                                      const Keypair& server_key, const Keypair& key) {
  zmq::socket_t client(ctx, zmq::socket_type::dealer);
  client.set(zmq::sockopt::linger, 0);
  client.set(zmq::sockopt::curve_serverkey, server_key.public_key);
  client.set(zmq::sockopt::curve_publickey, key.public_key);
  client.set(zmq::sockopt::curve_secretkey, key.secret_key);
  client.connect(ep);
  client.send(zmq::str_buffer("hello"), zmq::send_flags::dontwait);
  for (int i = 0; i < 100; ++i) {
    zap.handle();
    std::vector<zmq::message_t> f;
    if (zmq::recv_multipart(server, std::back_inserter(f), zmq::recv_flags::dontwait)) return std::string(f.back().gets("User-Id"));
    std::this_thread::sleep_for(10ms);
  }
  return std::nullopt;
}
}  // namespace

TEST(ZapAuthenticator, AListedKeyGetsInWithItsRoleAndAStrangerIsRefused) {
  Keys k;
  zmq::context_t ctx;
  auto clients = read_client_keys(k.dir / "clients", {"director", "broadcaster"});
  ASSERT_EQ(clients.size(), 1u);
  EXPECT_EQ(clients.begin()->second.name, "anne");
  ZapAuthenticator zap(ctx, clients, [](std::string_view domain, const ClientKey& c) -> std::optional<std::string> {
    if (domain != "cardtable") return std::nullopt;
    return c.role;
  });
  zmq::socket_t server(ctx, zmq::socket_type::router);
  server.set(zmq::sockopt::curve_server, 1);
  server.set(zmq::sockopt::curve_secretkey, k.server.secret_key);
  server.set(zmq::sockopt::zap_domain, "cardtable");
  std::string ep = "ipc://" + (k.dir / "s").string();
  server.bind(ep);
  EXPECT_EQ(round_trip(ctx, server, zap, ep, k.server, k.director), "director");
  EXPECT_EQ(round_trip(ctx, server, zap, ep, k.server, k.stranger), std::nullopt);
  EXPECT_GE(zap.refused(), 1u);
  EXPECT_FALSE(zap.take_refusals().empty());
}

TEST(ZapAuthenticator, AMalformedKeyFileIsAnErrorNotAKeyLeftOut) {
  Keys k;
  std::ofstream(k.dir / "clients" / "director" / "bad.pub") << "public = short\n";
  EXPECT_THROW(read_client_keys(k.dir / "clients", {"director"}), std::runtime_error);
}

TEST(CurveKeys, ASecretKeyOthersCanReadIsRefused) {
  Keys k;
  std::string error;
  fs::path key = k.dir / "server" / "server.key";
  EXPECT_TRUE(secret_key_file_private(key, error)) << error;
  fs::permissions(key, fs::perms::group_read | fs::perms::others_read, fs::perm_options::add);
  EXPECT_FALSE(secret_key_file_private(key, error));
  EXPECT_NE(error.find("chmod 600"), std::string::npos) << error;
}
