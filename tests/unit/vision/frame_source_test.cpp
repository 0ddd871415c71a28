#include "vision/frame_source.hpp"

#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>

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

// The camera device reads every frame (30 a second): a camera's or a video's frame is decoded into the
// buffer of the one before when the size is the same, not into a new one.
TEST(FrameSource, AVideoReadIntoTheLastFrameReusesItsBuffer) {
  const auto d = temp_dir("into");
  const auto clip = d / "clip.avi";
  {
    cv::VideoWriter w(clip.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 10, cv::Size(64, 48));
    if (!w.isOpened()) GTEST_SKIP() << "this OpenCV writes no MJPEG video";
    for (int i = 0; i < 3; ++i) w.write(cv::Mat(48, 64, CV_8UC3, cv::Scalar(0, 0, 80 * i)));
  }
  auto src = open_source("file:" + clip.string());
  Frame f;
  ASSERT_TRUE(src->next_into(f));
  const uchar* buffer = f.image.data;
  ASSERT_TRUE(src->next_into(f));
  EXPECT_EQ(f.image.data, buffer) << "the second frame was decoded into a new buffer";
  EXPECT_EQ(f.image.cols, 64);
  ASSERT_TRUE(src->next_into(f));
  EXPECT_FALSE(src->next_into(f));
  EXPECT_TRUE(src->finished());
  fs::remove_all(d);
}

// A recording replays at the pace it was made at: a video file's rate is its container's, a folder's
// period the one it was opened with; a camera says none (it runs at its own rate).
TEST(FrameSource, AVideoSaysItsFramePeriodFromItsRateAndAFolderTheOneItWasGiven) {
  const auto d = temp_dir("rate");
  const auto clip = d / "clip.avi";
  {
    cv::VideoWriter w(clip.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 25, cv::Size(64, 48));
    if (!w.isOpened()) GTEST_SKIP() << "this OpenCV writes no MJPEG video";
    w.write(cv::Mat(48, 64, CV_8UC3, cv::Scalar(0, 0, 80)));
  }
  const auto period = open_source("file:" + clip.string())->frame_period_ms();
  ASSERT_TRUE(period);
  EXPECT_NEAR(*period, 40.0, 0.01);
  fs::create_directories(d / "frames");
  ASSERT_TRUE(cv::imwrite((d / "frames" / "0.png").string(), cv::Mat(48, 64, CV_8UC3, cv::Scalar(0, 80, 0))));
  EXPECT_EQ(open_image_folder(d / "frames", 250)->frame_period_ms(), 250.0);
  EXPECT_FALSE(open_camera("/dev/video-that-is-not-there")->frame_period_ms());
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
