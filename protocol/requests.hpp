// The control endpoint's requests, decoded into types (docs/protocol.md, "Control requests"). Decoding is
// total: any frame at all gives either a typed request or an error that names the field and what was
// expected; it never throws. The table of commands and fields below is the single description the
// decoder, the role check, the docs' table and the property test all follow.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace cardtable::protocol {

struct VersionRequest {};
struct StatusRequest {};
struct SnapshotRequest {};
struct AlertsRequest {};
struct ReplayRequest {
  std::uint64_t since = 1;  // the first seq wanted, 1 or more
};
struct ReplayLiveRequest {
  std::uint64_t since = 1;
};
struct EvidenceRequest {
  std::uint64_t seq = 0;
};
struct BoardRequest {
  std::string label;
};
struct ContractRequest {
  std::string contract;
};
struct AckRequest {
  std::uint64_t seq = 0;
  std::string by = "director";
  // The identity of the journal whose seq is meant (1.4): absent, the table's journal now. A console that
  // heard the alert from a journal since replaced must not have a new journal's event acknowledged.
  std::optional<std::string> journal;
};
struct LoadRecordRequest {
  std::optional<std::vector<std::string>> paths;  // absent: the files loaded now
};

using TypedRequest = std::variant<VersionRequest, StatusRequest, SnapshotRequest, AlertsRequest, ReplayRequest, ReplayLiveRequest,
                                  EvidenceRequest, BoardRequest, ContractRequest, AckRequest, LoadRecordRequest>;

// Who may make a request: any admitted client, directors only, or broadcasters (and directors).
enum class Access : std::uint8_t { Anyone, Director, Broadcaster };

enum class FieldType : std::uint8_t { PositiveInteger, Name, Text, TextList };
struct FieldSpec {
  std::string_view name;
  FieldType type;
  bool required;
};
struct CommandSpec {
  std::string_view name;
  Access access;
  std::vector<FieldSpec> fields;
};
const std::vector<CommandSpec>& command_specs();
const CommandSpec* find_command(std::string_view name);
// The requests a hub's control endpoint answers itself, for every table it gathers (cardtable-hub);
// the others are a table's own (cardtablectl's help says which go where).
bool answered_by_hub(std::string_view command);

struct Decoded {
  std::optional<TypedRequest> request;  // set when the frame is a valid request
  std::string command;                  // the command named, when there is one (for logs and errors)
  std::string error;                    // "ack: \"by\" must be a name (a string of 1 to 64 characters without control characters), not an integer"
};
Decoded decode_request(std::string_view frame) noexcept;
std::string_view command_name(const TypedRequest& r);
Access access_of(const TypedRequest& r);
// Why an ack naming another journal than `current` is refused; nullopt when it names none or this one.
std::optional<std::string> refuse_other_journal(const AckRequest& r, const std::string& current);

}  // namespace cardtable::protocol
