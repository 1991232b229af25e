#pragma once
// ============================================================================================
// TEMPORARY SHIM - the lead deletes this file when modules 17, 18 and 19 are merged.
//
// Milestone 06 is written against three APIs that other branches are adding at the same time:
//   module 17  tinytorch/acceleration.h     acceleration::naive_mm, fast_mm, fast_kernels_available
//   module 18  tinytorch/models/kv_cache.h  models::KVCache, GPT->make_kv_cache(batch),
//                                           GPT->forward(tokens, cache), GPT->generate(..., use_kv_cache)
//   module 19  tinytorch::utils::benchmark  Measurement, Timer, confidence_interval, compare,
//                                           pareto_frontier, BenchmarkReport
// Until then this file gives stand-ins with the same names, built only from public headers. The
// milestone reaches modules 17 and 19 through these names; module 18's members are reached through
// two free functions (make_kv_cache, forward_cached, generate_cached below) because a shim cannot
// add members to GPTImpl: at merge, replace
//     pending::make_kv_cache(gpt, b)        by  gpt->make_kv_cache(b)
//     pending::forward_cached(gpt, t, c)    by  gpt->forward(t, c)
//     pending::generate_cached(gpt, p, n)   by  gpt->generate(p, n, 0.0, 0, /*use_kv_cache=*/true)
// and the includes below by the real headers. Every name the milestone uses is listed in the
// branch's report.
// ============================================================================================
#include <tinytorch/torch.h>
#include <tinytorch/kernels.h>  // native::mm, module 01's loop

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace tinytorch {

// ---- module 17 (stand-in): module 01's loops and the build's fast path, on the same inputs ----
namespace acceleration {
// Module 01's learner loop (native::mm), never the fast kernels.
inline Tensor naive_mm(const Tensor& a, const Tensor& b) { return native::mm(a, b); }
// torch::mm: the fast kernels when the build has them (every reference link has them).
inline Tensor fast_mm(const Tensor& a, const Tensor& b) { return tinytorch::mm(a, b); }
// The real one asks the kernel hook; the stand-in cannot see it from public headers and says yes,
// which is true of every build this milestone runs in (module 17 is one of its required modules).
inline bool fast_kernels_available() { return true; }
}  // namespace acceleration

// ---- module 18 (stand-in): a KV cache for models::GPT ----
namespace models {
class KVCache {
 public:
  KVCache() = default;
  KVCache(int64_t layers, int64_t batch, int64_t heads, int64_t max_length, int64_t head_dim) : max_length_(max_length) {
    for (int64_t l = 0; l < layers; ++l) {
      keys_.push_back(zeros({batch, heads, max_length, head_dim}));
      values_.push_back(zeros({batch, heads, max_length, head_dim}));
    }
  }
  int64_t length() const { return length_; }
  int64_t max_length() const { return max_length_; }
  void reset() { length_ = 0; }
  int64_t memory_bytes() const {
    int64_t bytes = 0;
    for (size_t l = 0; l < keys_.size(); ++l) bytes += (keys_[l].numel() + values_[l].numel()) * 4;
    return bytes;
  }
  std::vector<Tensor> keys_, values_;
  int64_t length_ = 0, max_length_ = 0;
};
}  // namespace models

namespace pending {

inline models::KVCache make_kv_cache(models::GPT& gpt, int64_t batch) {
  const auto& o = gpt->options;
  return models::KVCache(o.num_layers(), batch, o.num_heads(), o.max_seq_len(), o.embed_dim() / o.num_heads());
}

// tokens (B, S_new) at positions cache.length() ... -> logits (B, S_new, V); appends their keys and values.
inline Tensor forward_cached(models::GPT& gpt, const Tensor& tokens, models::KVCache& cache) {
  NoGradGuard no_grad;
  const int64_t fresh = tokens.size(1), start = cache.length_, total = start + fresh;
  TT_CHECK(total <= cache.max_length_, "KVCache is full: ", total, " positions > max_length ", cache.max_length_);
  Tensor x = gpt->token_embedding->forward(tokens) + gpt->position_embedding->forward(arange(start, total, kLong));
  // Query i (absolute position start + i) sees keys 0 .. start + i.
  const Tensor keys_at = arange(total, kLong).unsqueeze(0), queries_at = arange(start, total, kLong).unsqueeze(1);
  const Tensor mask = zeros({fresh, total}).masked_fill(keys_at.gt(queries_at), -INFINITY);
  size_t layer = 0;
  for (const auto& module : *gpt->blocks) {
    auto* block = module->as<models::GPTBlockImpl>();
    auto& attention = *block->attn;
    const int64_t heads = attention.num_heads, head_dim = attention.embed_dim / heads;
    const std::vector<Tensor> qkv = attention.qkv->forward(block->ln1->forward(x)).transpose(0, 1).chunk(3, -1);
    cache.keys_[layer].narrow(2, start, fresh).copy_(native::split_heads(qkv[1], heads));
    cache.values_[layer].narrow(2, start, fresh).copy_(native::split_heads(qkv[2], heads));
    auto attended = native::scaled_dot_product_attention_math(
        native::split_heads(qkv[0], heads), cache.keys_[layer].narrow(2, 0, total),
        cache.values_[layer].narrow(2, 0, total), mask, 0.0, false, 1.0 / std::sqrt(static_cast<double>(head_dim)));
    x = x + attention.proj->forward(native::merge_heads(std::get<0>(attended)).transpose(0, 1));
    x = x + block->mlp->forward(block->ln2->forward(x));
    ++layer;
  }
  cache.length_ = total;
  return gpt->lm_head->forward(gpt->final_norm->forward(x));
}

// Greedy generation with the cache: the prompt once, then one token a step.
inline Tensor generate_cached(models::GPT& gpt, const Tensor& prompt, int64_t max_new_tokens) {
  NoGradGuard no_grad;
  models::KVCache cache = make_kv_cache(gpt, prompt.size(0));
  Tensor tokens = prompt;
  Tensor logits = forward_cached(gpt, prompt, cache);
  for (int64_t i = 0; i < max_new_tokens; ++i) {
    const Tensor next = models::sample_next_token(logits.select(1, -1), 0.0, 0);
    tokens = cat({tokens, next}, 1);
    if (i + 1 < max_new_tokens) logits = forward_cached(gpt, next, cache);
  }
  return tokens;
}

}  // namespace pending

// ---- module 19 (stand-in): statistics, timing, comparison, Pareto, the report ----
namespace utils {
namespace benchmark {

class Measurement {
 public:
  Measurement() = default;
  explicit Measurement(std::vector<double> times_s) : times(std::move(times_s)) {}
  std::vector<double> times;  // seconds, one per run
  size_t size() const { return times.size(); }
  double mean() const {
    double s = 0;
    for (double t : times) s += t;
    return times.empty() ? 0.0 : s / static_cast<double>(times.size());
  }
  double stddev() const {
    if (times.size() < 2) return 0.0;
    const double m = mean();
    double s = 0;
    for (double t : times) s += (t - m) * (t - m);
    return std::sqrt(s / static_cast<double>(times.size() - 1));
  }
  double percentile(double p) const {
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    const double position = p / 100.0 * static_cast<double>(sorted.size() - 1);
    const size_t low = static_cast<size_t>(std::floor(position));
    const size_t high = std::min(low + 1, sorted.size() - 1);
    return sorted[low] + (position - static_cast<double>(low)) * (sorted[high] - sorted[low]);
  }
  double median() const { return percentile(50); }
  double min() const { return *std::min_element(times.begin(), times.end()); }
  double max() const { return *std::max_element(times.begin(), times.end()); }
  double iqr() const { return percentile(75) - percentile(25); }
};

class Timer {
 public:
  explicit Timer(std::function<void()> fn) : fn_(std::move(fn)) {}
  // Runs fn `number` times; one sample: the mean time of a run.
  Measurement timeit(int64_t number) const {
    const auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < number; ++i) fn_();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return Measurement({seconds / static_cast<double>(number)});
  }

 private:
  std::function<void()> fn_;
};

// Student's t quantile by bisection on the t distribution's CDF (the stand-in's; module 19 has its own).
inline double student_t_cdf(double t, double df) {
  // Simpson integration of the density from 0 to |t|.
  const double x = std::fabs(t);
  const int steps = 2000;
  const double h = x / steps;
  const double c = std::exp(std::lgamma((df + 1) / 2) - std::lgamma(df / 2)) / std::sqrt(df * M_PI);
  auto density = [&](double u) { return c * std::pow(1 + u * u / df, -(df + 1) / 2); };
  double s = density(0) + density(x);
  for (int i = 1; i < steps; ++i) s += density(i * h) * (i % 2 ? 4 : 2);
  const double half = s * h / 3;
  return t >= 0 ? 0.5 + half : 0.5 - half;
}
inline double student_t_quantile(double p, double df) {
  double low = 0, high = 1000;
  for (int i = 0; i < 100; ++i) {
    const double mid = (low + high) / 2;
    (student_t_cdf(mid, df) < p ? low : high) = mid;
  }
  return (low + high) / 2;
}

struct ConfidenceInterval {
  double low = 0, high = 0;
};
// The mean's interval: mean +- t_{(1+level)/2, n-1} s / sqrt(n).
inline ConfidenceInterval confidence_interval(const Measurement& m, double level = 0.95) {
  const double n = static_cast<double>(m.size());
  const double half = student_t_quantile((1 + level) / 2, n - 1) * m.stddev() / std::sqrt(n);
  return {m.mean() - half, m.mean() + half};
}

struct Comparison {
  double t = 0, df = 0, p_value = 1;
  double speedup = 1;  // a's mean / b's mean
};
// Welch's t-test of a against b (two-sided).
inline Comparison compare(const Measurement& a, const Measurement& b) {
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  const double va = a.stddev() * a.stddev() / na, vb = b.stddev() * b.stddev() / nb;
  Comparison result;
  result.t = (a.mean() - b.mean()) / std::sqrt(va + vb);
  result.df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
  result.p_value = std::clamp(2 * (1 - student_t_cdf(std::fabs(result.t), result.df)), 0.0, 1.0);  // quadrature error
  result.speedup = a.mean() / b.mean();
  return result;
}

// Indices of the points no other point dominates (at least as good everywhere, better somewhere).
inline std::vector<size_t> pareto_frontier(const std::vector<std::vector<double>>& points,
                                           const std::vector<bool>& lower_is_better) {
  auto better_or_equal = [&](const std::vector<double>& a, const std::vector<double>& b, size_t k) {
    return lower_is_better[k] ? a[k] <= b[k] : a[k] >= b[k];
  };
  std::vector<size_t> frontier;
  for (size_t i = 0; i < points.size(); ++i) {
    bool dominated = false;
    for (size_t j = 0; j < points.size() && !dominated; ++j) {
      if (i == j) continue;
      bool all = true, strictly = false;
      for (size_t k = 0; k < lower_is_better.size(); ++k) {
        all = all && better_or_equal(points[j], points[i], k);
        strictly = strictly || points[j][k] != points[i][k];
      }
      dominated = all && strictly;
    }
    if (!dominated) frontier.push_back(i);
  }
  return frontier;
}

// An MLPerf-Tiny-shaped report: {"tinymlperf_version", "model_name", "division", "system_info",
// "benchmarks": {name: {metric: value}}, "summary"}.
struct BenchmarkReport {
  std::string model_name, division;
  std::map<std::string, std::string> system_info;
  std::vector<std::pair<std::string, std::map<std::string, double>>> benchmarks;

  void add(const std::string& name, const std::map<std::string, double>& metrics) { benchmarks.push_back({name, metrics}); }
  std::string to_json() const {
    auto quoted = [](const std::string& s) {
      std::string out = "\"";
      for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      return out + "\"";
    };
    std::ostringstream json;
    json.precision(10);
    json << "{\n  \"tinymlperf_version\": \"1.0\",\n  \"model_name\": " << quoted(model_name)
         << ",\n  \"division\": " << quoted(division) << ",\n  \"system_info\": {";
    bool first = true;
    for (const auto& [key, value] : system_info) {
      json << (first ? "" : ",") << "\n    " << quoted(key) << ": " << quoted(value);
      first = false;
    }
    json << "\n  },\n  \"benchmarks\": {";
    first = true;
    for (const auto& [name, metrics] : benchmarks) {
      json << (first ? "" : ",") << "\n    " << quoted(name) << ": {";
      bool first_metric = true;
      for (const auto& [metric, value] : metrics) {
        json << (first_metric ? "" : ", ") << quoted(metric) << ": " << value;
        first_metric = false;
      }
      json << "}";
      first = false;
    }
    json << "\n  },\n  \"summary\": {\"total_benchmarks\": " << benchmarks.size() << "}\n}\n";
    return json.str();
  }
  void save(const std::string& path) const {
    std::ofstream out(path);
    out << to_json();
    TT_CHECK(static_cast<bool>(out), "BenchmarkReport::save: cannot write ", path);
  }
};

}  // namespace benchmark
}  // namespace utils
}  // namespace tinytorch
