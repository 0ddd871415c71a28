// `cardtablectl records ...`: validate, show, convert, lookup, analyze and generate record files.
#pragma once

#include <string>
#include <vector>

namespace cardtable::tools {

// Exit codes shared by every cardtablectl command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitProblems = 1;
inline constexpr int kExitUsage = 2;

// args: what follows "records" on the command line.
int run_records(const std::vector<std::string>& args);
std::string records_usage();

}  // namespace cardtable::tools
