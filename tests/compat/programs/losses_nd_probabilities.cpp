// Cross-entropy on (N, C, d1, ...) inputs through every spelling (torch::cross_entropy_loss, F::, nn::),
// class-probability targets, label smoothing with both kinds of target, nll_loss2d / nll_loss_nd, and
// the other losses of LibTorch's C++ API: l1, huber, soft margin, margin ranking, hinge embedding,
// cosine embedding, triplet margin, Poisson NLL, with cosine_similarity and pairwise_distance.
// compat-tolerance: 1e-5
#include <iostream>

#include "compat.h"

namespace losses_nd_probabilities_program {
namespace F = torch::nn::functional;

void print_error(const char* what, const std::function<void()>& body) {
  try {
    body();
    std::cout << what << ": no error\n";
  } catch (const c10::Error& e) {
    std::string message = e.what();
    std::cout << what << ": " << message.substr(0, message.find('\n')) << "\n";
  }
}

COMPAT_PROGRAM(losses_nd_probabilities) {
  // (N, C, d1, d2) = (2, 3, 2, 2) logits and (N, d1, d2) class indices.
  auto logits = torch::linspace(-2, 3, 24).reshape({2, 3, 2, 2}).sin() * 2;
  auto target = torch::tensor({0, 2, 1, 1, 2, 0, 0, 1}).reshape({2, 2, 2});
  auto weight = torch::tensor({1.0, 2.0, 0.5});
  std::cout << "torch::cross_entropy_loss 4-D " << torch::cross_entropy_loss(logits, target).item<float>() << "\n";
  std::cout << "none\n" << torch::cross_entropy_loss(logits, target, {}, at::Reduction::None) << "\n";
  std::cout << "weighted sum " << torch::cross_entropy_loss(logits, target, weight, at::Reduction::Sum).item<float>()
            << "\n";
  std::cout << "F 4-D weighted ignore 2 "
            << F::cross_entropy(logits, target, F::CrossEntropyFuncOptions().weight(weight).ignore_index(2)).item<float>()
            << "\n";
  torch::nn::CrossEntropyLoss criterion(torch::nn::CrossEntropyLossOptions().label_smoothing(0.25));
  std::cout << "nn 4-D smoothing " << criterion(logits, target).item<float>() << "\n";
  std::cout << "smoothing + ignore 1 "
            << F::cross_entropy(logits, target, F::CrossEntropyFuncOptions().label_smoothing(0.1).ignore_index(1))
                   .item<float>()
            << "\n";
  std::cout << "smoothing + weight + ignore 0 none\n"
            << F::cross_entropy(logits, target,
                                F::CrossEntropyFuncOptions().label_smoothing(0.3).weight(weight).ignore_index(0).reduction(
                                    torch::kNone))
            << "\n";
  // 5-D input: (2, 3, 2, 1, 2).
  auto logits5 = logits.reshape({2, 3, 2, 1, 2});
  auto target5 = target.reshape({2, 2, 1, 2});
  std::cout << "5-D mean " << torch::cross_entropy_loss(logits5, target5).item<float>() << "\n";
  std::cout << "5-D none sizes " << torch::cross_entropy_loss(logits5, target5, {}, at::Reduction::None).sizes() << "\n";

  // Class probabilities: target of the input's shape.
  auto probabilities = torch::softmax(torch::linspace(1, -1, 24).reshape({2, 3, 2, 2}).cos() * 3, 1);
  std::cout << "probabilities mean " << F::cross_entropy(logits, probabilities).item<float>() << "\n";
  std::cout << "probabilities none\n"
            << F::cross_entropy(logits, probabilities, F::CrossEntropyFuncOptions().reduction(torch::kNone)) << "\n";
  std::cout << "probabilities weighted sum "
            << torch::cross_entropy_loss(logits, probabilities, weight, at::Reduction::Sum).item<float>() << "\n";
  std::cout << "probabilities smoothing 0.2 "
            << F::cross_entropy(logits, probabilities, F::CrossEntropyFuncOptions().label_smoothing(0.2)).item<float>()
            << "\n";
  auto logits2 = torch::linspace(-1, 2, 12).reshape({4, 3});
  auto probabilities2 = torch::softmax(torch::linspace(2, -2, 12).reshape({4, 3}), 1);
  std::cout << "2-D probabilities weighted mean "
            << F::cross_entropy(logits2, probabilities2, F::CrossEntropyFuncOptions().weight(weight)).item<float>() << "\n";
  std::cout << "1-D probabilities " << F::cross_entropy(logits2[0], probabilities2[0]).item<float>() << "\n";

  // Gradients through the N-D and probability paths.
  auto x = logits.clone().requires_grad_(true);
  F::cross_entropy(x, target, F::CrossEntropyFuncOptions().weight(weight).label_smoothing(0.1)).backward();
  std::cout << "grad class indices + smoothing\n" << x.grad()[0][0] << "\n";
  auto y = logits.clone().requires_grad_(true);
  F::cross_entropy(y, probabilities).backward();
  std::cout << "grad probabilities\n" << y.grad()[1][2] << "\n";

  // nll_loss2d and nll_loss_nd.
  auto log_probs = torch::log_softmax(logits, 1);
  std::cout << "nll_loss2d " << torch::nll_loss2d(log_probs, target).item<float>() << "\n";
  std::cout << "nll_loss2d weighted none\n" << torch::nll_loss2d(log_probs, target, weight, at::Reduction::None) << "\n";
  std::cout << "nll_loss_nd 5-D " << torch::nll_loss_nd(log_probs.reshape({2, 3, 2, 1, 2}), target5).item<float>()
            << "\n";
  std::cout << "nll_loss_nd 3-D ignore 0 "
            << torch::nll_loss_nd(log_probs.reshape({2, 3, 4}), target.reshape({2, 4}), {}, at::Reduction::Mean, 0)
                   .item<float>()
            << "\n";
  std::cout << "F::nll_loss 4-D " << F::nll_loss(log_probs, target).item<float>() << "\n";

  print_error("probabilities of integer dtype", [&] { torch::cross_entropy_loss(logits, torch::ones({2, 3, 2, 2}, torch::kLong)); });
  print_error("probabilities with ignore_index",
              [&] { torch::cross_entropy_loss(logits, probabilities, {}, at::Reduction::Mean, 1); });
  print_error("wrong target size", [&] { F::cross_entropy(logits, torch::zeros({2, 2, 3}, torch::kLong)); });
  print_error("nll_loss2d 3-D input", [&] { torch::nll_loss2d(log_probs[0], target[0]); });
  print_error("nll_loss2d 2-D target", [&] { torch::nll_loss2d(log_probs, target[0]); });
  print_error("label_smoothing 1.5", [&] { torch::cross_entropy_loss(logits, target, {}, at::Reduction::Mean, -100, 1.5); });

  // The other losses.
  auto a = torch::linspace(-1.5, 2, 8).reshape({2, 4});
  auto b = torch::linspace(1, -0.5, 8).reshape({2, 4});
  auto signs = torch::tensor({1.0, -1.0, -1.0, 1.0, 1.0, 1.0, -1.0, -1.0}).reshape({2, 4});
  std::cout << "l1 " << F::l1_loss(a, b).item<float>() << " sum " << torch::l1_loss(a, b, at::Reduction::Sum).item<float>()
            << "\n";
  std::cout << "huber " << F::huber_loss(a, b).item<float>() << " delta 0.5 "
            << F::huber_loss(a, b, F::HuberLossFuncOptions().delta(0.5)).item<float>() << "\n";
  std::cout << "huber none\n" << torch::huber_loss(a, b, at::Reduction::None, 0.75) << "\n";
  std::cout << "soft_margin " << F::soft_margin_loss(a, signs).item<float>() << "\n";
  std::cout << "margin_ranking " << F::margin_ranking_loss(a[0], b[0], signs[0]).item<float>() << " margin 0.5 "
            << F::margin_ranking_loss(a[0], b[0], signs[0], F::MarginRankingLossFuncOptions().margin(0.5)).item<float>()
            << "\n";
  std::cout << "hinge_embedding " << F::hinge_embedding_loss(a, signs).item<float>() << " none\n"
            << F::hinge_embedding_loss(a, signs,
                                       F::HingeEmbeddingLossFuncOptions().margin(0.5).reduction(torch::kNone))
            << "\n";
  auto pair_target = torch::tensor({1.0, -1.0});
  std::cout << "cosine_embedding " << F::cosine_embedding_loss(a, b, pair_target).item<float>() << " margin -0.5 "
            << F::cosine_embedding_loss(a, b, -pair_target, F::CosineEmbeddingLossFuncOptions().margin(-0.5))
                   .item<float>()
            << "\n";
  std::cout << "cosine_similarity " << F::cosine_similarity(a, b) << "\n";
  std::cout << "cosine_similarity dim 0 "
            << F::cosine_similarity(a, b, F::CosineSimilarityFuncOptions().dim(0)) << "\n";
  std::cout << "pairwise_distance " << F::pairwise_distance(a, b) << "\n";
  std::cout << "pairwise_distance p 1 keepdim "
            << F::pairwise_distance(a, b, F::PairwiseDistanceFuncOptions().p(1).keepdim(true)) << "\n";
  auto c = torch::linspace(0, 1, 8).reshape({2, 4});
  std::cout << "triplet_margin " << F::triplet_margin_loss(a, b, c).item<float>() << " swap p 1 "
            << F::triplet_margin_loss(a, b, c, F::TripletMarginLossFuncOptions().swap(true).p(1).margin(2))
                   .item<float>()
            << "\n";
  auto rates = torch::linspace(0.5, 4, 8).reshape({2, 4});
  auto counts = torch::tensor({0.0, 1.0, 2.0, 5.0, 3.0, 0.0, 4.0, 1.0}).reshape({2, 4});
  std::cout << "poisson_nll log_input " << F::poisson_nll_loss(a, counts).item<float>() << " rates full "
            << F::poisson_nll_loss(rates, counts, F::PoissonNLLLossFuncOptions().log_input(false).full(true))
                   .item<float>()
            << "\n";
  auto g = a.clone().requires_grad_(true);
  (F::huber_loss(g, b) + F::soft_margin_loss(g, signs) + F::cosine_embedding_loss(g, b, pair_target) +
   F::triplet_margin_loss(g, b, c) + F::l1_loss(g, b))
      .backward();
  std::cout << "grad of a sum of losses\n" << g.grad() << "\n";

  // Modules.
  torch::nn::L1Loss l1;
  torch::nn::HuberLoss huber(torch::nn::HuberLossOptions().delta(0.5));
  torch::nn::SoftMarginLoss soft_margin;
  torch::nn::MarginRankingLoss ranking(torch::nn::MarginRankingLossOptions().margin(0.1));
  torch::nn::HingeEmbeddingLoss hinge(torch::nn::HingeEmbeddingLossOptions().margin(2));
  torch::nn::CosineEmbeddingLoss cosine_embedding(torch::nn::CosineEmbeddingLossOptions().margin(0.25));
  torch::nn::TripletMarginLoss triplet(torch::nn::TripletMarginLossOptions().margin(0.5).p(3).eps(1e-5));
  torch::nn::PoissonNLLLoss poisson(torch::nn::PoissonNLLLossOptions().reduction(torch::kSum));
  torch::nn::CosineSimilarity cosine(torch::nn::CosineSimilarityOptions().dim(0));
  torch::nn::PairwiseDistance distance(torch::nn::PairwiseDistanceOptions().p(1.5));
  std::cout << l1 << "\n" << huber << "\n" << soft_margin << "\n" << ranking << "\n" << hinge << "\n"
            << cosine_embedding << "\n" << triplet << "\n" << poisson << "\n" << cosine << "\n" << distance << "\n";
  std::cout << "modules " << l1(a, b).item<float>() << " " << huber(a, b).item<float>() << " "
            << soft_margin(a, signs).item<float>() << " " << ranking(a[1], b[1], signs[1]).item<float>() << " "
            << hinge(a, signs).item<float>() << " " << cosine_embedding(a, b, pair_target).item<float>() << " "
            << triplet(a, b, c).item<float>() << " " << poisson(a, counts).item<float>() << "\n"
            << cosine(a, b) << "\n" << distance(a, b) << "\n";
  print_error("huber delta 0", [&] { torch::huber_loss(a, b, at::Reduction::Mean, 0.0); });
  print_error("margin_ranking dims", [&] { F::margin_ranking_loss(a, b[0], signs); });
  print_error("cosine_embedding 2-D target", [&] { F::cosine_embedding_loss(a, b, signs); });
  print_error("triplet dims", [&] { F::triplet_margin_loss(a, b[0], c); });
  return 0;
}

}  // namespace losses_nd_probabilities_program
