// Which secret key files a service accepts (secret_key_file_private): its owner's alone (0600), or the
// Debian pattern the package documents, 0640 root:GROUP where GROUP is the service's own (cardtabled and
// cardtable-hub run as group cardtable). The reading process is given as ProcessIds, so each case runs as
// any user; the files are this test's own.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "protocol/curve_keys.hpp"

using namespace cardtable::protocol;
namespace fs = std::filesystem;

namespace {
struct KeyFile : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("curve-keys-test-" + std::to_string(::getpid()));
  fs::path key;
  struct stat st{};
  void SetUp() override {
    fs::remove_all(dir);
    write_keypair(dir, "table");
    key = dir / "table.key";
    ASSERT_EQ(::stat(key.c_str(), &st), 0);
  }
  void TearDown() override { fs::remove_all(dir); }
  void mode(mode_t m) {
    ASSERT_EQ(::chmod(key.c_str(), m), 0);
  }
  // A process of another user in the file's group: the service reading root's (here: the test's) key.
  ProcessIds service_in_group() const { return {st.st_uid == 0 ? 4242u : st.st_uid, st.st_gid, {}}; }
  ProcessIds owner() const { return {st.st_uid, st.st_gid, {}}; }
  ProcessIds other_group() const { return {st.st_uid, st.st_gid + 1, {st.st_gid + 2}}; }
};
}  // namespace

TEST_F(KeyFile, TheOwnersAloneIsAccepted) {
  std::string error;
  EXPECT_TRUE(secret_key_file_private(key, error, owner())) << error;  // 0600 as keygen writes it
  mode(0400);
  EXPECT_TRUE(secret_key_file_private(key, error, owner())) << error;
}

// The documented setup: keygen as root, then chgrp cardtable and chmod 0640; the daemon (user and group
// cardtable) reads it through its group.
TEST_F(KeyFile, ReadableByTheServicesOwnGroupIsAccepted) {
  std::string error;
  mode(0640);
  if (st.st_uid == 0) {
    EXPECT_TRUE(secret_key_file_private(key, error, service_in_group())) << error;  // root:GROUP, read by another user of GROUP
  }
  EXPECT_TRUE(secret_key_file_private(key, error, owner())) << error;  // the owner in the group
  mode(0440);
  EXPECT_TRUE(secret_key_file_private(key, error, owner())) << error;
  // The group as a supplementary group of the process (cardtable is also in video).
  ProcessIds supplementary{st.st_uid, st.st_gid + 1, {st.st_gid + 2, st.st_gid}};
  EXPECT_TRUE(secret_key_file_private(key, error, supplementary)) << error;
}

TEST_F(KeyFile, AGroupTheProcessIsNotInIsRefused) {
  std::string error;
  mode(0640);
  EXPECT_FALSE(secret_key_file_private(key, error, other_group()));
  EXPECT_NE(error.find("which this process is not in"), std::string::npos) << error;
  EXPECT_NE(error.find("mode 0640"), std::string::npos) << error;
  EXPECT_NE(error.find("chmod 600 " + key.string()), std::string::npos) << error;
}

TEST_F(KeyFile, AnythingForOthersIsRefusedWhateverTheGroup) {
  std::string error;
  for (mode_t m : {0644u, 0604u, 0602u, 0601u, 0606u}) {
    mode(m);
    EXPECT_FALSE(secret_key_file_private(key, error, owner())) << std::oct << m;
    EXPECT_NE(error.find("read or written by others"), std::string::npos) << error;
    EXPECT_NE(error.find("chmod 600 " + key.string()), std::string::npos) << error;
  }
}

TEST_F(KeyFile, AGroupThatMayWriteIsRefusedEvenTheServicesOwn) {
  std::string error;
  for (mode_t m : {0660u, 0620u, 0610u, 0650u}) {
    mode(m);
    EXPECT_FALSE(secret_key_file_private(key, error, owner())) << std::oct << m;
    EXPECT_NE(error.find("may write or execute it"), std::string::npos) << error;
    EXPECT_NE(error.find("chmod 640"), std::string::npos) << error;
  }
}

// 0640 of a third user: that user could swap the key under the service.
TEST_F(KeyFile, AGroupReadableKeyOfAThirdUserIsRefused) {
  std::string error;
  mode(0640);
  if (st.st_uid == 0) {  // as root the file can be given away; otherwise it is the (non-root) test's own
    ASSERT_EQ(::chown(key.c_str(), 4343, st.st_gid), 0);
    ASSERT_EQ(::stat(key.c_str(), &st), 0);
  }
  ProcessIds reader{st.st_uid + 1, st.st_gid, {}};
  EXPECT_FALSE(secret_key_file_private(key, error, reader));
  EXPECT_NE(error.find("neither root nor this process"), std::string::npos) << error;
  ProcessIds owner_reads{st.st_uid, st.st_gid, {}};
  EXPECT_TRUE(secret_key_file_private(key, error, owner_reads)) << error;
}

TEST_F(KeyFile, AMissingFileSaysSo) {
  std::string error;
  EXPECT_FALSE(secret_key_file_private(dir / "none.key", error, owner()));
  EXPECT_NE(error.find("No such file"), std::string::npos) << error;
}
