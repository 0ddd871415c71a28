#include "vision/frame_source.hpp"

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>

using namespace cardtable::vision;
namespace fs = std::filesystem;

namespace {
fs::path temp_dir(const char* name) {
  const auto d = fs::temp_directory_path() / (std::string("cardtable-vision-") + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}
}  // namespace

TEST(FrameSource, AFolderReplaysItsImagesInNameOrderAndSkipsBadFiles) {
  const auto d = temp_dir("folder");
  cv::imwrite((d / "002.png").string(), cv::Mat(10, 10, CV_8UC3, cv::Scalar(0, 0, 2)));
  cv::imwrite((d / "001.png").string(), cv::Mat(10, 10, CV_8UC3, cv::Scalar(0, 0, 1)));
  std::ofstream(d / "003.png") << "not a png";
  auto src = open_source(d.string());
  auto a = src->next();
  auto b = src->next();
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->image.at<cv::Vec3b>(0, 0)[2], 1);
  EXPECT_EQ(b->image.at<cv::Vec3b>(0, 0)[2], 2);
  EXPECT_LT(a->time_ms, b->time_ms);
  EXPECT_FALSE(src->next());
  EXPECT_TRUE(src->finished());
  EXPECT_FALSE(src->healthy()) << "a frame that did not decode is reported, not silently lost";
  fs::remove_all(d);
}

TEST(FrameSource, AMissingCameraIsUnhealthyAndYieldsNothingUntilItComes) {
  auto cam = open_camera("/dev/video-that-is-not-there");
  EXPECT_FALSE(cam->healthy());
  EXPECT_FALSE(cam->next());
  EXPECT_FALSE(cam->finished()) << "a camera is never finished: it may be plugged in again";
}

TEST(FrameSource, AVideoThatIsNotThereIsAnError) {
  EXPECT_THROW(open_video_file("/nonexistent/clip.mp4"), std::runtime_error);
}
