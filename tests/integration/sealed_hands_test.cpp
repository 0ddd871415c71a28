// Sealed until the embargo: every golden scenario through the real daemon (and through a hub), and every
// message a client can receive before the embargo -- events endpoint, hub downstream, replay, snapshot,
// status, alerts, the hub's snapshot -- scanned for card identities. Card-level detail reaches a director
// only through `evidence SEQ`.
#include <regex>
#include <set>

#include "daemon_fixture.hpp"
#include "scenario_list.hpp"

namespace {

// A card identity, in any of the forms the project writes one: "DQ"/"H10", "♦Q", or a PBN hand
// ("AKQ.JT9.8.765"). This checker is the test's own, independent of protocol/card_seal.
std::vector<std::string> card_identities(const json& j, const std::string& key = "") {
  static const std::set<std::string> kNames = {"tournament", "section", "table", "event", "session", "type", "class"};
  static const std::regex card(R"((^|[^A-Za-z0-9])[SHDC](10|[2-9TJQKA])($|[^A-Za-z0-9]))");
  static const std::regex hand(R"([AKQJT2-9]+\.[AKQJT2-9]*\.[AKQJT2-9]*\.)");
  std::vector<std::string> found;
  if (j.is_string()) {
    if (kNames.count(key)) return found;
    const std::string& s = j.get_ref<const std::string&>();
    for (const char* suit : {"\xE2\x99\xA0", "\xE2\x99\xA5", "\xE2\x99\xA6", "\xE2\x99\xA3"})
      if (s.find(suit) != std::string::npos) found.push_back(key + ": " + s);
    if (std::regex_search(s, card) || std::regex_search(s, hand)) found.push_back(key + ": " + s);
  } else if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      auto more = card_identities(v, k);
      found.insert(found.end(), more.begin(), more.end());
    }
  } else if (j.is_array()) {
    for (const auto& v : j) {
      auto more = card_identities(v, key);
      found.insert(found.end(), more.begin(), more.end());
    }
  }
  return found;
}

void drain(zmq::socket_t& s, std::vector<json>& into) {
  std::vector<zmq::message_t> f;
  while (zmq::recv_multipart(s, std::back_inserter(f), zmq::recv_flags::dontwait)) {
    if (f.size() == 2) into.push_back(json::parse(f[1].to_string_view(), nullptr, false));
    f.clear();
  }
}

}  // namespace

TEST_F(Daemon, NoMessageAnyRoleReceivesNamesACardBeforeTheEmbargoInAnyGoldenScenario) {
  std::string up = folder.ipc("hub-up"), down = folder.ipc("hub-down"),
              hubctl = folder.ipc("hub-ctl");
  pid_t hub = fork_exec({HUB, "--upstream", up, "--downstream", down, "--control", hubctl}, (dir / "hub.log").string());
  zmq::socket_t from_hub(ctx, zmq::socket_type::sub);
  from_hub.connect(down);
  from_hub.set(zmq::sockopt::subscribe, "");
  std::size_t scanned = 0, with_card_detail = 0, runs = 0;
  std::vector<std::string> leaks;
  for (const std::string& name : cardtable::test::scenario_names()) {
    const std::string scn = name + ".scn";
    fs::remove_all(dir / "state");
    zmq::socket_t sub(ctx, zmq::socket_type::sub), live_sub(ctx, zmq::socket_type::sub);
    sub.connect(pub);
    sub.set(zmq::sockopt::subscribe, "");
    live_sub.connect(live);
    live_sub.set(zmq::sockopt::subscribe, "");
    // A second publisher for the hub: the daemon publishes on one endpoint; the hub sees a second daemon
    // of the same scenario as table 2.
    start(scn, 200, {"--embargo", "3600"});
    pid_t second = fork_exec({CARDTABLED, "--master", SCENARIO_DIR "/master", "--simulate", std::string(SCENARIO_DIR) + "/" + scn,
                              "--speed", "200", "--plaintext", "--state-dir", (dir / "state2").string(), "--table", "2",
                              "--publish", "connect:" + up, "--control", "bind:" + folder.ipc("ctl2"),
                              "--live", "bind:" + folder.ipc("live2"), "--embargo", "3600"},
                             (dir / "daemon2.log").string());
    bool finished = wait_finished();
    std::this_thread::sleep_for(200ms);
    std::vector<json> received;
    drain(sub, received);
    drain(from_hub, received);
    for (const json& r : replay_all()) received.push_back(r);
    for (const char* c : {"snapshot", "status", "alerts"})
      if (auto r = request({{"command", c}})) received.push_back(*r);
    {
      zmq::socket_t req(ctx, zmq::socket_type::req);
      req.set(zmq::sockopt::linger, 0);
      req.set(zmq::sockopt::rcvtimeo, 2000);
      req.connect(hubctl);
      req.send(zmq::str_buffer(R"({"command":"snapshot"})"));
      zmq::message_t m;
      if (req.recv(m)) received.push_back(json::parse(m.to_string_view(), nullptr, false));
    }
    std::vector<json> on_live;
    drain(live_sub, on_live);
    if (!on_live.empty()) leaks.push_back(scn + ": " + std::to_string(on_live.size()) + " live events before the embargo ended");
    if (auto r = request({{"command", "replay-live"}, {"since", 1}}); r && !(*r)["events"].empty())
      leaks.push_back(scn + ": replay-live served events before the embargo ended");
    for (const json& m : received) {
      ++scanned;
      for (const std::string& leak : card_identities(m)) leaks.push_back(scn + ": " + leak);
    }
    // What a director may see: the card-level detail of each journalled event, through `evidence`.
    for (const json& e : replay_all())
      if (auto r = request({{"command", "evidence"}, {"seq", e["seq"]}}); r && (*r)["ok"].get<bool>() && !card_identities((*r)["card_evidence"]).empty())
        ++with_card_detail;
    EXPECT_TRUE(finished) << scn << "\n" << log();
    stop();
    ::kill(second, SIGTERM);
    ::waitpid(second, nullptr, 0);
    fs::remove_all(dir / "state2");
    ++runs;
  }
  ::kill(hub, SIGTERM);
  ::waitpid(hub, nullptr, 0);
  EXPECT_GE(runs, 10u);
  EXPECT_GT(scanned, 500u);
  EXPECT_GT(with_card_detail, 0u) << "the card detail must still reach directors through evidence";
  std::string all;
  for (std::size_t i = 0; i < leaks.size() && i < 30; ++i) all += "\n  " + leaks[i];
  EXPECT_TRUE(leaks.empty()) << leaks.size() << " card identities before the embargo:" << all;
  std::cout << "scanned " << scanned << " messages of " << runs << " scenarios; " << with_card_detail
            << " events with card detail for directors\n";
}
