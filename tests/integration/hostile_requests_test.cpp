// The property, through the real daemon and the real hub over real sockets: every command, with every
// field replaced by every kind of JSON value (and absent, and extra fields, huge numbers, control
// characters), gets a reply -- an error naming the field when the value is wrong -- and the daemon lives.
#include <protocol/requests.hpp>

#include "daemon_fixture.hpp"

namespace {

const std::vector<json>& kinds() {
  static const std::vector<json> k = {json(nullptr), json(true), json(false), json(0), json(1), json(-1), json(1.5), json(-0.0),
                                      json(18446744073709551615ULL), json(-9223372036854775807LL), json(1e308), json(""),
                                      json("x"), json(std::string(5000, 'a')), json("\x1b[2J\x1b[HALL CLEAR"), json("\x01\x7f"),
                                      json("Spring Pairs/1/3"), json::array(), json::array({1}), json::array({"a", nullptr}),
                                      json::object(), json::object({{"a", json::object({{"b", 1}})}})};
  return k;
}

// Every request of the property: for each command, each field of each kind, each field absent, an
// extra field, the command itself of each kind.
std::vector<json> hostile_requests() {
  std::vector<json> out;
  for (const auto& c : cardtable::protocol::command_specs()) {
    json base = {{"command", std::string(c.name)}};
    for (const auto& f : c.fields)
      base[std::string(f.name)] = f.type == cardtable::protocol::FieldType::PositiveInteger ? json(1) : json("x");
    for (const auto& f : c.fields) {
      for (const json& v : kinds()) {
        json r = base;
        r[std::string(f.name)] = v;
        out.push_back(r);
      }
      json absent = base;
      absent.erase(std::string(f.name));
      out.push_back(absent);
    }
    for (const json& v : kinds()) {
      json extra = base;
      extra["extra"] = v;
      out.push_back(extra);
      json cmd = base;
      cmd["command"] = v;
      out.push_back(cmd);
    }
  }
  return out;
}

}  // namespace

TEST_F(Daemon, EveryCommandEveryFieldEveryJsonKindGetsAReplyAndTheDaemonLives) {
  start("play-fouled-board.scn", 20);
  ASSERT_TRUE(wait_for([&] { return request({{"command", "status"}}, 500).has_value(); })) << log();
  std::size_t sent = 0, errors = 0;
  for (const json& r : hostile_requests()) {
    if (r.value("command", json()) == "load-record") continue;  // below: it reloads files
    auto reply = request(r, 3000);
    ASSERT_TRUE(reply) << "no reply to " << r.dump().substr(0, 200) << "\n" << log();
    ++sent;
    if (!(*reply)["ok"].get<bool>()) {
      ++errors;
      EXPECT_TRUE((*reply)["error"].is_string()) << reply->dump();
    }
  }
  // load-record with hostile paths: an error, the previous record stays.
  for (const json& v : kinds()) {
    auto reply = request({{"command", "load-record"}, {"paths", v}}, 5000);
    ASSERT_TRUE(reply) << v.dump().substr(0, 100);
    EXPECT_FALSE((*reply)["ok"].get<bool>()) << v.dump().substr(0, 100);
    ++sent;
  }
  ::kill(pid, 0);
  auto alive = request({{"command", "status"}});
  ASSERT_TRUE(alive) << log();
  EXPECT_EQ((*alive)["status"]["master_boards"], 23);
  EXPECT_GT(sent, 400u);
  EXPECT_GT(errors, sent / 2);
  std::cout << "property: " << sent << " requests to the real daemon, " << errors << " answered with an error; daemon alive\n";
}

TEST_F(Daemon, TheAckThatKilledTheDaemonIsAnErrorNamingBy) {
  start("play-fouled-board.scn", 20);
  ASSERT_TRUE(wait_for([&] { return request({{"command", "status"}}, 500).has_value(); })) << log();
  for (json by : {json(5), json(nullptr), json::array({"a"})}) {
    auto reply = request({{"command", "ack"}, {"seq", 1}, {"by", by}});
    ASSERT_TRUE(reply) << log();
    EXPECT_FALSE((*reply)["ok"].get<bool>());
    EXPECT_NE((*reply)["error"].get<std::string>().find("\"by\""), std::string::npos) << reply->dump();
  }
  EXPECT_TRUE(request({{"command", "status"}}));
  EXPECT_NE(log().find("control: director request refused"), std::string::npos) << "each refusal is logged";
}

TEST_F(Daemon, AckingTheSameEventTwiceSaysSoAndAlertsListTheOpenOnesOldestFirst) {
  start("play-fouled-board.scn", 50);
  ASSERT_TRUE(wait_finished()) << log();
  auto open = request({{"command", "alerts"}});
  ASSERT_TRUE(open && (*open)["ok"].get<bool>()) << log();
  ASSERT_GE((*open)["alerts"].size(), 1u);
  std::uint64_t previous = 0;
  for (const auto& a : (*open)["alerts"]) {
    EXPECT_EQ(a["severity"], "alert");
    EXPECT_GT(a["seq"].get<std::uint64_t>(), previous);
    previous = a["seq"].get<std::uint64_t>();
  }
  std::uint64_t seq = (*open)["alerts"][0]["seq"];
  auto first = request({{"command", "ack"}, {"seq", seq}, {"by", "Anne"}});
  ASSERT_TRUE(first && (*first)["ok"].get<bool>()) << first->dump();
  auto second = request({{"command", "ack"}, {"seq", seq}, {"by", "Bob"}});
  ASSERT_TRUE(second);
  EXPECT_FALSE((*second)["ok"].get<bool>());
  EXPECT_NE((*second)["error"].get<std::string>().find("already acknowledged by Anne"), std::string::npos) << second->dump();
  auto after = request({{"command", "alerts"}});
  EXPECT_EQ((*after)["alerts"].size(), (*open)["alerts"].size() - 1);
  // The open alerts are rebuilt from the journal after a restart.
  stop();
  start("play-fouled-board.scn", 0.001);  // so slow that nothing new happens before the alerts are asked for
  ASSERT_TRUE(wait_for([&] { return request({{"command", "status"}}, 500).has_value(); })) << log();
  EXPECT_EQ((*request({{"command", "alerts"}}))["alerts"].size(), (*after)["alerts"].size());
}

TEST_F(Daemon, TheHubAnswersEveryHostileRequestAndLives) {
  std::string up = folder.ipc("hub-up"), down = folder.ipc("hub-down");
  ctl = folder.ipc("hub-ctl");
  pid = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", ctl}, (dir / "hub.log").string());
  std::size_t sent = 0;
  for (const json& r : hostile_requests()) {
    auto reply = request(r, 3000);
    ASSERT_TRUE(reply) << r.dump().substr(0, 200);
    ++sent;
  }
  auto alive = request({{"command", "status"}});
  ASSERT_TRUE(alive);
  EXPECT_TRUE((*alive)["ok"].get<bool>());
  std::cout << "property: " << sent << " requests to the real hub; hub alive\n";
}
