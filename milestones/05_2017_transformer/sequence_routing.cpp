// Milestone 05 (2017), part 1: attention routes information between positions. Three small tasks
// that a network without attention cannot do position-independently, each learned by a fresh
// two-block transformer made of YOUR nn::Embedding, nn::MultiheadAttention, nn::LayerNorm and
// nn::Linear, trained with YOUR autograd and Adam:
//
//     reversal   PYTHON -> NOHTYP         position i must read position 5 - i
//     copy       PYTHON -> PYTHON         position i must read itself
//     mixed      [R]PYTHON -> [R]NOHTYP,  [C]PYTHON -> [C]PYTHON: the first token chooses the route
//
// tito judges the exact whole-sequence match on held-out sequences, never seen in training (gates
// in milestone.json: 0.95, 0.95, 0.90). The attention maps of the reversal model are drawn: a
// model that really routes shows the anti-diagonal.
//
// Routing is learned even by some broken attentions (a softmax over the queries instead of the keys
// still routes, 100/100/100), so two probes of YOUR attention inside the trained reversal model gate too:
//   attention_row_sum_error  max |sum over the keys - 1| of any query's attention weights
//   causality_max_change     how far a block run with a causal mask moves its outputs at positions <= k
//                            when the tokens after k change (a causal attention: not at all)
// and, as milestones 03, 04 and 06 do, the modules the training stands on against their definitions
// (../common/training_probes.h): a fresh Linear's bound, log_softmax, cross_entropy, two Adam steps and
// the sampler's reshuffle, since a transformer trains around each mistake there too:
//   init_bound_error <= 0.05, log_softmax_error, cross_entropy_error, adam_step_error <= 1e-5,
//   sampler_reshuffles == 1
// and the two pieces of a transformer that train around their mistakes (../common/gpt_probe.h):
//   embedding_backward_error <= 1e-5  (repeated ids add their gradients; the padding row gets none)
//   layer_norm_error         <= 1e-5  (the biased variance; the backward through the weight)
#include <tinytorch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "../common/gpt_probe.h"
#include "../common/milestone_support.h"
#include "../common/training_probes.h"
#include "transformer_blocks.h"

namespace {

constexpr int kPart = 1;
constexpr int64_t kLetters = 26;
constexpr int64_t kReverseToken = 26, kCopyToken = 27, kVocabulary = 28;
constexpr int64_t kWord = 6;  // letters per sequence
constexpr int64_t kEmbed = 48, kHeads = 4, kHidden = 96, kBlocks = 2;
constexpr int64_t kBatch = 64;
constexpr double kLearningRate = 5e-3;

enum class Route { kReverse, kCopy, kMixed };

struct Task {
  const char* name;
  const char* metric;
  Route route;
  int64_t train_size, test_size, steps;
};

// Tokens -> text: letters as A-Z, the route tokens as [R] and [C].
std::string spelled(const std::vector<int64_t>& tokens) {
  std::string text;
  for (const int64_t t : tokens)
    text += t == kReverseToken ? std::string("[R]") : t == kCopyToken ? std::string("[C]") : std::string(1, 'A' + t);
  return text;
}

struct Sequences {
  torch::Tensor inputs, targets;        // (N, L) int64
  std::vector<std::vector<int64_t>> rows;  // the inputs, for printing
};

// `count` random words, none of which is in `exclude`; every word drawn is added to `exclude`, so a
// held-out set drawn after the training set never repeats a training word.
Sequences make_sequences(Route route, int64_t count, std::mt19937& rng, std::set<std::vector<int64_t>>& exclude) {
  std::uniform_int_distribution<int64_t> letter(0, kLetters - 1);
  std::bernoulli_distribution coin(0.5);
  std::vector<int64_t> inputs, targets;
  Sequences s;
  while (static_cast<int64_t>(s.rows.size()) < count) {
    std::vector<int64_t> word(kWord);
    for (auto& t : word) t = letter(rng);
    const bool reverse = route == Route::kReverse || (route == Route::kMixed && coin(rng));
    std::vector<int64_t> input = word, target = word;
    if (reverse) target.assign(word.rbegin(), word.rend());
    if (route == Route::kMixed) {  // the route token leads, and the target echoes it
      input.insert(input.begin(), reverse ? kReverseToken : kCopyToken);
      target.insert(target.begin(), reverse ? kReverseToken : kCopyToken);
    }
    if (!exclude.insert(input).second) continue;
    inputs.insert(inputs.end(), input.begin(), input.end());
    targets.insert(targets.end(), target.begin(), target.end());
    s.rows.push_back(input);
  }
  const auto length = static_cast<int64_t>(s.rows.front().size());
  s.inputs = torch::from_blob(inputs.data(), {count, length}, torch::kLong).clone();
  s.targets = torch::from_blob(targets.data(), {count, length}, torch::kLong).clone();
  return s;
}

struct RouterImpl : torch::nn::Module {
  RouterImpl()
      : tokens(register_module("tokens", torch::nn::Embedding(kVocabulary, kEmbed))),
        positions(register_module("positions", torch::nn::Embedding(kWord + 1, kEmbed))),
        ln_final(register_module("ln_final", torch::nn::LayerNorm(torch::nn::LayerNormOptions({kEmbed})))),
        head(register_module("head", torch::nn::Linear(kEmbed, kVocabulary))) {
    for (int64_t b = 0; b < kBlocks; ++b)
      blocks.push_back(register_module("block" + std::to_string(b), milestone::Block(kEmbed, kHeads, kHidden)));
  }

  // (N, L) tokens -> (N, L, vocabulary) logits; `weights` receives each block's attention weights.
  torch::Tensor forward(const torch::Tensor& x, std::vector<torch::Tensor>* weights = nullptr) {
    torch::Tensor h = tokens(x) + positions(torch::arange(x.size(1), torch::kLong));
    for (auto& block : blocks) {
      torch::Tensor w;
      h = block->forward(h, torch::Tensor(), weights ? &w : nullptr);
      if (weights) weights->push_back(w);
    }
    return head(ln_final(h));
  }

  torch::nn::Embedding tokens, positions;
  std::vector<milestone::Block> blocks;
  torch::nn::LayerNorm ln_final;
  torch::nn::Linear head;
};
TORCH_MODULE(Router);

// The share of sequences whose every position is predicted right.
double exact_match(Router& model, const Sequences& s) {
  torch::NoGradGuard no_grad;
  const torch::Tensor predicted = model->forward(s.inputs).argmax(-1);
  return predicted.eq(s.targets).sum(1).eq(s.targets.size(1)).to(torch::kFloat).mean().item<double>();
}

// max |sum_j w[..., i, j] - 1| over the attention weights of every block and head on `inputs`.
double attention_row_sum_error(Router& model, const torch::Tensor& inputs) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> weights;
  model->forward(inputs, &weights);
  double error = 0;
  for (const auto& w : weights) error = std::max(error, (w.sum(-1) - 1).abs().max().item<double>());
  return error;
}

// The first block of the trained model, run with a causal mask on embedded `inputs`: change every token
// after position k (k = 0 .. L-2) and measure how far the block's outputs at positions 0..k move.
double causality_max_change(Router& model, const torch::Tensor& inputs, std::mt19937& rng) {
  torch::NoGradGuard no_grad;
  const int64_t length = inputs.size(1);
  const torch::Tensor positions = torch::arange(length, torch::kLong);
  const torch::Tensor mask = torch::models::causal_mask(length);
  auto block_output = [&](const torch::Tensor& tokens) {
    return model->blocks[0]->forward(model->tokens(tokens) + model->positions(positions), mask);
  };
  const torch::Tensor original = block_output(inputs);
  std::uniform_int_distribution<int64_t> shift(1, kLetters - 1);
  double change = 0;
  for (int64_t k = 0; k + 1 < length; ++k) {
    torch::Tensor changed = inputs.clone();
    int64_t* p = changed.data_ptr<int64_t>();
    for (int64_t n = 0; n < changed.size(0); ++n)
      for (int64_t i = k + 1; i < length; ++i) p[n * length + i] = (p[n * length + i] + shift(rng)) % kLetters;
    const torch::Tensor moved = block_output(changed);
    change = std::max(change, (moved.narrow(1, 0, k + 1) - original.narrow(1, 0, k + 1)).abs().max().item<double>());
  }
  return change;
}

std::vector<int64_t> row_of(const torch::Tensor& t) {
  const torch::Tensor c = t.contiguous();
  const int64_t* p = c.data_ptr<int64_t>();
  return std::vector<int64_t>(p, p + c.numel());
}

}  // namespace

int main() {
  std::cout << "Milestone 05, part 1 - attention routes information (Vaswani et al., 2017)\n\n";
  const auto started = std::chrono::steady_clock::now();
  const std::vector<Task> tasks = {{"reversal", "reversal_accuracy", Route::kReverse, 2000, 300, 80},
                                   {"copy", "copy_accuracy", Route::kCopy, 2000, 300, 40},
                                   {"mixed", "mixed_accuracy", Route::kMixed, 3000, 300, 120}};
  std::vector<double> accuracies;
  double row_sum_error = 0, causality = 0;
  std::vector<milestone::ImagePanelRow> picture;
  for (size_t t = 0; t < tasks.size(); ++t) {
    const Task& task = tasks[t];
    torch::manual_seed(2017 + static_cast<int>(t));
    std::mt19937 rng(2017 + static_cast<unsigned>(t));
    std::set<std::vector<int64_t>> drawn;
    const Sequences train = make_sequences(task.route, task.train_size, rng, drawn);
    const Sequences test = make_sequences(task.route, task.test_size, rng, drawn);
    Router model;
    int64_t parameters = 0;
    for (const auto& p : model->parameters()) parameters += p.numel();
    std::printf("Task %zu, %s: %lld training and %lld held-out sequences; a fresh %s-parameter model\n", t + 1,
                task.name, static_cast<long long>(task.train_size), static_cast<long long>(task.test_size),
                milestone::with_commas(parameters).c_str());
    torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(kLearningRate));
    const auto training_started = std::chrono::steady_clock::now();
    for (int64_t step = 1; step <= task.steps; ++step) {
      const torch::Tensor index = torch::randint(task.train_size, {kBatch}, torch::kLong);
      const torch::Tensor inputs = train.inputs.index_select(0, index), targets = train.targets.index_select(0, index);
      const torch::Tensor logits = model->forward(inputs);
      torch::Tensor loss = torch::nn::functional::cross_entropy(logits.reshape({-1, kVocabulary}), targets.reshape({-1}));
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
      if (step % 20 == 0 || step == task.steps)
        std::printf("  step %4lld/%lld  loss %.4f  held-out exact match %5.1f%%\n", static_cast<long long>(step),
                    static_cast<long long>(task.steps), loss.item<double>(), 100 * exact_match(model, test));
    }
    const double accuracy = exact_match(model, test);
    accuracies.push_back(accuracy);
    std::printf("  %s: %.1f%% of held-out sequences exactly right (%.2f s of training)\n", task.name, 100 * accuracy,
                milestone::seconds_since(training_started));
    {
      torch::NoGradGuard no_grad;
      const torch::Tensor shown = test.inputs.narrow(0, 0, 3);
      std::vector<torch::Tensor> weights;
      const torch::Tensor answers = model->forward(shown, &weights).argmax(-1);
      for (int64_t i = 0; i < 3; ++i)
        std::printf("    %s -> %s\n", spelled(row_of(shown[i])).c_str(), spelled(row_of(answers[i])).c_str());
      if (task.route == Route::kReverse) {
        const torch::Tensor probed = test.inputs.narrow(0, 0, 32);
        row_sum_error = attention_row_sum_error(model, probed);
        causality = causality_max_change(model, probed, rng);
        std::printf("  Probes of your attention: rows of the weights sum to 1 within %.2e; with a causal mask, "
                    "changing the tokens after k moves the outputs at positions <= k by at most %.2e\n",
                    row_sum_error, causality);
        for (size_t b = 0; b < weights.size(); ++b) {
          milestone::ImagePanelRow row{"Reversal, block " + std::to_string(b + 1) + ": attention of each head on " +
                                           spelled(row_of(shown[0])) + " (row: output position, column: input position)",
                                       {}, false};
          for (int64_t h = 0; h < kHeads; ++h)
            row.panels.push_back(milestone::attention_panel(weights[b][0][h], "head " + std::to_string(h + 1)));
          picture.push_back(row);
        }
      }
    }
    std::printf("\n");
  }
  milestone::write_output_file("attention_routing.svg",
                               milestone::svg_panel_rows("Milestone 05: where the reversal model looks", picture));
  std::printf("Probes of your modules against the definitions, computed here in double:\n");
  milestone::report_definition_probes(kPart);
  const double embedding_error = milestone::embedding_backward_error(), layer_norm = milestone::layer_norm_error();
  std::printf("  nn::Embedding's gradient with repeated ids        within %.2e\n"
              "  nn::LayerNorm's output and gradients              within %.2e (relative)\n",
              embedding_error, layer_norm);
  milestone::report_result(kPart, "embedding_backward_error", embedding_error);
  milestone::report_result(kPart, "layer_norm_error", layer_norm);
  std::printf("Wall time: %.2f s\n", milestone::seconds_since(started));
  for (size_t t = 0; t < tasks.size(); ++t) milestone::report_result(kPart, tasks[t].metric, accuracies[t]);
  milestone::report_result(kPart, "attention_row_sum_error", row_sum_error);
  milestone::report_result(kPart, "causality_max_change", causality);
  return 0;
}
