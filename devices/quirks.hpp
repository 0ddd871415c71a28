// Per-model facts about readers, kept in a data file (devices/quirks/readers.quirk, installed to
// /usr/share/cardtable/readers.quirk) in the manner of fwupd's .quirk files: which USB IDs a driver takes,
// how the antennas are numbered, how often to poll, which firmware bugs to work around. A new reader
// model that speaks a known protocol needs a new section there, not code.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cardtable::devices {

struct ReaderQuirk {
  std::string model;                 // the section name: "acr122u"
  std::string protocol;              // "pn53x-ccid" or "cardtable-board"
  std::uint16_t vid = 0, pid = 0;
  int antennas = 1;
  std::vector<int> antenna_order;    // physical antenna → logical antenna (the label on the board's case):
                                     // empty, or a permutation of 0..antennas-1
  int poll_ms = 100;                 // time between two polls of one reader
  int timeout_ms = 500;              // every transfer's timeout
  int retries = 3;                   // failed polls in a row before the reader is reset
  int crosstalk_margin = 6;          // signal-strength lead that makes one antenna win a tag seen on several
  std::set<std::string> bugs;        // named firmware bugs the driver works around
  bool has_bug(std::string_view b) const { return bugs.count(std::string(b)) > 0; }
  int logical_antenna(int physical) const;
  // The physical antenna behind a logical one (antenna_order's inverse); none when the order leaves it out.
  std::optional<int> physical_antenna(int logical) const;
};

struct QuirkProblem {
  int line = 0;
  std::string message;
  // The file cannot be used as it stands: a reader refuses to start (the daemon exits 2). Any other
  // problem is a warning and the rest of the file is kept.
  bool fatal = false;
};

class QuirkTable {
 public:
  // Problems that lose readings without a word are fatal: an antenna_order that names a logical antenna
  // twice or one the model lacks, or is not `antennas` long; two sections with one usb VID:PID.
  static QuirkTable parse(std::string_view text, std::vector<QuirkProblem>& problems);
  // Reads the file; problems (and a missing file) are reported, fatal only as parse() says.
  static QuirkTable load(const std::string& path, std::vector<QuirkProblem>& problems);
  static std::string default_path();  // the source tree's file when it is there, else the installed one
  const ReaderQuirk* by_usb(std::uint16_t vid, std::uint16_t pid) const;
  const ReaderQuirk* by_model(std::string_view model) const;
  std::vector<const ReaderQuirk*> by_protocol(std::string_view protocol) const;
  const std::vector<ReaderQuirk>& all() const { return quirks_; }

 private:
  std::vector<ReaderQuirk> quirks_;
};

}  // namespace cardtable::devices
