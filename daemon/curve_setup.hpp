// CURVE on every endpoint of cardtabled: the daemon's keypair (a secret key file others cannot read), the
// allowed clients by role (director/, broadcaster/, hub/ folders of .pub files) admitted by the ZAP
// authenticator shared with the hub (protocol/zap_authenticator.hpp). Endpoints the daemon binds are CURVE
// servers; endpoints it connects to a hub are CURVE clients of the hub's key. The live endpoint has a ZAP
// domain of its own, where only broadcasters get in. Every problem is a StartupError.
#pragma once

#include <memory>
#include <vector>

#include <zmq.hpp>

#include "daemon/options.hpp"
#include "protocol/zap_authenticator.hpp"

namespace cardtable::daemon {

struct SecuredSocket {
  zmq::socket_t* socket;
  const Endpoint* endpoint;
  bool live;  // the live endpoint: broadcasters only
};

std::unique_ptr<protocol::ZapAuthenticator> secure_endpoints(zmq::context_t& context, const Options& options,
                                                             const std::vector<SecuredSocket>& sockets);

}  // namespace cardtable::daemon
