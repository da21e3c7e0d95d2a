#include "reports/jobs_csv_number.h"

#include <array>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace gpuplan::reports {
namespace {

// NOTE: the exact path covers IEEE exponents whose unbiased binary exponent e2 (value =
// m2 * 2^e2, m2 53 bits) lies in [E2_MIN, 0]: every product below then fits 128 bits.
constexpr int E2_MIN = -80;
constexpr int MANTISSA_BITS = 52;
constexpr int EXPONENT_BIAS = 1075;  // 1023 + 52: value = m2 * 2^(biased - 1075)

__extension__ using u128 = unsigned __int128;  // NOTE: GCC and Clang; exact products of 2^116

// 5^i for i in [0, 26]: the largest scale the exact path needs is 10^26 (5^26 < 2^61).
constexpr std::array<uint64_t, 27> POW5 = [] {
  std::array<uint64_t, 27> p{};
  p[0] = 1;
  for (std::size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 5;
  return p;
}();

// 10^i for i in [0, 19], to count decimal digits.
constexpr std::array<uint64_t, 20> POW10 = [] {
  std::array<uint64_t, 20> p{};
  p[0] = 1;
  for (std::size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
  return p;
}();

// "00" .. "99", two characters per pair.
constexpr std::array<char, 200> DIGIT_PAIRS = [] {
  std::array<char, 200> d{};
  for (int i = 0; i < 100; ++i) {
    d[std::size_t(2 * i)] = char('0' + i / 10);
    d[std::size_t(2 * i + 1)] = char('0' + i % 10);
  }
  return d;
}();

// floor(log10(2^e)) for |e| <= 1650 (Ryu's log10Pow2; exact over that range).
constexpr int floor_log10_pow2(int e) {
  return (e * 78913) >> 18;
}

// Number of decimal digits of v (v < 10^19).
int decimal_length(uint64_t v) {
  // NOTE: bit width * log10(2) is the digit count or one more than it.
  const int guess = (int(std::bit_width(v | 1)) * 1233) >> 12;
  return guess + (v >= POW10[std::size_t(guess)] ? 1 : 0);
}

// Writes the 8 decimal digits of v (v < 10^8, leading zeros kept) at out.
void write_8_digits(char* out, uint32_t v) {
  const uint32_t hi = v / 10000, lo = v % 10000;
  std::memcpy(out, &DIGIT_PAIRS[std::size_t(hi / 100) * 2], 2);
  std::memcpy(out + 2, &DIGIT_PAIRS[std::size_t(hi % 100) * 2], 2);
  std::memcpy(out + 4, &DIGIT_PAIRS[std::size_t(lo / 100) * 2], 2);
  std::memcpy(out + 6, &DIGIT_PAIRS[std::size_t(lo % 100) * 2], 2);
}

// Writes the decimal digits of v (no leading zeros) ending just before `end`.
void write_digits(char* end, uint64_t v) {
  while (v >= 100000000) {
    end -= 8;
    write_8_digits(end, uint32_t(v % 100000000));
    v /= 100000000;
  }
  auto w = uint32_t(v);
  while (w >= 100) {
    end -= 2;
    std::memcpy(end, &DIGIT_PAIRS[std::size_t(w % 100) * 2], 2);
    w /= 100;
  }
  if (w >= 10) {
    end -= 2;
    std::memcpy(end, &DIGIT_PAIRS[std::size_t(w) * 2], 2);
  } else {
    *--end = char('0' + w);
  }
}

// The shortest decimal (digits * 10^exponent) that reads back to m2 * 2^e2, the closest to it
// among those, ties to an even last digit: Ryu's digit removal on exact 128-bit scaled bounds.
struct Decimal {
  uint64_t digits;
  int exponent;
};

Decimal shortest_decimal(uint64_t m2, int e2, bool power_of_two) {
  // NOTE: the rounding interval is [mm, mp] * 2^e around mv * 2^e (half an ulp each side, a
  // quarter below a power of two); its bounds belong to it when m2 is even (ties read back even).
  const bool accept_bounds = (m2 & 1) == 0;
  const uint64_t mv = 4 * m2;
  const uint64_t mm = mv - (power_of_two ? 1 : 2);
  const int e = e2 - 2;
  // NOTE: k is floor(log10(value)) or one less, so scaling by 10^s gives 18 or 19 digits: at
  // least one more than the answer's 17 at most, and below 2^64.
  const int k = floor_log10_pow2(e2 + MANTISSA_BITS);
  const int s = 17 - k;
  const int shift = -(e + s);  // value * 10^s = m * 5^s / 2^shift; shift in [0, 56] here
  const u128 p5 = POW5[std::size_t(s)];
  const u128 mask = (u128(1) << shift) - 1;
  const u128 xr = mv * p5;
  const u128 xp = xr + 2 * p5;
  const u128 xm = xr - (mv - mm) * p5;
  uint64_t vr = uint64_t(xr >> shift);
  uint64_t vp = uint64_t(xp >> shift);
  uint64_t vm = uint64_t(xm >> shift);
  bool vr_trailing_zeros = (xr & mask) == 0;
  bool vm_trailing_zeros = accept_bounds && (xm & mask) == 0;
  if (!accept_bounds && (xp & mask) == 0) --vp;  // the upper bound is exact and excluded

  int removed = 0;
  uint32_t last_removed = 0;
  uint64_t out = 0;
  if (vm_trailing_zeros || vr_trailing_zeros) {
    const auto drop_digit = [&] {
      vr_trailing_zeros &= last_removed == 0;
      last_removed = uint32_t(vr % 10);
      vr /= 10;
      vp /= 10;
      vm /= 10;
      ++removed;
    };
    while (vp / 10 > vm / 10) {
      vm_trailing_zeros &= vm % 10 == 0;
      drop_digit();
    }
    if (vm_trailing_zeros)
      while (vm % 10 == 0) drop_digit();
    if (vr_trailing_zeros && last_removed == 5 && vr % 2 == 0) last_removed = 4;  // round even
    out = vr + ((vr == vm && (!accept_bounds || !vm_trailing_zeros)) || last_removed >= 5);
  } else {
    // NOTE: the exact value has non-zero digits below vr, so no tie can occur.
    bool round_up = false;
    while (vp / 100 > vm / 100) {
      round_up = vr % 100 >= 50;
      vr /= 100;
      vp /= 100;
      vm /= 100;
      removed += 2;
    }
    while (vp / 10 > vm / 10) {
      round_up = vr % 10 >= 5;
      vr /= 10;
      vp /= 10;
      vm /= 10;
      ++removed;
    }
    out = vr + (vr == vm || round_up);
  }
  return {out, removed - s};
}

// Lays out digits * 10^exponent as std::to_chars does: fixed notation unless scientific
// notation (at least two exponent digits) is strictly shorter.
char* write_decimal(char* out, Decimal d) {
  const int n = decimal_length(d.digits);
  const int x = n - 1 + d.exponent;  // scientific exponent
  const int fixed_len = d.exponent >= 0 ? n + d.exponent : x >= 0 ? n + 1 : n + 1 - x;
  const int abs_x = x < 0 ? -x : x;
  const int sci_len = n + (n > 1 ? 1 : 0) + 2 + (abs_x >= 100 ? 3 : 2);
  if (fixed_len <= sci_len) {
    if (d.exponent >= 0) {
      write_digits(out + n, d.digits);
      std::memset(out + n, '0', std::size_t(d.exponent));
      return out + n + d.exponent;
    }
    if (x >= 0) {  // ddd.ddd
      const int int_digits = x + 1;
      write_digits(out + n + 1, d.digits);
      std::memmove(out, out + 1, std::size_t(int_digits));
      out[int_digits] = '.';
      return out + n + 1;
    }
    // 0.000ddd
    const int zeros = -x - 1;
    out[0] = '0';
    out[1] = '.';
    std::memset(out + 2, '0', std::size_t(zeros));
    write_digits(out + 2 + zeros + n, d.digits);
    return out + 2 + zeros + n;
  }
  // d.ddde±xx
  write_digits(out + n + 1, d.digits);
  out[0] = out[1];
  char* p = out + 1;
  if (n > 1) {
    *p = '.';
    p += n;
  }
  *p++ = 'e';
  *p++ = x < 0 ? '-' : '+';
  if (abs_x >= 100) {
    *p++ = char('0' + abs_x / 100);
    std::memcpy(p, &DIGIT_PAIRS[std::size_t(abs_x % 100) * 2], 2);
  } else {
    std::memcpy(p, &DIGIT_PAIRS[std::size_t(abs_x) * 2], 2);
  }
  return p + 2;
}

}  // namespace

char* write_shortest(char* out, double value) {
  const auto bits = std::bit_cast<uint64_t>(value);
  const uint64_t mantissa = bits & ((uint64_t(1) << MANTISSA_BITS) - 1);
  const int biased = int((bits >> MANTISSA_BITS) & 0x7ff);
  const int e2 = biased - EXPONENT_BIAS;
  if (bits == 0) {
    *out = '0';
    return out + 1;
  }
  if (biased == 0 || e2 < E2_MIN || e2 > 0) {
    return std::to_chars(out, out + SHORTEST_MAX_CHARS, value).ptr;
  }
  if (bits >> 63) *out++ = '-';
  const uint64_t m2 = mantissa | (uint64_t(1) << MANTISSA_BITS);
  return write_decimal(out, shortest_decimal(m2, e2, mantissa == 0));
}

char* write_integer(char* out, uint64_t value) {
  if (value < 10) {
    *out = char('0' + value);
    return out + 1;
  }
  const int n = value >= POW10[19] ? 20 : decimal_length(value);
  write_digits(out + n, value);
  return out + n;
}

}  // namespace gpuplan::reports
