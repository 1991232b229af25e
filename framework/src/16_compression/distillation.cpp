// Module 16 (Compression), lesson section "6. Knowledge distillation".
#include "tinytorch/activations.h"
#include "tinytorch/compression.h"
#include "tinytorch/errors.h"
#include "tinytorch/nn/functional/activation.h"
#include "tinytorch/nn/functional/loss.h"

namespace tinytorch {
namespace compression {

// TODO: distillation_loss -- Hinton's loss (section 6, "Knowledge distillation") for student logits
//   (N, C), teacher logits (N, C; use the given detached `teacher`) and class targets (N), as a scalar
//   tensor that autograd differentiates with respect to the student only:
//     loss = alpha T^2 KL(softmax(teacher / T) || softmax(student / T)) + (1 - alpha) CE(student, target)
//   with the KL averaged over the batch (batchmean: divided by N, not N C) and the cross-entropy of
//   section 6 on the student's plain logits (mean over the batch). T = temperature.
//   Example: student == teacher gives KL = 0, so loss = (1 - alpha) cross_entropy(student, target).
Tensor distillation_loss(const Tensor& student_logits, const Tensor& teacher_logits, const Tensor& target,
                         double temperature, double alpha) {
  TT_CHECK(student_logits.dim() == 2, "distillation_loss: expected student logits of shape (N, C), got ",
           student_logits.sizes());
  TT_CHECK(teacher_logits.sizes() == student_logits.sizes(), "distillation_loss: teacher logits ",
           teacher_logits.sizes(), " and student logits ", student_logits.sizes(),
           " differ: both models must score the same batch over the same classes");
  TT_CHECK(temperature > 0, "distillation_loss: temperature must be positive, got ", temperature,
           " (T = 1 is plain softmax; 2 to 10 softens it)");
  TT_CHECK(alpha >= 0 && alpha <= 1, "distillation_loss: alpha must be in [0, 1], got ", alpha,
           " (the weight of the soft term; 1 - alpha weighs the labels)");
  const Tensor teacher = teacher_logits.detach();  // the teacher is fixed: no gradient reaches it
  namespace F = nn::functional;
  // BEGIN SOLUTION name="tinytorch::compression::distillation_loss" lesson="6. Knowledge distillation"
  const Tensor student_log_probs = F::log_softmax(student_logits / temperature, F::LogSoftmaxFuncOptions(1));
  const Tensor teacher_probs = F::softmax(teacher / temperature, F::SoftmaxFuncOptions(1));
  const Tensor soft = F::kl_div(student_log_probs, teacher_probs, F::KLDivFuncOptions(kBatchMean));
  const Tensor hard = F::cross_entropy(student_logits, target);
  return soft * (alpha * temperature * temperature) + hard * (1 - alpha);
  // END SOLUTION
}

}  // namespace compression
}  // namespace tinytorch
