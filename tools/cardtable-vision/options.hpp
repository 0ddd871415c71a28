// The tool's small argument parser: `--name value` and `--flag`, unknown names are an error.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cardtable::vision_tool {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Options {
 public:
  Options(const std::vector<std::string>& args, std::set<std::string> valued, std::set<std::string> flags);
  bool has(const std::string& name) const { return values_.contains(name); }
  bool flag(const std::string& name) const { return flags_.contains(name); }
  std::string value(const std::string& name, const std::string& fallback) const;
  std::vector<std::string> values(const std::string& name) const;
  int int_value(const std::string& name, int fallback) const;
  double double_value(const std::string& name, double fallback) const;

 private:
  std::multimap<std::string, std::string> values_;
  std::set<std::string> flags_;
};

// vision/model/model.json of the source tree, or the installed one.
std::string default_model();

}  // namespace cardtable::vision_tool
