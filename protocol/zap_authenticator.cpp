#include "protocol/zap_authenticator.hpp"

#include <array>
#include <stdexcept>
#include <zmq_addon.hpp>

#include "protocol/curve_keys.hpp"

namespace cardtable::protocol {
namespace fs = std::filesystem;

std::map<std::string, ClientKey> read_client_keys(const fs::path& dir, const std::vector<std::string>& roles) {
  std::map<std::string, ClientKey> out;
  for (const std::string& role : roles) {
    fs::path sub = dir / role;
    if (!fs::is_directory(sub)) continue;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(sub, ec)) {
      if (entry.path().extension() != ".pub") continue;
      std::string error;
      auto k = read_key_file(entry.path(), error);
      if (!k) throw std::runtime_error(error);
      out[k->public_key] = ClientKey{role, entry.path().stem().string()};
    }
    if (ec) throw std::runtime_error(sub.string() + ": " + ec.message());
  }
  return out;
}

ZapAuthenticator::ZapAuthenticator(zmq::context_t& context, std::map<std::string, ClientKey> keys, Policy policy)
    : socket_(context, zmq::socket_type::rep), keys_(std::move(keys)), policy_(std::move(policy)) {
  socket_.set(zmq::sockopt::linger, 0);
  socket_.bind("inproc://zeromq.zap.01");
}

void ZapAuthenticator::handle() {
  // RFC 27 (ZAP): [version, request id, domain, address, identity, mechanism, credentials...].
  std::vector<zmq::message_t> f;
  while (zmq::recv_multipart(socket_, std::back_inserter(f), zmq::recv_flags::dontwait)) {
    std::string status = "400", text = "not allowed", user;
    if (f.size() >= 7 && f[5].to_string_view() == "CURVE" && f[6].size() == 32) {
      char z85[41] = {};
      zmq_z85_encode(z85, static_cast<const std::uint8_t*>(f[6].data()), 32);
      if (auto it = keys_.find(z85); it != keys_.end())
        if (auto id = policy_(f[2].to_string_view(), it->second)) {
          status = "200";
          text = "OK";
          user = *id;
        }
    }
    if (status != "200") {
      ++refused_;
      refusals_.push_back("refused a client from " + (f.size() > 3 ? f[3].to_string() : std::string("?")) + " in domain '" +
                          (f.size() > 2 ? f[2].to_string() : std::string()) + "': key not allowed there");
    }
    std::string version = f.empty() ? "1.0" : f[0].to_string(), id = f.size() > 1 ? f[1].to_string() : "";
    std::array<zmq::const_buffer, 6> reply = {zmq::buffer(version), zmq::buffer(id), zmq::buffer(status), zmq::buffer(text),
                                              zmq::buffer(user), zmq::const_buffer{}};
    zmq::send_multipart(socket_, reply);
    f.clear();
  }
}

std::vector<std::string> ZapAuthenticator::take_refusals() {
  std::vector<std::string> out;
  out.swap(refusals_);
  return out;
}

}  // namespace cardtable::protocol
