// What the tests of the detector's hand-computed layers (detector_front_test, detector_tail_test) share:
// a frame for every layer to respond to, and how far a blob computed here lies from cv::dnn's.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace cardtable::test {

// A frame with something in it for every layer to respond to: noise, edges, flat colour, and a dark
// bottom-right corner (the padding edges of a strided convolution are where an off-by-one would show).
inline cv::Mat busy_frame(cv::Size size, int seed) {
  cv::Mat m(size, CV_8UC3);
  cv::RNG rng(static_cast<std::uint64_t>(seed));
  rng.fill(m, cv::RNG::UNIFORM, 0, 256);
  cv::rectangle(m, cv::Rect(size.width / 8, size.height / 8, size.width / 3, size.height / 4), cv::Scalar(250, 250, 240), cv::FILLED);
  cv::putText(m, "10", cv::Point(size.width / 6, size.height / 3), cv::FONT_HERSHEY_SIMPLEX, 2.0, cv::Scalar(20, 20, 200), 4);
  cv::rectangle(m, cv::Rect(size.width - 40, size.height - 40, 40, 40), cv::Scalar(0, 0, 0), cv::FILLED);
  return m;
}

// The largest difference between two [1, C, H, W] blobs of the same shape over channels first..last-1,
// relative to the largest value of `want` there (so the heat map's probabilities, small beside logits
// and features, are held to their own scale). All channels by default.
inline double relative_gap(const cv::Mat& got, const cv::Mat& want, int first = 0, int last = -1) {
  EXPECT_EQ(got.dims, want.dims);
  for (int d = 0; d < want.dims; ++d) EXPECT_EQ(got.size[d], want.size[d]) << "dimension " << d;
  const std::size_t per_channel = want.total() / static_cast<std::size_t>(want.size[1]);
  const std::size_t from = per_channel * static_cast<std::size_t>(first);
  const std::size_t to = last < 0 ? want.total() : per_channel * static_cast<std::size_t>(last);
  double gap = 0, top = 0;
  for (std::size_t i = from; i < to; ++i) {
    gap = std::max(gap, static_cast<double>(std::abs(got.ptr<float>()[i] - want.ptr<float>()[i])));
    top = std::max(top, static_cast<double>(std::abs(want.ptr<float>()[i])));
  }
  return top > 0 ? gap / top : gap;
}

}  // namespace cardtable::test
