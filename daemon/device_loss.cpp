#include "daemon/device_loss.hpp"

#include "daemon/wire_conversion.hpp"

namespace cardtable::daemon {

std::vector<protocol::WireEvent> DeviceLoss::on_device_event(const devices::DeviceEvent& d,
                                                             const std::string& driver,
                                                             const Options& identity, double wall,
                                                             double mono) {
  std::vector<protocol::WireEvent> out;
  const std::string kind = devices::to_string(d.kind);
  std::string zones;
  for (const table::Zone& z : d.zones) zones += (zones.empty() ? "" : ",") + z.str();
  auto e = daemon_event("device." + kind, d.kind == devices::DeviceEvent::Kind::Added ? "info" : "warning",
                        "Device " + d.device + " " + kind + (d.reason.empty() ? "" : ": " + d.reason),
                        identity, wall, mono);
  e.evidence = {{"device", d.device}, {"driver", driver}, {"zones", zones}, {"reason", d.reason}};
  out.push_back(std::move(e));
  if (d.kind == devices::DeviceEvent::Kind::Added) {
    // Back: the zones its loss made unknown read again (said once, here).
    for (const table::Zone& z : d.zones) {
      if (!unknown_.erase(z.str())) continue;
      auto r = daemon_event("reading.resumed", "info",
                            "Readings from " + z.str() + " again: its device " + d.device + " is back",
                            identity, wall, mono);
      r.evidence = {{"zone", z.str()}, {"cause", "device back"}, {"source", d.device}};
      out.push_back(std::move(r));
    }
    return out;
  }
  if (d.kind != devices::DeviceEvent::Kind::Lost) return out;
  for (const table::Zone& z : d.zones) {
    unknown_.insert(z.str());
    auto u = daemon_event("reading.uncertain", "warning",
                          "The reading of " + z.str() + " is unknown: its device " + d.device + " is lost",
                          identity, wall, mono);
    u.evidence = {{"zone", z.str()}, {"cause", "device lost"}, {"source", d.device}};
    out.push_back(std::move(u));
  }
  return out;
}

bool DeviceLoss::leaves_out(const table::Event& e, const std::function<bool(const table::Zone&)>& lost) {
  if (e.type != "reading.uncertain" && e.type != "reading.resumed") return false;
  std::string zone, cause;
  for (const auto& [k, v] : e.evidence) {
    if (k == "zone") zone = v;
    if (k == "cause") cause = v;
  }
  if (auto z = table::Zone::parse(zone);
      z && e.type == "reading.uncertain" && cause == "silent" && lost(*z)) {
    silent_by_loss_.insert(zone);
    return true;
  }
  return e.type == "reading.resumed" && silent_by_loss_.erase(zone);
}

}  // namespace cardtable::daemon
