// Milestone 05 (2017), part 2: TinyGPT learns to talk on TinyTalks, on YOUR modules: a character
// vocabulary, nn::Embedding (tokens and positions), causal nn::MultiheadAttention, nn::LayerNorm,
// GELU, nn::Linear, cross-entropy, autograd and Adam.
//
//     "Q: What color is the sky?\nA:" -> TinyGPT, one character at a time -> " The sky is blue.\n"
//
// tito judges measured values only (milestone.json):
//   heldout_margin        the counted bigram's loss minus the model's best, both on the validation
//                         pairs the model never reads (>= 0.35 nats: the model uses more than the last character)
//   causality_max_change  how far the logits at positions <= k move when the tokens after k change
//                         (<= 1e-4: a model that peeks at the future fails, however low its loss)
//   attention_entropy     mean attention entropy over log(positions visible): 1.0 for uniform attention
//                         (<= 0.9: the attention chooses what to read)
//   greedy_exact_match    the share of level-1 and level-2 training questions whose greedy answer is
//                         exactly the dataset's answer (>= 0.8)
#include <tinytorch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../common/milestone_support.h"
#include "transformer_blocks.h"

namespace {

constexpr int kPart = 2;
constexpr int64_t kContext = 64;  // characters the model sees
constexpr int64_t kEmbed = 64, kHeads = 4, kHidden = 256, kBlocks = 2;
constexpr int64_t kBatch = 16;
constexpr int64_t kSteps = 1600;
constexpr double kLearningRate = 5e-3;
constexpr int64_t kAlignedOfFour = 3;  // windows of each four that start at a pair, as a conversation does
constexpr int64_t kMaxAnswer = 60;  // characters generated at most per answer

namespace datasets = torch::data::datasets;

// Characters <-> ids: every character of the three splits, sorted (the alphabet is the dataset's,
// so a validation character is never unknown; no validation text is read for anything else).
struct CharVocabulary {
  std::vector<char> characters;
  std::map<char, int64_t> ids;

  explicit CharVocabulary(const std::string& text) {
    for (const char c : text)
      if (!ids.count(c)) ids[c] = 0;
    for (auto& [c, id] : ids) {
      id = static_cast<int64_t>(characters.size());
      characters.push_back(c);
    }
  }
  int64_t size() const { return static_cast<int64_t>(characters.size()); }
  std::vector<int64_t> encode(const std::string& text) const {
    std::vector<int64_t> out;
    for (const char c : text) out.push_back(ids.at(c));
    return out;
  }
};

torch::Tensor tensor_of(std::vector<int64_t> values) {
  return torch::from_blob(values.data(), {static_cast<int64_t>(values.size())}, torch::kLong).clone();
}

struct TinyGPTImpl : torch::nn::Module {
  TinyGPTImpl(int64_t vocabulary, bool causal)
      : tokens(register_module("tokens", torch::nn::Embedding(vocabulary, kEmbed))),
        positions(register_module("positions", torch::nn::Embedding(kContext, kEmbed))),
        ln_final(register_module("ln_final", torch::nn::LayerNorm(torch::nn::LayerNormOptions({kEmbed})))),
        head(register_module("head", torch::nn::Linear(kEmbed, vocabulary))),
        mask(causal ? milestone::causal_mask(kContext) : torch::Tensor()) {
    for (int64_t b = 0; b < kBlocks; ++b)
      blocks.push_back(register_module("block" + std::to_string(b), milestone::Block(kEmbed, kHeads, kHidden)));
  }

  // (N, L) ids, L <= kContext -> (N, L, vocabulary) logits; `weights` receives each block's weights.
  torch::Tensor forward(const torch::Tensor& x, std::vector<torch::Tensor>* weights = nullptr) {
    const int64_t length = x.size(1);
    const torch::Tensor step_mask = mask.defined() ? mask.narrow(0, 0, length).narrow(1, 0, length) : torch::Tensor();
    torch::Tensor h = tokens(x) + positions(torch::arange(length, torch::kLong));
    for (auto& block : blocks) {
      torch::Tensor w;
      h = block->forward(h, step_mask, weights ? &w : nullptr);
      if (weights) weights->push_back(w);
    }
    return head(ln_final(h));
  }

  torch::nn::Embedding tokens, positions;
  std::vector<milestone::Block> blocks;
  torch::nn::LayerNorm ln_final;
  torch::nn::Linear head;
  torch::Tensor mask;
};
TORCH_MODULE(TinyGPT);

// The mean cross-entropy over every character of every pair but its first, each pair read from its
// own start, as a conversation starts (in windows of kContext + 1 when it is longer).
double pairs_loss(TinyGPT& model, const std::vector<std::vector<int64_t>>& pairs) {
  torch::NoGradGuard no_grad;
  double total = 0;
  int64_t counted = 0;
  for (const auto& ids : pairs) {
    for (size_t start = 0; start + 1 < ids.size(); start += kContext) {
      const size_t end = std::min(ids.size(), start + kContext + 1);
      const std::vector<int64_t> window(ids.begin() + static_cast<std::ptrdiff_t>(start),
                                        ids.begin() + static_cast<std::ptrdiff_t>(end));
      const torch::Tensor all = tensor_of(window).unsqueeze(0);
      const int64_t n = all.size(1) - 1;
      const torch::Tensor logits = model->forward(all.narrow(1, 0, n));
      total += torch::nn::functional::cross_entropy(logits.reshape({n, -1}), all.narrow(1, 1, n).reshape({n}))
                   .item<double>() * static_cast<double>(n);
      counted += n;
    }
  }
  return total / static_cast<double>(counted);
}

// The counted bigram model: P(b | a) = (count(a, b) + k) / (count(a) + k V) from the training text,
// its loss on the held-out pairs' characters (each but the first of its pair: those the model is
// scored on); the best of a few smoothing constants k, so the baseline is a strong one.
double bigram_loss(const std::vector<int64_t>& train, const std::vector<std::vector<int64_t>>& heldout,
                   int64_t vocabulary) {
  std::vector<double> pair_counts(static_cast<size_t>(vocabulary * vocabulary), 0.0), counts(vocabulary, 0.0);
  for (size_t i = 0; i + 1 < train.size(); ++i) {
    pair_counts[static_cast<size_t>(train[i] * vocabulary + train[i + 1])] += 1;
    counts[static_cast<size_t>(train[i])] += 1;
  }
  double best = INFINITY;
  for (const double k : {1.0, 0.3, 0.1, 0.03, 0.01}) {
    double total = 0;
    int64_t counted = 0;
    for (const auto& ids : heldout) {
      for (size_t i = 0; i + 1 < ids.size(); ++i, ++counted) {
        const double p = (pair_counts[static_cast<size_t>(ids[i] * vocabulary + ids[i + 1])] + k) /
                         (counts[static_cast<size_t>(ids[i])] + k * static_cast<double>(vocabulary));
        total -= std::log(p);
      }
    }
    best = std::min(best, total / static_cast<double>(counted));
  }
  return best;
}

// Greedy decoding: the most likely next character, until a newline or `limit` characters. When
// `stream` is set, each character is printed as it comes.
std::string greedy_answer(TinyGPT& model, const CharVocabulary& vocabulary, const std::string& prompt, int64_t limit,
                          bool stream = false) {
  torch::NoGradGuard no_grad;
  std::vector<int64_t> ids = vocabulary.encode(prompt);
  std::string answer;
  for (int64_t i = 0; i < limit; ++i) {
    const size_t keep = std::min(ids.size(), static_cast<size_t>(kContext));
    const std::vector<int64_t> window(ids.end() - static_cast<std::ptrdiff_t>(keep), ids.end());
    const torch::Tensor logits = model->forward(tensor_of(window).unsqueeze(0));
    const int64_t next = logits[0][static_cast<int64_t>(keep) - 1].argmax().item<int64_t>();
    const char c = vocabulary.characters[static_cast<size_t>(next)];
    if (c == '\n') break;
    answer += c;
    ids.push_back(next);
    if (stream) std::cout << c << std::flush;
  }
  return answer;
}

std::string strip_leading_space(const std::string& text) {
  return (!text.empty() && text[0] == ' ') ? text.substr(1) : text;
}

// A line chart of the training loss (mean of each 50 steps), the validation loss and the bigram line.
std::string loss_svg(const std::vector<double>& train_loss, const std::vector<std::pair<int64_t, double>>& heldout,
                     double bigram) {
  namespace svg = tinytorch::svg;
  const double width = 640, height = 360, pad = 50;
  double top = bigram;
  for (const double v : train_loss) top = std::max(top, v);
  const svg::Scale x{0, static_cast<double>(kSteps), pad, width - pad};
  const svg::Scale y{0, top, height - pad, pad};
  svg::Document doc(width, height);
  doc.text(pad, 28, "Milestone 05: TinyGPT on TinyTalks, loss (nats per character)", 16);
  doc.rect(pad, pad, width - 2 * pad, height - 2 * pad, "#888");
  std::vector<std::pair<double, double>> train_points, heldout_points;
  const int64_t every = 50;
  for (size_t start = 0; start < train_loss.size(); start += every) {
    double sum = 0;
    size_t n = 0;
    for (size_t i = start; i < std::min(train_loss.size(), start + every); ++i, ++n) sum += train_loss[i];
    train_points.push_back({x(static_cast<double>(start + n)), y(sum / static_cast<double>(n))});
  }
  for (const auto& [step, loss] : heldout) heldout_points.push_back({x(static_cast<double>(step)), y(loss)});
  doc.polyline(train_points, "#1f77b4");
  doc.polyline(heldout_points, "#d62728");
  doc.polyline({{x(0), y(bigram)}, {x(static_cast<double>(kSteps)), y(bigram)}}, "#888");
  char label[160];
  std::snprintf(label, sizeof label, "blue: training loss; red: validation loss; grey: counted bigram (%.3f); %lld steps",
                bigram, static_cast<long long>(kSteps));
  doc.text(pad, height - 16, label, 12);
  return doc.str();
}

}  // namespace

int main() {
  std::cout << "Milestone 05, part 2 - TinyGPT learns to talk (Vaswani et al., 2017; Radford et al., 2018)\n\n";
  const auto started = std::chrono::steady_clock::now();
  torch::manual_seed(2017);
  std::mt19937 rng(2017);

  const std::string root = datasets::default_root();
  datasets::TinyTalks train(root, datasets::TinyTalks::Mode::kTrain);
  datasets::TinyTalks validation(root, datasets::TinyTalks::Mode::kValidation);
  datasets::TinyTalks test(root, datasets::TinyTalks::Mode::kTest);
  const std::string train_text = train.text(), validation_text = validation.text();
  const CharVocabulary vocabulary(train_text + validation_text + test.text());
  const std::vector<int64_t> train_ids = vocabulary.encode(train_text);
  const std::vector<int64_t> validation_ids = vocabulary.encode(validation_text);
  std::vector<std::vector<int64_t>> validation_pairs;
  for (size_t i = 0; i < validation.pairs().size(); ++i) validation_pairs.push_back(vocabulary.encode(validation.text(i)));
  std::printf("Data: TinyTalks, %zu training pairs (%zu characters), %zu validation pairs (%zu characters)\n",
              train.pairs().size(), train_text.size(), validation.pairs().size(), validation_text.size());
  std::printf("Vocabulary: %lld characters\n", static_cast<long long>(vocabulary.size()));

  // Where each training pair starts. Three windows in four start there, so that the model learns the
  // answers as they are asked (a question opens the context); the fourth starts anywhere, so that it
  // learns the language rather than the pairs by heart (the held-out margin needs that one).
  std::vector<int64_t> pair_starts{0};
  for (size_t i = 1; i + 1 < train_text.size(); ++i)
    if (train_text[i - 1] == '\n' && train_text[i] == '\n') pair_starts.push_back(static_cast<int64_t>(i + 1));

  TinyGPT model(vocabulary.size(), /*causal=*/true);
  int64_t parameters = 0;
  for (const auto& p : model->parameters()) parameters += p.numel();
  std::printf("Model: TinyGPT, %lld blocks of (LayerNorm, %lld-head causal attention, LayerNorm, MLP %lld-%lld-%lld), "
              "context %lld: %s parameters\n",
              static_cast<long long>(kBlocks), static_cast<long long>(kHeads), static_cast<long long>(kEmbed),
              static_cast<long long>(kHidden), static_cast<long long>(kEmbed), static_cast<long long>(kContext),
              milestone::with_commas(parameters).c_str());

  const double bigram = bigram_loss(train_ids, validation_pairs, vocabulary.size());
  std::printf("Counted bigram baseline on the validation pairs: %.4f nats per character\n", bigram);
  std::printf("Training: Adam lr %.0e (cosine decay to 5%%), batch %lld windows of %lld characters, %lld steps\n",
              kLearningRate, static_cast<long long>(kBatch), static_cast<long long>(kContext), static_cast<long long>(kSteps));

  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(kLearningRate));
  std::uniform_int_distribution<size_t> any_pair(0, pair_starts.size() - 1);
  std::uniform_int_distribution<int64_t> any_start(0, static_cast<int64_t>(train_ids.size()) - kContext - 2);
  std::vector<double> train_loss;
  std::vector<std::pair<int64_t, double>> heldout_curve;
  const auto training_started = std::chrono::steady_clock::now();
  for (int64_t step = 1; step <= kSteps; ++step) {
    // Cosine decay to a twentieth of the rate: large steps to learn, small ones to settle the answers.
    const double progress = static_cast<double>(step - 1) / static_cast<double>(kSteps);
    for (auto& group : optimizer.param_groups())
      group.options().set_lr(kLearningRate * (0.05 + 0.95 * 0.5 * (1 + std::cos(M_PI * progress))));
    std::vector<int64_t> batch;
    for (int64_t b = 0; b < kBatch; ++b) {
      int64_t start = (b % 4 < kAlignedOfFour) ? pair_starts[any_pair(rng)] : any_start(rng);
      start = std::min(start, static_cast<int64_t>(train_ids.size()) - kContext - 1);
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
    if (step % 100 == 0 || step == kSteps) {
      model->eval();
      heldout_curve.push_back({step, pairs_loss(model, validation_pairs)});
      model->train();
      std::printf("  step %4lld/%lld  training loss %.4f  validation loss %.4f  (%.1f s)\n",
                  static_cast<long long>(step), static_cast<long long>(kSteps), train_loss.back(),
                  heldout_curve.back().second, milestone::seconds_since(training_started));
    }
  }
  const double training_seconds = milestone::seconds_since(training_started);
  model->eval();
  // The lowest validation loss of the checkpoints, as the original course measured it: training on
  // until the answers are learned by heart overfits the validation text a little at the end.
  double heldout = heldout_curve.front().second;
  for (const auto& point : heldout_curve) heldout = std::min(heldout, point.second);
  std::printf("\nBest validation loss %.4f (last %.4f) vs the counted bigram's %.4f: %.3f nats per character "
              "better (%.1f s of training)\n", heldout, heldout_curve.back().second, bigram, bigram - heldout,
              training_seconds);

  // Causality: change every token after position k; the logits at 0..k must not move.
  double causality = 0;
  {
    torch::NoGradGuard no_grad;
    const std::vector<int64_t> window(validation_ids.begin(), validation_ids.begin() + kContext);
    const torch::Tensor original = tensor_of(window).unsqueeze(0);
    const torch::Tensor logits = model->forward(original);
    std::uniform_int_distribution<int64_t> any_token(0, vocabulary.size() - 1);
    for (const int64_t k : {int64_t{0}, kContext / 4, kContext / 2, kContext - 2}) {
      std::vector<int64_t> changed = window;
      for (int64_t i = k + 1; i < kContext; ++i)
        changed[static_cast<size_t>(i)] = (changed[static_cast<size_t>(i)] + 1 + any_token(rng) % (vocabulary.size() - 1)) % vocabulary.size();
      const torch::Tensor moved = model->forward(tensor_of(changed).unsqueeze(0));
      const double change = (moved.narrow(1, 0, k + 1) - logits.narrow(1, 0, k + 1)).abs().max().item<double>();
      causality = std::max(causality, change);
    }
  }
  std::printf("Causality probe: changing the tokens after position k moves the logits at positions <= k by at most "
              "%.2e (k = 0, %lld, %lld, %lld)\n",
              causality, static_cast<long long>(kContext / 4), static_cast<long long>(kContext / 2),
              static_cast<long long>(kContext - 2));

  // Attention: how concentrated is it on the validation text?
  double entropy = 1.0;
  std::vector<milestone::ImagePanelRow> picture;
  {
    torch::NoGradGuard no_grad;
    const std::vector<int64_t> window(validation_ids.begin(), validation_ids.begin() + kContext);
    std::vector<torch::Tensor> weights;
    model->forward(tensor_of(window).unsqueeze(0), &weights);
    double sum = 0;
    for (const auto& w : weights) sum += milestone::normalised_attention_entropy(w, /*causal=*/true);
    entropy = sum / static_cast<double>(weights.size());
    for (size_t b = 0; b < weights.size(); ++b) {
      milestone::ImagePanelRow row{"Block " + std::to_string(b + 1) + ": attention of each head on the first " +
                                       std::to_string(kContext) + " validation characters (row: reading position)",
                                   {}, false};
      for (int64_t h = 0; h < kHeads; ++h)
        row.panels.push_back(milestone::attention_panel(weights[b][0][h], "head " + std::to_string(h + 1)));
      picture.push_back(row);
    }
  }
  std::printf("Attention probe: mean normalised attention entropy %.3f (1.0 = uniform attention)\n", entropy);

  // Greedy answers to every level-1 and level-2 training question.
  int64_t asked = 0, exact = 0;
  std::vector<std::string> misses;
  const auto answering_started = std::chrono::steady_clock::now();
  for (const auto& pair : train.pairs()) {
    if (pair.level > 2) continue;
    ++asked;
    const std::string answer = strip_leading_space(greedy_answer(model, vocabulary, pair.prompt, kMaxAnswer));
    if (answer == pair.answer) ++exact;
    else if (misses.size() < 5) misses.push_back(pair.prompt + " " + answer + "   (expected: " + pair.answer + ")");
  }
  const double exact_share = static_cast<double>(exact) / static_cast<double>(asked);
  std::printf("Greedy answers: %lld of %lld level-1 and level-2 training questions answered exactly (%.1f%%, %.1f s)\n",
              static_cast<long long>(exact), static_cast<long long>(asked), 100 * exact_share,
              milestone::seconds_since(answering_started));
  for (const auto& miss : misses) std::printf("  missed: %s\n", miss.c_str());

  // The demo: answers streamed as they are generated, with their speed.
  std::printf("\nTinyGPT talks (greedy, streamed; the second and third questions are from the test pairs):\n");
  std::vector<std::string> prompts = {"Q: Hello!\nA:"};
  for (size_t i = 0; i < test.pairs().size() && prompts.size() < 3; ++i)
    if (test.pairs()[i].level == 2 || test.pairs()[i].level == 4) prompts.push_back(test.pairs()[i].prompt);
  int64_t generated = 0;
  double generating_seconds = 0;
  for (const auto& prompt : prompts) {
    std::cout << "  " << prompt.substr(0, prompt.size() - 3) << " | A:" << std::flush;
    const auto t0 = std::chrono::steady_clock::now();
    const std::string answer = greedy_answer(model, vocabulary, prompt, kMaxAnswer, /*stream=*/true);
    const double seconds = milestone::seconds_since(t0);
    generated += static_cast<int64_t>(answer.size()) + 1;
    generating_seconds += seconds;
    std::printf("   [%zu tokens, %.0f tokens/s]\n", answer.size() + 1, (static_cast<double>(answer.size()) + 1) / seconds);
  }
  const double tokens_per_second = static_cast<double>(generated) / generating_seconds;

  milestone::write_output_file("tinygpt_loss.svg", loss_svg(train_loss, heldout_curve, bigram));
  milestone::write_output_file("tinygpt_attention.svg",
                               milestone::svg_panel_rows("Milestone 05: where TinyGPT looks", picture, 128));
  std::printf("Wall time: %.2f s\n", milestone::seconds_since(started));

  milestone::report_result(kPart, "training_seconds", training_seconds);
  milestone::report_result(kPart, "tokens_per_second", tokens_per_second);
  milestone::report_result(kPart, "heldout_loss", heldout);
  milestone::report_result(kPart, "bigram_loss", bigram);
  milestone::report_result(kPart, "heldout_margin", bigram - heldout);
  milestone::report_result(kPart, "causality_max_change", causality);
  milestone::report_result(kPart, "attention_entropy", entropy);
  milestone::report_result(kPart, "greedy_exact_match", exact_share);
  return 0;
}
