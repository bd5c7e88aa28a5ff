/* Shortest round-trip doubles: the Schubfach algorithm.
 *
 * Raffaello Giulietti, "The Schubfach way to render doubles" (2020; revised
 * 2021), https://drive.google.com/file/d/1gp5xv4CAa78SVgCeWfGqqI4FfYYYuNFb
 * (the design behind Java 19's Double.toString). Written here from the
 * paper's description:
 *
 *  1. v = c * 2^q with integers c, q. Its rounding interval R_v holds the
 *     reals that round to v: the midpoints to its neighbours, included iff c
 *     is even (round half to even). The lower neighbour is only half as far
 *     when c is the smallest normal significand 2^52 (irregular spacing).
 *  2. Pick k = floor(log10(width of R_v)) so that R_v, scaled by 10^-k,
 *     is at most 10 wide: it holds at most one multiple of 10, and at least
 *     one integer among s = floor(v * 10^-k) and s + 1.
 *  3. Scale the interval bounds by 10^-k with one 64 x 128-bit product each
 *     against a 126-bit over-approximation g of 10^-k (dtoa_table.h), kept
 *     as floor plus a sticky bit ("round to odd"). The paper proves that this
 *     is exact enough to decide every comparison below.
 *  4. If the one multiple of 10 lies in R_v, it is the shortest (one digit
 *     fewer); otherwise s or s + 1 — whichever lies in R_v, or the closer to
 *     v when both do, the even one on a tie.
 * Trailing zeros of the result are then dropped as the digits are printed.
 *
 * Step 3 costs three products; shortest_fast() below makes the same choice
 * from the value's product alone, with an error bound that sends the cases
 * it cannot decide (a bound within 2^-52 of an integer) to the exact path.
 * That split (one product in the common case, an exact path near the
 * boundaries) is the one of Dragonbox (Junekey Jeon, "Dragonbox: A New
 * Floating-Point Binary-to-Decimal Conversion Algorithm", 2020) and of
 * Victor Zverovich's Zmij (2025, as described); the approximations and the
 * error bound here are our own, for Schubfach's step 4.
 *
 * Printing: trailing zeros are found by exact division (Granlund and
 * Montgomery, section 9, below), values below 1 are counted (Warren,
 * "Hacker's Delight", 2nd ed., section 11-4) and their up-to-8 digits made
 * in registers, and the layout is chosen before the digits are stored. */
#include "write/dtoa.h"

#include <stdbool.h>
#include <string.h>

#include "ondemand/number.h" /* fj__pow10_exact: 10^0 .. 10^22 as exact doubles */
#include "util/compiler.h"
#include "write/dtoa_table.h"
#include "write/itoa.h"

#define FJ_DBL_MANT_BITS 52
#define FJ_DBL_C_MIN (UINT64_C(1) << FJ_DBL_MANT_BITS) /* smallest normal significand */
#define FJ_DBL_Q_MIN (-1074)                           /* exponent of the subnormals */
#define FJ_DBL_ONE_BITS UINT64_C(0x3FF0000000000000)   /* 1.0 */

/* floor(x / 2^s) for |x| < 2^62, also for negative x (>> of a negative
 * value is implementation-defined in C): shifted up by 2^62, a multiple of
 * 2^s, x is positive, and the bias comes back off after the shift. No
 * branch (the sign test was one, or a select, in every conversion). */
static inline int floor_shift(int64_t x, int s) {
  return (int)(((x + (INT64_C(1) << 62)) >> s) - (INT64_C(1) << (62 - s)));
}
/* floor(q * log10(2)) */
static inline int floor_log10_pow2(int q) {
  return floor_shift(q * FJ_DTOA_LOG10_2_NUM, FJ_DTOA_LOG10_2_SHIFT);
}
/* floor(log10(3/4 * 2^q)) */
static inline int floor_log10_three_quarters_pow2(int q) {
  return floor_shift(q * FJ_DTOA_LOG10_2_NUM + FJ_DTOA_LOG10_3Q_NUM, FJ_DTOA_LOG10_2_SHIFT);
}
/* floor(e * log2(10)) */
static inline int floor_log2_pow10(int e) {
  return floor_shift(e * FJ_DTOA_LOG2_10_NUM, FJ_DTOA_LOG2_10_SHIFT);
}

/* The 128-bit product of a and b: high half returned, low half in *lo. */
static inline uint64_t umul128(uint64_t a, uint64_t b, uint64_t *lo) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 u128; /* quiet under -pedantic */
  u128 p = (u128)a * b;
  *lo = (uint64_t)p;
  return (uint64_t)(p >> 64);
#else
  uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
  uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
  *lo = (mid << 32) | (uint32_t)ll;
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/* floor(g * cp / 2^127), with its lowest bit set when bits 64 to 126 of
 * the product are not all zero: rounding to odd keeps "exactly on a bound"
 * distinguishable from "just past it". The low 64 bits are left out on
 * purpose: g exceeds the true scaled power of ten by less than 1, so the
 * product exceeds the true one by less than cp < 2^64, and an exact true
 * value must not look inexact (the paper's rop, section 9).
 * g = {hi, lo} < 2^126 and cp < 2^64: g * cp = y1 2^128 + (y0 + x1) 2^64 + x0
 * with x = lo * cp and y = hi * cp. */
static inline uint64_t round_to_odd(const uint64_t g[2], uint64_t cp) {
  uint64_t x0, y0;
  uint64_t x1 = umul128(g[1], cp, &x0);
  uint64_t y1 = umul128(g[0], cp, &y0);
  uint64_t m0 = y0 + x1; /* bits 64..127, carrying into y1 */
  uint64_t m1 = y1 + (m0 < x1);
  uint64_t floor_part = (m1 << 1) | (m0 >> 63);
  return floor_part | ((m0 << 1) != 0);
}

typedef struct decimal {
  uint64_t digits; /* may carry trailing zeros */
  int exp10;
} decimal;

/* Schubfach's core for v = c * 2^q (c > 0). Java's Double.toString first
 * multiplies the tiniest subnormal significands by 10 to always print two
 * digits ("4.9E-324"); we want the shortest ("5e-324") and do not. */
FJ_NOINLINE static decimal shortest(uint64_t c, int q) {
  uint64_t out = c & 1; /* an odd significand excludes the interval's bounds */
  uint64_t cb = c << 2, cbr = cb + 2, cbl;
  int k;
  if (c != FJ_DBL_C_MIN || q == FJ_DBL_Q_MIN) {
    cbl = cb - 2;
    k = floor_log10_pow2(q);
  } else { /* the lower neighbour is at half the distance */
    cbl = cb - 1;
    k = floor_log10_three_quarters_pow2(q);
  }
  int h = q + floor_log2_pow10(-k) + 2; /* in [2, 9]: cb << h stays below 2^64 */
  const uint64_t *g = fj__pow10_g[k - FJ_DTOA_K_MIN];
  uint64_t vb = round_to_odd(g, cb << h);   /* 4 v 10^-k, rounded to odd */
  uint64_t vbl = round_to_odd(g, cbl << h); /* the lower bound, same scale */
  uint64_t vbr = round_to_odd(g, cbr << h); /* the upper bound */
  uint64_t s = vb >> 2;
  /* one digit fewer: the multiple of 10 next to s. (Java guards this with
   * s >= 100 to keep two digits for the tiniest subnormals, "4.9E-324"; for
   * s < 10, sp10 = 0 is never inside, as the lower bound is positive.) */
  uint64_t sp10 = s / 10 * 10, tp10 = sp10 + 10;
  int upin = vbl + out <= sp10 << 2;
  int wpin = (tp10 << 2) + out <= vbr;
  if (upin != wpin) return (decimal){upin ? sp10 : tp10, k};
  uint64_t t = s + 1;
  int uin = vbl + out <= s << 2;
  int win = (t << 2) + out <= vbr;
  if (uin != win) return (decimal){uin ? s : t, k};
  /* both in: the closer to v, the even one on a tie (vb is 4 v, s + t is 2 midpoint) */
  uint64_t mid2 = (s + t) << 1;
  int pick_s = vb < mid2 || (vb == mid2 && (s & 1) == 0);
  return (decimal){pick_s ? s : t, k};
}

/* The common case with one product instead of three.
 *
 * All of the decisions above compare an integer (s, s + 1, or the multiples
 * of 10 next to s) with a bound of R_v: lower v' - w or upper v' + w, with
 * v' = v 10^-k and w half the width of R_v scaled alike. The product for v
 * alone gives v' to 65 fractional bits, and w comes from g by a shift
 * (w 2^55 = 2^(q-1) 10^-k 2^55 = g 2^(h-73), up to g's approximation).
 * Both are kept to 55 fractional bits with an error below 2 units, so every
 * decision made from them is the exact one unless a bound lies within 8
 * units of an integer, or v' of a midpoint s + 1/2: then (rarely, and
 * always for v' exactly on such a point) the exact three-product path
 * decides. Exactly placed bounds occur for the integers in 2^53..2^56 (k =
 * 0, w an integer); about 0.3% of random bit patterns and none of the
 * corpus's doubles go the exact way. Only for regular spacing (c != 2^52):
 * returns 0 where the exact path must decide. */
#define FJ_FRAC_BITS 55
#define FJ_FRAC_ONE (UINT64_C(1) << FJ_FRAC_BITS)
#define FJ_FRAC_MASK (FJ_FRAC_ONE - 1)
#define FJ_FRAC_MARGIN UINT64_C(8) /* 4x the error bound */
/* Whether fixed-point x is within the margin of an integer. */
static inline int near_integer(uint64_t x) {
  return ((x + FJ_FRAC_MARGIN) & FJ_FRAC_MASK) < 2 * FJ_FRAC_MARGIN;
}

static inline int shortest_fast(uint64_t c, int q, decimal *d) {
  int k = floor_log10_pow2(q);
  int h = q + floor_log2_pow10(-k) + 2; /* in [2, 9] */
  const uint64_t *g = fj__pow10_g[k - FJ_DTOA_K_MIN];
  /* g * (4c << h) / 2^192 * 2^65 = v' with 65 fractional bits, the product's
   * lowest 64 bits left out (an error below 2^-64 of a unit of v') */
  uint64_t cb = c << 2 << h, x0, y0;
  uint64_t x1 = umul128(g[1], cb, &x0);
  uint64_t y1 = umul128(g[0], cb, &y0);
  uint64_t lo = y0 + x1;
  uint64_t hi = y1 + (lo < x1);
  uint64_t s = hi >> 1;
  uint64_t f = (hi & 1) << (FJ_FRAC_BITS - 1) | lo >> (64 - FJ_FRAC_BITS + 1); /* v' - s */
  uint64_t w = g[0] >> (9 - h);                                                /* w < 5 */
  if (near_integer(f - w) | near_integer(f + w)) return 0;
  uint64_t r = s % 10;
  uint64_t rf = r << FJ_FRAC_BITS | f; /* v' - (s - r) */
  /* the multiple of 10 below v' or the one above (never both: R_v is less
   * than 10 wide): one test of the nearer one's distance, then arithmetic,
   * for data that mixes the two */
  uint64_t up = 10 * FJ_FRAC_ONE - rf; /* s - r + 10 - v' */
  if ((rf < up ? rf : up) <= w) {
    *d = (decimal){s - r + 10 * (uint64_t)(rf > w), k};
    return 1;
  }
  /* s or s + 1: whichever is in, else the closer (at least one is in, as
   * R_v is at least 1 wide); a tie, or a near one, is left to the exact
   * path. Arithmetic again: which one wins is data. */
  int s_in = f <= w, t_in = FJ_FRAC_ONE - f <= w;
  int near_half = f - (FJ_FRAC_ONE / 2 - FJ_FRAC_MARGIN) < 2 * FJ_FRAC_MARGIN;
  if (s_in & t_in & near_half) return 0;
  *d = (decimal){s + (uint64_t)((!s_in) | (t_in & (f > FJ_FRAC_ONE / 2))), k};
  return 1;
}

/* The shortest decimal of finite, non-zero |v| (bits without the sign):
 * the fast decision where it can decide, else the exact one. */
FJ_ALWAYS_INLINE static inline decimal to_decimal(uint64_t bits) {
  uint64_t c = bits & (FJ_DBL_C_MIN - 1);
  int be = (int)(bits >> FJ_DBL_MANT_BITS);
  int q = FJ_DBL_Q_MIN; /* subnormal: c without the hidden bit */
  if (be != 0) {
    c |= FJ_DBL_C_MIN;
    q = be - 1075;
    /* small integers (v < 2^53) are their own shortest decimal */
    if (q < 0 && q > -FJ_DBL_MANT_BITS - 1) {
      uint64_t f = c >> -q;
      if (f << -q == c) return (decimal){f, 0};
    }
  }
  decimal d;
  if (c != FJ_DBL_C_MIN && shortest_fast(c, q, &d)) return d;
  return shortest(c, q);
}

static inline uint64_t rotr64(uint64_t x, int r) { return x >> r | x << (64 - r); }

/* Whether 10^k divides s, and the quotient: with inv the inverse of 5^k
 * modulo 2^64, s * inv is s / 5^k when 5^k divides s (and otherwise
 * larger than 2^64 / 5^k); rotating right by k then also brings any of the
 * low k bits, which must be zero for 2^k to divide, to the top (Granlund
 * and Montgomery, "Division by invariant integers using multiplication",
 * 1994, section 9). */
#define FJ_DIVIDES_POW10(s, inv, k, pow, q)                                                        \
  ((q) = rotr64((s) * (inv), (k)), (q) <= UINT64_MAX / (pow))

/* One step of strip_zeros(): s / 10^k when 10^k divides s. branch_free
 * (a constant at each call) picks a select over a branch: the branch wins
 * where the outcome is predictable (16-17 digit results, canada), the
 * select where lengths are mixed (marine_ik's 3 to 6 digits) and the
 * branches mispredict. */
#define FJ_STRIP_STEP(s, e, inv, k, pow, branch_free)                                              \
  do {                                                                                             \
    uint64_t q_;                                                                                   \
    int c_ = FJ_DIVIDES_POW10(s, inv, k, pow, q_);                                                 \
    if (branch_free) {                                                                             \
      s = c_ ? q_ : s;                                                                             \
      *(e) += (k)*c_;                                                                              \
    } else if (c_) {                                                                               \
      s = q_;                                                                                      \
      *(e) += (k);                                                                                 \
    }                                                                                              \
  } while (0)

/* s (> 0) without its trailing decimal zeros; *e grows by their number. */
static inline uint64_t strip_zeros(uint64_t s, int *e, int branch_free) {
  uint64_t q;
  while (FJ_DIVIDES_POW10(s, UINT64_C(0xc767074b22e90e21), 8, UINT64_C(100000000), q))
    s = q, *e += 8;
  FJ_STRIP_STEP(s, e, UINT64_C(0xd288ce703afb7e91), 4, 10000u, branch_free);
  FJ_STRIP_STEP(s, e, UINT64_C(0x8f5c28f5c28f5c29), 2, 100u, branch_free);
  FJ_STRIP_STEP(s, e, UINT64_C(0xcccccccccccccccd), 1, 10u, branch_free);
  return s;
}
#undef FJ_STRIP_STEP
#undef FJ_DIVIDES_POW10

void fj__dtoa_decimal(double v, uint64_t *digits, int *exp10) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  decimal d = to_decimal(bits & ~(UINT64_C(1) << 63));
  *exp10 = d.exp10;
  *digits = strip_zeros(d.digits, exp10, 0);
}

/* Writes the digits of s (0 < s < 10^17) without leading zeros; returns
 * their count. */
FJ_ALWAYS_INLINE static inline size_t put_digits(char *out, uint64_t s) {
  if (s < 100000000u) return fj__put_upto8_flat(out, (uint32_t)s);
  uint64_t hi = s / 100000000u;
  uint32_t lo = (uint32_t)(s - hi * 100000000u);
  size_t n;
  if (hi >= 100000000u) { /* 17 digits */
    out[0] = (char)('0' + hi / 100000000u);
    fj__put8(out + 1, (uint32_t)(hi % 100000000u));
    n = 9;
  } else {
    n = fj__put_upto8_flat(out, (uint32_t)hi);
  }
  fj__put8(out + n, lo);
  return n + 8;
}

/* Writes d[.ddd]e[-]x at p from the n digits at dig (dig may be p + 1);
 * returns the end. */
static char *put_scientific(char *p, const char *dig, size_t n, int x) {
  p[0] = dig[0];
  if (n > 1) {
    p[1] = '.';
    p += n + 1;
  } else {
    p += 1;
  }
  *p++ = 'e';
  if (x < 0) {
    *p++ = '-';
    x = -x;
  }
  if (x >= 100) {
    *p++ = (char)('0' + x / 100);
    fj__put2(p, (uint32_t)(x % 100));
    p += 2;
  } else if (x >= 10) {
    fj__put2(p, (uint32_t)x);
    p += 2;
  } else {
    *p++ = (char)('0' + x);
  }
  return p;
}

static const uint64_t pow10_u64[20] = {1u,
                                       10u,
                                       100u,
                                       1000u,
                                       10000u,
                                       100000u,
                                       1000000u,
                                       10000000u,
                                       100000000u,
                                       1000000000u,
                                       UINT64_C(10000000000),
                                       UINT64_C(100000000000),
                                       UINT64_C(1000000000000),
                                       UINT64_C(10000000000000),
                                       UINT64_C(100000000000000),
                                       UINT64_C(1000000000000000),
                                       UINT64_C(10000000000000000),
                                       UINT64_C(100000000000000000),
                                       UINT64_C(1000000000000000000),
                                       UINT64_C(10000000000000000000)};

/* The number of decimal digits of s > 0: from its bit length, the count
 * is one of two (Warren, "Hacker's Delight", 2nd ed., section 11-4). */
static inline int digit_count(uint64_t s) {
  int guess = (64 - __builtin_clzll(s)) * 1233 >> 12; /* about bits * log10(2) */
  return guess + (s >= pow10_u64[guess]);
}

/* Writes the n digits of s < 10^n (1 <= n <= 8, no leading zeros) and
 * 8 - n bytes more. No branch on the length: the 8 digits are made in
 * registers and the leading zeros shifted out, where put_digits() branches
 * on it, which mispredicts on data of mixed lengths (marine_ik's 3 to 6
 * digits). For 9 to 16 digits (two words) put_digits() measured faster. */
static inline void put_upto8_exactly(char *out, uint32_t s, int n) {
  fj__store8(out, (fj__swar8(s) >> 8 * (8 - n)) + FJ_ASCII_ZEROS);
}

/* Prints digits * 10^exp10 (digits > 0) for v < 1 at p: 0.000ddd, or
 * d.ddde-x below 10^-6. The digits are counted first so that they are
 * printed where they go (moving them after a '0.' would be a memmove
 * call). Short results of mixed lengths are common here, hence the
 * branch-free zero stripping and printing. Out of line: inlined, it slowed
 * the v >= 1 path (canada) by 2-4%. */
FJ_NOINLINE static size_t put_below_one_general(char *p, uint64_t digits, int exp10) {
  int e = exp10;
  uint64_t s = strip_zeros(digits, &e, 1);
  int n = digit_count(s);
  int x = e + n - 1; /* v = d.ddd * 10^x, x < 0 */
  if (x >= -6) {
    memcpy(p, "0.000000", 8); /* -x - 1 zeros and a byte more, then digits */
    if (n <= 8)
      put_upto8_exactly(p + 1 - x, (uint32_t)s, n);
    else
      put_digits(p + 1 - x, s);
    return (size_t)(1 - x + n);
  }
  put_digits(p + 1, s);
  return (size_t)(put_scientific(p, p + 1, (size_t)n, x) - p);
}

/* As put_below_one_general(), without stripping zeros one power of ten at
 * a time or counting digits, for the common case: fixed notation and
 * digits of at most 17 digits, at least 10^9 (Schubfach gives 16 or 17).
 * They are split into hi, at most 8 digits, and lo, 9; each group of 8 is
 * made in one word (zero-padded, the first digit in the lowest byte), where
 * the zero bytes at the low end are padding and those at the high end
 * trailing zeros: bit counts give hi's length and the number of
 * significant digits, and the digits are stored with trailing zeros past
 * the returned length. When lo is zero (at most 8 significant digits:
 * marine_ik's doubles nearly all) its digits are not made. */
FJ_NOINLINE static size_t put_below_one(char *out, char *p, uint64_t digits, int exp10) {
  size_t sign = (size_t)(p - out);
  uint64_t hi = digits / 1000000000u, lo = digits - hi * 1000000000u;
  if (hi - 1 < 100000000u - 1) { /* 1 <= hi < 10^8: 10 to 17 digits */
    /* hi / 10^4 from digits directly, so that it need not wait for hi
     * (the chain to the digits is what limits this code); for lo the same
     * took more instructions than it saved */
    uint64_t wh = fj__swar8_q((uint32_t)hi, (uint32_t)(digits / UINT64_C(10000000000000)));
    int lead = __builtin_ctzll(wh) >> 3; /* hi has 8 - lead digits */
    int x = exp10 + 9 + (8 - lead) - 1;  /* v = d.ddd * 10^x, x < 0 */
    if (x >= -6) {
      memcpy(p, "0.000000", 8); /* -x - 1 zeros and a byte more, then digits */
      char *d = p + 1 - x;
      size_t h = (size_t)(8 - lead);
      fj__store8(d, (wh >> 8 * lead) + FJ_ASCII_ZEROS);
      if (lo == 0) return sign + (size_t)(1 - x) + h - (size_t)(__builtin_clzll(wh) >> 3);
      uint32_t l1 = (uint32_t)lo / 100000000u; /* lo's first digit, then 8 */
      uint64_t wl = fj__swar8((uint32_t)lo - l1 * 100000000u);
      d[h] = (char)('0' + l1);
      fj__store8(d + h + 1, wl + FJ_ASCII_ZEROS);
      size_t trail = wl ? (size_t)(__builtin_clzll(wl) >> 3) : 8; /* l1 > 0 if wl = 0 */
      return sign + (size_t)(1 - x) + h + 9 - trail;
    }
  }
  return sign + put_below_one_general(p, digits, exp10);
}

/* An integral v >= 1, s * 10^e with e >= 0, at p: ddd000.0 below 10^21,
 * else d.ddde+x; returns the length from out (p is out or out + 1, after a
 * '-'). Out of line and called last (a jump), as put_below_one() and
 * put_scientific_at() are, so that the common paths of fj__dtoa() make no
 * call: they called put_digits(), fj__put_upto8() and memmove() (the
 * decimal point's byte moves), which cost canada 4-5%. */
FJ_NOINLINE static size_t put_integral(char *out, char *p, uint64_t s, int e) {
  size_t n = put_digits(p, s);
  if ((size_t)e + n <= 21) {
    memset(p + n, '0', (size_t)e);
    memcpy(p + n + (size_t)e, ".0", 2);
    return (size_t)(p - out) + n + (size_t)e + 2;
  }
  put_digits(p + 1, s); /* printed again where put_scientific() takes them */
  return (size_t)(put_scientific(p, p + 1, n, e + (int)n - 1) - out);
}

/* put_scientific() from the n digits at p + 1; the length from out. */
FJ_NOINLINE static size_t put_scientific_at(char *out, char *p, size_t n, int x) {
  return (size_t)(put_scientific(p, p + 1, n, x) - out);
}

/* Prints digits * 10^exp10 (digits > 0, trailing zeros allowed) at p in
 * the layout dtoa.h describes; returns the length from out. below_one:
 * whether v < 1, known from the double's bits long before the digits are
 * (the shortest decimal of a double below 1 is below 1, as 1 is a double).
 * The zeros are stripped before printing, and digits are printed where they
 * go where that is known first: reading back digits just stored in pieces
 * (to find zeros, or to move them) waits for the stores. */
FJ_ALWAYS_INLINE static inline size_t put_decimal(char *out, char *p, uint64_t digits, int exp10,
                                                  int below_one) {
  if (below_one) return put_below_one(out, p, digits, exp10);
  int e = exp10;
  uint64_t s = strip_zeros(digits, &e, 0);
  if (e >= 0) return put_integral(out, p, s, e);
  size_t n = put_digits(p + 1, s); /* at p + 1: room to move digits left for a '.' */
  const char *dig = p + 1;
  int x = e + (int)n - 1; /* v = d.ddd * 10^x, x >= 0 */
  if (x >= 0 && x < 21) { /* a '.' after ip < n digits */
    size_t ip = (size_t)x + 1;
    /* byte moves forward from the stores (ip <= 21); the empty asm hides
     * the index from gcc, which would turn this short loop into a memmove
     * call (and the call would make fj__dtoa() save registers) */
    for (size_t i = 0; i < ip; i++) {
#if defined(__GNUC__) || defined(__clang__)
      __asm__("" : "+r"(i));
#endif
      p[i] = dig[i];
    }
    p[ip] = '.';
    return (size_t)(p - out) + n + 1;
  }
  return put_scientific_at(out, p, n, x);
}

/* Everything the fast paths leave: zero, subnormals, powers of two, the
 * exact decision, other layouts. Returns the length from out. */
FJ_NOINLINE static size_t dtoa_general(char *out, char *p, uint64_t bits) {
  if (bits == 0) {
    memcpy(p, "0.0", 3);
    return (size_t)(p - out) + 3;
  }
  decimal d = to_decimal(bits);
  return put_decimal(out, p, d.digits, d.exp10, bits < FJ_DBL_ONE_BITS);
}

/* places3[x]: the places of 0.xxx (0 < x < 1000) without its trailing
 * zeros (3, 2 or 1; the entry for 0 is not used). */
#define FJ_P3(n) ((n) % 100 == 0 ? 1 : (n) % 10 == 0 ? 2 : 3)
#define FJ_P3_10(n)                                                                                \
  FJ_P3(n), FJ_P3((n) + 1), FJ_P3((n) + 2), FJ_P3((n) + 3), FJ_P3((n) + 4), FJ_P3((n) + 5),        \
      FJ_P3((n) + 6), FJ_P3((n) + 7), FJ_P3((n) + 8), FJ_P3((n) + 9)
#define FJ_P3_100(n)                                                                               \
  FJ_P3_10(n), FJ_P3_10((n) + 10), FJ_P3_10((n) + 20), FJ_P3_10((n) + 30), FJ_P3_10((n) + 40),     \
      FJ_P3_10((n) + 50), FJ_P3_10((n) + 60), FJ_P3_10((n) + 70), FJ_P3_10((n) + 80),              \
      FJ_P3_10((n) + 90)
static const uint8_t places3[1000] = {
    FJ_P3_100(0),   FJ_P3_100(100), FJ_P3_100(200), FJ_P3_100(300), FJ_P3_100(400),
    FJ_P3_100(500), FJ_P3_100(600), FJ_P3_100(700), FJ_P3_100(800), FJ_P3_100(900)};
#undef FJ_P3_100
#undef FJ_P3_10
#undef FJ_P3

/* The places of 0.ffffff (0 < f < 10^6) without its trailing zeros, from
 * its two halves of three digits and a table: the writer's next position
 * waits for this count, and the one from the digit word's zero bytes came
 * at the end of that word's chain of multiplications, some 10 cycles
 * later (document's prices and abc's halves wrote 5% faster). */
static inline size_t places6(uint32_t f) {
  uint32_t hi = f / 1000, lo = f - hi * 1000;
  return lo ? 3u + places3[lo] : places3[hi];
}

/* Doubles that a program printed with at most 15 significant digits
 * (mesh's %.12g coordinates, DBL_DIG's 15): with 10^k <= 2^e <= a <
 * 2^(e+1) (k from a's binary exponent e) and P = 14 - k places, m, the
 * integer nearest to a * 10^P, divided by 10^P rounds back to a exactly
 * when some decimal of P places rounds to a:
 *  - m / 10^P is correctly rounded (m < 2 10^15 < 2^51 and 10^P are
 *    exact doubles), so the test is exact;
 *  - such a decimal D = m0 10^-P lies within half an ulp, 2^(e-53), of a:
 *    the product a 10^P is within 0.12 of m0 (2^e < 10^(k+1)), and rounds
 *    to within 0.125 more, so m = m0;
 *  - 10^-P is more than 4 ulps of a (2^(e-52) < 10^(k+1) 2^-52
 *    = 0.22 10^-P): no other decimal of P places rounds to a, and a
 *    shorter one that did would have at most P places too.
 * So m without its trailing zeros is the shortest decimal, the only one,
 * the one Schubfach finds. The test is a multiplication, two additions and
 * a division; false (no such decimal, or a outside about 10^-8..10^15)
 * sends a to Schubfach. digits is 15, as above, or 12 (P = 11 - k, and
 * m < 2 10^12): with fewer places every bound above holds with more room. */
static inline bool short_decimal(double a, uint64_t bits, uint64_t *m_out, int *p_out, int digits) {
  int p = digits - 1 - floor_log10_pow2((int)(bits >> FJ_DBL_MANT_BITS) - 1023);
  if ((unsigned)p > 22) return false;
  double m = (a * fj__pow10_exact[p] + 0x1p52) - 0x1p52; /* the nearest integer (m < 2^51) */
  if (m / fj__pow10_exact[p] != a) return false;
  *m_out = (uint64_t)m; /* at least 10^14: a >= 10^k */
  *p_out = p;
  return true;
}

/* m 10^-P for v < 1 from short_decimal(.., 12): 10^11 <= m < 2 10^12, 12
 * or 13 digits, as 4 or 5 and 8: one word of digits each, without the
 * split of 9 that put_below_one() makes for its 16 (one division step
 * less before the digits and the length). Other layouts go there. */
FJ_NOINLINE static size_t put_below_one12(char *out, char *p, double a, uint64_t m, int P) {
  /* hi = m / 10^8 from a, not from m, so that it need not wait for m:
   * a 10^(P-8) is within 2^-51 relative (under 10^-11) of m / 10^8, which
   * is at least 10^-8 from the next integer up, so with half of that
   * added the truncation is exact. P is 12 to 22. Likewise lo / 10^4
   * (m / 10^4 < 2 10^8 is within 10^-7 of a 10^(P-4), and at least 10^-4
   * from the next integer up), for fj__swar8_q(). */
  uint32_t hi = (uint32_t)(a * fj__pow10_exact[P - 8] + 0.5e-8);
  uint32_t lo = (uint32_t)(m - hi * UINT64_C(100000000));
  uint32_t lo_q = (uint32_t)(a * fj__pow10_exact[P - 4] + 0.5e-4) - hi * 10000u;
  int h = 4 + (hi >= 10000u); /* 1000 <= hi < 20000: its digits */
  int lead = 8 - h;
  uint64_t wh = fj__swar8_q(hi, hi >= 10000u);
  int x = 8 + h - 1 - P; /* v = d.ddd * 10^x, x < 0 */
  if (x < -6) return put_below_one(out, p, m, -P);
  memcpy(p, "0.000000", 8); /* -x - 1 zeros and a byte more, then digits */
  char *d = p + 1 - x;
  fj__store8(d, (wh >> 8 * lead) + FJ_ASCII_ZEROS);
  uint64_t wl = fj__swar8_q(lo, lo_q);
  fj__store8(d + h, wl + FJ_ASCII_ZEROS);
  int trail = wl ? __builtin_clzll(wl) >> 3 : 8 + (__builtin_clzll(wh) >> 3);
  return (size_t)(d - out) + (size_t)(h + 8 - trail);
}

/* Doubles below 2^32 with at most 6 places after the point (prices,
 * coordinates printed with %.6f: marine_ik's nearly all): m, the integer
 * nearest to a * 10^6, divided by 10^6 rounds back to a (the division is
 * correctly rounded: m and 10^6 are exact).
 * Below 2^32 an ulp is under 10^-6, so no other decimal of 6 places rounds
 * to a: m with its trailing zeros dropped is the shortest decimal, and the
 * closest, the one Schubfach finds. False (nothing written) otherwise; the
 * test costs a multiplication, two additions and a division. Prints
 * ip.ffffff (or ip.0), the 6 places made in one word and their trailing
 * zeros counted from its zero bytes. */
static inline bool six_places(double a, size_t *len, char *out, char *p) {
  double m = (a * 1e6 + 0x1p52) - 0x1p52; /* the nearest integer to a * 10^6 */
  /* the test most other doubles fail first (mesh's 12 digits) */
  if (m / 1e6 != a || !(a < 4294967296.0) || m == 0) return false;
  uint64_t u = (uint64_t)m;
  /* the integer part from a itself, not u / 10^6, so that f waits for one
   * multiplication less: a = m / 10^6 rounded, and no integer lies strictly
   * between m / 10^6 and a (they are less than an ulp apart, an ulp being
   * under 10^-6 here, and an integer not a multiple of 10^-6 apart from
   * m / 10^6 is at least 10^-6 away), so both have the same integer part */
  uint32_t ip = (uint32_t)a, f = (uint32_t)(u - (uint64_t)ip * 1000000u);
  size_t n = put_digits(p, ip);
  if (f == 0) {
    memcpy(p + n, ".0", 2);
    *len = (size_t)(p - out) + n + 2;
    return true;
  }
  uint64_t w = fj__swar8(f) >> 16; /* "00dddddd": the 6 places, the first lowest */
  p[n] = '.';
  fj__store8(p + n + 1, w + FJ_ASCII_ZEROS);
  *len = (size_t)(p - out) + n + 1 + places6(f);
  return true;
}

size_t fj__dtoa(char *out, double v) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  out[0] = '-'; /* overwritten when v is positive */
  char *p = out + (bits >> 63);
  bits &= ~(UINT64_C(1) << 63);
  /* the common cases without a call (jumps only): 6 places, a short
   * decimal below 1, or normal and not a power of two (the frac == 0 test
   * also leaves zero out). gcc still saves registers here: shortest_fast()
   * keeps many values live. */
  double a;
  size_t len;
  memcpy(&a, &bits, sizeof a);
  if (six_places(a, &len, out, p)) return len;
  /* only below 1: above, the test measured slower than it saved on
   * canada's 17 digits, and mesh's doubles above 1 are few */
  uint64_t m;
  int mp;
  if (bits < FJ_DBL_ONE_BITS) { /* 12 first: mesh's and numbers' %.12g */
    if (short_decimal(a, bits, &m, &mp, 12)) return put_below_one12(out, p, a, m, mp);
    if (short_decimal(a, bits, &m, &mp, 15)) return put_below_one(out, p, m, -mp);
  }
  uint64_t frac = bits & (FJ_DBL_C_MIN - 1);
  int be = (int)(bits >> FJ_DBL_MANT_BITS);
  decimal d;
  if (be != 0 && frac != 0 && shortest_fast(frac | FJ_DBL_C_MIN, be - 1075, &d))
    return put_decimal(out, p, d.digits, d.exp10, bits < FJ_DBL_ONE_BITS);
  return dtoa_general(out, p, bits);
}
