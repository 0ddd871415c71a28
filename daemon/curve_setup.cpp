#include "daemon/curve_setup.hpp"

#include "daemon/log.hpp"
#include "daemon/startup_error.hpp"
#include "protocol/curve_keys.hpp"

namespace cardtable::daemon {

std::unique_ptr<protocol::ZapAuthenticator> secure_endpoints(zmq::context_t& context, const Options& options,
                                                             const std::vector<SecuredSocket>& sockets) {
  std::string error;
  // One open of the file: its mode checked and its keys read from the same file (no gap to swap it in).
  auto keys = protocol::read_secret_key_file(options.curve_secret, error, protocol::SecretKeyReader::service);
  if (!keys) throw StartupError("--curve-secret: " + error);
  std::map<std::string, protocol::ClientKey> clients;
  try {
    clients = protocol::read_client_keys(options.clients, {"director", "broadcaster", "hub"});
  } catch (const std::exception& e) {
    throw StartupError(std::string("--clients: ") + e.what());
  }
  if (clients.empty())
    throw StartupError("--clients " + options.clients + ": no client key (put .pub files in director/, broadcaster/ or hub/)");
  // The role becomes the messages' User-Id, which the control server reads.
  auto zap = std::make_unique<protocol::ZapAuthenticator>(
      context, std::move(clients), [](std::string_view domain, const protocol::ClientKey& k) -> std::optional<std::string> {
        if (domain == "live" && k.role != "broadcaster") return std::nullopt;
        return k.role;
      });
  std::optional<protocol::Keypair> hub;
  if (!options.hub_key.empty()) {
    hub = protocol::read_key_file(options.hub_key, error);
    if (!hub) throw StartupError("--hub-key: " + error);
  }
  for (const SecuredSocket& s : sockets) {
    if (!s.endpoint->bind) {  // we connect to a hub: we are its CURVE client
      if (!hub) throw StartupError(s.endpoint->str() + ": connecting with CURVE needs --hub-key (the hub's .pub)");
      s.socket->set(zmq::sockopt::curve_serverkey, hub->public_key);
      s.socket->set(zmq::sockopt::curve_publickey, keys->public_key);
      s.socket->set(zmq::sockopt::curve_secretkey, keys->secret_key);
      continue;
    }
    s.socket->set(zmq::sockopt::curve_server, 1);
    s.socket->set(zmq::sockopt::curve_secretkey, keys->secret_key);
    s.socket->set(zmq::sockopt::zap_domain, s.live ? "live" : "cardtable");
  }
  log("CURVE on every endpoint; " + std::to_string(zap->size()) + " client keys allowed");
  return zap;
}

}  // namespace cardtable::daemon
