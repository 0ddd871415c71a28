// The control server: every frame answered, the role checked, and nothing a handler throws escapes.
#include <gtest/gtest.h>

#include "daemon/control_server.hpp"

using namespace cardtable;
using json = nlohmann::json;

namespace {
daemon::ControlServer server(zmq::context_t& ctx, bool curve = true) {
  return daemon::ControlServer(ctx, [](const protocol::TypedRequest& r, const daemon::ControlServer::Caller&) -> std::optional<json> {
    if (std::holds_alternative<protocol::StatusRequest>(r)) throw std::runtime_error("the handler failed");
    return json{{"ok", true}};
  }, curve);
}
}  // namespace

TEST(ControlServer, AHandlerThatThrowsIsAnErrorReplyNotACrash) {
  zmq::context_t ctx;
  auto s = server(ctx);
  json reply = json::parse(s.answer(R"({"command":"status"})", "director"));
  EXPECT_FALSE(reply["ok"]);
  EXPECT_NE(reply["error"].get<std::string>().find("the handler failed"), std::string::npos);
  EXPECT_EQ(s.errors(), 1u);
}

TEST(ControlServer, DirectorOnlyRequestsAreRefusedToOtherRoles) {
  zmq::context_t ctx;
  auto s = server(ctx);
  json reply = json::parse(s.answer(R"({"command":"ack","seq":1})", "broadcaster"));
  EXPECT_FALSE(reply["ok"]);
  EXPECT_NE(reply["error"].get<std::string>().find("not allowed for the broadcaster role"), std::string::npos);
  EXPECT_TRUE(json::parse(s.answer(R"({"command":"ack","seq":1})", "director"))["ok"]);
  EXPECT_FALSE(json::parse(s.answer(R"({"command":"evidence","seq":1})", "hub"))["ok"]);
}

TEST(ControlServer, GarbageIsAnsweredWithAnError) {
  zmq::context_t ctx;
  auto s = server(ctx);
  for (std::string frame : {std::string("\xff\xfe"), std::string("[]"), std::string("{\"command\":5}"), std::string(70000, '{')}) {
    json reply = json::parse(s.answer(frame, "director"));
    EXPECT_FALSE(reply["ok"]) << frame.substr(0, 10);
  }
}
