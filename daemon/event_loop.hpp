// cardtabled's one event loop: the wiring. It builds the parts and polls their fds: devices hand their
// readings in through the DeviceQueue (the input seam: the DeviceManager's drivers push table::TableInput
// there), the TableClock's timer ticks, device events, control requests, the JournalReader's finished
// reads, ZAP, signals. What comes in goes to the TableHost (table_host.hpp), which holds the table: it
// applies the inputs, publishes the table's events, answers status and reloads the master record. The
// ControlServer decodes requests and TableRequests answers them, acting on the table through the
// TableHost; journal reads run on the JournalReader's thread (journal_requests.hpp). CURVE is set up by
// secure_endpoints() (curve_setup.hpp), the master record read by load_master(), the simulated table by
// prepare_simulation(); the SignalSet stops or reloads; the ServiceNotifier tells systemd.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <zmq.hpp>

#include "daemon/board_broadcast.hpp"
#include "daemon/control_server.hpp"
#include "daemon/device_manager.hpp"
#include "daemon/device_queue.hpp"
#include "daemon/journal_reader.hpp"
#include "daemon/latency_window.hpp"
#include "daemon/options.hpp"
#include "daemon/poll_silence.hpp"
#include "daemon/publisher.hpp"
#include "daemon/service_notifier.hpp"
#include "daemon/signal_set.hpp"
#include "daemon/table_clock.hpp"
#include "daemon/table_host.hpp"
#include "daemon/table_requests.hpp"
#include "protocol/zap_authenticator.hpp"
#include "table/input.hpp"
#include "table/table_config.hpp"

namespace cardtable::daemon {

class EventLoop {
 public:
  explicit EventLoop(Options options);
  ~EventLoop();
  int run();  // until SIGTERM or SIGINT; 0 on a clean stop

  DeviceQueue& inputs() { return queue_; }       // the input seam
  ControlServer& control() { return *control_; }  // answer() drives the real dispatch (fuzz, tests)

 private:
  void load_decks();
  // Starts every device and checks its period against --silence; throws StartupError (exit 2) naming why.
  void start_devices();
  void take_inputs();  // a bounded batch from the DeviceQueue, each reading's wait measured
  void apply_input(const DeviceQueue::Queued& q);  // one reading to the table: a batch's, or one drained at stop
  void on_signals();   // SIGHUP: decks and the master record reloaded; else stop_ set
  void add_status(nlohmann::json& s) const;  // the wiring's part of `status`: endpoints, devices, the queue

  Options options_;
  SignalSet signals_;  // first: the signal mask is set before any thread (ZeroMQ's included) starts
  TableClock clock_;  // the table's one clock and its timer
  DeviceQueue queue_;
  DeviceManager devices_{queue_};
  PollSilence poll_silence_{table::TableConfig{}.silence_ms};  // set from --silence before the devices start
  devices::InputScript scenario_;  // what the device "sim" plays (--simulate), made as it plays
  zmq::context_t context_;
  std::unique_ptr<protocol::ZapAuthenticator> zap_;  // with CURVE only
  std::unique_ptr<Publisher> publisher_;
  std::unique_ptr<ControlServer> control_;
  std::unique_ptr<JournalReader> reader_;  // after publisher_: stopped before the journals close
  std::unique_ptr<BoardBroadcast> broadcast_;  // after publisher_: it embargoes through it
  std::unique_ptr<TableHost> host_;  // the table: after the publisher and the broadcast it publishes through
  std::unique_ptr<TableRequests> requests_;    // the control requests' handlers
  LatencyWindow input_latency_;  // a reading handed over by its reader -> the table (status: input_latency)
  std::map<std::string, std::string> bound_;  // endpoint name -> the address bound or connected (ports read back)
  ServiceNotifier notifier_;  // READY=1, WATCHDOG=1, STATUS=, STOPPING=1 (sd_notify), a refusal said
  bool stop_ = false;
  std::chrono::steady_clock::time_point last_heartbeat_ = std::chrono::steady_clock::now();
};

}  // namespace cardtable::daemon
