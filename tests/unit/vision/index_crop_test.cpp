// The crop the reader reads (vision/index_crop.hpp): made as the reader's training made its crops
// (vision/train/reader.py, crop), by the filter model.json names.
#include "vision/index_crop.hpp"

#include <cmath>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

using namespace cardtable::vision;
using Filter = ModelInfo::Reader::CropFilter;

namespace {

// Vertical stripes one pixel wide, black and white: the finest detail an image holds.
cv::Mat stripes(int side) {
  cv::Mat m(side, side, CV_8UC3);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) m.at<cv::Vec3b>(y, x) = x % 2 ? cv::Vec3b(255, 255, 255) : cv::Vec3b(0, 0, 0);
  return m;
}

// The largest distance of any pixel from mid grey.
double off_grey(const cv::Mat& m) {
  cv::Mat f;
  m.convertTo(f, CV_64F);
  return cv::norm(f - cv::Scalar::all(127.5), cv::NORM_INF);
}

// A card-like index: ink on a light card, with something in every part of the square.
cv::Mat index_image() {
  cv::Mat image(400, 400, CV_8UC3, cv::Scalar(60, 110, 40));
  cv::rectangle(image, cv::Rect(120, 110, 170, 200), cv::Scalar(235, 235, 228), cv::FILLED);
  cv::putText(image, "10", cv::Point(140, 200), cv::FONT_HERSHEY_SIMPLEX, 2.2, cv::Scalar(30, 20, 190), 5);
  cv::circle(image, cv::Point(185, 250), 22, cv::Scalar(30, 20, 190), cv::FILLED);
  return image;
}

// The crop as vision/train/reader.py makes it with the area filter: a warp at the index's own size
// (rounded up), then every pixel averaged into the crop.
cv::Mat training_crop(const cv::Mat& image, double cx, double cy, double side, double angle, int crop) {
  const int n = static_cast<int>(std::ceil(side));
  cv::Mat M = cv::getRotationMatrix2D(cv::Point2f(static_cast<float>(cx), static_cast<float>(cy)), angle, n / side);
  M.at<double>(0, 2) += n / 2.0 - cx;
  M.at<double>(1, 2) += n / 2.0 - cy;
  cv::Mat big, out;
  cv::warpAffine(image, big, M, cv::Size(n, n), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  cv::resize(big, out, cv::Size(crop, crop), 0, 0, cv::INTER_AREA);
  return out;
}

double mean_gap(const cv::Mat& a, const cv::Mat& b) {
  cv::Mat d;
  cv::absdiff(a, b, d);
  return cv::mean(d)[0];
}

}  // namespace

// The readers trained before the filter existed read the crop they were trained on: one bilinear warp.
TEST(IndexCrop, TheLinearFilterIsOneBilinearWarp) {
  cv::Mat image(200, 300, CV_8UC3);
  cv::randu(image, 0, 256);
  cv::Mat upright, got, want;
  index_crop(image, 120.5, 80.25, 70.0, 90.0, 32, Filter::linear, upright, got);
  cv::Mat M = cv::getRotationMatrix2D(cv::Point2f(120.5f, 80.25f), 90.0, 32 / 70.0);
  M.at<double>(0, 2) += 16 - 120.5;
  M.at<double>(1, 2) += 16 - 80.25;
  cv::warpAffine(image, want, M, cv::Size(32, 32), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  EXPECT_EQ(cv::norm(got, want, cv::NORM_INF), 0.0);
}

// A phone's index is about 100 pixels and is read at 32: sampled every fourth pixel, stripes a pixel
// wide come out all one colour, whichever the samples fall on; averaged, they are the grey they look
// from afar.
TEST(IndexCrop, AnIndexFourTimesTheCropIsAveragedNotSampled) {
  const cv::Mat image = stripes(300);
  cv::Mat upright, linear, area;
  index_crop(image, 150, 150, 128.0, 0.0, 32, Filter::linear, upright, linear);
  index_crop(image, 150, 150, 128.0, 0.0, 32, Filter::area, upright, area);
  EXPECT_GT(off_grey(linear), 60.0) << "the bilinear warp reads the stripes as one of their colours";
  EXPECT_LT(off_grey(area), 2.0) << "every pixel averaged";
}

// An index no larger than the crop is not shrunk, so there is nothing to average: the same warp.
TEST(IndexCrop, AnIndexNoLargerThanTheCropIsWarpedAsBefore) {
  cv::Mat image(100, 100, CV_8UC3);
  cv::randu(image, 0, 256);
  cv::Mat upright, linear, area;
  index_crop(image, 50, 50, 30.0, 30.0, 32, Filter::linear, upright, linear);
  index_crop(image, 50, 50, 30.0, 30.0, 32, Filter::area, upright, area);
  EXPECT_EQ(cv::norm(linear, area, cv::NORM_INF), 0.0);
}

// The reader's four views of one index (quarter turns, one cached upright crop turned) are the crops the
// training makes at those angles, within the index's position rounded to a pixel and the half pixel by
// which a warp centres an even square (measured: a mean gap of 1-5 levels in 255; a view turned the
// wrong way, 60).
TEST(IndexCrop, TheViewsAreTheCropsTheTrainingMakes) {
  const cv::Mat image = index_image();
  cv::Mat upright, got;
  for (double angle : {0.0, 90.0, 180.0, 270.0}) {
    index_crop(image, 205.3, 210.6, 131.0, angle, 32, Filter::area, upright, got);
    EXPECT_LT(mean_gap(got, training_crop(image, 205.3, 210.6, 131.0, angle, 32)), 8.0) << angle << " degrees";
    EXPECT_GT(mean_gap(got, training_crop(image, 205.3, 210.6, 131.0, angle + 90.0, 32)), 15.0)
        << "a view turned the wrong way would pass the check above unnoticed";
  }
}

// Where the square leaves the image, or the angle is not a quarter turn, the crop is made exactly as
// training makes it.
TEST(IndexCrop, AtTheImagesEdgeTheCropIsTheTrainingsOwn) {
  const cv::Mat image = index_image();
  cv::Mat upright, got;
  index_crop(image, 30.0, 200.0, 90.0, 90.0, 32, Filter::area, upright, got);
  EXPECT_EQ(cv::norm(got, training_crop(image, 30.0, 200.0, 90.0, 90.0, 32), cv::NORM_INF), 0.0);
  index_crop(image, 205.0, 210.0, 131.0, 45.0, 32, Filter::area, upright, got);
  EXPECT_EQ(cv::norm(got, training_crop(image, 205.0, 210.0, 131.0, 45.0, 32), cv::NORM_INF), 0.0);
}

// The detector's box moves by hundredths of a pixel between builds (its front computed here or by
// cv::dnn): the crop must move as little. A square taken at whole pixels jumped a pixel when the centre
// crossed a half (x.495 to x.505), and on a fine pattern that is a different crop, which turned an unsure
// reading's suit from 0.41 to 0.09 (rendered_cards_laws.inc, TheDetectorsFrontAndTailRead...).
TEST(IndexCrop, AnIndexMovedByAHundredthOfAPixelGivesTheSameCrop) {
  cv::Mat image(400, 400, CV_8UC3);
  cv::RNG(7).fill(image, cv::RNG::UNIFORM, 0, 256);  // detail at every pixel
  cv::Mat up_a, up_b, a, b;
  index_crop(image, 200.495, 180.495, 70.0, 0.0, 48, Filter::area, up_a, a);
  index_crop(image, 200.505, 180.505, 70.0, 0.0, 48, Filter::area, up_b, b);
  EXPECT_LE(cv::norm(a, b, cv::NORM_INF), 4.0);  // a whole pixel's jump: over 100
}
