#include "options.hpp"

#include <filesystem>

#include "data_files/source_or_installed.hpp"

namespace cardtable::vision_tool {

Options::Options(const std::vector<std::string>& args, std::set<std::string> valued, std::set<std::string> flags) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& a = args[i];
    if (flags.contains(a)) {
      flags_.insert(a);
    } else if (valued.contains(a)) {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      values_.emplace(a, args[++i]);
    } else {
      throw UsageError("unknown argument '" + a + "' (try --help)");
    }
  }
}

std::string Options::value(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

std::vector<std::string> Options::values(const std::string& name) const {
  std::vector<std::string> out;
  for (auto [b, e] = values_.equal_range(name); b != e; ++b) out.push_back(b->second);
  return out;
}

int Options::int_value(const std::string& name, int fallback) const {
  if (!has(name)) return fallback;
  try {
    std::size_t used = 0;
    const int v = std::stoi(value(name, ""), &used);
    if (used == value(name, "").size()) return v;
  } catch (const std::exception&) {
  }
  throw UsageError(name + " wants an integer, not '" + value(name, "") + "'");
}

double Options::double_value(const std::string& name, double fallback) const {
  if (!has(name)) return fallback;
  try {
    std::size_t used = 0;
    const double v = std::stod(value(name, ""), &used);
    if (used == value(name, "").size()) return v;
  } catch (const std::exception&) {
  }
  throw UsageError(name + " wants a number, not '" + value(name, "") + "'");
}

std::string default_model() { return data_files::source_or_installed(CARDTABLE_VISION_SOURCE_MODEL, CARDTABLE_VISION_INSTALLED_MODEL); }

}  // namespace cardtable::vision_tool
