#include "vision/index_crop.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace cardtable::vision {

namespace {

// The warp that takes the square of `side` about (cx, cy), turned by `angle`, to an n x n image.
void warp(const cv::Mat& image, double cx, double cy, double side, double angle, int n, cv::Mat& out) {
  cv::Mat M = cv::getRotationMatrix2D(cv::Point2f(static_cast<float>(cx), static_cast<float>(cy)), angle, n / side);
  M.at<double>(0, 2) += n / 2.0 - cx;
  M.at<double>(1, 2) += n / 2.0 - cy;
  cv::warpAffine(image, out, M, cv::Size(n, n), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
}

// `angle` as a number of quarter turns anticlockwise (0-3), or -1 if it is not a whole number of them.
int quarter_turns(double angle) {
  const double q = angle / 90.0;
  const double r = std::round(q);
  if (std::abs(q - r) > 1e-9) return -1;
  return static_cast<int>(((static_cast<long long>(r) % 4) + 4) % 4);
}

}  // namespace

void index_crop(const cv::Mat& image, double cx, double cy, double side, double angle, int crop, ModelInfo::Reader::CropFilter filter,
                cv::Mat& upright, cv::Mat& out) {
  side = std::max(1.0, side);
  if (filter != ModelInfo::Reader::CropFilter::area || side <= crop) {
    warp(image, cx, cy, side, angle, crop, out);
    return;
  }
  // A bilinear warp that shrinks samples the image every side/crop pixels and reads only the four
  // pixels around each sample: an index three times the crop's size (a phone's 100-pixel index read at
  // 32) is read through aliasing, its strokes broken or thickened by where the samples fall. The area
  // filter averages every pixel into the crop. Training makes it as a warp at the index's own size, then
  // cv::INTER_AREA. A whole number of quarter turns inside the image (the reader's views) is the same
  // square taken straight from the image, averaged once for the index, then turned: within a pixel's
  // rounding of the index's side (a fraction of a crop pixel), at a fraction of the cost. The square is
  // taken at the index's sub-pixel position (a warp that only moves it, bilinear), as the training's
  // warp takes it: a whole-pixel square would jump a pixel when the detector's box moves by a hundredth
  // of one across a half, and an unsure reading with it (the detector's front computed here and
  // cv::dnn's whole detector differ by that much). cv::getRectSubPix does the same, no faster.
  const int turns = quarter_turns(angle);
  const int n = static_cast<int>(std::lround(side));
  const cv::Rect square(static_cast<int>(std::floor(cx - n / 2.0)), static_cast<int>(std::floor(cy - n / 2.0)), n + 1, n + 1);
  if (turns >= 0 && (square & cv::Rect(0, 0, image.cols, image.rows)) == square) {
    if (upright.empty()) {
      cv::Mat at_index;
      warp(image, cx, cy, n, 0.0, n, at_index);  // n pixels about (cx, cy), unscaled
      cv::resize(at_index, upright, cv::Size(crop, crop), 0, 0, cv::INTER_AREA);
    }
    static constexpr cv::RotateFlags kTurn[] = {cv::ROTATE_90_COUNTERCLOCKWISE, cv::ROTATE_180, cv::ROTATE_90_CLOCKWISE};
    if (turns == 0)
      upright.copyTo(out);
    else
      cv::rotate(upright, out, kTurn[turns - 1]);
    return;
  }
  cv::Mat big;  // an index at the image's edge, or turned by another angle: rare, and made as training makes it
  warp(image, cx, cy, side, angle, static_cast<int>(std::ceil(side)), big);
  cv::resize(big, out, cv::Size(crop, crop), 0, 0, cv::INTER_AREA);
}

}  // namespace cardtable::vision
