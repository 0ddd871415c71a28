// Which secret key files a service accepts (secret_key_file_private): its owner's alone (0600), or the
// Debian pattern the package documents, 0640 root:GROUP where GROUP is the service's own (cardtabled and
// cardtable-hub run as group cardtable). The reading process is given as ProcessIds, so each case runs as
// any user; the files are this test's own.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

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

// A person's own key (cardtablectl, like ssh's private keys): its owner's alone, whatever the group. A
// director's laptop with a key its group or everyone may read let any user there act as the director.
TEST_F(KeyFile, APersonsKeyIsItsOwnersAloneEvenForItsOwnGroup) {
  std::string error;
  EXPECT_TRUE(secret_key_file_private(key, error, owner(), SecretKeyReader::person)) << error;
  mode(0400);
  EXPECT_TRUE(secret_key_file_private(key, error, owner(), SecretKeyReader::person)) << error;
  for (mode_t m : {0640u, 0440u, 0644u, 0604u, 0660u, 0620u, 0602u, 0610u, 0601u}) {
    mode(m);
    EXPECT_FALSE(secret_key_file_private(key, error, owner(), SecretKeyReader::person)) << std::oct << m;
    char shown[8];
    std::snprintf(shown, sizeof shown, "%04o", static_cast<unsigned>(m));
    EXPECT_NE(error.find(key.string() + ": "), std::string::npos) << error;
    EXPECT_NE(error.find(std::string("mode ") + shown), std::string::npos) << error;
    EXPECT_NE(error.find("chmod 600 " + key.string()), std::string::npos) << error;
    EXPECT_EQ(error.find("chgrp"), std::string::npos) << "a person's key is not a service's: " << error;
  }
}

// read_secret_key_file: the mode first, then the keypair, with the secret half there.
TEST_F(KeyFile, ReadSecretKeyFileChecksTheModeAndTheSecretHalf) {
  std::string error;
  auto k = read_secret_key_file(key, error, SecretKeyReader::person, owner());
  ASSERT_TRUE(k) << error;
  EXPECT_EQ(k->secret_key.size(), 40u);
  mode(0644);
  EXPECT_FALSE(read_secret_key_file(key, error, SecretKeyReader::person, owner()));
  EXPECT_NE(error.find("chmod 600 " + key.string()), std::string::npos) << error;
  EXPECT_FALSE(read_secret_key_file(key, error, SecretKeyReader::service, owner()));
  EXPECT_NE(error.find("chmod 600 " + key.string()), std::string::npos) << error;
  // A .pub given where the keypair belongs.
  const fs::path pub = dir / "table.pub";
  ASSERT_EQ(::chmod(pub.c_str(), 0600), 0);
  EXPECT_FALSE(read_secret_key_file(pub, error, SecretKeyReader::person, owner()));
  EXPECT_NE(error.find(pub.string() + ": holds no secret key"), std::string::npos) << error;
}

namespace {
struct HostileKeyFile : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("hostile-keys-test-" + std::to_string(::getpid()));
  Keypair good;
  void SetUp() override {
    fs::remove_all(dir);
    good = write_keypair(dir, "good");
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path write(const std::string& name, const std::string& text) {
    fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << text;
    ::chmod(p.c_str(), 0600);
    return p;
  }
  // The reason read_key_file gives; the test fails when the file is taken as a key.
  std::string refusal(const fs::path& p) {
    std::string error;
    auto k = read_key_file(p, error);
    EXPECT_FALSE(k) << p << " was read as a key: public " << (k ? k->public_key : "");
    EXPECT_TRUE(error.starts_with(p.string() + ": ")) << "the error names no file: " << error;
    return error;
  }
};
}  // namespace

TEST_F(HostileKeyFile, ADirectoryIsNotAKeyFile) {
  fs::create_directories(dir / "folder.pub");
  EXPECT_NE(refusal(dir / "folder.pub").find("a directory"), std::string::npos);
}

TEST_F(HostileKeyFile, EmptyTruncatedAndGarbageFilesSayWhatIsWrong) {
  EXPECT_NE(refusal(write("empty.pub", "")).find("empty"), std::string::npos);
  const std::string truncated = "# cardtable CURVE public key\npublic = " + good.public_key.substr(0, 23);
  EXPECT_NE(refusal(write("truncated.pub", truncated)).find("23 characters, not 40"), std::string::npos);
  EXPECT_NE(refusal(write("long.pub", "public = " + good.public_key + "AAAAA\n")).find("45 characters, not 40"), std::string::npos);
  std::string garbage;
  for (int i = 0; i < 3000; ++i) garbage += static_cast<char>((i * 7919 + 13) % 256);
  EXPECT_NE(refusal(write("garbage.pub", garbage)).find("not a key file"), std::string::npos);
  // 40 characters that Z85 does not have: zmq refused them when setting the socket option, and its
  // exception ended cardtablectl with "terminate called".
  std::string not_z85 = good.public_key;
  not_z85[5] = '"';
  not_z85[6] = '\\';
  not_z85[7] = '~';
  EXPECT_NE(refusal(write("notz85.pub", "public = " + not_z85 + "\n")).find("not Z85"), std::string::npos);
  std::string binary_key(40, '\x01');
  EXPECT_NE(refusal(write("binary.pub", "public = " + binary_key + "\n")).find("not Z85"), std::string::npos);
}

TEST_F(HostileKeyFile, ASecretThatIsNotZ85OrNotThePublicKeysIsRefusedWithoutShowingIt) {
  Keypair other = write_keypair(dir, "other");
  std::string bad_secret = good.secret_key;
  bad_secret[0] = '~';
  std::string error = refusal(write("bad.key", "public = " + good.public_key + "\nsecret = " + bad_secret + "\n"));
  EXPECT_NE(error.find("secret key is not Z85"), std::string::npos) << error;
  EXPECT_EQ(error.find(bad_secret), std::string::npos) << "the error shows the secret";
  error = refusal(write("mixed.key", "public = " + good.public_key + "\nsecret = " + other.secret_key + "\n"));
  EXPECT_NE(error.find("not the secret key's"), std::string::npos) << error;
  EXPECT_EQ(error.find(other.secret_key), std::string::npos) << "the error shows the secret";
  error = refusal(write("short.key", "public = " + good.public_key + "\nsecret = " + good.secret_key.substr(0, 10) + "\n"));
  EXPECT_NE(error.find("10 characters, not 40"), std::string::npos) << error;
}

// A device or a pipe named as a key file: read to its end, /dev/zero filled memory and a FIFO waited for
// ever for a writer.
TEST_F(HostileKeyFile, ADeviceOrAPipeIsRefusedAtOnceAndAHugeFileUnread) {
  EXPECT_NE(refusal("/dev/zero").find("not a regular file"), std::string::npos);
  ASSERT_EQ(::mkfifo((dir / "pipe.pub").c_str(), 0600), 0);
  EXPECT_NE(refusal(dir / "pipe.pub").find("not a regular file"), std::string::npos);
  EXPECT_NE(refusal(write("huge.pub", "public = " + good.public_key + "\n" + std::string(1 << 20, '#'))).find("too long"),
            std::string::npos);
  EXPECT_NE(refusal(dir / "none.pub").find("No such file"), std::string::npos);
}

TEST_F(HostileKeyFile, AGoodPublicKeyFileAndKeypairStillRead) {
  std::string error;
  auto pub = read_key_file(dir / "good.pub", error);
  ASSERT_TRUE(pub) << error;
  EXPECT_EQ(pub->public_key, good.public_key);
  EXPECT_TRUE(pub->secret_key.empty());
  auto pair = read_key_file(dir / "good.key", error);
  ASSERT_TRUE(pair) << error;
  EXPECT_EQ(pair->secret_key, good.secret_key);
  // Written by hand: quotes, spaces and CRLF line ends, as value_of() allows.
  auto by_hand = read_key_file(write("hand.pub", "# typed\r\npublic  =  \"" + good.public_key + "\"\r\n"), error);
  ASSERT_TRUE(by_hand) << error;
  EXPECT_EQ(by_hand->public_key, good.public_key);
}
