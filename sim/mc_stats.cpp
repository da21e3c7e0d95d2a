#include "sim/mc_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Core>

namespace gpuplan {
namespace {

inline constexpr double Z_975 = 1.959963984540054;  //!< 97.5% quantile of the standard normal
inline constexpr uint64_t NORMAL_FROM_DF = 1000;    //!< t is replaced by the normal above this

//! Continued fraction of the regularized incomplete beta (modified Lentz; Numerical Recipes 6.4).
double beta_continued_fraction(double a, double b, double x) {
  constexpr double TINY = 1e-300;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  d = 1 / (std::abs(d) < TINY ? TINY : d);
  double h = d;
  for (int m = 1; m <= 1000; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    d = 1 / (std::abs(d) < TINY ? TINY : d);
    c = 1 + aa / c;
    c = std::abs(c) < TINY ? TINY : c;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    d = 1 / (std::abs(d) < TINY ? TINY : d);
    c = 1 + aa / c;
    c = std::abs(c) < TINY ? TINY : c;
    const double del = d * c;
    h *= del;
    if (std::abs(del - 1) < 1e-15) break;
  }
  return h;
}

//! Regularized incomplete beta I_x(a, b).
double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * beta_continued_fraction(a, b, x) / a;
  return 1 - front * beta_continued_fraction(b, a, 1 - x) / b;
}

//! Upper tail P(T > t) of Student's t with df degrees of freedom, t >= 0.
double t_upper_tail(double t, double df) {
  return 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

//! Mean and sample standard deviation (two passes, Eigen reductions).
void mean_and_stddev(std::span<const double> v, double& mean, double& stddev) {
  const Eigen::Map<const Eigen::ArrayXd> a(v.data(), static_cast<Eigen::Index>(v.size()));
  mean = a.mean();
  stddev = v.size() < 2 ? 0 : std::sqrt((a - mean).square().sum() / double(v.size() - 1));
}

//! Type-7 quantile of ascending values: x[floor(h)] + frac(h) (x[floor(h) + 1] - x[floor(h)]),
//! h = q (n - 1).
double sorted_type7(std::span<const double> sorted, double q) {
  if (sorted.empty()) return 0;
  const double pos = q * double(sorted.size() - 1);
  const std::size_t i = static_cast<std::size_t>(pos);
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (pos - double(i)) * (sorted[i + 1] - sorted[i]);
}

MetricSummary interval(uint64_t n, double mean, double stddev, double df) {
  MetricSummary s;
  s.n = n;
  s.mean = mean;
  s.stddev = stddev;
  s.ci95_low = s.ci95_high = mean;
  if (n >= 2) {
    const double t =
        df > double(NORMAL_FROM_DF) ? Z_975 : t_quantile_975(static_cast<uint64_t>(df));
    const double half = t * stddev / std::sqrt(double(n));
    s.ci95_low = mean - half;
    s.ci95_high = mean + half;
  }
  return s;
}

}  // namespace

double t_quantile_975(uint64_t df) {
  if (df == 0) return std::numeric_limits<double>::infinity();
  if (df > NORMAL_FROM_DF) return Z_975;
  // Bisection on the upper tail: P(T > t) = 0.025; t(1) = 12.706 bounds every df from above.
  double lo = Z_975, hi = 13.0;
  for (int i = 0; i < 200 && hi - lo > 1e-13; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (t_upper_tail(mid, double(df)) > 0.025)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

double quantile_type7(std::span<const double> values, double q) {
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted_type7(sorted, q);
}

MetricSummary summarize(std::span<const double> values) {
  if (values.empty()) return MetricSummary{};
  double mean = 0, stddev = 0;
  mean_and_stddev(values, mean, stddev);
  MetricSummary s = interval(values.size(), mean, stddev, double(values.size() - 1));
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  s.p05 = sorted_type7(sorted, 0.05);
  s.p50 = sorted_type7(sorted, 0.50);
  s.p95 = sorted_type7(sorted, 0.95);
  return s;
}

MetricSummary paired_difference(std::span<const double> a, std::span<const double> b) {
  const std::size_t n = std::min(a.size(), b.size());
  std::vector<double> d(n);
  for (std::size_t k = 0; k < n; ++k) d[k] = a[k] - b[k];
  return summarize(d);
}

MetricSummary unpaired_difference(std::span<const double> a, std::span<const double> b) {
  double ma = 0, sa = 0, mb = 0, sb = 0;
  mean_and_stddev(a, ma, sa);
  mean_and_stddev(b, mb, sb);
  const double va = sa * sa / double(a.size()), vb = sb * sb / double(b.size());
  const double se = std::sqrt(va + vb);
  // Welch-Satterthwaite degrees of freedom.
  const double df = (va + vb) > 0
                        ? (va + vb) * (va + vb) /
                              (va * va / double(a.size() - 1) + vb * vb / double(b.size() - 1))
                        : double(a.size() + b.size() - 2);
  MetricSummary s;
  s.n = std::min(a.size(), b.size());
  s.mean = ma - mb;
  s.stddev = se;
  const double t = df > double(NORMAL_FROM_DF)
                       ? Z_975
                       : t_quantile_975(static_cast<uint64_t>(std::max(1.0, std::floor(df))));
  s.ci95_low = s.mean - t * se;
  s.ci95_high = s.mean + t * se;
  return s;
}

bool ci_target_met(const MetricSummary& s, double rel) {
  if (s.n < 2) return false;
  if (s.mean == 0) return true;
  return s.half_width() <= rel * std::abs(s.mean);
}

Band percentile_band(const std::vector<std::span<const double>>& rows, std::size_t n_bins) {
  Band band;
  band.p10.assign(n_bins, 0);
  band.p50.assign(n_bins, 0);
  band.p90.assign(n_bins, 0);
  if (rows.empty()) return band;
  std::vector<double> column(rows.size());
  for (std::size_t b = 0; b < n_bins; ++b) {
    for (std::size_t r = 0; r < rows.size(); ++r) column[r] = rows[r][b];
    std::sort(column.begin(), column.end());
    band.p10[b] = sorted_type7(column, 0.10);
    band.p50[b] = sorted_type7(column, 0.50);
    band.p90[b] = sorted_type7(column, 0.90);
  }
  return band;
}

}  // namespace gpuplan
