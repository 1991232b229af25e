// Milestone 05 (2017), part 3 (optional): TinyGPT reads the course's own C++, on YOUR modules: YOUR
// CharTokenizer (module 10) and YOUR models::GPT (module 13), trained with your cross-entropy,
// autograd and AdamW, on the framework's sources (framework/src and framework/include as the course
// ships them, without indentation: in a learner's copy, the files you write are their starters). A
// fixed tenth of the files is held out; from them, function headers such as
//
//     Tensor softmax(const Tensor& input, int64_t dim) {
//
// are given to the model (with the text above them) and it writes the body greedily, one character at
// a time, until the braces close. Each completion becomes a translation unit (the real file up to the
// header, the header, the completion) and the compiler judges it: `g++ -std=c++17 -fsyntax-only
// -Werror=return-type` (so that an empty body of a function that returns a value does not pass).
//
// tito judges measured facts only (milestone.json):
//   heldout_margin     the counted bigram's loss minus the model's, on the held-out files (> 0: the
//                      model uses more than the last character)
//   compiler_verdicts  the share of completions the compiler gave a verdict on (== 1: every one was
//                      compiled, accepted or not)
// How many completions the compiler accepts is reported, with no threshold: a two-minute model on
// one megabyte of code mostly writes indentation (greedy decoding keeps to the likeliest character).
//
// Options (`tito milestone run 05 --part 3 -- --steps 3000 --minutes 10`):
//   --steps N        train at most N steps (default 1200)
//   --minutes M      train at most M minutes (default 2); training stops at whichever comes first
//   --completions N  function headers to complete (default 10)
//   --source-dir D   the repository (default: $TITO_SOURCE_DIR, which tito sets, or found from here)
#include <tinytorch/torch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../common/milestone_support.h"
#include "source_corpus.h"
#include "transformer_blocks.h"

namespace {

constexpr int kPart = 3;
constexpr int64_t kContext = 128;  // characters the model sees: a comment and a header fit
// d = 32 rather than part 2's 64: in two minutes the narrower model reads more characters and, measured
// on a busy 2-core machine, falls below the bigram in about 400 steps (lr 1e-2) where d = 64 needed
// about 900 (lr 4e-3; at lr 1e-2 it was still 0.3 nats above the bigram after 300 steps).
constexpr int64_t kEmbed = 32, kHeads = 4, kMlpRatio = 4, kBlocks = 2;
constexpr int64_t kBatch = 8;  // small batches, many steps: what a two-minute budget learns most from
constexpr double kLearningRate = 1e-2;
constexpr int64_t kEvalWindows = 48;    // held-out windows of kContext + 1 characters, evenly spaced
constexpr int64_t kShortBody = 240;     // the headers tried are those of functions this short or shorter
constexpr int64_t kMaxBody = 300;       // characters generated at most per completion
constexpr int kCompilerJobs = 2;

namespace code = milestone::code;
namespace fs = std::filesystem;

struct Options {
  int64_t steps = 1200;
  double minutes = 2;
  int completions = 10;
  std::string source_dir;
};

void print_usage() {
  std::printf("usage: source_code_gpt [--steps N] [--minutes M] [--completions N] [--source-dir DIR]\n"
              "  (through tito: tito milestone run 05 --part 3 -- --steps 3000 --minutes 10)\n");
}

// Returns false (after saying why) on an unknown option or a bad number.
bool parse_options(int argc, char** argv, Options& options) {
  for (int i = 1; i < argc; ++i) {
    const std::string name = argv[i];
    if (name == "--help" || name == "-h") return false;
    if (i + 1 >= argc) {
      std::printf("%s needs a value\n", name.c_str());
      return false;
    }
    const std::string value = argv[++i];
    char* end = nullptr;
    if (name == "--source-dir") {
      options.source_dir = value;
      continue;
    }
    const double number = std::strtod(value.c_str(), &end);
    if (end == value.c_str() || *end != '\0' || !(number > 0)) {
      std::printf("%s %s: give a positive number\n", name.c_str(), value.c_str());
      return false;
    }
    if (name == "--steps") options.steps = static_cast<int64_t>(number);
    else if (name == "--minutes") options.minutes = number;
    else if (name == "--completions") options.completions = static_cast<int>(number);
    else {
      std::printf("unknown option %s\n", name.c_str());
      return false;
    }
  }
  return true;
}

torch::Tensor tensor_of(std::vector<int64_t> values) {
  return torch::from_blob(values.data(), {static_cast<int64_t>(values.size())}, torch::kLong).clone();
}

// The held-out text's windows of kContext + 1 characters, evenly spaced: the model reads the first
// kContext and is scored on the next character at every position.
std::vector<std::vector<int64_t>> evaluation_windows(const std::vector<int64_t>& ids) {
  std::vector<std::vector<int64_t>> windows;
  const int64_t span = static_cast<int64_t>(ids.size()) - kContext - 1;
  for (int64_t w = 0; w < kEvalWindows && span > 0; ++w) {
    const int64_t start = span * w / kEvalWindows;
    windows.emplace_back(ids.begin() + start, ids.begin() + start + kContext + 1);
  }
  return windows;
}

double windows_loss(torch::models::GPT& model, const std::vector<std::vector<int64_t>>& windows) {
  torch::NoGradGuard no_grad;
  std::vector<int64_t> flat;
  for (const auto& window : windows) flat.insert(flat.end(), window.begin(), window.end());
  const int64_t n = static_cast<int64_t>(windows.size());
  const torch::Tensor all = tensor_of(flat).reshape({n, kContext + 1});
  const torch::Tensor logits = model->forward(all.narrow(1, 0, kContext));
  return torch::nn::functional::cross_entropy(logits.reshape({n * kContext, -1}),
                                              all.narrow(1, 1, kContext).reshape({-1}))
      .item<double>();
}

// Greedy decoding with the model's own generate loop (temperature 0), one character per call, after
// `prompt` (which ends with the header and the body's first indentation), until the brace the header
// opened is closed or kMaxBody characters are written.
struct Completion {
  std::string text;
  bool closed = false;
  int64_t characters = 0;
};

Completion complete_body(torch::models::GPT& model, const torch::text::CharTokenizer& tokenizer,
                         const std::string& prompt) {
  std::vector<int64_t> prompt_ids = tokenizer.encode(prompt);
  if (static_cast<int64_t>(prompt_ids.size()) > kContext)
    prompt_ids.erase(prompt_ids.begin(), prompt_ids.end() - kContext);
  torch::Tensor ids = tensor_of(prompt_ids).unsqueeze(0);
  code::BraceScanner braces;
  braces.feed('{');  // the header's
  Completion completion;
  for (int64_t i = 0; i < kMaxBody && !completion.closed; ++i) {
    ids = model->generate(ids, /*max_new_tokens=*/1, /*temperature=*/0.0);
    if (ids.size(1) > kContext) ids = ids.narrow(1, ids.size(1) - kContext, kContext);
    const std::string piece = tokenizer.decode({ids[0][ids.size(1) - 1].item<int64_t>()});
    completion.text += piece;
    ++completion.characters;
    braces.feed(piece);
    completion.closed = braces.depth() == 0;
  }
  return completion;
}

// The real file up to the header, the header and `body`, then the namespaces it was in closed.
std::string translation_unit(const code::FunctionHeader& header, const std::string& body) {
  std::string text = header.prefix + header.header + body + "\n";
  for (int i = 0; i < header.open_namespaces; ++i) text += "}\n";
  return text;
}

// A line chart of the training loss (mean of each 25 steps), the held-out loss and the bigram line.
std::string loss_svg(const std::vector<double>& train_loss, const std::vector<std::pair<int64_t, double>>& heldout,
                     double bigram) {
  namespace svg = tinytorch::svg;
  const double width = 640, height = 360, pad = 50;
  const double steps = static_cast<double>(std::max<size_t>(train_loss.size(), 1));
  double top = bigram;
  for (const double v : train_loss) top = std::max(top, v);
  const svg::Scale x{0, steps, pad, width - pad};
  const svg::Scale y{0, top, height - pad, pad};
  svg::Document doc(width, height);
  doc.text(pad, 28, "Milestone 05 part 3: TinyGPT on the framework's C++, loss (nats per character)", 16);
  doc.rect(pad, pad, width - 2 * pad, height - 2 * pad, "#888");
  std::vector<std::pair<double, double>> train_points, heldout_points;
  const size_t every = 25;
  for (size_t start = 0; start < train_loss.size(); start += every) {
    double sum = 0;
    size_t n = 0;
    for (size_t i = start; i < std::min(train_loss.size(), start + every); ++i, ++n) sum += train_loss[i];
    train_points.push_back({x(static_cast<double>(start + n)), y(sum / static_cast<double>(n))});
  }
  for (const auto& point : heldout) heldout_points.push_back({x(static_cast<double>(point.first)), y(point.second)});
  doc.polyline(train_points, "#1f77b4");
  doc.polyline(heldout_points, "#d62728");
  doc.polyline({{x(0), y(bigram)}, {x(steps), y(bigram)}}, "#888");
  char label[200];
  std::snprintf(label, sizeof label, "blue: training loss; red: held-out files; grey: counted bigram (%.3f); %zu steps",
                bigram, train_loss.size());
  doc.text(pad, height - 16, label, 12);
  return doc.str();
}

// The first `lines` lines of a text, each indented and cut at 110 characters.
std::string first_lines(const std::string& text, int lines, const std::string& indent) {
  std::string out;
  size_t start = 0;
  for (int line = 0; line < lines && start <= text.size(); ++line) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string row = text.substr(start, end - start);
    out += indent + (row.size() > 110 ? row.substr(0, 107) + "..." : row) + "\n";
    start = end + 1;
  }
  if (start < text.size()) out += indent + "...\n";
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, options)) {
    print_usage();
    return 2;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each line shows as it is printed, also through tito's file
  std::cout << "Milestone 05, part 3 - TinyGPT reads the course's own C++ (Vaswani et al., 2017; Radford et al., "
               "2018)\n\n";
  const auto started = std::chrono::steady_clock::now();
  torch::manual_seed(2017);
  std::mt19937 rng(2017);

  // Where the sources are: --source-dir, tito's $TITO_SOURCE_DIR, two folders above the milestone's, or
  // the folders around the one it runs in.
  const char* from_tito = std::getenv("TITO_SOURCE_DIR");
  const char* milestone_dir = std::getenv("TITO_MILESTONE_DIR");
  const std::string root = code::find_source_root(
      {options.source_dir, from_tito ? from_tito : "",
       milestone_dir ? (fs::path(milestone_dir) / "../..").string() : "", ".", "..", "../.."});
  if (root.empty()) {
    milestone::report_skipped(kPart, "the framework's sources (framework/include/tinytorch/torch.h) are not here: "
                                     "run it through tito, or give --source-dir with the repository's folder");
    return 0;
  }
  const std::string cxx = code::find_compiler();
  if (cxx.empty()) {
    milestone::report_skipped(kPart, "no C++ compiler to judge the completions (tito sets $TITO_CXX; else $CXX, g++, "
                                     "c++ or clang++ on the PATH): sudo apt-get install g++");
    return 0;
  }

  // The corpus: training files and held-out files, each file's text after a line naming it.
  const std::vector<code::SourceFile> files = code::read_corpus(root);
  std::string train_text, heldout_text;
  std::vector<code::FunctionHeader> headers;
  int64_t train_files = 0, heldout_files = 0;
  for (const auto& file : files) {
    std::string& text = file.held_out ? heldout_text : train_text;
    text += "// file: " + file.path + "\n" + file.text + "\n";
    (file.held_out ? heldout_files : train_files) += 1;
    if (!file.held_out) continue;
    for (auto& header : code::function_headers(file))
      if (static_cast<int64_t>(header.body.size()) <= kShortBody) headers.push_back(std::move(header));
  }
  torch::text::CharTokenizer tokenizer;
  tokenizer.build_vocab({train_text});  // the held-out files' new characters read as <UNK>
  const std::vector<int64_t> train_ids = tokenizer.encode(train_text);
  const std::vector<std::vector<int64_t>> heldout_windows = evaluation_windows(tokenizer.encode(heldout_text));
  std::printf("Sources: %s\n", root.c_str());
  std::printf("Corpus: %lld training files (%s characters), %lld held-out files (%s characters: the paths whose "
              "hash ends in 0, about a tenth)\n",
              static_cast<long long>(train_files), milestone::with_commas(static_cast<int64_t>(train_text.size())).c_str(),
              static_cast<long long>(heldout_files), milestone::with_commas(static_cast<int64_t>(heldout_text.size())).c_str());
  std::printf("Vocabulary: %lld tokens (your CharTokenizer: <UNK> and the training files' characters)\n",
              static_cast<long long>(tokenizer.vocab_size()));

  torch::models::GPT model(torch::models::GPTOptions(tokenizer.vocab_size(), kContext)
                               .embed_dim(kEmbed)
                               .num_layers(kBlocks)
                               .num_heads(kHeads)
                               .mlp_ratio(kMlpRatio)
                               .dropout(0.0));
  std::printf("Model: your models::GPT, %lld blocks, d = %lld, %lld heads, context %lld: %s parameters\n",
              static_cast<long long>(kBlocks), static_cast<long long>(kEmbed), static_cast<long long>(kHeads),
              static_cast<long long>(kContext), milestone::with_commas(model->parameter_count()).c_str());
  const double bigram = milestone::bigram_loss(train_ids, heldout_windows, tokenizer.vocab_size());
  std::printf("Counted bigram baseline on the held-out files: %.4f nats per character\n", bigram);
  std::printf("Training: AdamW lr %.0e (cosine decay to 5%%), batch %lld windows of %lld characters, until %lld steps "
              "or %.0f s\n",
              kLearningRate, static_cast<long long>(kBatch), static_cast<long long>(kContext),
              static_cast<long long>(options.steps), options.minutes * 60);

  torch::optim::AdamW optimizer(model->parameters(), torch::optim::AdamWOptions(kLearningRate).weight_decay(0.01));
  std::uniform_int_distribution<int64_t> any_start(0, static_cast<int64_t>(train_ids.size()) - kContext - 2);
  std::vector<double> train_loss;
  std::vector<std::pair<int64_t, double>> heldout_curve;
  const double budget_s = options.minutes * 60;
  const auto training_started = std::chrono::steady_clock::now();
  const std::clock_t training_cpu_started = std::clock();  // CPU time of every thread of this program
  int64_t step = 0;
  for (bool done = false; !done;) {
    ++step;
    // How far along: by steps or by time, whichever is further. The learning rate follows it down.
    const double progress = std::max(static_cast<double>(step - 1) / static_cast<double>(options.steps),
                                     milestone::seconds_since(training_started) / budget_s);
    for (auto& group : optimizer.param_groups())
      group.options().set_lr(kLearningRate * (0.05 + 0.95 * 0.5 * (1 + std::cos(M_PI * std::min(progress, 1.0)))));
    std::vector<int64_t> batch;
    for (int64_t b = 0; b < kBatch; ++b) {
      const int64_t start = any_start(rng);
      batch.insert(batch.end(), train_ids.begin() + start, train_ids.begin() + start + kContext + 1);
    }
    const torch::Tensor windows = tensor_of(batch).reshape({kBatch, kContext + 1});
    const torch::Tensor logits = model->forward(windows.narrow(1, 0, kContext));
    torch::Tensor loss = torch::nn::functional::cross_entropy(logits.reshape({kBatch * kContext, -1}),
                                                              windows.narrow(1, 1, kContext).reshape({-1}));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    train_loss.push_back(loss.item<double>());
    done = step >= options.steps || milestone::seconds_since(training_started) >= budget_s;
    if (step % 100 == 0 || done) {
      model->eval();
      heldout_curve.push_back({step, windows_loss(model, heldout_windows)});
      model->train();
      std::printf("  step %5lld  training loss %.4f  held-out loss %.4f  (%.1f s)\n", static_cast<long long>(step),
                  train_loss.back(), heldout_curve.back().second, milestone::seconds_since(training_started));
    }
  }
  const double training_seconds = milestone::seconds_since(training_started);
  const double training_cpu_seconds = static_cast<double>(std::clock() - training_cpu_started) / CLOCKS_PER_SEC;
  const double training_tokens_per_second = static_cast<double>(step * kBatch * kContext) / training_seconds;
  model->eval();
  const double heldout = heldout_curve.back().second;
  // CPU seconds per wall second: about 1 for a single-threaded program on an idle machine, less when
  // other programs share the cores.
  std::printf("Training used %.1f CPU seconds in %.1f s (%.2f cores busy on it; %.0f steps per CPU second)\n",
              training_cpu_seconds, training_seconds, training_cpu_seconds / training_seconds,
              static_cast<double>(step) / training_cpu_seconds);
  if (step < options.steps)
    std::printf("\nTraining stopped at the time budget, after %lld of %lld steps: a busy or slow machine. For the "
                "whole run: tito milestone run 05 --part 3 -- --minutes %.0f\n",
                static_cast<long long>(step), static_cast<long long>(options.steps),
                std::ceil(options.minutes * static_cast<double>(options.steps) / static_cast<double>(step)));
  std::printf("\nHeld-out loss %.4f vs the counted bigram's %.4f: %.3f nats per character better (%lld steps, %.1f s "
              "of training, %s training tokens/s)\n",
              heldout, bigram, bigram - heldout, static_cast<long long>(step), training_seconds,
              milestone::with_commas(std::llround(training_tokens_per_second)).c_str());

  // Completions: headers spread evenly over the held-out files' functions of at most kShortBody characters.
  std::vector<const code::FunctionHeader*> chosen;
  const size_t wanted = std::min(headers.size(), static_cast<size_t>(options.completions));
  for (size_t i = 0; i < wanted; ++i) chosen.push_back(&headers[i * headers.size() / wanted]);
  std::printf("\nCompleting %zu of the held-out files' %zu function headers whose bodies have at most %lld characters "
              "(greedy, until the braces close or %lld characters):\n",
              chosen.size(), headers.size(), static_cast<long long>(kShortBody), static_cast<long long>(kMaxBody));
  std::vector<Completion> completions;
  int64_t generated = 0;
  const auto generating_started = std::chrono::steady_clock::now();
  for (const auto* header : chosen) {
    // The whitespace before the body's first character (a newline: the corpus has no indentation) is
    // given with the header: layout, not content.
    const std::string& body = header->body;
    const std::string indentation = body.substr(0, body.find_first_not_of(" \t\n"));
    Completion completion = complete_body(model, tokenizer, header->prefix + header->header + indentation);
    completion.text = indentation + completion.text;
    completions.push_back(completion);
    generated += completions.back().characters;
  }
  const double generating_seconds = milestone::seconds_since(generating_started);
  const double tokens_per_second = static_cast<double>(generated) / generating_seconds;
  std::printf("  %s characters in %.1f s: %.0f tokens/s\n", milestone::with_commas(generated).c_str(),
              generating_seconds, tokens_per_second);

  // The compiler on each completion and, to show what the harness accepts, on each real body.
  const fs::path units = fs::path(milestone::output_dir()) / "source_completions";
  std::error_code error;
  fs::remove_all(units, error);
  fs::create_directories(units, error);
  struct Job {
    fs::path unit;
    std::string file;
    code::SyntaxCheck result;
  };
  std::vector<Job> jobs;
  for (size_t i = 0; i < chosen.size(); ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "%02zu", i + 1);
    for (const bool real : {false, true}) {
      const fs::path unit = units / (std::string(name) + (real ? "_real.cpp" : "_completion.cpp"));
      std::ofstream(unit) << translation_unit(*chosen[i], real ? chosen[i]->body : completions[i].text);
      jobs.push_back({unit, chosen[i]->file, {}});
    }
  }
  const auto compiling_started = std::chrono::steady_clock::now();
  std::atomic<size_t> next_job{0};
  std::vector<std::thread> workers;
  for (int w = 0; w < kCompilerJobs; ++w)
    workers.emplace_back([&] {
      for (size_t j = next_job++; j < jobs.size(); j = next_job++)
        jobs[j].result = code::check_syntax(cxx, root, jobs[j].unit, jobs[j].file);
    });
  for (auto& worker : workers) worker.join();
  int64_t verdicts = 0, accepted = 0, closed = 0, real_accepted = 0;
  for (size_t i = 0; i < chosen.size(); ++i) {
    verdicts += jobs[2 * i].result.ran;
    accepted += jobs[2 * i].result.accepted;
    real_accepted += jobs[2 * i + 1].result.accepted;
    closed += completions[i].closed;
  }
  const int64_t tried = static_cast<int64_t>(chosen.size());
  std::printf("Compiler: %s -std=c++17 -fsyntax-only -Werror=return-type, %lld translation units in %.1f s (units and logs in %s)\n",
              cxx.c_str(), static_cast<long long>(jobs.size()), milestone::seconds_since(compiling_started),
              units.string().c_str());
  std::printf("  completions: %lld tried, %lld closed their braces, the compiler judged %lld and accepted %lld\n",
              static_cast<long long>(tried), static_cast<long long>(closed), static_cast<long long>(verdicts),
              static_cast<long long>(accepted));
  std::printf("  the real bodies of the same headers, through the same harness: %lld of %lld accepted\n",
              static_cast<long long>(real_accepted), static_cast<long long>(tried));

  // A few examples: accepted ones first, then the others in order.
  std::vector<size_t> order;
  for (size_t i = 0; i < chosen.size(); ++i)
    if (jobs[2 * i].result.accepted) order.push_back(i);
  for (size_t i = 0; i < chosen.size(); ++i)
    if (!jobs[2 * i].result.accepted) order.push_back(i);
  std::printf("\nExamples (the header, then what TinyGPT wrote):\n");
  for (size_t k = 0; k < std::min<size_t>(order.size(), 3); ++k) {
    const size_t i = order[k];
    const auto& result = jobs[2 * i].result;
    std::printf("  %s:%d  [%s]\n", chosen[i]->file.c_str(), chosen[i]->line,
                result.accepted ? "accepted" : result.ran ? "rejected" : "not compiled");
    const std::string& body = completions[i].text;
    if (body.find_first_not_of(" \t\n") == std::string::npos) {  // an undertrained model's favourite
      std::cout << "    " << chosen[i]->header << "\n    (then only whitespace: "
                << std::count(body.begin(), body.end(), ' ') << " spaces, " << std::count(body.begin(), body.end(), '\n')
                << " newlines)\n";
    } else {
      std::cout << first_lines(chosen[i]->header + body, 12, "    ");
    }
    if (!result.accepted && !result.first_error.empty()) std::cout << "    compiler: " << result.first_error << "\n";
  }

  milestone::write_output_file("source_gpt_loss.svg", loss_svg(train_loss, heldout_curve, bigram));
  std::printf("Wall time: %.2f s\n", milestone::seconds_since(started));

  milestone::report_result(kPart, "training_seconds", training_seconds);
  milestone::report_result(kPart, "training_steps", static_cast<double>(step));
  milestone::report_result(kPart, "training_cpu_seconds", training_cpu_seconds);
  milestone::report_result(kPart, "training_tokens_per_second", training_tokens_per_second);
  milestone::report_result(kPart, "tokens_per_second", tokens_per_second);
  milestone::report_result(kPart, "heldout_loss", heldout);
  milestone::report_result(kPart, "bigram_loss", bigram);
  milestone::report_result(kPart, "heldout_margin", bigram - heldout);
  milestone::report_result(kPart, "completions_tried", static_cast<double>(tried));
  milestone::report_result(kPart, "completions_closed", static_cast<double>(closed));
  milestone::report_result(kPart, "completions_accepted", static_cast<double>(accepted));
  milestone::report_result(kPart, "real_bodies_accepted", static_cast<double>(real_accepted));
  milestone::report_result(kPart, "compiler_verdicts",
                           tried > 0 ? static_cast<double>(verdicts) / static_cast<double>(tried) : 0.0);
  return 0;
}
