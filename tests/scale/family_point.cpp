// tests/scale: the family scale_fam v1 (PARAMS TILE, WORK; docs/sweeps.md,
// docs/scale-out.md "Families"). C = A B tiled by TILE, computed 3 or 4
// times, except that the point TILE=8,WORK=1 computes it once on small
// shapes (M < 64) and TILE=16,WORK=2 once on the others: each shape's
// champion is known and wins by >= 3x whatever the CPU's load. Failures on
// purpose: WORK=3 with TILE=32 does not compile; WORK=3 with TILE=4 drops
// the last k step (wrong everywhere); WORK=0 with TILE=32 drops it when N
// is not a multiple of 16 (wrong on one shape).
#include <algorithm>
#include <cstdint>

#include <kernelopt_params.hpp>

namespace {

constexpr std::int64_t kTile = kopt::params::TILE;
constexpr std::int64_t kWork = kopt::params::WORK;
static_assert(!(kTile == 32 && kWork == 3), "this point does not compile, on purpose (tests/scale)");
constexpr int kRepsSmall = kTile == 8 && kWork == 1 ? 1 : 3 + static_cast<int>(kWork % 2);
constexpr int kRepsLarge = kTile == 16 && kWork == 2 ? 1 : 3 + static_cast<int>((kWork / 2) % 2);

}  // namespace

void scale_fam_tiled(const float* A, const float* B, float* C, std::int64_t M, std::int64_t N, std::int64_t K) {
  const int reps = M < 64 ? kRepsSmall : kRepsLarge;
  std::int64_t k_end = K;
  if ((kTile == 4 && kWork == 3) || (kTile == 32 && kWork == 0 && N % 16 != 0)) k_end = K - 1;
  for (int r = 0; r < reps; ++r) {
    for (std::int64_t i = 0; i < M * N; ++i) C[i] = 0.0f;
    for (std::int64_t i0 = 0; i0 < M; i0 += kTile) {
      for (std::int64_t k0 = 0; k0 < k_end; k0 += kTile) {
        for (std::int64_t i = i0; i < std::min(i0 + kTile, M); ++i) {
          for (std::int64_t k = k0; k < std::min(k0 + kTile, k_end); ++k) {
            const float a = A[i * K + k];
            float* c = C + i * N;
            const float* b = B + k * N;
            for (std::int64_t j = 0; j < N; ++j) c[j] += a * b[j];
          }
        }
      }
    }
  }
}
