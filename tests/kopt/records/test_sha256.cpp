// sha256 against FIPS 180-4 test vectors; the source hash's documented layout.
#include <gtest/gtest.h>

#include "kopt/records/sha256.hpp"
#include "kopt/records/source_hash.hpp"
#include "test_support.hpp"

namespace kopt::test {
namespace {

TEST(sha256, known_vectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  sha256 million;
  const std::string chunk(1000, 'a');
  for (int i = 0; i < 1000; ++i) million.update(chunk);
  EXPECT_EQ(million.hex_digest(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(sha256, source_hash_is_name_size_content_per_file) {
  scratch_case c;
  write_text(c.path("a/one.cu"), "x");
  write_text(c.path("b/two.cu"), "yz");
  const source_hash hash = hash_sources({c.path("a/one.cu").string(), c.path("b/two.cu").string()});
  EXPECT_EQ(hash.m_sha256, sha256_hex(std::string("one.cu\0"
                                                  "1\0"
                                                  "x"
                                                  "two.cu\0"
                                                  "2\0"
                                                  "yz",
                                                  21)));
  ASSERT_EQ(hash.m_files.size(), 2u);
  EXPECT_EQ(hash.m_files[0].m_name, "one.cu");
  EXPECT_EQ(hash.m_files[1].m_sha256, sha256_hex("yz"));
  // The same files elsewhere hash the same: only base names enter the hash.
  write_text(c.path("elsewhere/one.cu"), "x");
  write_text(c.path("elsewhere/two.cu"), "yz");
  EXPECT_EQ(hash_sources({c.path("elsewhere/one.cu").string(), c.path("elsewhere/two.cu").string()}).m_sha256,
            hash.m_sha256);
  EXPECT_THROW((void)hash_sources({c.path("none.cu").string()}), std::runtime_error);
}

}  // namespace
}  // namespace kopt::test
