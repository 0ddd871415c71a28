// Driver plug-ins (devices/plugin.hpp): where they are looked for, the error when one is missing, and the
// camera plug-in of this build registering its driver.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "devices/plugin.hpp"

namespace cardtable::devices {
namespace {
namespace fs = std::filesystem;

TEST(PlugIns, AreLookedForInTheBuildTreeBesideTheProgramThenInThePackagesPlace) {
  auto c = plugin_candidates("cardtable-camera.so", "/opt/ct/build/daemon/cardtabled");
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0], fs::path("/opt/ct/build/devices/cardtable-camera.so"));
  EXPECT_EQ(c[1], fs::path("/opt/ct/build/daemon/cardtable-camera.so"));
  EXPECT_EQ(c[2], installed_plugin_dir() / "cardtable-camera.so");
  EXPECT_EQ(installed_plugin_dir().filename(), "cardtable");  // /usr/lib/<multiarch>/cardtable
}

TEST(PlugIns, AMissingOneIsAnErrorNamingWhereThePackageInstallsIt) {
  fs::path dir = fs::temp_directory_path() / ("ct-plugin-" + std::to_string(::getpid()));
  fs::create_directories(dir / "bin");
  const fs::path installed = installed_plugin_dir() / "cardtable-nothing.so";
  std::string error;
  EXPECT_EQ(plugin_driver("nothing", "cardtable-nothing.so", dir / "bin" / "cardtabled", error), nullptr);
  EXPECT_EQ(error.rfind("driver nothing: plug-in " + installed.string() + " not found: install ", 0), 0u) << error;
  EXPECT_NE(error.find((dir / "bin" / "cardtable-nothing.so").string()), std::string::npos) << error;
  fs::remove_all(dir);
}

TEST(PlugIns, AFileThatIsNoPlugInIsRefusedWithItsPathAndTheReason) {
  fs::path dir = fs::temp_directory_path() / ("ct-plugin-bad-" + std::to_string(::getpid()));
  fs::create_directories(dir / "bin");
  std::ofstream(dir / "bin" / "cardtable-garbage.so") << "not an ELF file\n";
  std::string error;
  EXPECT_EQ(plugin_driver("garbage", "cardtable-garbage.so", dir / "bin" / "cardtabled", error), nullptr);
  EXPECT_EQ(error.rfind("driver garbage: plug-in " + (dir / "bin" / "cardtable-garbage.so").string() + " cannot be loaded: ", 0), 0u) << error;
  fs::remove_all(dir);
}

#ifdef CARDTABLE_CAMERA_PLUGIN
// This build's plug-in, found from a program in build/daemon as cardtabled finds it.
TEST(PlugIns, TheCameraPlugInOfThisBuildRegistersTheCameraDriver) {
  const fs::path self = fs::path(CARDTABLE_CAMERA_PLUGIN).parent_path().parent_path() / "daemon" / "cardtabled";
  std::string error;
  DeviceFactory make = plugin_driver("camera", "cardtable-camera.so", self, error);
  ASSERT_NE(make, nullptr) << error;
  // Its factory is the camera driver's own: it checks the camera's options.
  EXPECT_EQ(make(DeviceConfig{"cam0", "camera", {}, {{"source", "folder:/nowhere"}}}, {}, error), nullptr);
  EXPECT_EQ(error, "cam0: a camera needs source=SPEC (v4l2:/dev/video0, file:F, folder:D) and zones=CALIBRATION_FILE");
  EXPECT_EQ(plugin_driver("sim", "cardtable-camera.so", self, error), nullptr);
  EXPECT_EQ(error, "driver sim: plug-in " + std::string(CARDTABLE_CAMERA_PLUGIN) + " does not register it");
}
#endif

}  // namespace
}  // namespace cardtable::devices
