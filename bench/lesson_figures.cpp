// lesson_figures NN [files...]: the measured figures lesson NN quotes, measured now on this machine with the
// reference library. scripts/lesson-figures builds this (Release) and prints the header (build, compiler,
// CPU, threads, load average at start and end) around it; run that, not this.
//
// "Loops" rows are what a learner's build runs before module 17 (the loops of modules 01 and 09): the
// program empties the fast-kernel table for them. "Module 17" rows run the reference kernels; where a
// lesson speaks of the learner's portable micro-kernel, the GEMM is forced to it ("generic").
#include <tinytorch/torch.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "device_parity.h"  // lesson 22's parity table, shared with tests/framework/test_device_parity.cpp
#include "harness.h"         // bench::seconds_since
#include "runtime/fast_kernels.h"
#include "tinytorch/acceleration_kernels.h"
#include "tinytorch/device_kernels.h"
#include "tinytorch/opencl.h"

using bench::seconds_since;

namespace {

namespace P = torch::profiling;
namespace native = tinytorch::native;

// The fastest of `repeats` calls, in milliseconds: on a shared machine the fastest call is the one
// least disturbed by other programs.
double best_ms(int repeats, const std::function<void()>& body) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    body();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

class ThreadCount {
 public:
  explicit ThreadCount(int n) : saved_(torch::get_num_threads()) { torch::set_num_threads(n); }
  ~ThreadCount() { torch::set_num_threads(saved_); }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int saved_;
};

int all_threads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "error: cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// ---- Lesson 14 (and 17): the roofs ----

// Fastest of 20 runs of a few milliseconds each: on a loaded machine the runs on all threads need
// several tries before every thread gets a core for the whole run.
std::vector<P::PeakFlopsMeasurement> print_roofs() {
  const std::vector<P::PeakFlopsMeasurement> roofs = P::measure_peak_roofs(2'000'000, 20, all_threads());
  std::printf("compute roofs (measure_peak_roofs: 12 registers of chains, 2M steps, fastest of 20):\n%s",
              P::format_peak_roofs(roofs).c_str());
  return roofs;
}

const P::PeakFlopsMeasurement& roof_for(const std::vector<P::PeakFlopsMeasurement>& roofs, P::PeakIsa isa,
                                        int64_t threads) {
  for (const auto& roof : roofs)
    if (roof.isa == isa && roof.threads == threads) return roof;
  return roofs.back();
}

// The L3 of this core as Linux reports it (sysfs); glibc's sysconf(_SC_LEVEL3_CACHE_SIZE) reads CPUID,
// which in a virtual machine can describe the host's caches (384 MiB on the course's machine, whose
// guest has 32 MiB). 0 when unknown.
int64_t last_level_cache_bytes() {
  std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index3/size");
  int64_t size = 0;
  std::string unit;
  if (!(in >> size)) return 0;
  std::getline(in, unit);
  if (!unit.empty() && unit[0] == 'K') size <<= 10;
  if (!unit.empty() && unit[0] == 'M') size <<= 20;
  return size;
}

P::BandwidthMeasurement print_triad() {
  // STREAM's rule: each array at least 4 times the last-level cache (4 x L3 bytes / 4 bytes a float).
  const int64_t l3 = last_level_cache_bytes();
  const int64_t elements = std::max<int64_t>(16 << 20, l3);
  const P::BandwidthMeasurement triad = P::measure_triad_bandwidth(elements, 5);
  std::printf("triad: %lld M floats an array (L3 %.0f MiB), %.2f GB/s (fastest of 5)\n",
              static_cast<long long>(elements >> 20), l3 / 1048576.0, triad.gb_per_s());
  return triad;
}

void print_ridges(const std::vector<P::PeakFlopsMeasurement>& roofs, double bandwidth) {
  std::printf("ridge points (peak / triad bandwidth):");
  for (const auto& roof : roofs)
    std::printf("  %s x%lld %.1f FLOP/B", P::peak_isa_name(roof.isa).c_str(), static_cast<long long>(roof.threads),
                roof.gflops() / bandwidth);
  std::printf("\n");
}

void print_points(const char* title, const std::vector<P::RooflinePoint>& points, double peak, double bandwidth) {
  std::printf("%s (roof: %.1f GFLOP/s, %.2f GB/s):\n", title, peak, bandwidth);
  for (const auto& p : points) {
    const double roof = P::roofline_attainable(p.intensity, peak, bandwidth);
    if (p.gflops <= roof)
      std::printf("  %-14s %7.3f FLOP/B  %8.3f GFLOP/s  roof %7.2f  %6.1fx under it\n", p.label.c_str(), p.intensity,
                  p.gflops, roof, roof / p.gflops);
    else  // the operands fit in a cache, whose bandwidth is higher than the memory's
      std::printf("  %-14s %7.3f FLOP/B  %8.3f GFLOP/s  roof %7.2f  above the memory roof: served from a cache\n",
                  p.label.c_str(), p.intensity, p.gflops, roof);
  }
}

void lesson_14() {
  std::printf("== Lesson 14, section 4: this machine's peak ==\n");
  const auto roofs = print_roofs();
  const auto triad = print_triad();
  print_ridges(roofs, triad.gb_per_s());
  const P::PeakFlopsMeasurement& sse = roofs.front();
  std::printf("\n== Lesson 14, section 5: the kernels under the roof ==\n");
  {
    tinytorch::detail::WithoutFastKernels loops;
    print_points("loops of modules 01 and 09 (a learner's build before module 17), 1 thread, SSE roof",
                 P::measure_kernel_points(), sse.gflops(), triad.gb_per_s());
  }
  print_points("module 17 kernels (reference library), widest roof on all threads", P::measure_kernel_points(),
               roofs.back().gflops(), triad.gb_per_s());

  std::printf("\n== Lesson 14, section 6: LeNet-5, batch 32, layer by layer ==\n");
  namespace nn = torch::nn;
  torch::manual_seed(0);
  nn::Sequential lenet(nn::Conv2d(nn::Conv2dOptions(1, 6, 5).padding(2)), nn::ReLU(), nn::MaxPool2d(2),
                       nn::Conv2d(6, 16, 5), nn::ReLU(), nn::MaxPool2d(2), nn::Flatten(), nn::Linear(16 * 5 * 5, 120),
                       nn::ReLU(), nn::Linear(120, 84), nn::ReLU(), nn::Linear(84, 10));
  const torch::Tensor input = torch::rand({32, 1, 28, 28});
  {
    tinytorch::detail::WithoutFastKernels loops;
    std::printf("loops of modules 01 and 09:\n%s", P::format_profile(P::profile_layers(*lenet, input)).c_str());
  }
  std::printf("module 17 kernels:\n%s", P::format_profile(P::profile_layers(*lenet, input)).c_str());
}

// ---- Lesson 17 ----

void lesson_17() {
  std::printf("== Lesson 17, section 1: the roofs ==\n");
  const auto roofs = print_roofs();
  const auto triad = print_triad();
  print_ridges(roofs, triad.gb_per_s());

  std::printf("\n== Lesson 17, section 10: 512 x 512, fastest of several calls ==\n");
  const int64_t n = 512;
  torch::manual_seed(0);
  const torch::Tensor a = torch::randn({n, n}), b = torch::randn({n, n});
  const double flops = 2.0 * n * n * n;
  const auto row = [&](const char* label, double ms) {
    std::printf("  %-52s %8.2f ms  %7.2f GFLOP/s\n", label, ms, flops / ms / 1e6);
  };
  const double textbook = best_ms(2, [&] { torch::acceleration::textbook_mm(a, b); });
  const double loops = best_ms(3, [&] { torch::acceleration::naive_mm(a, b); });
  row("the textbook i-j-k loop", textbook);
  row("module 01 loops (naive_mm)", loops);
  const std::string best_kernel = torch::cpublas::float_kernel();
  std::vector<std::string> kernels{"generic"};
  if (best_kernel != "generic") kernels.push_back(best_kernel);
  for (const std::string& kernel : kernels) {
    torch::cpublas::set_float_kernel(kernel);
    for (const int threads : {1, all_threads()}) {
      ThreadCount count(threads);
      const double ms = best_ms(10, [&] { torch::acceleration::fast_mm(a, b); });
      char label[96];
      std::snprintf(label, sizeof label, "module 17 GEMM, %s micro-kernel, %d thread%s", kernel.c_str(), threads,
                    threads == 1 ? "" : "s");
      row(label, ms);
      const P::PeakFlopsMeasurement& widest = roof_for(roofs, roofs.back().isa, threads);
      std::printf("      %.0fx the textbook loop, %.1fx module 01; %.0f%% of the %s roof on %d thread%s (%.1f GFLOP/s)\n",
                  textbook / ms, loops / ms, 100 * flops / ms / 1e6 / widest.gflops(),
                  P::peak_isa_name(widest.isa).c_str(), threads, threads == 1 ? "" : "s", widest.gflops());
      if (threads == all_threads()) break;
    }
  }
  torch::cpublas::set_float_kernel("");

  std::printf("\n== Lesson 17, section 7: convolutions, module 09 loops against im2col + GEMM (1 thread) ==\n");
  ThreadCount one(1);
  struct ConvCase {
    const char* label;
    int64_t batch, in, out, size;
  };
  for (const ConvCase& c : {ConvCase{"TinyDigits batch: 32 x 1 x 8 x 8, 8 filters 3x3", 32, 1, 8, 8},
                            ConvCase{"32 channels: 8 x 32 x 16 x 16, 32 filters 3x3", 8, 32, 32, 16}}) {
    const torch::Tensor x = torch::randn({c.batch, c.in, c.size, c.size}), w = torch::randn({c.out, c.in, 3, 3}),
                        bias = torch::randn({c.out});
    native::Conv2dParams p;
    p.padding[0] = p.padding[1] = 1;
    const int repeats = c.in == 1 ? 50 : 5;
    const double loops_ms = best_ms(repeats, [&] { native::conv2d_reference(x, w, bias, p); });
    const double im2col_ms = best_ms(repeats, [&] { native::conv2d_im2col(x, w, bias, p); });
    std::printf("  %-48s loops %8.3f ms  im2col %8.3f ms  %5.1fx\n", c.label, loops_ms, im2col_ms,
                loops_ms / im2col_ms);
  }
}

// ---- Lesson 12: the S^2 wall ----

void lesson_12() {
  std::printf("== Lesson 12, section 8: FLOPs are not time (E 128, 4 heads, batch 16, causal, forward; module 17) ==\n");
  for (const int64_t S : {64, 256, 1024}) {
    torch::NoGradGuard no_grad;
    const int64_t E = 128, H = 4, N = 16;
    const torch::Tensor x = torch::randn({N * S, E}), w = torch::randn({E, E});
    const torch::Tensor q = torch::randn({N, H, S, E / H}), k = torch::randn({N, H, S, E / H}),
                        v = torch::randn({N, H, S, E / H});
    const double projection_ms = best_ms(3, [&] {
      for (int i = 0; i < 4; ++i) x.matmul(w.t());
    });
    const double attention_ms =
        best_ms(3, [&] { torch::scaled_dot_product_attention(q, k, v, {}, 0.0, /*is_causal=*/true); });
    std::printf("  S %5lld: projections %6.0f MFLOP in %8.2f ms;  attention %6.0f MFLOP in %8.2f ms\n",
                static_cast<long long>(S), 8.0 * N * S * E * E / 1e6, projection_ms, 4.0 * N * S * S * E / 1e6,
                attention_ms);
  }

  std::printf("\n== Lesson 12, section 8: one causal head (N 1, E 64), fastest of 3 ==\n");
  std::printf("  %5s %10s %12s %14s | %12s %12s | %12s %12s\n", "S", "scores MiB", "peak fwd MiB", "peak f+b MiB",
              "loops fwd", "loops f+b", "m17 fwd", "m17 f+b");
  const double loops_limit_ms = 3000;  // the loops' rows stop once one call takes longer than this
  bool loops_too_slow = false;
  for (const int64_t S : {64, 128, 256, 512, 1024, 2048}) {
    const torch::Tensor q = torch::randn({1, S, 64}), k = torch::randn({1, S, 64}), v = torch::randn({1, S, 64});
    const auto forward = [&] {
      torch::NoGradGuard guard;
      torch::scaled_dot_product_attention(q, k, v, {}, 0.0, true);
    };
    const auto both = [&] {
      auto qg = q.detach().requires_grad_(), kg = k.detach().requires_grad_(), vg = v.detach().requires_grad_();
      torch::scaled_dot_product_attention(qg, kg, vg, {}, 0.0, true).sum().backward();
    };
    const auto peak_mib = [&](const std::function<void()>& fn) {
      torch::memory::reset_peak_stats();
      const int64_t before = torch::memory::allocator_stats().allocated_bytes;
      fn();
      return (torch::memory::allocator_stats().peak_allocated_bytes - before) / 1048576.0;
    };
    const double peak_forward = peak_mib(forward), peak_both = peak_mib(both);
    char loops_forward[32] = "(not run)", loops_both[32] = "(not run)";
    if (!loops_too_slow) {
      tinytorch::detail::WithoutFastKernels loops;
      const double f = best_ms(S >= 512 ? 1 : 3, forward), fb = best_ms(S >= 512 ? 1 : 3, both);
      std::snprintf(loops_forward, sizeof loops_forward, "%.2f ms", f);
      std::snprintf(loops_both, sizeof loops_both, "%.2f ms", fb);
      loops_too_slow = fb > loops_limit_ms;
    }
    std::printf("  %5lld %10.2f %12.2f %14.2f | %12s %12s | %9.2f ms %9.2f ms\n", static_cast<long long>(S),
                4.0 * S * S / 1048576, peak_forward, peak_both, loops_forward, loops_both, best_ms(3, forward),
                best_ms(3, both));
  }
}

// ---- Lesson 18: generating with and without the KV cache ----

void lesson_18() {
  // Module 18's measuring case's model and loop (tests/test_memoization.cpp), default initialisation, seed 0.
  std::printf("== Lesson 18, section 6: GPT d 64, 2 layers, 4 heads, mlp_ratio 2, 320 positions, V 64; greedy from 8 "
              "tokens, fastest of 3, %d thread(s) ==\n", torch::get_num_threads());
  torch::manual_seed(0);
  torch::NoGradGuard no_grad;
  torch::models::GPT gpt(torch::models::GPTOptions(64, 320).embed_dim(64).num_layers(2).num_heads(4).mlp_ratio(2).dropout(0.0));
  gpt->eval();
  const torch::Tensor prompt = torch::randint(0, 64, {1, 8}, torch::kLong);
  std::printf("  %10s %16s %16s %9s\n", "new tokens", "recompute (ms)", "with cache (ms)", "speed-up");
  for (const int64_t new_tokens : {64, 128, 256}) {
    const double recompute = best_ms(3, [&] { gpt->generate(prompt, new_tokens, 0.0); });
    const double cached = best_ms(3, [&] { gpt->generate(prompt, new_tokens, 0.0, 0, /*use_kv_cache=*/true); });
    std::printf("  %10lld %16.1f %16.1f %8.1fx\n", static_cast<long long>(new_tokens), recompute, cached,
                recompute / cached);
  }
}

// ---- Lesson 11: a lookup and its gradient ----

void lesson_11() {
  std::printf("== Lesson 11, section 7: nn::Embedding, 16 x 64 = 1,024 ids, fastest of 10 ==\n");
  std::printf("  %-14s %10s %12s %12s %22s\n", "V x d", "table", "lookup", "backward", "of which zeros({V, d})");
  for (const auto& sizes : std::vector<std::pair<int64_t, int64_t>>{{65, 128}, {10000, 256}, {50257, 768}}) {
    const int64_t V = sizes.first, d = sizes.second;  // C++17 lambdas cannot capture structured bindings
    torch::nn::Embedding embed(V, d);
    const torch::Tensor ids = torch::randint(0, V, {16, 64});
    const torch::Tensor grad = torch::ones({16, 64, d});
    const double lookup = best_ms(10, [&] {
      torch::NoGradGuard guard;
      embed(ids);
    });
    const double backward = best_ms(10, [&] {
      embed->weight.mutable_grad() = torch::Tensor();
      embed(ids).backward(grad);
    });
    const double zeros = best_ms(10, [&] { torch::zeros({V, d}); });
    std::printf("  %6lld x %-5lld %8.3f MB %9.3f ms %9.3f ms %19.3f ms\n", static_cast<long long>(V),
                static_cast<long long>(d), 4.0 * V * d / 1e6, lookup, backward, zeros);
  }
}

// ---- Lesson 10: vocabulary size against sequence length ----

// How many bytes a UTF-8 sequence starting with `lead` has (0: a byte no sequence starts with).
size_t utf8_length(unsigned char lead) {
  return lead < 0x80 ? 1 : lead < 0xC2 ? 0 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF5 ? 4 : 0;
}

// Whether some bytes are a sequence of complete UTF-8 characters (what a program can print as it is).
bool whole_characters(const std::string& bytes) {
  for (const std::string& character : torch::text::utf8_characters(bytes))
    if (utf8_length(static_cast<unsigned char>(character[0])) != character.size()) return false;
  return true;
}

// Bytes as "<E79A84>": how the figures show a token that is not whole characters.
std::string hex_bytes(const std::string& bytes) {
  std::string out = "<";
  for (const char c : bytes) {
    char digits[4];
    std::snprintf(digits, sizeof digits, "%02X", static_cast<unsigned char>(c));
    out += digits;
  }
  return out + ">";
}

// Lesson 10, section 8, "Text without spaces": TinyTalks in Chinese against English and Spanish. Per
// language: the character tokenizer built on the train split, and BPE trained on it at V = 512 and
// 1,024, both counted on the validation split (what a model reads: TinyTalks::text(), the Q:/A:
// markers included); split_words' words per pair of the train split (Chinese has no spaces, so a
// word is a whole question or answer); the BPE tokens of the validation split that are not whole
// characters, and the tokens after which the bytes so far end inside a character (where a program
// that prints tokens as they come must hold bytes back).
void lesson_10_tinytalks() {
  namespace datasets = torch::data::datasets;
  namespace text = torch::text;
  using Mode = datasets::TinyTalks::Mode;
  const std::string root = datasets::default_root();
  std::printf("\n== Lesson 10, section 8: TinyTalks (%s/tinytalks), tokenizers built on the train split, "
              "counted on the validation split ==\n", root.c_str());
  std::vector<std::string> rows, notes;
  for (const std::string language : {"en", "es", "zh"}) {
    datasets::TinyTalks train_set(root, Mode::kTrain, language), validation_set(root, Mode::kValidation, language);
    const std::string train = train_set.text(), validation = validation_set.text();
    char line[512];

    const std::vector<std::string> characters = text::utf8_characters(validation);
    long long by_length[5] = {0, 0, 0, 0, 0};
    for (const std::string& character : characters) ++by_length[std::min<size_t>(character.size(), 4)];
    int64_t words = 0;
    size_t longest = 0;
    for (size_t i = 0; i < train_set.pairs().size(); ++i)
      for (const std::string& word : text::split_words(train_set.text(i))) ++words, longest = std::max(longest, word.size());
    text::CharTokenizer chars;
    chars.build_vocab({train});
    const std::vector<int64_t> char_ids = chars.encode(validation);
    const auto unknown = std::count(char_ids.begin(), char_ids.end(), chars.unk_id());
    std::snprintf(line, sizeof line,
                  "  %s: validation %zu pairs, %zu bytes, %zu characters (%lld of 1 byte, %lld of 2, %lld of 3, %lld of 4), "
                  "%lld of them not in the train split (<UNK>); split_words on the train split: %.1f words per pair, "
                  "the longest %zu bytes",
                  language.c_str(), validation_set.pairs().size(), validation.size(), characters.size(), by_length[1],
                  by_length[2], by_length[3], by_length[4], static_cast<long long>(unknown),
                  static_cast<double>(words) / static_cast<double>(train_set.pairs().size()), longest);
    notes.push_back(line);
    std::snprintf(line, sizeof line, "  %-4s %-12s %6lld %8zu %11.2f %8d (%3d%%) %16d (%3d%%)", language.c_str(),
                  "characters", static_cast<long long>(chars.vocab_size()), char_ids.size(),
                  static_cast<double>(validation.size()) / static_cast<double>(char_ids.size()), 0, 0, 0, 0);
    rows.push_back(line);

    for (const int64_t vocab : {512, 1024}) {
      text::BPETokenizer bpe;
      bpe.train(train, vocab);
      const std::vector<int64_t> ids = bpe.encode(validation);
      if (bpe.decode(ids) != validation) throw std::runtime_error("BPE did not give TinyTalks " + language + " back");
      long long partial = 0, inside = 0;
      size_t at = 0;
      for (const int64_t id : ids) {
        const std::string& bytes = bpe.token_bytes(id);
        partial += whole_characters(bytes) ? 0 : 1;
        at += bytes.size();
        // The text is valid UTF-8: the bytes so far end inside a character when a continuation byte comes next.
        inside += at < validation.size() && (static_cast<unsigned char>(validation[at]) & 0xC0) == 0x80 ? 1 : 0;
      }
      const double n = static_cast<double>(ids.size());
      std::snprintf(line, sizeof line, "  %-4s %-12s %6lld %8zu %11.2f %8lld (%3.0f%%) %16lld (%3.0f%%)", language.c_str(),
                    ("BPE " + std::to_string(vocab)).c_str(), static_cast<long long>(bpe.vocab_size()), ids.size(),
                    static_cast<double>(validation.size()) / n, partial, 100.0 * partial / n, inside, 100.0 * inside / n);
      rows.push_back(line);
      if (language == "zh" && vocab == 512) {
        std::string merges = "  zh, BPE 512: the first merges (in hex where not whole characters):";
        for (int64_t r = 0; r < 12 && r < static_cast<int64_t>(bpe.merges().size()); ++r) {
          const std::string& bytes = bpe.token_bytes(256 + r);
          std::string shown;  // a newline as \n, so that the list stays on one line
          for (const char c : bytes) shown += c == '\n' ? std::string("\\n") : std::string(1, c);
          merges += " " + (whole_characters(bytes) ? "'" + shown + "'" : hex_bytes(bytes));
        }
        notes.push_back(merges);
      }
    }
  }
  std::printf("  %-4s %-12s %6s %8s %11s %15s %23s\n", "", "tokenizer", "V", "tokens", "bytes/token",
              "not whole chars", "ends inside a character");
  for (const std::string& row : rows) std::printf("%s\n", row.c_str());
  for (const std::string& note : notes) std::printf("%s\n", note.c_str());
}

void lesson_10(const std::vector<std::string>& files) {
  if (files.size() < 2) {
    std::fprintf(stderr, "error: lesson 10 needs training files and a held-out file (scripts/lesson-figures passes "
                         "lessons 01-08 and 09)\n");
    std::exit(2);
  }
  std::string train;
  for (size_t i = 0; i + 1 < files.size(); ++i) train += read_file(files[i]);
  const std::string held_out = read_file(files.back());
  std::printf("== Lesson 10, section 8: BPE trained on lessons 01-08 (%zu bytes), measured on lesson 09 (%zu bytes) ==\n",
              train.size(), held_out.size());
  torch::text::CharTokenizer chars;
  chars.build_vocab({train});
  const auto c = torch::text::analyze_tokenization({held_out}, chars);
  std::printf("  characters: V %lld, %.2f bytes per token\n", static_cast<long long>(c.vocab_size), c.bytes_per_token);
  for (const int64_t vocab : {256, 512, 1024, 2048, 4096, 8192}) {
    torch::text::BPETokenizer bpe;
    const std::clock_t start = std::clock();  // CPU time: other programs' turns are not counted
    bpe.train(train, vocab);
    const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    const auto s = torch::text::analyze_tokenization({held_out}, bpe);
    const int64_t window = static_cast<int64_t>(4096 / s.bytes_per_token);
    std::printf("  BPE: V %5lld, %.2f bytes per token, S %5lld for 4 KB, S x S %5.1f MiB, trained in %5.1f s of CPU\n",
                static_cast<long long>(bpe.vocab_size()), s.bytes_per_token, static_cast<long long>(window),
                window * window * 4.0 / (1 << 20), seconds);
    if (vocab == 512) {
      std::printf("  first merges:");
      for (int64_t r = 0; r < 10 && r < static_cast<int64_t>(bpe.merges().size()); ++r)
        std::printf(" '%s'", bpe.decode({256 + r}).c_str());
      std::printf("\n");
    }
  }
  lesson_10_tinytalks();
}

// ---- Lesson 21: the input pipeline ----

// The lesson's pipeline: Fashion-MNIST's bytes (one uint8 a pixel, as the files store them), turned into
// a training batch by a transform written with torch ops, batch 64.
constexpr int64_t kLoaderBatch = 64;
constexpr int64_t kPixels = 28 * 28, kPaddedPixels = 32 * 32;
constexpr double kFashionMean = 0.2860, kFashionStd = 0.3530;  // of the training images' pixels in [0, 1]

struct ByteImages {
  torch::Tensor images;   // [N, 1, 28, 28] uint8
  torch::Tensor targets;  // [N] int64
  bool real = false;      // Fashion-MNIST's files, or random bytes of the same shapes
};

ByteImages load_byte_images() {
  namespace datasets = torch::data::datasets;
  const std::string root = datasets::fashion_mnist_root();
  if (datasets::mnist_files_present(root)) {
    datasets::MNIST train(root);  // float in [0, 1]: the bytes divided by 255, so this gives them back exactly
    return {train.images().mul(255).round().to(torch::kByte), train.targets(), true};
  }
  torch::manual_seed(0);
  return {torch::randint(0, 256, {60000, 1, 28, 28}).to(torch::kByte), torch::randint(0, 10, {60000}), false};
}

// Decode (uint8 -> float), normalise, random crop (pad 2, crop 28), random horizontal flip: one example,
// torch ops only (LibTorch's C++ transforms stop at Normalize, Stack and Lambda). The random numbers come
// from the generator of the thread that loads the batch: a worker's own, seeded per batch.
struct AugmentImage : public torch::data::transforms::TensorTransform<> {
  torch::Tensor operator()(torch::Tensor pixels) override {
    torch::Tensor x = pixels.to(torch::kFloat).div_(255);                 // decode
    x.sub_(kFashionMean).div_(kFashionStd);                                // normalise
    x = torch::constant_pad_nd(x, {2, 2, 2, 2});                          // [1, 32, 32]
    const torch::Tensor offsets = torch::randint(0, 5, {2});
    const int64_t* offset = offsets.data_ptr<int64_t>();
    x = x.narrow(1, offset[0], 28).narrow(2, offset[1], 28);              // the crop: a view
    return torch::randint(0, 2, {1}).item<int64_t>() == 1 ? x.flip({2}) : x.contiguous();
  }
};

// Example i is row i of the images and of the labels, as views (module 05's TensorDataset, uint8 images).
using AugmentedDataset = torch::data::datasets::MapDataset<
    torch::data::datasets::MapDataset<torch::data::datasets::TensorDataset, AugmentImage>,
    torch::data::transforms::Stack<>>;

AugmentedDataset augmented(const ByteImages& data) {
  return torch::data::datasets::TensorDataset(data.images, data.targets)
      .map(AugmentImage())
      .map(torch::data::transforms::Stack<>());
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

long major_page_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_majflt;
}

// One epoch of a loader without a model: the wall time, the CPU time of the thread that iterates (the
// caller) and of the whole process (caller and workers).
struct EpochTimes {
  double wall_s = 0, caller_cpu_s = 0, process_cpu_s = 0;
  int64_t examples = 0, batches = 0;
};

template <typename Loader>
EpochTimes time_epoch(Loader& loader) {
  EpochTimes t;
  const double caller_start = thread_cpu_seconds(), process_start = process_cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  for (auto& batch : loader) {
    t.examples += batch.data.size(0);
    ++t.batches;
  }
  t.wall_s = seconds_since(start);
  t.caller_cpu_s = thread_cpu_seconds() - caller_start;
  t.process_cpu_s = process_cpu_seconds() - process_start;
  return t;
}

// The fastest of three epochs of the same loader (the later ones also exercise reset()): on a shared
// machine the fastest is the one least disturbed by other programs.
template <typename Loader>
EpochTimes fastest_epoch(Loader& loader) {
  EpochTimes best = time_epoch(loader);
  for (int e = 1; e < 3; ++e) {
    const EpochTimes t = time_epoch(loader);
    if (t.wall_s < best.wall_s) best = t;
  }
  return best;
}

// A model and its optimiser: one training step of SGD on a batch.
struct Trainer {
  torch::nn::Sequential model;
  std::unique_ptr<torch::optim::SGD> sgd;

  explicit Trainer(torch::nn::Sequential net)
      : model(std::move(net)), sgd(std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(0.01))) {}
  void step(const torch::data::Example<>& batch) {
    sgd->zero_grad();
    torch::nn::functional::cross_entropy(model->forward(batch.data), batch.target).backward();
    sgd->step();
  }
};

torch::nn::Sequential make_mlp(int64_t hidden) {
  namespace nn = torch::nn;
  return nn::Sequential(nn::Flatten(), nn::Linear(784, hidden), nn::ReLU(), nn::Linear(hidden, 10));
}

// Milestone 03's LeNet-5 (lesson 14's), on 28 x 28 images.
torch::nn::Sequential make_lenet() {
  namespace nn = torch::nn;
  return nn::Sequential(nn::Conv2d(nn::Conv2dOptions(1, 6, 5).padding(2)), nn::ReLU(), nn::MaxPool2d(2),
                        nn::Conv2d(6, 16, 5), nn::ReLU(), nn::MaxPool2d(2), nn::Flatten(), nn::Linear(16 * 5 * 5, 120),
                        nn::ReLU(), nn::Linear(120, 84), nn::ReLU(), nn::Linear(84, 10));
}

// Milliseconds per step over `steps` batches taken from the loader while training (the loader's time
// that the steps did not hide included); the loader is destroyed after the loop breaks.
// `loop_at_workers_priority`: the workers start on this thread as always (and lower their own
// priority), but the loop runs on a thread whose nice value is raised to theirs: what the loop gets
// when the workers do not yield to it. (Raising a nice value needs no privilege; lowering it does, so
// this thread's own stays as it is.)
double ms_per_step_from_loader(Trainer& trainer, const ByteImages& data, size_t workers, int64_t steps,
                               bool loop_at_workers_priority = false) {
  auto loader = torch::data::make_data_loader(augmented(data), torch::data::DataLoaderOptions(kLoaderBatch).workers(workers));
  auto train = [&] {
    int64_t done = 0;
    auto start = std::chrono::steady_clock::now();
    for (auto& batch : *loader) {
      if (done == 2) start = std::chrono::steady_clock::now();  // the first batches fill the pipeline
      trainer.step(batch);
      if (++done == steps + 2) break;
    }
    return 1e3 * seconds_since(start) / static_cast<double>(steps);
  };
  if (!loop_at_workers_priority) return train();
  double ms = 0;
  std::thread loop([&] {
    const auto self = static_cast<id_t>(gettid());
    setpriority(PRIO_PROCESS, self, getpriority(PRIO_PROCESS, self) + torch::detail::kBackgroundNiceIncrement);
    ms = train();
  });
  loop.join();
  return ms;
}

// The transform of AugmentImage one stage at a time, over `count` examples, then Stack per batch of 64:
// microseconds an example for each stage (steady_clock around each; its own cost is tens of ns).
void print_stage_profile(const ByteImages& data, int64_t count) {
  const char* names[] = {"get: two views (images[i], targets[i])", "decode: to(kFloat), div_(255)",
                         "normalise: sub_, div_", "pad: constant_pad_nd to 32 x 32", "draw: randint x 2, item",
                         "crop, not flipped: contiguous()", "crop, flipped: flip({2})",
                         "Stack: 64 examples into a batch"};
  double seconds[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t flipped = 0;
  torch::data::datasets::TensorDataset dataset(data.images, data.targets);
  std::vector<torch::Tensor> batch;
  auto mark = std::chrono::steady_clock::now();
  const auto lap = [&](int stage) {
    const auto now = std::chrono::steady_clock::now();
    seconds[stage] += std::chrono::duration<double>(now - mark).count();
    mark = now;
  };
  for (int64_t i = 0; i < count; ++i) {
    mark = std::chrono::steady_clock::now();
    const torch::data::Example<> example = dataset.get(static_cast<size_t>(i));
    lap(0);
    torch::Tensor x = example.data.to(torch::kFloat).div_(255);
    lap(1);
    x.sub_(kFashionMean).div_(kFashionStd);
    lap(2);
    x = torch::constant_pad_nd(x, {2, 2, 2, 2});
    lap(3);
    const torch::Tensor offsets = torch::randint(0, 5, {2});
    const int64_t* offset = offsets.data_ptr<int64_t>();
    const bool flip = torch::randint(0, 2, {1}).item<int64_t>() == 1;
    lap(4);
    x = x.narrow(1, offset[0], 28).narrow(2, offset[1], 28);
    batch.push_back(flip ? x.flip({2}) : x.contiguous());
    flipped += flip ? 1 : 0;
    lap(flip ? 6 : 5);
    if (static_cast<int64_t>(batch.size()) == kLoaderBatch) {
      torch::stack(batch);
      batch.clear();
      lap(7);
    }
  }
  double total = 0;
  for (const double s : seconds) total += s;
  // Per example of the epoch (a share of the time), and per example the stage ran on (the crop's two branches).
  const int64_t ran_on[8] = {count, count, count, count, count, count - flipped, flipped, count};
  std::printf("  where an example's time goes (one stage at a time, %lld examples, %lld flipped):\n",
              static_cast<long long>(count), static_cast<long long>(flipped));
  std::printf("    %-42s %14s %8s %22s\n", "stage", "us an example", "share", "us each time it runs");
  for (int stage = 0; stage < 8; ++stage)
    std::printf("    %-42s %14.2f %7.0f%% %22.2f\n", names[stage], 1e6 * seconds[stage] / static_cast<double>(count),
                100 * seconds[stage] / total, 1e6 * seconds[stage] / static_cast<double>(std::max<int64_t>(1, ran_on[stage])));
  std::printf("    %-42s %14.2f\n", "all stages", 1e6 * total / static_cast<double>(count));
}

// How many cores this run really had: the same arithmetic split over 1 and 2 threads. On a quiet
// 2-core machine 2 threads are 2x faster; other programs' threads take turns on the cores and lower it.
double arithmetic_speedup_on_two_threads() {
  const auto spin = [](int64_t steps) {
    volatile double sink = 0;
    double x = 1.0;
    for (int64_t i = 0; i < steps; ++i) x = x * 0.999999 + 1e-9;
    sink = x;
    (void)sink;
  };
  const int64_t steps = 200'000'000;
  const double one = best_ms(2, [&] { spin(steps); });
  const double two = best_ms(2, [&] {
    std::thread other(spin, steps / 2);
    spin(steps / 2);
    other.join();
  });
  return one / two;
}

// The block device's readahead for the file at `path` (sysfs), in KiB; 0 when unknown.
int64_t readahead_kib(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return 0;
  const std::string device = "/sys/dev/block/" + std::to_string(major(status.st_dev)) + ":" +
                             std::to_string(minor(status.st_dev));
  for (const std::string& queue : {device + "/queue/read_ahead_kb", device + "/../queue/read_ahead_kb"}) {
    std::ifstream in(queue);
    int64_t kib = 0;
    if (in >> kib) return kib;
  }
  return 0;
}

// Bytes this process caused to be read from storage (/proc/self/io's read_bytes); -1 when unknown.
int64_t storage_bytes_read() {
  std::ifstream in("/proc/self/io");
  std::string key;
  int64_t value = 0;
  while (in >> key >> value)
    if (key == "read_bytes:") return value;
  return -1;
}

void lesson_21(const std::vector<std::string>& args) {
  ThreadCount one(1);  // the model's ops on one thread: the cores are left to the loader's workers
  const auto started = std::chrono::steady_clock::now();
  const ByteImages data = load_byte_images();
  const int64_t n = data.images.size(0);
  std::printf("== Lesson 21: %s, %lld images of 1 x 28 x 28 uint8 (%.1f MB), batch %lld; model ops on 1 thread ==\n",
              data.real ? "Fashion-MNIST's training images (the real files)" : "random bytes of Fashion-MNIST's shapes "
              "(the files are missing: apt-get install dataset-fashion-mnist)",
              static_cast<long long>(n), static_cast<double>(data.images.nbytes()) / 1e6,
              static_cast<long long>(kLoaderBatch));

  // -- Section 1: the transform's time per batch against one training step --
  torch::manual_seed(21);
  AugmentedDataset dataset = augmented(data);
  std::vector<size_t> indices(kLoaderBatch);
  const int64_t timed_batches = 50;
  const double load_ms = best_ms(5, [&] {
                           for (int64_t b = 0; b < timed_batches; ++b) {
                             for (int64_t i = 0; i < kLoaderBatch; ++i) indices[i] = static_cast<size_t>((b * kLoaderBatch + i) % n);
                             dataset.get_batch(indices);
                           }
                         }) / timed_batches;
  const torch::data::Example<> sample = dataset.get_batch(indices);
  const double batch_bytes = static_cast<double>(sample.data.nbytes() + sample.target.nbytes());
  std::vector<torch::data::Example<>> in_memory;  // transformed once: "data in memory"
  for (int64_t b = 0; b < 100; ++b) {
    for (int64_t i = 0; i < kLoaderBatch; ++i) indices[i] = static_cast<size_t>(b * kLoaderBatch + i);
    in_memory.push_back(dataset.get_batch(indices));
  }
  struct ModelCase {
    const char* name;
    torch::nn::Sequential (*make)();
  };
  // The middle one's step costs about as much as loading its batch: milestone 08's case.
  const ModelCase models[] = {{"MLP 784-128-10", [] { return make_mlp(128); }},
                              {"MLP 784-512-10", [] { return make_mlp(512); }},
                              {"LeNet-5", make_lenet}};
  constexpr int kModels = sizeof(models) / sizeof(models[0]);
  double step_ms[kModels] = {};
  std::printf("\n== Lesson 21, section 1: one batch of %lld, transform against training step (fastest of 5) ==\n",
              static_cast<long long>(kLoaderBatch));
  std::printf("  load a batch (get 64 views, decode, normalise, crop, flip, Stack) %8.3f ms   (%.1f us an example)\n",
              load_ms, 1e3 * load_ms / kLoaderBatch);
  for (int m = 0; m < kModels; ++m) {
    torch::manual_seed(0);
    Trainer trainer(models[m].make());
    for (int w = 0; w < 5; ++w) trainer.step(in_memory[w]);  // warm up the allocator
    step_ms[m] = best_ms(5, [&] {
                   for (const auto& batch : in_memory) trainer.step(batch);
                 }) / static_cast<double>(in_memory.size());
    std::printf("  training step, %-16s (forward, cross-entropy, backward, SGD) %8.3f ms   load / step %.2f\n",
                models[m].name, step_ms[m], load_ms / step_ms[m]);
  }

  // -- Section 2: the transform's roofline --
  std::printf("\n== Lesson 21, section 2: the transform's roofline, per example ==\n");
  // Each op reads its input and writes its output once (the batch's Stack included):
  //   decode: 784 B in, 3,136 out; div_, sub_, div_: 3,136 in and out each; pad: 3,136 in, 4,096 out;
  //   crop + flip (or contiguous): 3,136 in and out; Stack: 3,136 in and out.
  const double float_bytes = 4.0 * kPixels;
  const double bytes_read = kPixels + 6 * float_bytes;
  const double bytes_written = 6 * float_bytes + 4.0 * kPaddedPixels;
  const double bytes_moved = bytes_read + bytes_written;
  const double flops = 3.0 * kPixels;            // div, sub, div per pixel (conversion, pad, crop, flip: none)
  const double fused_bytes = kPixels + float_bytes;  // one pass: read the bytes, write the batch's floats
  const double fused_flops = 2.0 * kPixels;          // x * a + b per pixel
  const int64_t copy_bytes = int64_t{256} << 20;
  std::vector<char> source(static_cast<size_t>(copy_bytes), 1), destination(static_cast<size_t>(copy_bytes), 0);
  const double copy_ms = best_ms(5, [&] { std::memcpy(destination.data(), source.data(), source.size()); });
  const double bandwidth = 2.0 * static_cast<double>(copy_bytes) / (copy_ms * 1e6);  // GB/s: read + write
  const torch::Tensor tiny = torch::ones({1});
  const int op_calls = 20000;
  const double op_us = best_ms(3, [&] {
                         for (int i = 0; i < op_calls; ++i) tiny.add(1);
                       }) * 1e3 / op_calls;
  const int ops_per_example = 9;  // to, div_, sub_, div_, constant_pad_nd, randint, randint, flip/contiguous, Stack's copy
  const double measured_us = 1e3 * load_ms / kLoaderBatch;
  std::printf("  memory bandwidth: copy of %lld MiB (std::memcpy, fastest of 5) %.2f GB/s (read + write)\n",
              static_cast<long long>(copy_bytes >> 20), bandwidth);
  std::printf("  as written: %.0f B read + %.0f B written = %.0f B, %.0f FLOP, %.3f FLOP/B -> %.2f us at %.2f GB/s\n",
              bytes_read, bytes_written, bytes_moved, flops, flops / bytes_moved, bytes_moved / bandwidth / 1e3,
              bandwidth);
  std::printf("  fused, one pass: %.0f B, %.0f FLOP, %.2f FLOP/B -> %.2f us\n", fused_bytes, fused_flops,
              fused_flops / fused_bytes, fused_bytes / bandwidth / 1e3);
  std::printf("  one op on a 1-element tensor (tiny.add(1), fastest of 3): %.2f us; %d ops an example -> %.1f us of "
              "fixed cost\n", op_us, ops_per_example, ops_per_example * op_us);
  std::printf("  measured: %.1f us an example = %.0fx the bytes' time; predicted ops x op cost + bytes / bandwidth "
              "= %.1f us\n", measured_us, measured_us / (bytes_moved / bandwidth / 1e3),
              ops_per_example * op_us + bytes_moved / bandwidth / 1e3);
  torch::manual_seed(21);
  print_stage_profile(data, 100 * kLoaderBatch);

  // -- Section 3: loader throughput against the worker count, and Amdahl --
  std::printf("\n== Lesson 21, section 3: one epoch of %lld examples, no model (the fastest of 3 epochs) ==\n",
              static_cast<long long>(n));
  std::printf("  %7s %12s %10s %14s %15s %14s\n", "workers", "examples/s", "s/epoch", "caller CPU s", "process CPU s",
              "caller share");
  EpochTimes by_workers[5];
  for (const size_t workers : {0, 1, 2, 4}) {
    torch::manual_seed(21);
    auto loader = torch::data::make_data_loader(augmented(data), torch::data::DataLoaderOptions(kLoaderBatch).workers(workers));
    const EpochTimes t = fastest_epoch(*loader);
    by_workers[workers] = t;
    std::printf("  %7zu %12.0f %10.2f %14.3f %15.2f %13.1f%%\n", workers, t.examples / t.wall_s, t.wall_s, t.caller_cpu_s,
                t.process_cpu_s, 100 * t.caller_cpu_s / t.process_cpu_s);
  }
  const double cores_had = arithmetic_speedup_on_two_threads();
  std::printf("  the cores this run had: plain arithmetic split over 2 threads ran %.2fx faster than on 1 (2.00 on a "
              "quiet 2-core machine)\n", cores_had);
  const double serial = by_workers[1].caller_cpu_s / by_workers[1].process_cpu_s;
  const double amdahl = 1.0 / (serial + (1 - serial) / 2);
  std::printf("  serial fraction s (the caller's CPU share with 1 worker: sampler, jobs, hand-off; Stack runs in the "
              "worker) = %.4f\n", serial);
  std::printf("  1 -> 2 workers: measured %.2fx, Amdahl 1 / (s + (1 - s) / 2) = %.2fx; 2 -> 4 workers on %d cores: "
              "%.2fx\n", by_workers[1].wall_s / by_workers[2].wall_s, amdahl, all_threads(),
              by_workers[2].wall_s / by_workers[4].wall_s);
  std::printf("  0 -> 1 worker: %.2fx (the loading is the same work, moved to another thread)\n",
              by_workers[0].wall_s / by_workers[1].wall_s);

  // -- Section 8: is the step input-bound? --
  const int64_t steps = 100;
  std::printf("\n== Lesson 21, section 8: ms per training step, %lld steps, the faster of 2 runs (data in memory: "
              "batches transformed beforehand) ==\n", static_cast<long long>(steps));
  std::printf("  %-16s %10s %16s %16s   %s\n", "model", "in memory", "workers(0)", "workers(2)",
              "predicted from section 1 (x the step): workers(0), workers(2)");
  for (int m = 0; m < kModels; ++m) {
    torch::manual_seed(0);
    Trainer trainer(models[m].make());
    for (int w = 0; w < 5; ++w) trainer.step(in_memory[w]);
    const double memory_ms = best_ms(2, [&] {
                               for (const auto& batch : in_memory) trainer.step(batch);
                             }) / static_cast<double>(in_memory.size());
    const double inline_ms = std::min(ms_per_step_from_loader(trainer, data, 0, steps),
                                      ms_per_step_from_loader(trainer, data, 0, steps));
    const double workers_ms = std::min(ms_per_step_from_loader(trainer, data, 2, steps),
                                       ms_per_step_from_loader(trainer, data, 2, steps));
    // On the calling thread the two add up; with 2 workers the step waits for the slowest of: its own
    // work, a batch from 2 workers, and the cores shared by everything (load + step of CPU time a batch).
    const double cores = std::min(2.0, static_cast<double>(all_threads()));
    const double predicted_inline = load_ms + step_ms[m];
    const double predicted_workers = std::max({step_ms[m], load_ms / 2, (load_ms + step_ms[m]) / cores});
    std::printf("  %-16s %7.3f ms %8.3f ms %5.2fx %8.3f ms %5.2fx   %.3f ms %.2fx, %.3f ms %.2fx\n", models[m].name,
                memory_ms, inline_ms, inline_ms / memory_ms, workers_ms, workers_ms / memory_ms, predicted_inline,
                predicted_inline / step_ms[m], predicted_workers, predicted_workers / step_ms[m]);
  }
  std::printf("  (the ratios are against the step with data in memory; predicted: load + step on one thread, and\n"
              "   max(step, load / 2, (load + step) / cores) with 2 workers on %d cores)\n", all_threads());
  {
    // Milestone 08's case again, with and without the workers yielding to the loop, side by side.
    const int m = 1;
    torch::manual_seed(0);
    Trainer trainer(models[m].make());
    for (int w = 0; w < 5; ++w) trainer.step(in_memory[w]);
    // The fastest and the slowest of 5 runs each: the priority shows in how far a run can fall behind.
    std::vector<double> yielding, equal;
    for (int run = 0; run < 5; ++run) {
      yielding.push_back(ms_per_step_from_loader(trainer, data, 2, steps));
      equal.push_back(ms_per_step_from_loader(trainer, data, 2, steps, true));
    }
    std::sort(yielding.begin(), yielding.end());
    std::sort(equal.begin(), equal.end());
    std::printf("  %s, workers(2), 5 runs each, fastest-slowest (x section 1's step):\n"
                "    workers below the loop's priority (nice +%d)  %.3f-%.3f ms (%.2fx-%.2fx)\n"
                "    workers at the loop's priority               %.3f-%.3f ms (%.2fx-%.2fx)\n",
                models[m].name, torch::detail::kBackgroundNiceIncrement, yielding.front(), yielding.back(),
                yielding.front() / step_ms[m], yielding.back() / step_ms[m], equal.front(), equal.back(),
                equal.front() / step_ms[m], equal.back() / step_ms[m]);
  }

  // -- Section 4 (memory) and 6: the queue's bytes and pin_memory's reuse --
  std::printf("\n== Lesson 21, sections 4 and 6: bytes in flight and pin_memory, workers(2) ==\n");
  {
    // With and without pin_memory side by side, the fastest of 3 epochs each, so that both see the same load.
    torch::manual_seed(21);
    auto plain = torch::data::make_data_loader(augmented(data), torch::data::DataLoaderOptions(kLoaderBatch).workers(2));
    auto loader = torch::data::make_data_loader(augmented(data),
                                                torch::data::DataLoaderOptions(kLoaderBatch).workers(2).pin_memory(true));
    double without_s = time_epoch(*plain).wall_s;
    const EpochTimes t = time_epoch(*loader);
    const auto stats = loader->pinned_memory().stats();  // after exactly one epoch
    double with_s = t.wall_s;
    for (int e = 1; e < 3; ++e) {
      without_s = std::min(without_s, time_epoch(*plain).wall_s);
      with_s = std::min(with_s, time_epoch(*loader).wall_s);
    }
    const size_t max_jobs = loader->pipeline()->max_jobs();
    std::printf("  a batch: %.0f B (data %lld x 1 x 28 x 28 float32 + %lld int64 targets); max_jobs %zu (2 x workers): "
                "%.0f B in flight at most, peak jobs in flight %zu\n", batch_bytes, static_cast<long long>(kLoaderBatch),
                static_cast<long long>(kLoaderBatch), max_jobs, static_cast<double>(max_jobs) * batch_bytes,
                loader->pipeline()->peak_jobs_in_flight());
    std::printf("  pin_memory(true), one epoch: %lld batches, %lld tensors copied; blocks allocated %zu, reused %zu, "
                "%zu B reserved\n", static_cast<long long>(t.batches), static_cast<long long>(2 * t.batches),
                stats.blocks_allocated, stats.blocks_reused, stats.bytes_reserved);
    std::printf("  s/epoch with pin_memory %.2f, without %.2f (side by side, the fastest of 3 epochs each)\n", with_s,
                without_s);
  }
  const double batch_copy_ms = best_ms(20, [&] { sample.data.clone(); });
  std::printf("  section 3: one more copy of a batch's data, cache-hot (what a process-based loader adds at least once): %.3f ms, %.1f%% "
              "of loading it\n", batch_copy_ms, 100 * batch_copy_ms / load_ms);

  // -- Section 7: a memory-mapped dataset, cold and warm --
  if (!args.empty()) {
    const std::string path = args.front() + "/lesson21-fashion-images.u8";
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out.write(static_cast<const char*>(data.images.data_ptr()), static_cast<std::streamsize>(data.images.nbytes()));
      if (!out) throw std::runtime_error("cannot write " + path);
    }
    // Written pages are dirty: write them back, then ask the kernel to drop them from the page cache,
    // so that the first epoch finds the file on disk only.
    const int fd = ::open(path.c_str(), O_RDONLY);
    const bool evicted = fd >= 0 && ::fsync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
    if (fd >= 0) ::close(fd);
    namespace datasets = torch::data::datasets;
    auto mapped = datasets::MemoryMappedDataset(datasets::RecordFileOptions(path, {1, 28, 28}).dtype(torch::kByte))
                      .map(AugmentImage())
                      .map(torch::data::transforms::Stack<>());  // no targets file: the batches have none
    torch::manual_seed(21);
    auto loader = torch::data::make_data_loader(std::move(mapped), torch::data::DataLoaderOptions(kLoaderBatch));
    std::printf("\n== Lesson 21, section 7: the same images memory-mapped from a file (%s), workers(0), shuffled ==\n",
                path.c_str());
    for (const char* epoch : {"first epoch (cold: page cache emptied)", "second epoch (warm)"}) {
      const long faults = major_page_faults();
      const int64_t read_before = storage_bytes_read();
      const EpochTimes t = time_epoch(*loader);
      const int64_t read_after = storage_bytes_read();
      std::printf("  %-40s %6.2f s, %5ld major page faults, %6.1f MB read from the disk\n", epoch, t.wall_s,
                  major_page_faults() - faults,
                  read_before < 0 ? -1.0 : static_cast<double>(read_after - read_before) / 1e6);
    }
    std::printf("  the disk's readahead: %lld KiB a fault at most (read_ahead_kb in sysfs)\n",
                static_cast<long long>(readahead_kib(path)));
    if (!evicted) std::printf("  (the page cache could not be emptied: the first epoch was warm too)\n");
    {
      torch::manual_seed(21);
      auto in_memory_loader = torch::data::make_data_loader(augmented(data), torch::data::DataLoaderOptions(kLoaderBatch));
      std::printf("  %-40s %6.2f s (the same epoch from the tensor in memory, right after)\n", "in memory",
                  time_epoch(*in_memory_loader).wall_s);
    }
    std::remove(path.c_str());
  }
  std::printf("\n  (lesson 21's figures took %.0f s)\n", seconds_since(started));
}

// ---- Lesson 22: GPU kernels on OpenCL ----
// Every time is host wall time around the call and torch::opencl::synchronize() (so it includes what a
// launch costs the framework), the fastest of several runs unless a row says "median". Run on whatever
// OpenCL device is first (TINYTORCH_OPENCL_DEVICE=P:D picks another): on a machine without a GPU that is
// pocl's CPU device, the same cores that run module 17's CPU kernels.

// The fastest of `repeats` runs of `body` followed by a synchronize, in milliseconds.
double device_best_ms(int repeats, const std::function<void()>& body) {
  torch::opencl::synchronize();
  return best_ms(repeats, [&] {
    body();
    torch::opencl::synchronize();
  });
}

// The median of `repeats` runs of `body`, in microseconds (latencies: the median is the typical call).
double median_us(int repeats, const std::function<void()>& body) {
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    body();
    times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

torch::Tensor device_copy_of(const torch::Tensor& host) {
  torch::Tensor device = tinytorch::opencl::empty_on_device(host.sizes(), host.scalar_type(), torch::Device("opencl"));
  tinytorch::opencl::native::copy_host_to_device(host.contiguous(), device, false);
  return device;
}

double gb_per_s(double bytes, double ms) { return bytes / (ms * 1e-3) / 1e9; }

void lesson_22_device(const tinytorch::opencl::DeviceInfo& info) {
  std::printf("== Lesson 22, the device: %s ==\n", info.name.c_str());
  std::printf("  platform %s, driver %s; %s\n", info.platform.c_str(), info.driver_version.c_str(),
              info.is_cpu ? "a CPU device (the host's own cores)" : "not a CPU device");
  std::printf("  compute units %lld, max work-group %lld work-items (per dim %lld x %lld x %lld), preferred multiple %lld\n",
              static_cast<long long>(info.compute_units), static_cast<long long>(info.max_work_group_size),
              static_cast<long long>(info.max_work_item_sizes.size() > 0 ? info.max_work_item_sizes[0] : 0),
              static_cast<long long>(info.max_work_item_sizes.size() > 1 ? info.max_work_item_sizes[1] : 0),
              static_cast<long long>(info.max_work_item_sizes.size() > 2 ? info.max_work_item_sizes[2] : 0),
              static_cast<long long>(info.preferred_work_group_multiple));
  std::printf("  local memory %lld KiB a work-group, global memory %.1f GiB, largest buffer %.1f GiB\n",
              static_cast<long long>(info.local_memory_bytes / 1024), static_cast<double>(info.global_memory_bytes) / (1 << 30),
              static_cast<double>(info.max_allocation_bytes) / (1 << 30));
}

// Section 10: a launch's fixed cost, a round trip, and what compiling a kernel costs once.
void lesson_22_latencies() {
  namespace dn = tinytorch::opencl::native;
  std::printf("\n== Lesson 22, section 10: fixed costs (median of many calls) ==\n");
  const torch::Tensor one = device_copy_of(torch::ones({1}));
  torch::Tensor out = tinytorch::opencl::empty_on_device({1}, torch::kFloat, torch::Device("opencl"));
  dn::launch_elementwise("a + alpha * b", one, one, out);  // compiled once here
  torch::opencl::synchronize();
  const double launch = median_us(500, [&] {
    dn::launch_elementwise("a + alpha * b", one, one, out);
    torch::opencl::synchronize();
  });
  std::printf("  %-62s %9.1f us\n", "launch a 1-element kernel and wait for it", launch);
  const int queued = 1000;
  const double enqueue = best_ms(3, [&] {
    for (int i = 0; i < queued; ++i) dn::launch_elementwise("a + alpha * b", one, one, out);
    torch::opencl::synchronize();
  }) * 1e3 / queued;
  std::printf("  %-62s %9.1f us\n", "the same, 1000 queued back to back, one wait at the end: a launch", enqueue);
  const double op = median_us(500, [&] {
    (void)(one + one);  // the op: dispatch, an output from the caching allocator, the launch
    torch::opencl::synchronize();
  });
  std::printf("  %-62s %9.1f us\n", "torch::add of two 1-element device tensors, and wait", op);
  const torch::Tensor host = torch::ones({1});
  torch::Tensor back = torch::empty({1});
  const double round_trip = median_us(500, [&] {
    dn::copy_host_to_device(host, out, false);
    dn::copy_device_to_host(out, back);
  });
  std::printf("  %-62s %9.1f us\n", "round trip: 4 bytes to the device and back (two blocking copies)", round_trip);
  const double item = median_us(500, [&] { (void)(one + one).item<float>(); });
  std::printf("  %-62s %9.1f us\n", "(one + one).item<float>(): an op and its value back on the host", item);
  const double cpu_op = median_us(500, [&] { (void)(host + host); });
  std::printf("  %-62s %9.1f us\n", "for comparison, torch::add of two 1-element CPU tensors", cpu_op);
  // A kernel never compiled before: the driver's compile, once per (source, options) and device.
  const int64_t programs = tinytorch::opencl::programs_compiled();
  const auto start = std::chrono::steady_clock::now();
  dn::launch_elementwise("a * alpha - b * 0.25f", one, one, out, 3.0f);
  torch::opencl::synchronize();
  const double first = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const double again = median_us(50, [&] {
    dn::launch_elementwise("a * alpha - b * 0.25f", one, one, out, 3.0f);
    torch::opencl::synchronize();
  });
  std::printf("  %-62s %9.1f ms (%lld program compiled; the next call %.1f us)\n",
              "first launch of a new element-wise expression", first,
              static_cast<long long>(tinytorch::opencl::programs_compiled() - programs), again);
}

// Section 4: bandwidth of the element-wise kernel against the driver's own copy, 64 MiB a tensor.
void lesson_22_bandwidth() {
  namespace dn = tinytorch::opencl::native;
  const int64_t n = int64_t{16} << 20;  // 16 Mi floats: 64 MiB
  const double mib64 = static_cast<double>(n) * 4;
  std::printf("\n== Lesson 22, section 4: element-wise add against a device copy, 64 MiB a tensor (fastest of 5) ==\n");
  const torch::Tensor host_a = torch::rand({n}), host_b = torch::rand({n});
  const torch::Tensor a = device_copy_of(host_a), b = device_copy_of(host_b);
  torch::Tensor out = tinytorch::opencl::empty_on_device({n}, torch::kFloat, torch::Device("opencl"));
  dn::launch_elementwise("a + alpha * b", a, b, out);
  const double add = device_best_ms(5, [&] { dn::launch_elementwise("a + alpha * b", a, b, out); });
  std::printf("  %-58s %8.2f ms %7.1f GB/s (reads 2 x 64 MiB, writes 64 MiB)\n", "launch_elementwise(\"a + alpha * b\")", add,
              gb_per_s(3 * mib64, add));
  const torch::Tensor row = device_copy_of(torch::rand({4096}));
  const torch::Tensor matrix = a.view({4096, 4096});
  torch::Tensor out_matrix = out.view({4096, 4096});
  dn::launch_elementwise("a + alpha * b", matrix, row, out_matrix);
  const double broadcast = device_best_ms(5, [&] { dn::launch_elementwise("a + alpha * b", matrix, row, out_matrix); });
  std::printf("  %-58s %8.2f ms %7.1f GB/s (reads 64 MiB + a row, writes 64 MiB)\n",
              "the same with b a broadcast row (4096 x 4096 + 4096)", broadcast, gb_per_s(2 * mib64, broadcast));
  const torch::Tensor transposed = a.view({4096, 4096}).t();
  dn::launch_elementwise("a + alpha * b", transposed, matrix, out_matrix);
  const double strided = device_best_ms(5, [&] { dn::launch_elementwise("a + alpha * b", transposed, matrix, out_matrix); });
  std::printf("  %-58s %8.2f ms %7.1f GB/s (a read through strides (1, 4096))\n", "the same with a transposed a", strided,
              gb_per_s(3 * mib64, strided));
  tinytorch::opencl::DeviceBlock& from = tinytorch::opencl::block_of(a);
  tinytorch::opencl::DeviceBlock& to = tinytorch::opencl::block_of(out);
  const double copy = device_best_ms(5, [&] {
    tinytorch::opencl::check(clEnqueueCopyBuffer(tinytorch::opencl::queue(), from.buffer, to.buffer, from.offset, to.offset,
                                                 static_cast<size_t>(mib64), 0, nullptr, nullptr),
                             "clEnqueueCopyBuffer");
  });
  std::printf("  %-58s %8.2f ms %7.1f GB/s (reads 64 MiB, writes 64 MiB)\n", "clEnqueueCopyBuffer, the driver's copy", copy,
              gb_per_s(2 * mib64, copy));
  const double cpu_add = best_ms(5, [&] { (void)torch::add(host_a, host_b); });
  std::printf("  %-58s %8.2f ms %7.1f GB/s (module 17's loop, %d threads)\n", "for comparison, torch::add on the CPU", cpu_add,
              gb_per_s(3 * mib64, cpu_add), torch::get_num_threads());
}

// Section 3: 64 MiB between host and device, from pageable memory and from module 21's pinned batch buffers.
void lesson_22_transfers() {
  namespace dn = tinytorch::opencl::native;
  const int64_t n = int64_t{16} << 20;
  const double bytes = static_cast<double>(n) * 4;
  std::printf("\n== Lesson 22, section 3: copying 64 MiB between host and device (fastest of 5) ==\n");
  const torch::Tensor pageable = torch::rand({n});
  // The device is set up first, so that module 21's pool pins its blocks (as a training loop moves its model first).
  torch::Tensor device = tinytorch::opencl::empty_on_device({n}, torch::kFloat, torch::Device("opencl"));
  torch::data::PinnedMemoryPool pool;
  torch::Tensor pinned = pool.empty({n}, torch::kFloat);
  TT_CHECK(tinytorch::opencl::is_pinned_host_memory(pinned.data_ptr()), "module 21's pool did not pin its block");
  std::memcpy(pinned.data_ptr<float>(), pageable.data_ptr<float>(), static_cast<size_t>(bytes));
  torch::Tensor pageable_back = torch::empty({n});
  torch::Tensor pinned_back = pool.empty({n}, torch::kFloat);
  const double h2d_pageable = device_best_ms(5, [&] { dn::copy_host_to_device(pageable, device, false); });
  const double d2h_pageable = device_best_ms(5, [&] { dn::copy_device_to_host(device, pageable_back); });
  const double h2d_pinned = device_best_ms(5, [&] { dn::copy_host_to_device(pinned, device, false); });
  const double d2h_pinned = device_best_ms(5, [&] { dn::copy_device_to_host(device, pinned_back); });
  std::printf("  %-44s %8.2f ms %7.1f GB/s\n", "host to device, pageable", h2d_pageable, gb_per_s(bytes, h2d_pageable));
  std::printf("  %-44s %8.2f ms %7.1f GB/s\n", "host to device, pinned (module 21's pool)", h2d_pinned,
              gb_per_s(bytes, h2d_pinned));
  std::printf("  %-44s %8.2f ms %7.1f GB/s\n", "device to host, pageable", d2h_pageable, gb_per_s(bytes, d2h_pageable));
  std::printf("  %-44s %8.2f ms %7.1f GB/s\n", "device to host, pinned (module 21's pool)", d2h_pinned,
              gb_per_s(bytes, d2h_pinned));
  // non_blocking: from pinned memory the call only queues the copy; from pageable memory it waits anyway.
  double returned_ms = 1e300, done_ms = 1e300;
  for (int r = 0; r < 5; ++r) {
    torch::opencl::synchronize();
    const auto start = std::chrono::steady_clock::now();
    dn::copy_host_to_device(pinned, device, /*non_blocking=*/true);
    const double returned = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    torch::opencl::synchronize();
    const double done = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    returned_ms = std::min(returned_ms, returned);
    done_ms = std::min(done_ms, done);
  }
  const double pageable_non_blocking = device_best_ms(5, [&] { dn::copy_host_to_device(pageable, device, true); });
  std::printf("  %-44s %8.3f ms to return, %.2f ms until the bytes are there (fastest of 5 each)\n",
              "host to device, pinned, non_blocking",
              returned_ms, done_ms);
  std::printf("  %-44s %8.2f ms to return (it waits: pageable memory)\n", "host to device, pageable, non_blocking",
              pageable_non_blocking);
  // A new block each time (what the pool saves every batch after the first): the driver's allocation and mapping.
  const double pin_cost = best_ms(3, [&] {
    tinytorch::opencl::free_pinned(tinytorch::opencl::allocate_pinned(static_cast<size_t>(bytes)));
  });
  const double plain_cost = best_ms(3, [&] { torch::Tensor t = torch::empty({n}); });
  std::printf("  %-44s %8.2f ms (torch::empty of the same: %.3f ms)\n", "allocating 64 MiB of pinned memory", pin_cost,
              plain_cost);
}

// Sections 7 and 8: the three GEMM kernels, n x n x n, against module 17's CPU GEMM.
void lesson_22_gemm(const tinytorch::opencl::DeviceInfo& info) {
  namespace dn = tinytorch::opencl::native;
  std::printf("\n== Lesson 22, sections 7 and 8: the GEMM kernels, n x n times n x n (fastest of 3; naive at 1024: of 2) ==\n");
  int64_t tile = 16;
  while (tile > 1 && (tile * tile > info.max_work_group_size ||
                      (!info.max_work_item_sizes.empty() && tile > info.max_work_item_sizes[0])))
    tile /= 2;
  // The register tile as section 8's rule picks it: WPTM 8 rows by VW columns, VW from the device's
  // preferred vector width (at least 4), a 4 x 4 group on a CPU device and 16 x 8 on a GPU.
  int64_t vector_width = 16;
  while (vector_width > 4 && vector_width > info.preferred_vector_width) vector_width /= 2;
  std::printf("  tile %lld x %lld; register tile 8 x %lld outputs a work-item (preferred vector width %lld), "
              "work-groups of %s\n",
              static_cast<long long>(tile), static_cast<long long>(tile), static_cast<long long>(vector_width),
              static_cast<long long>(info.preferred_vector_width), info.is_cpu ? "4 x 4 (a CPU device)" : "16 x 8");
  std::printf("  %6s %16s %16s %16s %22s\n", "n", "naive", "tiled", "register-tiled", "CPU (module 17 mm)");
  const std::pair<const char*, dn::GemmKernel> kernels[] = {
      {"naive", dn::GemmKernel::Naive}, {"tiled", dn::GemmKernel::Tiled}, {"register-tiled", dn::GemmKernel::RegisterTiled}};
  for (const int64_t n : {256, 512, 1024}) {
    const torch::Tensor a = torch::rand({n, n}) - 0.5, b = torch::rand({n, n}) - 0.5;
    const torch::Tensor da = device_copy_of(a), db = device_copy_of(b);
    torch::Tensor dc = tinytorch::opencl::empty_on_device({n, n}, torch::kFloat, torch::Device("opencl"));
    const double flop = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
    const torch::Tensor expected = torch::mm(a, b);
    std::printf("  %6lld", static_cast<long long>(n));
    double worst_error = 0;
    for (const auto& kernel : kernels) {
      dn::gemm(da, db, dc, kernel.second);  // compiles once, warms up
      torch::opencl::synchronize();
      const int repeats = (n == 1024 && kernel.second == dn::GemmKernel::Naive) ? 2 : 3;
      const double ms = device_best_ms(repeats, [&] { dn::gemm(da, db, dc, kernel.second); });
      torch::Tensor c = torch::empty({n, n});
      dn::copy_device_to_host(dc, c);
      worst_error = std::max(worst_error, (c - expected).abs().max().item<double>());
      std::printf(" %9.1f GFLOP/s", flop / (ms * 1e-3) / 1e9);
    }
    const double cpu = best_ms(3, [&] { (void)torch::mm(a, b); });
    std::printf(" %15.1f GFLOP/s   (largest error against the CPU %.1e)\n", flop / (cpu * 1e-3) / 1e9, worst_error);
  }
}

// Section 2: the caching allocator over LeNet-5 training steps on the device, batch 64.
void lesson_22_allocator() {
  std::printf("\n== Lesson 22, section 2: the caching allocator over LeNet-5 training steps on the device, batch 64 ==\n");
  torch::manual_seed(22);
  const torch::Device device("opencl");
  torch::nn::Sequential model = make_lenet();
  model->to(device);
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.01));
  const torch::Tensor images = torch::randn({kLoaderBatch, 1, 28, 28}).to(device);
  const torch::Tensor labels = torch::randint(0, 10, {kLoaderBatch}).to(device);
  // SGD's update p -= lr * grad, written out with lr as a device tensor, for where torch::optim::SGD's
  // scalar arithmetic does not run on the device.
  const torch::Tensor lr = torch::full({1}, 0.01f).to(device);
  bool sgd_runs = true;
  const auto step = [&] {
    sgd.zero_grad();
    torch::nn::functional::cross_entropy(model->forward(images), labels).backward();
    if (sgd_runs) {
      sgd.step();
      return;
    }
    torch::NoGradGuard no_grad;
    for (auto& p : model->parameters()) p.sub_(p.grad() * lr);
  };
  {
    // Whether torch::optim::SGD runs on the device, tried on a copy of the model so that the first
    // measured step below starts from the same state either way.
    torch::nn::Sequential probe = make_lenet();
    probe->to(device);
    torch::optim::SGD probe_sgd(probe->parameters(), torch::optim::SGDOptions(0.01));
    try {
      torch::nn::functional::cross_entropy(probe->forward(images), labels).backward();
      probe_sgd.step();
    } catch (const std::exception& error) {
      sgd_runs = false;
      std::printf("  (torch::optim::SGD failed on the device: \"%.80s...\"; its update is written out instead)\n",
                  error.what());
    }
  }
  torch::opencl::synchronize();
  int64_t parameter_bytes = 0;
  for (const auto& p : model->parameters()) parameter_bytes += p.numel() * 4;
  torch::opencl::empty_cache();  // the first step starts from an empty cache: only the model and batch are held
  const auto before = torch::opencl::memory_stats();
  std::printf("  before the first step: allocated %.2f MiB (the model and the batch), reserved %.2f MiB in %lld segments\n",
              static_cast<double>(before.allocated_bytes) / (1 << 20), static_cast<double>(before.reserved_bytes) / (1 << 20),
              static_cast<long long>(before.segments));
  const auto report = [](const char* what, const torch::opencl::DeviceMemoryStats& from,
                         const torch::opencl::DeviceMemoryStats& to) {
    const int64_t allocations = to.allocations - from.allocations, hits = to.cache_hits - from.cache_hits;
    std::printf("  %-26s %5lld allocations, %5lld from the cache (%5.1f%%), %lld new segments (clCreateBuffer)\n", what,
                static_cast<long long>(allocations), static_cast<long long>(hits),
                allocations > 0 ? 100.0 * static_cast<double>(hits) / static_cast<double>(allocations) : 0.0,
                static_cast<long long>(to.segments - from.segments));
  };
  step();
  torch::opencl::synchronize();
  const auto first = torch::opencl::memory_stats();
  report("first step", before, first);
  torch::opencl::reset_peak_memory_stats();
  const auto second_start = torch::opencl::memory_stats();
  step();
  torch::opencl::synchronize();
  const auto second = torch::opencl::memory_stats();
  report("second step", second_start, second);
  for (int i = 0; i < 8; ++i) step();
  torch::opencl::synchronize();
  const auto tenth = torch::opencl::memory_stats();
  report("steps 3 to 10", second, tenth);
  std::printf("  parameters %.1f KiB (and as much again in gradients); during a step: peak allocated %.2f MiB, "
              "reserved %.2f MiB in %lld segments\n",
              static_cast<double>(parameter_bytes) / 1024, static_cast<double>(second.peak_allocated_bytes) / (1 << 20),
              static_cast<double>(second.reserved_bytes) / (1 << 20), static_cast<long long>(second.segments));
  std::printf("  between steps: allocated %.2f MiB; waiting blocks %lld\n",
              static_cast<double>(tenth.allocated_bytes) / (1 << 20), static_cast<long long>(tenth.waiting_blocks));
  const double device_ms = device_best_ms(5, step);
  // The same step on the CPU (module 17's kernels, every thread), same model and batch.
  torch::manual_seed(22);
  torch::nn::Sequential cpu_model = make_lenet();
  torch::optim::SGD cpu_sgd(cpu_model->parameters(), torch::optim::SGDOptions(0.01));
  const torch::Tensor cpu_images = images.cpu(), cpu_labels = labels.cpu();
  const double cpu_ms = best_ms(5, [&] {
    cpu_sgd.zero_grad();
    torch::nn::functional::cross_entropy(cpu_model->forward(cpu_images), cpu_labels).backward();
    cpu_sgd.step();
  });
  std::printf("  one step: %.2f ms on the device, %.2f ms on the CPU (module 17, %d threads)\n", device_ms, cpu_ms,
              torch::get_num_threads());
  torch::opencl::empty_cache();
  const auto emptied = torch::opencl::memory_stats();
  std::printf("  after empty_cache(): reserved %.2f MiB in %lld segments (the model's tensors stay)\n",
              static_cast<double>(emptied.reserved_bytes) / (1 << 20), static_cast<long long>(emptied.segments));
}

// Section 10, "Parity with the CPU": every op with a device kernel, forward and backward, against the CPU on
// the same seeded inputs (bench/device_parity.h has the cases and where each tolerance comes from). Printed
// as the Markdown table the lesson quotes; false when a row is out of tolerance or an op has no row.
bool lesson_22_parity() {
  std::printf("\n== Lesson 22, section 10: parity with the CPU, every op with a device kernel (seed %llu; "
              "eps = 2^-23) ==\n",
              static_cast<unsigned long long>(device_parity::kSeed));
  const device_parity::Report report = device_parity::measure(torch::Device("opencl"));
  const auto number = [](double x) {
    char text[32];
    if (x == 0) return std::string("0");
    std::snprintf(text, sizeof text, "%.1e", x);
    return std::string(text);
  };
  std::printf("  | op | pass | inputs | max abs error | max rel error | relative to | tolerance | from | result |\n");
  std::printf("  |---|---|---|---|---|---|---|---|---|\n");
  int failed = 0;
  for (const device_parity::Row& row : report.rows) {
    std::string ops;
    for (size_t start = 0; start < row.op.size();) {  // each op name in backticks
      const size_t end = std::min(row.op.find(' ', start), row.op.size());
      ops += (ops.empty() ? "`" : " `") + row.op.substr(start, end - start) + "`";
      start = end + 1;
    }
    char tolerance[64];
    if (row.tolerance == 0) {
      std::snprintf(tolerance, sizeof tolerance, "0");
    } else {
      std::snprintf(tolerance, sizeof tolerance, "%.3g eps = %.1e", row.tolerance / device_parity::kEps,
                    row.tolerance);
    }
    failed += row.passed() ? 0 : 1;
    std::printf("  | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", ops.c_str(), row.pass.c_str(), row.inputs.c_str(),
                number(row.max_abs_error).c_str(), number(row.max_rel_error).c_str(), row.relative_to.c_str(),
                tolerance, row.reason.c_str(), row.passed() ? "ok" : "**FAILS**");
  }
  const auto ops = tinytorch::ops_with_device_kernels(tinytorch::DeviceType::OPENCL);
  std::printf("\n  %zu rows, %d out of tolerance; %zu ops with an OpenCL kernel, %zu of them without a row%s%s\n",
              report.rows.size(), failed, ops.size(), report.ops_without_case.size(),
              report.ops_without_case.empty() ? "" : ": ", device_parity::joined(report.ops_without_case).c_str());
  return report.passed();
}

void lesson_22() {
  const auto started = std::chrono::steady_clock::now();
  if (!torch::opencl::is_available()) {
    std::printf("lesson 22: not measured: no OpenCL device (install one: Debian's pocl-opencl-icd runs OpenCL on the CPU; "
                "check with `clinfo -l`)\n");
    return;
  }
  const tinytorch::opencl::DeviceInfo& info = tinytorch::opencl::device_info();
  lesson_22_device(info);
  lesson_22_latencies();
  lesson_22_allocator();
  lesson_22_transfers();
  lesson_22_bandwidth();
  lesson_22_gemm(info);
  const bool parity = lesson_22_parity();  // last: its allocations and compiles move no figure above
  std::printf("\n  (lesson 22's figures took %.0f s)\n", seconds_since(started));
  if (!parity) {
    std::fflush(stdout);  // the table before the error, also when both go to one file
    throw std::runtime_error("a device result is out of its tolerance against the CPU, or an op with a device kernel "
                             "has no parity case (the table above; the cases are in bench/device_parity.h)");
  }
}

// Lesson 08's figure: the lesson's own example (a 64-32-10 MLP, SGD with momentum 0.9, cosine annealing over
// 20 epochs, gradients clipped to norm 1) trained with the Trainer on TinyDigits, batches of 32, early stopping
// after 3 epochs without a better validation loss; its History drawn as the SVG the lesson shows.
void lesson_08(const std::vector<std::string>& files) {
  namespace datasets = torch::data::datasets;
  if (files.size() != 1) throw std::runtime_error("lesson 08 writes one figure: give the SVG file's path");
  torch::manual_seed(8);
  const std::string root = datasets::default_root();
  auto train_loader = torch::data::make_data_loader(
      datasets::TinyDigits(root, datasets::TinyDigits::Mode::kTrain).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions(32));
  auto test_loader = torch::data::make_data_loader(
      datasets::TinyDigits(root, datasets::TinyDigits::Mode::kTest).map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions(32));
  auto model = torch::nn::Sequential(torch::nn::Linear(64, 32), torch::nn::ReLU(), torch::nn::Linear(32, 10));
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));
  torch::optim::CosineAnnealingLR scheduler(optimizer, /*T_max=*/20);
  torch::training::Trainer trainer(model, optimizer, torch::nn::CrossEntropyLoss(),
                                   torch::training::TrainerOptions().scheduler(&scheduler).clip_grad_norm(1.0).progress(false));
  const auto& history = trainer.fit(*train_loader, *test_loader, /*epochs=*/20, /*patience=*/3);
  history.write_svg(files[0], "Lesson 08: a 64-32-10 MLP on TinyDigits (seed 8)");
  const auto& last = history.epochs.back();
  std::printf("lesson 08: %zu epochs; the last: train loss %.4f, validation loss %.4f, validation accuracy %.1f%%\n",
              history.epochs.size(), last.train_loss, last.val_loss, 100 * last.val_accuracy);
  std::printf("  the figure: %s\n", files[0].c_str());
}

int run_lesson(const std::string& lesson, const std::vector<std::string>& files, const std::string& usage) {
  if (lesson == "08") {
    lesson_08(files);
  } else if (lesson == "10") {
    lesson_10(files);
  } else if (lesson == "11") {
    lesson_11();
  } else if (lesson == "12") {
    lesson_12();
  } else if (lesson == "14") {
    lesson_14();
  } else if (lesson == "17") {
    lesson_17();
  } else if (lesson == "18") {
    lesson_18();
  } else if (lesson == "21") {
    lesson_21(files);
  } else if (lesson == "22") {
    lesson_22();
  } else {
    std::fprintf(stderr, "error: no figures for lesson '%s'\n%s\n", lesson.c_str(), usage.c_str());
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string usage = "usage: lesson_figures NN [files...] (NN: 08, 10, 11, 12, 14, 17, 18, 21 or 22)";
  if (argc < 2) {
    std::fprintf(stderr, "%s\n", usage.c_str());
    return 2;
  }
  const std::string lesson = argv[1];
  const std::vector<std::string> files(argv + 2, argv + argc);
  try {
    return run_lesson(lesson, files, usage);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: lesson %s's figures failed: %s\n", lesson.c_str(), error.what());
    return 1;
  }
}
