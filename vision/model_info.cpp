#include "vision/model_info.hpp"

#include <array>
#include <tuple>
#include <utility>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace cardtable::vision {

namespace {

int int_field(const nlohmann::json& o, const char* key, int lo, int hi, const std::string& where) {
  if (!o.contains(key)) throw std::runtime_error(where + ": missing '" + key + "'");
  const auto& v = o.at(key);
  if (!v.is_number_integer()) throw std::runtime_error(where + ": '" + key + "' is not an integer");
  const auto n = v.get<std::int64_t>();
  if (n < lo || n > hi) throw std::runtime_error(where + ": '" + key + "' = " + std::to_string(n) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<int>(n);
}

std::vector<std::string> string_list(const nlohmann::json& o, const char* key, std::size_t n, const std::string& where) {
  if (!o.contains(key) || !o.at(key).is_array() || o.at(key).size() != n)
    throw std::runtime_error(where + ": '" + key + "' must be a list of " + std::to_string(n) + " names");
  std::vector<std::string> out;
  for (const auto& v : o.at(key)) {
    if (!v.is_string()) throw std::runtime_error(where + ": '" + key + "' holds a non-string");
    out.push_back(v.get<std::string>());
  }
  return out;
}

// An optional string field: absent gives "", any other type is an error naming it.
std::string optional_string(const nlohmann::json& o, const char* key, const std::string& where) {
  if (!o.contains(key)) return {};
  if (!o.at(key).is_string()) throw std::runtime_error(where + ": '" + key + "' is not a string");
  return o.at(key).get<std::string>();
}

// An ONNX file named in the metadata: a file beside it (no path out of its folder) and the SHA-256 of its
// bytes, checked when it is loaded. `at` names the object in errors ("", "reader.", "reader.strip.").
std::pair<std::string, std::string> onnx_file(const nlohmann::json& o, const std::string& at, const std::string& where) {
  if (!o.contains("onnx") || !o.at("onnx").is_string()) throw std::runtime_error(where + ": '" + at + "onnx' missing");
  auto name = o.at("onnx").get<std::string>();
  if (name.empty() || name.find("..") != std::string::npos || name.front() == '/')
    throw std::runtime_error(where + ": '" + at + "onnx' must name a file beside the metadata");
  if (!o.contains("sha256") || !o.at("sha256").is_string() || o.at("sha256").get<std::string>().size() != 64)
    throw std::runtime_error(where + ": '" + at + "sha256' must be 64 hex digits");
  return {name, o.at("sha256").get<std::string>()};
}

// A probability field of the operating point: a number in [lo, 1].
double probability_field(const nlohmann::json& o, const char* key, double lo, const std::string& where) {
  if (!o.contains(key) || !o.at(key).is_number()) throw std::runtime_error(where + ": 'reader.operating_point." + key + "' is not a number");
  const double v = o.at(key).get<double>();
  if (!(v >= lo && v <= 1)) {
    char range[32];
    std::snprintf(range, sizeof range, "%g..1", lo);
    throw std::runtime_error(where + ": 'reader.operating_point." + key + "' outside " + range);
  }
  return v;
}

}  // namespace

ModelInfo parse_model_info(std::string_view text, const std::string& where) {
  const auto j = nlohmann::json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) throw std::runtime_error(where + ": not a JSON object");
  if (optional_string(j, "format", where) != "cardtable-vision-model")
    throw std::runtime_error(where + ": 'format' is not cardtable-vision-model");
  ModelInfo m;
  std::tie(m.onnx, m.sha256) = onnx_file(j, "", where);
  if (!j.contains("input") || !j.at("input").is_object()) throw std::runtime_error(where + ": missing 'input'");
  const auto& in = j.at("input");
  m.width = int_field(in, "width", 32, 4096, where);
  m.height = int_field(in, "height", 32, 4096, where);
  if (!in.contains("scale") || !in.at("scale").is_number()) throw std::runtime_error(where + ": 'input.scale' is not a number");
  m.scale = in.at("scale").get<double>();
  if (!(m.scale > 0 && m.scale <= 1)) throw std::runtime_error(where + ": 'input.scale' outside (0, 1]");
  if (!j.contains("output") || !j.at("output").is_object()) throw std::runtime_error(where + ": missing 'output'");
  const auto& out = j.at("output");
  m.stride = int_field(out, "stride", 1, 64, where);
  m.channels = int_field(out, "channels", 20, 4096, where);
  m.feat_dim = int_field(out, "feat_dim", 0, 4096, where);
  m.heat = int_field(out, "heat", 0, m.channels - 1, where);
  m.rank = int_field(out, "rank", 0, m.channels - 13, where);
  m.suit = int_field(out, "suit", 0, m.channels - 4, where);
  m.size = int_field(out, "size", 0, m.channels - 2, where);
  m.feat = int_field(out, "feat", 0, m.channels - m.feat_dim, where);
  if (m.width % m.stride != 0 || m.height % m.stride != 0) throw std::runtime_error(where + ": input size is not a multiple of the stride");
  m.ranks = string_list(j, "ranks", 13, where);
  m.suits = string_list(j, "suits", 4, where);
  m.attribution = optional_string(j, "attribution", where);
  if (j.contains("reader")) {
    const auto& r = j.at("reader");
    if (!r.is_object()) throw std::runtime_error(where + ": 'reader' is not an object");
    ModelInfo::Reader rd;
    std::tie(rd.onnx, rd.sha256) = onnx_file(r, "reader.", where);
    rd.crop = int_field(r, "crop", 8, 512, where);
    if (!r.contains("crop_scale") || !r.at("crop_scale").is_number()) throw std::runtime_error(where + ": 'reader.crop_scale' missing");
    rd.crop_scale = r.at("crop_scale").get<double>();
    if (!(rd.crop_scale >= 0.5 && rd.crop_scale <= 4)) throw std::runtime_error(where + ": 'reader.crop_scale' outside 0.5..4");
    if (r.contains("crop_filter")) {
      const auto& f = r.at("crop_filter");
      if (f == "area")
        rd.crop_filter = ModelInfo::Reader::CropFilter::area;
      else if (f != "linear")
        throw std::runtime_error(where + ": 'reader.crop_filter' must be \"linear\" or \"area\", not " + f.dump());
    }
    rd.channels = int_field(r, "channels", 18, 4096, where);
    rd.emb_dim = int_field(r, "emb_dim", 0, 4096, where);
    rd.rank = int_field(r, "rank", 0, rd.channels - 13, where);
    rd.suit = int_field(r, "suit", 0, rd.channels - 4, where);
    rd.is_index = int_field(r, "is_index", 0, rd.channels - 1, where);
    rd.emb = int_field(r, "emb", 0, rd.channels - rd.emb_dim, where);
    if (r.contains("strip")) {
      const auto& st = r.at("strip");
      if (!st.is_object()) throw std::runtime_error(where + ": 'reader.strip' is not an object");
      ModelInfo::Reader::Strip sp;
      std::tie(sp.onnx, sp.sha256) = onnx_file(st, "reader.strip.", where);
      sp.crops = int_field(st, "crops", 1, 256, where + ": reader.strip");
      // At least one column between crops: a crop that touched the next would read it as its padding.
      sp.pitch = int_field(st, "pitch", rd.crop + 1, 4 * rd.crop, where + ": reader.strip");
      rd.strip = sp;
    }
    if (r.contains("operating_point")) {
      const auto& op = r.at("operating_point");
      if (!op.is_object()) throw std::runtime_error(where + ": 'reader.operating_point' is not an object");
      OperatingPoint pt;
      // A floor of 0 would read every index, refusing nothing: never a point anyone chose.
      pt.floor = probability_field(op, "floor", 0.5, where);
      pt.margin = probability_field(op, "margin", 0, where);
      pt.pair_floor = probability_field(op, "pair_floor", 0, where);
      pt.views = int_field(op, "views", 1, 16, where + ": reader.operating_point");
      rd.operating_point = pt;
    }
    m.reader = rd;
  }
  if (j.contains("tail")) {
    const auto& t = j.at("tail");
    if (!t.is_object()) throw std::runtime_error(where + ": 'tail' is not an object");
    ModelInfo::Tail tl;
    std::tie(tl.onnx, tl.sha256) = onnx_file(t, "tail.", where);
    tl.front = optional_string(t, "front", where);
    // The front is code (detector_front.cpp), so a tail that expects another one cannot be run.
    if (tl.front != "cornernet-s4")
      throw std::runtime_error(where + ": 'tail.front' is '" + tl.front + "', and the only front this program computes is 'cornernet-s4'");
    if (int_field(t, "channels", 1, 4096, where + ": tail") != 32 || int_field(t, "stride", 1, 64, where + ": tail") != 4)
      throw std::runtime_error(where + ": the cornernet-s4 front gives 32 channels at stride 4, not what 'tail' says");
    m.tail = tl;
  }
  return m;
}

ModelInfo read_model_info(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read model metadata " + file.string());
  std::ostringstream s;
  s << in.rdbuf();
  return parse_model_info(s.str(), file.string());
}

std::string sha256_hex(std::string_view bytes) {
  static constexpr std::array<std::uint32_t, 64> k = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
      0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
      0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
      0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
      0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
      0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
  std::array<std::uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string msg(bytes);
  const std::uint64_t bits = static_cast<std::uint64_t>(bytes.size()) * 8;
  msg.push_back(static_cast<char>(0x80));
  while (msg.size() % 64 != 56) msg.push_back('\0');
  for (int i = 7; i >= 0; --i) msg.push_back(static_cast<char>((bits >> (i * 8)) & 0xff));
  auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  for (std::size_t off = 0; off < msg.size(); off += 64) {
    std::array<std::uint32_t, 64> w{};
    for (int i = 0; i < 16; ++i) {
      const auto* p = reinterpret_cast<const unsigned char*>(msg.data() + off + static_cast<std::size_t>(i) * 4);
      w[static_cast<std::size_t>(i)] = (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
    }
    for (std::size_t i = 16; i < 64; ++i) {
      const auto s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const auto s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    auto [a, b, c, d, e, f, g, hh] = h;
    for (std::size_t i = 0; i < 64; ++i) {
      const auto t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
      const auto t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  for (auto v : h)
    for (int i = 28; i >= 0; i -= 4) out.push_back(hex[(v >> i) & 0xf]);
  return out;
}

}  // namespace cardtable::vision
