// The readers' queue hands the loop bounded batches: what is left keeps the loop's poll awake, so a
// director's request is served between batches, not after a backlog the readers built while the disk
// stalled (the CI failure of ASlowSubscriberNeitherStopsPublishingNorGrowsTheDaemon).
#include <gtest/gtest.h>

#include <poll.h>

#include <chrono>
#include <thread>
#include <vector>

#include "daemon/device_queue.hpp"

namespace {
bool readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, 0) == 1;
}
cardtable::table::TableInput tick(cardtable::table::Millis t) { return {cardtable::table::TableInput::Kind::Tick, {}, {}, t}; }
}  // namespace

TEST(DeviceQueue, ABoundedTakeLeavesTheRestQueuedOldestFirstAndTheLoopAwake) {
  cardtable::daemon::DeviceQueue queue;
  EXPECT_FALSE(readable(queue.fd()));
  for (int i = 0; i < 5; ++i) queue.push(tick(i));
  ASSERT_TRUE(readable(queue.fd()));
  auto first = queue.take(2);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].input.time, 0);
  EXPECT_EQ(first[1].input.time, 1);
  EXPECT_TRUE(readable(queue.fd())) << "three inputs are left: the loop must come back for them";
  auto rest = queue.take(10);
  ASSERT_EQ(rest.size(), 3u);
  EXPECT_EQ(rest[0].input.time, 2);
  EXPECT_EQ(rest[2].input.time, 4);
  EXPECT_FALSE(readable(queue.fd())) << "nothing is left: the loop may sleep";
  EXPECT_TRUE(queue.take().empty());
}

TEST(DeviceQueue, ADeviceThatRunsAheadOfTheLoopWaitsForRoomAndNothingIsDropped) {
  cardtable::daemon::DeviceQueue queue(3);
  std::thread device([&] {
    for (int i = 0; i < 10; ++i) queue.push(tick(i));
  });
  std::vector<cardtable::table::Millis> got;
  while (got.size() < 10) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // a loop slower than its device
    for (const auto& q : queue.take()) got.push_back(q.input.time);
    EXPECT_LE(got.size(), 10u);
  }
  device.join();
  for (int i = 0; i < 10; ++i) EXPECT_EQ(got[static_cast<std::size_t>(i)], i) << "every input, in order";
  EXPECT_GT(queue.waits(), 0u) << "the device found the queue full and waited";
}

TEST(DeviceQueue, ADeviceWaitingForRoomIsReleasedWhenTheDaemonStops) {
  cardtable::daemon::DeviceQueue queue(1);
  queue.push(tick(0));
  std::thread device([&] { queue.push(tick(1)); });  // waits: the queue is full and nobody takes
  while (queue.waits() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  queue.close();
  device.join();  // would hang without close()
  auto left = queue.take();
  ASSERT_EQ(left.size(), 1u) << "the input pushed after the daemon stopped is not queued";
  EXPECT_EQ(left[0].input.time, 0);
}

// status.input_latency claims a reading's wait from its reader to the table (docs/hardware.md). The stamp
// was taken once the reading was in the queue: a device that waited for room behind a stalled loop had its
// wait left out, and the latency looked best exactly when the table was furthest behind.
TEST(DeviceQueue, AReadingIsStampedWhenItsDeviceHandsItOverItsWaitForRoomIncluded) {
  cardtable::daemon::DeviceQueue queue(1);
  queue.push(tick(0));
  const auto handed_over = std::chrono::steady_clock::now();
  std::thread device([&] { queue.push(tick(1)); });  // waits: the queue is full
  while (queue.waits() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the loop stalled
  ASSERT_EQ(queue.take(1).size(), 1u);  // room: the device's push goes in
  device.join();
  const auto taken = queue.take();
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_LT(taken[0].at - handed_over, std::chrono::milliseconds(100))
      << "stamped when the device handed the reading over, not when room was made for it";
}

// At SIGTERM (systemctl stop, a restart) what the devices already handed over was thrown away with the
// queue: a card read just before the stop never reached the table or the journal, and nothing said so.
TEST(DeviceQueue, AtStopEveryInputStillQueuedIsAppliedInOrder) {
  cardtable::daemon::DeviceQueue queue;
  for (int i = 0; i < 300; ++i) queue.push(tick(i));  // more than the loop's batch of 256
  queue.close();
  std::vector<cardtable::table::Millis> applied;
  const auto drained = queue.drain(std::chrono::steady_clock::now() + std::chrono::seconds(60),
                                   [&](const cardtable::daemon::DeviceQueue::Queued& q) { applied.push_back(q.input.time); });
  ASSERT_EQ(applied.size(), 300u);
  for (int i = 0; i < 300; ++i) EXPECT_EQ(applied[static_cast<std::size_t>(i)], i) << "every input, in order";
  EXPECT_EQ(drained.applied, 300u);
  EXPECT_EQ(drained.left, 0u);
  EXPECT_EQ(drained.str(), "300 queued inputs applied");
  EXPECT_EQ(queue.size(), 0u);
}

// A stalled disk (each input's event an fdatasync) must not hold the stop past systemd's TimeoutStopSec:
// the drain ends at its deadline, and what it could not apply is counted for the log, never silently lost.
TEST(DeviceQueue, AStopsDeadlineThatPassedLeavesACountOfTheInputsNotApplied) {
  cardtable::daemon::DeviceQueue queue;
  for (int i = 0; i < 5; ++i) queue.push(tick(i));
  queue.close();
  const auto drained = queue.drain(std::chrono::steady_clock::now() - std::chrono::seconds(1),
                                   [](const cardtable::daemon::DeviceQueue::Queued&) { ADD_FAILURE() << "applied after the deadline"; });
  EXPECT_EQ(drained.applied, 0u);
  EXPECT_EQ(drained.left, 5u);
  EXPECT_EQ(drained.str(), "0 queued inputs applied; 5 not applied: the stop's deadline passed (a stalled disk?)");
}

TEST(DeviceQueue, AStopsDeadlineReachedMidwayAppliesTheOldestAndCountsTheRest) {
  cardtable::daemon::DeviceQueue queue;
  for (int i = 0; i < 5; ++i) queue.push(tick(i));
  queue.close();
  std::vector<cardtable::table::Millis> applied;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  const auto drained = queue.drain(deadline, [&](const cardtable::daemon::DeviceQueue::Queued& q) {
    applied.push_back(q.input.time);
    if (q.input.time == 1) std::this_thread::sleep_until(deadline);  // the disk stalls on the second
  });
  EXPECT_EQ(applied, (std::vector<cardtable::table::Millis>{0, 1}));
  EXPECT_EQ(drained.applied, 2u);
  EXPECT_EQ(drained.left, 3u);
}

TEST(DeviceQueue, AReadingHandedOverAfterTheStopIsCountedNotSilentlyDropped) {
  cardtable::daemon::DeviceQueue queue;
  queue.push(tick(0));
  queue.close();
  queue.push(tick(1));  // a reader's last poll, after the loop stopped taking
  const auto drained = queue.drain(std::chrono::steady_clock::now() + std::chrono::seconds(60),
                                   [](const cardtable::daemon::DeviceQueue::Queued&) {});
  EXPECT_EQ(drained.applied, 1u);
  EXPECT_EQ(drained.refused, 1u);
  EXPECT_EQ(drained.str(), "1 queued input applied; 1 handed over after the devices were told to stop, not applied");
}
