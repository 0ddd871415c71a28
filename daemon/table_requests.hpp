// The control requests' handlers, one per request type (protocol/requests.hpp): version, status, alerts,
// board, contract, ack, load-record here; replay, replay-live, snapshot and evidence are journal reads,
// routed to the JournalReader's thread (a bounded number per client) so that the loop keeps publishing
// while a client reads hours of journal. It exists so that what a request does, and what its reply says,
// reads in one place: the ControlServer decodes and checks roles, these act, the loop wires them.
// Requests that change the table act through TableRequests::Table, which the TableHost is (table_host.hpp):
// it stays the one place that changes the table.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "daemon/control_server.hpp"
#include "daemon/journal_reader.hpp"
#include "daemon/options.hpp"
#include "daemon/publisher.hpp"
#include "daemon/table_clock.hpp"
#include "protocol/alert_book.hpp"
#include "protocol/requests.hpp"
#include "protocol/wire_event.hpp"
#include "table/command.hpp"

namespace cardtable::daemon {

class TableRequests {
 public:
  // What the requests act on: the table and its master record.
  class Table {
   public:
    virtual ~Table() = default;
    // A director's command applied to the table and its events published: nullopt, or the table's own
    // reason for refusing it (table.command_rejected's message).
    virtual std::optional<std::string> command(table::Command cmd) = 0;
    virtual void publish(protocol::WireEvent& e) = 0;                // journalled and published
    virtual void reload(const std::vector<std::string>& paths) = 0;  // throws: the record in use stays
    virtual void refuse_reload(const std::string& why) = 0;          // record.refused published
    virtual int board_in_play() const = 0;  // as the master record numbers it; 0: none
    virtual std::size_t master_boards() const = 0;
    virtual std::uint64_t board_first_seq() const = 0;  // where the board in progress starts
    // The seq of the last board.identified published (0: none yet): the event a `board` request made.
    virtual std::uint64_t last_identified_seq() const = 0;
    virtual nlohmann::json status() const = 0;
  };

  // `options`: the table's identity and --master, read when a request comes (a reload changes them).
  TableRequests(Table& table, Publisher& publisher, JournalReader& reader, protocol::AlertBook& alerts,
                const Options& options, const TableClock& clock)
      : table_(table),
        publisher_(publisher),
        reader_(reader),
        alerts_(alerts),
        options_(options),
        clock_(clock) {}

  // The ControlServer's dispatch: the reply, or nullopt for a journal read handed to the reader thread.
  std::optional<nlohmann::json> route(const protocol::TypedRequest& r, const ControlServer::Caller& caller);
  // The reply at once, journal reads included (a caller with no envelope: fuzz, tests).
  nlohmann::json dispatch(const protocol::TypedRequest& r, const std::string& role);

 private:
  // A journal read (replay, replay-live, snapshot, evidence) for the reader thread (journal_requests.hpp).
  std::function<nlohmann::json()> journal_read(const protocol::TypedRequest& r) const;
  nlohmann::json on(const protocol::VersionRequest&, const std::string& role);
  nlohmann::json on(const protocol::StatusRequest&, const std::string& role);
  nlohmann::json on(const protocol::AlertsRequest&, const std::string& role);
  nlohmann::json on(const protocol::BoardRequest&, const std::string& role);
  nlohmann::json on(const protocol::ContractRequest&, const std::string& role);
  nlohmann::json on(const protocol::AckRequest&, const std::string& role);
  nlohmann::json on(const protocol::LoadRecordRequest&, const std::string& role);
  nlohmann::json table_command(table::Command cmd, const std::string& what);

  Table& table_;
  Publisher& publisher_;
  JournalReader& reader_;
  protocol::AlertBook& alerts_;
  const Options& options_;
  const TableClock& clock_;
};

}  // namespace cardtable::daemon
