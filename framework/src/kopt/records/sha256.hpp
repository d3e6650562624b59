// SHA-256 (FIPS 180-4), for the source hash of a record.
#pragma once

#include <cstdint>
#include <string>

namespace kopt {

class sha256 {
 public:
  sha256();
  void update(const void* data, std::size_t size);
  void update(const std::string& text) { update(text.data(), text.size()); }
  // Lower-case hex digest; the object is finished after this call.
  [[nodiscard]] std::string hex_digest();

 private:
  void compress(const unsigned char* block);

  std::uint32_t m_state[8];
  unsigned char m_block[64];
  std::size_t m_block_size = 0;
  std::uint64_t m_total_bytes = 0;
};

[[nodiscard]] std::string sha256_hex(const std::string& data);

}  // namespace kopt
