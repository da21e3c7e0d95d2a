#pragma once
//! Portability layer for the core: the one place that knows about CUDA.
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define GPUPLAN_HD __host__ __device__
#else
#define GPUPLAN_HD
#endif

//! 1 while nvcc compiles device code, else 0: for a host-only shortcut with a device fallback.
#if defined(__CUDA_ARCH__)
#define GPUPLAN_DEVICE_PASS 1
#else
#define GPUPLAN_DEVICE_PASS 0
#endif

//! A function's rare path kept out of line, so that its caller's common path stays small enough
//! to inline.
#if defined(__CUDACC__)
#define GPUPLAN_COLD __noinline__
#else
#define GPUPLAN_COLD __attribute__((noinline, cold))
#endif

//! A small function on the engine's hottest path that the compiler should always inline (nvcc
//! reads the same attribute).
#define GPUPLAN_HOT __attribute__((always_inline))

#if defined(__CUDA_ARCH__)
#define GPUPLAN_ASSERT(cond) ((void)0)
#else
#include <cassert>
//! Checks an invariant of the engine (never a user error); compiled out on device.
#define GPUPLAN_ASSERT(cond) assert(cond)
#endif

namespace gpuplan {

//! A non-owning view over a flat array, usable on host and device (Debian has no libcu++).
template <class T>
struct span {
  T* data = nullptr;
  uint32_t size = 0;
  GPUPLAN_HD T& operator[](uint32_t i) const { return data[i]; }
  GPUPLAN_HD T* begin() const { return data; }
  GPUPLAN_HD T* end() const { return data + size; }
  GPUPLAN_HD bool empty() const { return size == 0; }
};

//! Index of the lowest set bit of a non-zero word.
GPUPLAN_HD inline uint32_t lowest_bit(uint64_t w) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint32_t>(__ffsll(static_cast<long long>(w)) - 1);
#else
  return static_cast<uint32_t>(__builtin_ctzll(w));
#endif
}

//! Index of the highest set bit of a non-zero word.
GPUPLAN_HD inline uint32_t highest_bit(uint64_t w) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint32_t>(63 - __clzll(static_cast<long long>(w)));
#else
  return static_cast<uint32_t>(63 - __builtin_clzll(w));
#endif
}

//! The bits of a double. NOTE: for non-negative doubles, +0 to +inf, their order as unsigned
//! integers is their order as numbers.
GPUPLAN_HD inline uint64_t double_bits(double v) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint64_t>(__double_as_longlong(v));
#else
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
#endif
}

//! The double with these bits (double_bits' inverse).
GPUPLAN_HD inline double bits_double(uint64_t bits) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(bits));
#else
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
#endif
}

//! Copies `count` words from `src` to `dst`, which may overlap (memmove).
GPUPLAN_HD inline void move_words(uint32_t* dst, const uint32_t* src, uint32_t count) {
#if defined(__CUDA_ARCH__)
  if (dst < src) {
    for (uint32_t i = 0; i < count; ++i) dst[i] = src[i];
  } else {
    for (uint32_t i = count; i-- > 0;) dst[i] = src[i];
  }
#else
  std::memmove(dst, src, std::size_t(count) * sizeof(uint32_t));
#endif
}

//! Number of set bits of a word.
GPUPLAN_HD inline uint32_t count_bits(uint64_t w) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint32_t>(__popcll(w));
#else
  return static_cast<uint32_t>(__builtin_popcountll(w));
#endif
}

}  // namespace gpuplan
