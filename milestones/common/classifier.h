#pragma once
// What the image-classification milestones (03's Fashion-MNIST MLP, 04's LeNet and CIFAR-10 CNN)
// share: timing, the model's answers over a whole test set, and accuracy.
#include <tinytorch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace milestone {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The model's answer (a class index) for every image, `batch` images at a time so that the
// activations stay small whatever the dataset's size.
template <typename Model>
std::vector<int64_t> predict_all(Model& model, const torch::Tensor& images, int64_t batch) {
  torch::NoGradGuard no_grad;
  std::vector<int64_t> answers;
  for (int64_t start = 0; start < images.size(0); start += batch) {
    const int64_t length = std::min(batch, images.size(0) - start);
    const torch::Tensor batch_answers = model->forward(images.narrow(0, start, length)).argmax(1).contiguous();
    const int64_t* a = batch_answers.data_ptr<int64_t>();
    answers.insert(answers.end(), a, a + length);
  }
  return answers;
}

// A tensor of class labels (int64) as a vector.
inline std::vector<int64_t> labels_of(const torch::Tensor& labels) {
  const torch::Tensor flat = labels.contiguous();
  const int64_t* v = flat.data_ptr<int64_t>();
  return std::vector<int64_t>(v, v + flat.numel());
}

inline double accuracy_of(const std::vector<int64_t>& answers, const std::vector<int64_t>& labels) {
  int64_t right = 0;
  for (size_t i = 0; i < labels.size(); ++i) right += answers[i] == labels[i];
  return static_cast<double>(right) / static_cast<double>(labels.size());
}

inline const std::vector<std::string>& fashion_mnist_class_names() {
  static const std::vector<std::string> names = {"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                                 "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
  return names;
}

}  // namespace milestone
