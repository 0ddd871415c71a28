// Log lines from devices, with a priority (sd-daemon levels: 3 error, 4 warning, 6 info, 7 debug) and the
// device's name first, so a log says which reader sent the garbage. The daemon sets the sink; the default
// writes "<N>device: message" to stderr, which journald reads as the priority.
#pragma once

#include <functional>
#include <string>

namespace cardtable::devices {

enum class LogLevel : int { Error = 3, Warning = 4, Info = 6, Debug = 7 };
using LogSink = std::function<void(LogLevel, const std::string& device, const std::string& message)>;

void set_log_sink(LogSink sink);  // null: back to stderr
void log(LogLevel level, const std::string& device, const std::string& message);

}  // namespace cardtable::devices
