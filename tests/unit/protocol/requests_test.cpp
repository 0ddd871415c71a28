// Control requests are decoded into types by one total function: every command, every field replaced
// by every kind of JSON value, gives a typed request or an error naming the field -- never an exception.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "protocol/requests.hpp"

using namespace cardtable::protocol;
using json = nlohmann::json;

TEST(Requests, AnAckWithANonStringByIsAnErrorNamingTheField) {
  for (json by : {json(5), json(nullptr), json::array({1, 2}), json::object(), json(true), json(1.5)}) {
    Decoded d = decode_request(json{{"command", "ack"}, {"seq", 1}, {"by", by}}.dump());
    EXPECT_FALSE(d.request) << by;
    EXPECT_NE(d.error.find("\"by\""), std::string::npos) << d.error;
  }
}

TEST(Requests, ValidRequestsDecodeToTheirTypes) {
  auto ack = decode_request(R"({"command":"ack","seq":7,"by":"TD Anne"})");
  ASSERT_TRUE(ack.request) << ack.error;
  EXPECT_EQ(std::get<AckRequest>(*ack.request).by, "TD Anne");
  EXPECT_EQ(std::get<AckRequest>(*ack.request).seq, 7u);
  auto replay = decode_request(R"({"command":"replay","since":3})");
  ASSERT_TRUE(replay.request);
  EXPECT_EQ(std::get<ReplayRequest>(*replay.request).since, 3u);
  auto load = decode_request(R"({"command":"load-record","paths":["a.pbn","b"]})");
  ASSERT_TRUE(load.request) << load.error;
  EXPECT_EQ(std::get<LoadRecordRequest>(*load.request).paths->size(), 2u);
  EXPECT_TRUE(decode_request(R"({"command":"alerts"})").request);
}

TEST(Requests, ReplaySinceZeroIsRefusedAsTheDocSays) {
  Decoded d = decode_request(R"({"command":"replay","since":0})");
  EXPECT_FALSE(d.request);
  EXPECT_NE(d.error.find("positive integer"), std::string::npos) << d.error;
}

TEST(Requests, ControlCharactersInNamesAreRefused) {
  EXPECT_FALSE(decode_request("{\"command\":\"ack\",\"seq\":1,\"by\":\"\\u001b[2J ALL CLEAR\"}").request);
  EXPECT_FALSE(decode_request("{\"command\":\"board\",\"label\":\"7\\n\"}").request);
}

TEST(Requests, UnknownCommandsAndFieldsAreNamed) {
  Decoded d = decode_request(R"({"command":"reboot"})");
  EXPECT_FALSE(d.request);
  EXPECT_NE(d.error.find("unknown command"), std::string::npos);
  d = decode_request(R"({"command":"status","verbose":true})");
  EXPECT_FALSE(d.request);
  EXPECT_NE(d.error.find("\"verbose\""), std::string::npos) << d.error;
}

// The property: every command x every field x every kind of value (and the field absent, and an extra
// field) decodes without throwing; a value of the wrong kind is an error that names its field.
TEST(Requests, EveryCommandEveryFieldEveryJsonKindDecodesWithoutThrowing) {
  const std::vector<json> kinds = {json(nullptr), json(true), json(false), json(0), json(1), json(-1), json(1.5),
                                   json(18446744073709551615ULL), json(1e308), json(""), json("x"), json(std::string(300, 'a')),
                                   json("\x1b[2J"), json("\x01"), json::array(), json::array({1}), json::array({"a", 2}),
                                   json::object(), json::object({{"a", 1}})};
  std::size_t decoded = 0;
  for (const CommandSpec& c : command_specs()) {
    json base = {{"command", std::string(c.name)}};
    for (const FieldSpec& f : c.fields) base[std::string(f.name)] = f.type == FieldType::TextList ? json::array({"x"}) :
                                                                   f.type == FieldType::PositiveInteger ? json(1) : json("x");
    Decoded ok = decode_request(base.dump());
    EXPECT_TRUE(ok.request) << c.name << ": " << ok.error;
    for (const FieldSpec& f : c.fields) {
      for (const json& v : kinds) {
        json req = base;
        req[std::string(f.name)] = v;
        Decoded d;
        EXPECT_NO_THROW(d = decode_request(req.dump())) << req.dump();
        ++decoded;
        if (!d.request) {
          EXPECT_NE(d.error.find(std::string(f.name)), std::string::npos) << req.dump() << " -> " << d.error;
        }
      }
      json absent = base;
      absent.erase(std::string(f.name));
      Decoded d = decode_request(absent.dump());
      ++decoded;
      EXPECT_EQ(d.request.has_value(), !f.required) << absent.dump();
    }
    json extra = base;
    extra["extra"] = 1;
    EXPECT_FALSE(decode_request(extra.dump()).request);
    for (const json& v : kinds) {  // the command itself of every kind
      json req = base;
      req["command"] = v;
      EXPECT_NO_THROW((void)decode_request(req.dump()));
      ++decoded;
    }
    decoded += 2;
  }
  EXPECT_GT(decoded, 300u);
}

// An ack may name the journal its seq is of (1.4): the daemon refuses one naming another journal, so an
// alert heard from a replaced journal never acknowledges the new journal's event of the same seq.
TEST(Requests, AnAckNamingAnotherJournalIsRefused) {
  auto d = decode_request(R"({"command":"ack","seq":7,"journal":"aaaaaaaaaaaaaaaa"})");
  ASSERT_TRUE(d.request) << d.error;
  const auto& ack = std::get<AckRequest>(*d.request);
  ASSERT_TRUE(ack.journal);
  EXPECT_EQ(*ack.journal, "aaaaaaaaaaaaaaaa");
  EXPECT_FALSE(refuse_other_journal(ack, "aaaaaaaaaaaaaaaa"));
  auto why = refuse_other_journal(ack, "bbbbbbbbbbbbbbbb");
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("journal is now bbbbbbbbbbbbbbbb"), std::string::npos) << *why;
  auto plain = decode_request(R"({"command":"ack","seq":7})");
  ASSERT_TRUE(plain.request);
  EXPECT_FALSE(refuse_other_journal(std::get<AckRequest>(*plain.request), "bbbbbbbbbbbbbbbb")) << "an ack naming no journal: the table's";
  EXPECT_FALSE(decode_request(R"({"command":"ack","seq":7,"journal":7})").request);
}
