// The set-up every test of the RFID drivers against emulated readers shares: a umockdev testbed, the decks
// the readers look tags up in, the test quirk file, and readers started into one recording sink and stopped
// before their emulated devices go. A test fixture derives from it and names its decks.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "devices/deck.hpp"
#include "devices/device.hpp"
#include "reader_models.hpp"
#include "recording_sink.hpp"

namespace cardtable::devices::test {

class UsbReaderFixture : public ::testing::Test {
 protected:
  // The packs enrolled for the test's readers.
  virtual std::vector<Deck> decks() const = 0;

  void SetUp() override {
    if (!umockdev_available()) GTEST_SKIP() << "needs umockdev's preload: run under umockdev-wrapper";
    testbed_ = umockdev_testbed_new();
    auto lib = std::make_shared<DeckLibrary>();
    std::vector<DeckProblem> problems;
    for (const Deck& d : decks()) lib->add(d, problems);
    env_.decks = lib;
    env_.quirks_path = CARDTABLE_TEST_QUIRKS;
  }
  void TearDown() override {
    for (auto& r : readers_) r->stop();
    readers_.clear();
    fakes_.clear();
    models_.clear();
    if (testbed_) g_object_unref(testbed_);
  }
  // The emulated readers' behaviour, kept by the fixture: a test's local model died when the test body
  // returned, while its reader, stopped only in TearDown, still polled it through umockdev's thread -- a
  // use after free that crashed a test in twenty under load (and corrupted a mutex in a run of them all).
  template <class Model, class... Args>
  Model& model(Args&&... args) {
    models_.push_back(std::make_unique<Model>(std::forward<Args>(args)...));
    return static_cast<Model&>(*models_.back());
  }
  FakeUsbDevice& plug(int devnum, const char* port, const char* descriptors, UsbModel& model) {
    fakes_.push_back(std::make_unique<FakeUsbDevice>(testbed_, 1, devnum, port, descriptors, model));
    return *fakes_.back();
  }
  Device& start(std::unique_ptr<Device> d) {
    std::string error;
    EXPECT_TRUE(d->start(sink_, error)) << error;
    readers_.push_back(std::move(d));
    return *readers_.back();
  }
  static DeviceConfig config(const char* name, const char* driver, std::map<int, Zone> antennas, std::map<std::string, std::string> options = {}) {
    return DeviceConfig{name, driver, std::move(antennas), std::move(options)};
  }

  UMockdevTestbed* testbed_ = nullptr;
  DeviceEnvironment env_;
  RecordingSink sink_;
  std::vector<std::unique_ptr<UsbModel>> models_;  // before the fakes: they answer through it
  std::vector<std::unique_ptr<FakeUsbDevice>> fakes_;
  std::vector<std::unique_ptr<Device>> readers_;
};

}  // namespace cardtable::devices::test
