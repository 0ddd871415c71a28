// What a Gateway needs on disk, in a test's own folder: a logins file with one director (td, "secret")
// and a page of one index.html.
#pragma once

#include <filesystem>
#include <fstream>

#include "console/logins.hpp"

namespace cardtable::console::test_folder {

inline Logins one_director_logins(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "logins") << "td director " << Logins::hash_password("secret", 1000) << "\n";
  return Logins::load(folder / "logins");
}

inline std::filesystem::path one_page_www(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder / "www");
  std::ofstream(folder / "www" / "index.html") << "<!doctype html><title>console</title>\n";
  return folder / "www";
}

}  // namespace cardtable::console::test_folder
