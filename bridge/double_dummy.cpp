#include "bridge/double_dummy.hpp"

#include <dds/dll.h>

#include <cstring>
#include <memory>
#include <mutex>

namespace cardtable::bridge {
namespace {

std::once_flag g_init;
std::mutex g_dds;  // libdds keeps global solver state: one call at a time from our side

void init_dds() {
  std::call_once(g_init, [] { SetMaxThreads(0); });  // 0: as many threads as cores
}

// libdds: hands N E S W (as ours), suits S H D C, ranks as bit 2 (two) .. bit 14 (ace).
ddTableDeal to_dds(const Deal& d) {
  ddTableDeal t{};
  for (Seat s : kAllSeats)
    for (int su = 0; su < 4; ++su)
      t.cards[index(s)][su] = d.hand(s).suit_bits(static_cast<Suit>(3 - su)) << 2;
  return t;
}

// libdds strains: 0 S, 1 H, 2 D, 3 C, 4 NT.
int dds_strain(Strain s) { return s == Strain::NoTrump ? 4 : 3 - static_cast<int>(s); }

DdTable from_dds(const ddTableResults& r) {
  DdTable t;
  for (Seat s : kAllSeats)
    for (int st = 0; st < kStrains; ++st)
      t.tricks[static_cast<std::size_t>(index(s))][static_cast<std::size_t>(st)] = r.resTable[dds_strain(static_cast<Strain>(st))][index(s)];
  return t;
}

std::string dds_error(int code) {
  char line[80] = {};
  ErrorMessage(code, line);
  return std::string("libdds: ") + line + " (" + std::to_string(code) + ")";
}

int dds_vulnerability(Vulnerability v) {
  switch (v) {
    case Vulnerability::None: return 0;
    case Vulnerability::Both: return 1;
    case Vulnerability::NorthSouth: return 2;
    case Vulnerability::EastWest: return 3;
  }
  return 0;
}

}  // namespace

std::string Par::pbn_contract() const {
  std::string out;
  for (const std::string& c : contracts) {
    if (!out.empty()) out += ", ";
    out += c;
  }
  return out;
}

DdResult solve_double_dummy(const Deal& deal) {
  if (!deal.valid()) return {std::nullopt, "the deal is not 4 hands of 13 cards"};
  init_dds();
  std::lock_guard lock(g_dds);
  ddTableResults res{};
  int rc = CalcDDtable(to_dds(deal), &res);
  if (rc != RETURN_NO_FAULT) return {std::nullopt, dds_error(rc)};
  return {from_dds(res), {}};
}

std::vector<DdResult> solve_double_dummy(const std::vector<Deal>& deals) {
  std::vector<DdResult> out(deals.size());
  init_dds();
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < deals.size(); ++i) {
    if (deals[i].valid()) todo.push_back(i);
    else out[i].error = "the deal is not 4 hands of 13 cards";
  }
  // With all five strains, libdds takes at most MAXNOOFTABLES deals per call.
  for (std::size_t start = 0; start < todo.size(); start += MAXNOOFTABLES) {
    std::size_t n = std::min<std::size_t>(MAXNOOFTABLES, todo.size() - start);
    auto batch = std::make_unique<ddTableDeals>();
    auto res = std::make_unique<ddTablesRes>();
    batch->noOfTables = static_cast<int>(n);
    for (std::size_t j = 0; j < n; ++j) batch->deals[j] = to_dds(deals[todo[start + j]]);
    int filter[DDS_STRAINS] = {0, 0, 0, 0, 0};
    int rc;
    {
      std::lock_guard lock(g_dds);
      rc = CalcAllTables(batch.get(), -1, filter, res.get(), nullptr);
    }
    for (std::size_t j = 0; j < n; ++j) {
      if (rc == RETURN_NO_FAULT) out[todo[start + j]].table = from_dds(res->results[j]);
      else out[todo[start + j]].error = dds_error(rc);
    }
  }
  return out;
}

std::optional<Par> par(const DdTable& table, Seat dealer, Vulnerability vulnerability) {
  init_dds();
  ddTableResults t{};
  for (Seat s : kAllSeats)
    for (int st = 0; st < kStrains; ++st) t.resTable[dds_strain(static_cast<Strain>(st))][index(s)] = table.at(s, static_cast<Strain>(st));
  parResultsMaster res{};
  int rc;
  {
    std::lock_guard lock(g_dds);
    rc = DealerParBin(&t, &res, index(dealer), dds_vulnerability(vulnerability));
  }
  if (rc != RETURN_NO_FAULT) return std::nullopt;
  Par p;
  p.score_ns = res.score;
  static constexpr const char* kParSeats[] = {"N", "E", "S", "W", "NS", "EW"};
  static constexpr const char* kDenoms[] = {"NT", "S", "H", "D", "C"};
  for (int i = 0; i < res.number && i < 10; ++i) {
    const contractType& c = res.contracts[i];
    std::string s = std::string(kParSeats[c.seats < 6 && c.seats >= 0 ? c.seats : 0]) + " " + std::to_string(c.level) + kDenoms[c.denom % 5];
    // Appended: gcc 12 -O3 warns a false -Wrestrict on "+" + std::to_string (const char* + string&&).
    if (c.underTricks > 0) s.append("X-").append(std::to_string(c.underTricks));
    else if (c.overTricks > 0) s.append("+").append(std::to_string(c.overTricks));
    p.contracts.push_back(std::move(s));
  }
  return p;
}

}  // namespace cardtable::bridge
