#include "protocol/requests.hpp"

#include <nlohmann/json.hpp>

#include "protocol/control.hpp"

namespace cardtable::protocol {
using json = nlohmann::json;

namespace {

constexpr std::size_t kMaxName = 64;     // an ack's "by": a person's name or initials
constexpr std::size_t kMaxText = 256;    // a board label, a contract, a path

const std::vector<CommandSpec> kCommands = {
    {"version", Access::Anyone, {}},
    {"status", Access::Anyone, {}},
    {"snapshot", Access::Anyone, {}},
    {"alerts", Access::Anyone, {}},
    {"replay", Access::Anyone, {{"since", FieldType::PositiveInteger, true}}},
    {"replay-live", Access::Broadcaster, {{"since", FieldType::PositiveInteger, true}}},
    {"evidence", Access::Director, {{"seq", FieldType::PositiveInteger, true}}},
    {"board", Access::Director, {{"label", FieldType::Text, true}}},
    {"contract", Access::Director, {{"contract", FieldType::Text, true}}},
    {"ack", Access::Director, {{"seq", FieldType::PositiveInteger, true}, {"by", FieldType::Name, false}, {"journal", FieldType::Name, false}}},
    {"load-record", Access::Director, {{"paths", FieldType::TextList, false}}},
};

std::string_view type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer: return "a negative integer";
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a number with a fraction";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "a list";
    case json::value_t::object: return "an object";
    default: return "a value of another kind";
  }
}

std::string_view expected(FieldType t) {
  switch (t) {
    case FieldType::PositiveInteger: return "a positive integer (1 or more)";
    case FieldType::Name: return "a name (a string of 1 to 64 characters without control characters)";
    case FieldType::Text: return "a string of 1 to 256 characters without control characters";
    case FieldType::TextList: return "a list of strings (1 to 256 characters each, without control characters)";
  }
  return "";
}

bool clean_text(const std::string& s, std::size_t max) {
  if (s.empty() || s.size() > max) return false;
  for (char ch : s)
    if (auto c = static_cast<unsigned char>(ch); c < 0x20 || c == 0x7f) return false;  // control characters: they would reach a director's terminal
  return true;  // the JSON parser has already refused invalid UTF-8
}

bool valid(const json& v, FieldType t) {
  switch (t) {
    case FieldType::PositiveInteger: return v.is_number_unsigned() && v.get<std::uint64_t>() >= 1;
    case FieldType::Name: return v.is_string() && clean_text(v.get_ref<const std::string&>(), kMaxName);
    case FieldType::Text: return v.is_string() && clean_text(v.get_ref<const std::string&>(), kMaxText);
    case FieldType::TextList:
      if (!v.is_array() || v.empty() || v.size() > 64) return false;
      for (const json& x : v)
        if (!x.is_string() || !clean_text(x.get_ref<const std::string&>(), kMaxText)) return false;
      return true;
  }
  return false;
}

TypedRequest build(std::string_view name, const json& j) {
  auto u = [&](const char* f) { return j.at(f).get<std::uint64_t>(); };
  auto s = [&](const char* f) { return j.at(f).get<std::string>(); };
  if (name == "version") return VersionRequest{};
  if (name == "status") return StatusRequest{};
  if (name == "snapshot") return SnapshotRequest{};
  if (name == "alerts") return AlertsRequest{};
  if (name == "replay") return ReplayRequest{u("since")};
  if (name == "replay-live") return ReplayLiveRequest{u("since")};
  if (name == "evidence") return EvidenceRequest{u("seq")};
  if (name == "board") return BoardRequest{s("label")};
  if (name == "contract") return ContractRequest{s("contract")};
  if (name == "ack")
    return AckRequest{u("seq"), j.contains("by") ? s("by") : std::string("director"), j.contains("journal") ? std::optional(s("journal")) : std::nullopt};
  LoadRecordRequest r;
  if (j.contains("paths")) r.paths = j.at("paths").get<std::vector<std::string>>();
  return r;
}

}  // namespace

// command_name() and access_of() index kCommands by the variant's index: the two lists go in the same order.
static_assert(std::variant_size_v<TypedRequest> == 11);

const std::vector<CommandSpec>& command_specs() { return kCommands; }

std::optional<std::string> refuse_other_journal(const AckRequest& r, const std::string& current) {
  if (!r.journal || *r.journal == current) return std::nullopt;
  return "ack: event " + std::to_string(r.seq) + " of journal " + *r.journal + " cannot be acknowledged here: this table's journal is now " +
         current + " (the journal was replaced: a state folder wiped, another computer at the table); its seqs are other events";
}

const CommandSpec* find_command(std::string_view name) {
  for (const auto& c : kCommands)
    if (c.name == name) return &c;
  return nullptr;
}

bool answered_by_hub(std::string_view command) {
  return command == "snapshot" || command == "alerts" || command == "status" || command == "version";
}

Decoded decode_request(std::string_view frame) noexcept {
  Decoded d;
  try {
    auto req = parse_request(frame, d.error);
    if (!req) return d;
    d.command = req->command;
    const CommandSpec* spec = find_command(req->command);
    if (!spec) {
      std::string names;
      for (const auto& c : kCommands) names += (names.empty() ? "" : ", ") + std::string(c.name);
      d.error = "unknown command (" + names + ")";
      return d;
    }
    for (const auto& [key, value] : req->args.items()) {
      if (key == "command") continue;
      bool known = false;
      for (const auto& f : spec->fields) known = known || f.name == key;
      if (!known) {
        std::string fields;
        for (const auto& f : spec->fields) fields += (fields.empty() ? "" : ", ") + std::string(f.name);
        d.error = "\"" + key.substr(0, 40) + "\" is not a field of this request (" + (fields.empty() ? "it has none" : "its fields: " + fields) + ")";
        return d;
      }
    }
    for (const auto& f : spec->fields) {
      auto it = req->args.find(f.name);
      if (it == req->args.end()) {
        if (!f.required) continue;
        d.error = "give \"" + std::string(f.name) + "\", " + std::string(expected(f.type));
        return d;
      }
      if (!valid(*it, f.type)) {
        d.error = "\"" + std::string(f.name) + "\" must be " + std::string(expected(f.type)) + ", not " + std::string(type_name(*it));
        if (f.type == FieldType::PositiveInteger && it->is_number_unsigned()) d.error = "\"" + std::string(f.name) + "\" must be " + std::string(expected(f.type)) + ", not 0";
        return d;
      }
    }
    d.request = build(spec->name, req->args);
  } catch (const std::exception& e) {
    // Nothing above should throw once the fields are checked; if it does, the request is refused, not the daemon.
    d.request.reset();
    d.error = std::string("the request could not be read: ") + e.what();
  } catch (...) {
    d.request.reset();
    d.error = "the request could not be read";
  }
  return d;
}

std::string_view command_name(const TypedRequest& r) { return kCommands[r.index()].name; }

Access access_of(const TypedRequest& r) { return kCommands[r.index()].access; }

}  // namespace cardtable::protocol
