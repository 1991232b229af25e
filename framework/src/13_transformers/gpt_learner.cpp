// Module 13 (Transformers), lesson sections "4. The MLP", "5. The pre-LN block" and "7. Generation".
// The given code (gpt.cpp) builds the modules, the attention and the embeddings; here they are
// wired together, and turned into text one token at a time.
#include <cmath>
#include <limits>
#include <tuple>

#include "tinytorch/activations.h"
#include "tinytorch/autograd.h"
#include "tinytorch/factories.h"
#include "tinytorch/functions.h"
#include "tinytorch/models/gpt.h"

namespace tinytorch {
namespace models {

// TODO: GPTMLP::forward -- fc, then the exact GELU (torch::gelu), then proj, then dropout (section 4).
Tensor GPTMLPImpl::forward(const Tensor& x) {
  // BEGIN SOLUTION name="tinytorch::models::GPTMLPImpl::forward" lesson="4. The MLP"
  return dropout->forward(proj->forward(gelu(fc->forward(x))));
  // END SOLUTION
}

// TODO: GPTBlock::forward -- the pre-LN block (section 5): normalise BEFORE each sublayer and add the
//   sublayer's output to its unnormalised input (the residual):
//     h = x + attn(ln1(x), causal_mask(S));   out = h + mlp(ln2(h))
//   Without the mask a position would see the tokens it has to predict.
Tensor GPTBlockImpl::forward(const Tensor& x) {
  // BEGIN SOLUTION name="tinytorch::models::GPTBlockImpl::forward" lesson="5. The pre-LN block"
  const Tensor h = x + attn->forward(ln1->forward(x), causal_mask(x.size(1)));
  return h + mlp->forward(ln2->forward(h));
  // END SOLUTION
}

// TODO: sample_next_token (section 7). Temperature 0: the argmax of each row, kept as (B, 1).
//   Otherwise divide the logits by the temperature FIRST (softmax(z / T) is sharper for T < 1,
//   flatter for T > 1; dividing the probabilities afterwards changes nothing once they are
//   renormalised), then, when 0 < top_k < V, set every logit below the row's k-th largest to -inf
//   (torch::topk), then sample one index per row from the softmax with torch::multinomial.
Tensor sample_next_token(const Tensor& logits, double temperature, int64_t top_k) {
  TT_CHECK(logits.dim() == 2 && logits.is_floating_point(),
           "sample_next_token: expected logits of shape (B, V) and a floating dtype, but got ", logits.sizes(),
           " of ", logits.scalar_type(), ": take the last position's logits, logits.select(1, -1)");
  TT_CHECK(std::isfinite(temperature) && temperature >= 0,
           "sample_next_token: temperature must be finite and >= 0 (0 = greedy), but got ", temperature);
  TT_CHECK(top_k >= 0, "sample_next_token: top_k must be >= 0 (0 = no filtering), but got ", top_k);
  // BEGIN SOLUTION name="tinytorch::models::sample_next_token" lesson="7. Generation"
  if (temperature == 0) return logits.argmax(-1, /*keepdim=*/true);
  Tensor scaled = logits / temperature;
  if (top_k > 0 && top_k < logits.size(-1)) {
    const Tensor kth_largest = std::get<0>(scaled.topk(top_k, -1)).narrow(-1, top_k - 1, 1);  // (B, 1)
    scaled = scaled.masked_fill(scaled.lt(kth_largest), -std::numeric_limits<double>::infinity());
  }
  return softmax(scaled, -1).multinomial(1);
  // END SOLUTION
}

// Module 18's cached loop (cached_generation.cpp). Weak, so that a build without module 18 links;
// module 18's builds keep it by a linker -u entry (framework/CMakeLists.txt, TINYTORCH_MODULE_KEEP_SYMBOLS).
__attribute__((weak)) Tensor generate_with_kv_cache(GPTImpl& gpt, const Tensor& prompt, int64_t max_new_tokens,
                                                    double temperature, int64_t top_k);

// TODO: the loop of GPT::generate (section 7). max_new_tokens times: crop the tokens so far to their
//   last max_seq_len (the positions the model has embeddings for), run forward, take the logits of
//   the LAST position (B, V), choose the next token with sample_next_token and append it
//   (torch::cat along dim 1). Return the prompt followed by the new tokens.
Tensor GPTImpl::generate(const Tensor& prompt, int64_t max_new_tokens, double temperature, int64_t top_k,
                         bool use_kv_cache) {
  TT_CHECK(prompt.dim() == 2 && prompt.scalar_type() == kLong && prompt.size(1) > 0,
           "GPT::generate: expected a prompt of shape (B, S) with S >= 1 and dtype Long, but got ", prompt.sizes(),
           " of ", prompt.scalar_type(), ": encode at least one token and add a batch dim with unsqueeze(0)");
  TT_CHECK(max_new_tokens >= 0, "GPT::generate: max_new_tokens must be >= 0, but got ", max_new_tokens);
  TT_CHECK(std::isfinite(temperature) && temperature >= 0,
           "GPT::generate: temperature must be finite and >= 0 (0 = greedy), but got ", temperature);
  TT_CHECK(top_k >= 0, "GPT::generate: top_k must be >= 0 (0 = no filtering), but got ", top_k);
  NoGradGuard no_grad;  // generation never trains: keep no graph
  if (use_kv_cache) {
    TT_CHECK(&generate_with_kv_cache != nullptr, "GPT::generate: use_kv_cache=true runs module 18's KV cache, and ",
             "this build does not include module 18. Fix: leave use_kv_cache false (the default), or start module 18 ",
             "(tito module start 18)");
    return generate_with_kv_cache(*this, prompt, max_new_tokens, temperature, top_k);
  }
  Tensor tokens = prompt;
  // BEGIN SOLUTION name="tinytorch::models::GPTImpl::generate" lesson="7. Generation"
  for (int64_t step = 0; step < max_new_tokens; ++step) {
    const int64_t length = tokens.size(1);
    const Tensor context =
        length > options.max_seq_len() ? tokens.narrow(1, length - options.max_seq_len(), options.max_seq_len())
                                       : tokens;
    const Tensor last_logits = forward(context).select(1, -1);  // (B, V)
    tokens = cat({tokens, sample_next_token(last_logits, temperature, top_k)}, 1);
  }
  // END SOLUTION
  return tokens;
}

}  // namespace models
}  // namespace tinytorch
