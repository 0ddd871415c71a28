// A config file of "name = value" lines, read into options already parsed from the command line (which
// win). Shared by cardtabled and cardtable-hub: the same rules and the same words for what is wrong.
#pragma once

#include <boost/program_options.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace cardtable::daemon {

// Returns why the file cannot be used, or nothing. A folder opens as a stream that reads nothing (a
// daemon given --config /etc/cardtable ran on its defaults), and Boost's "unrecognised option 'tabel'"
// does not say which file held it: both are said with the file's name.
inline std::optional<std::string> read_config_file(const std::string& file, const boost::program_options::options_description& options,
                                                   boost::program_options::variables_map& into) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) return file + ": a folder, not a config file";
  std::ifstream in(file);
  if (!in || !std::filesystem::is_regular_file(file, ec)) return file + ": cannot read the config file";
  try {
    boost::program_options::store(boost::program_options::parse_config_file(in, options), into);
  } catch (const boost::program_options::error& e) {
    return file + ": " + e.what();
  }
  return std::nullopt;
}

}  // namespace cardtable::daemon
