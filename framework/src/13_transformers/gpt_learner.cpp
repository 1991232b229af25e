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

// TODO: GPTMLP::forward(x (B, S, d)) -> (B, S, d): the MLP of section 4, from the registered fc,
//   proj and dropout, with the exact (erf) GELU as its nonlinearity.
Tensor GPTMLPImpl::forward(const Tensor& x) {
  // BEGIN SOLUTION name="tinytorch::models::GPTMLPImpl::forward" lesson="4. The MLP"
  return dropout->forward(proj->forward(gelu(fc->forward(x))));
  // END SOLUTION
}

// TODO: GPTBlock::forward(x (B, S, d)) -> (B, S, d): the pre-LN block of section 5, from the
//   registered ln1, attn, ln2 and mlp, with both residual connections. Causal: position i never sees
//   positions after it (models::causal_mask), so a change to later tokens leaves earlier outputs alone.
Tensor GPTBlockImpl::forward(const Tensor& x) {
  // BEGIN SOLUTION name="tinytorch::models::GPTBlockImpl::forward" lesson="5. The pre-LN block"
  const Tensor h = x + attn->forward(ln1->forward(x), causal_mask(x.size(1)));
  return h + mlp->forward(ln2->forward(h));
  // END SOLUTION
}

// TODO: sample_next_token(logits (B, V), temperature, top_k) -> (B, 1) kLong, one token per row
//   (section 7). Temperature 0: greedy, each row's most likely token (the first on a tie).
//   Otherwise a draw from softmax(logits / temperature) (sharper for T < 1, flatter for T > 1),
//   using TinyTorch's generator; when 0 < top_k < V, only among the row's k largest logits and any
//   logit tied with the k-th (so a row may keep more than k). The checks above are given.
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

// TODO: the loop of GPT::generate (section 7) -> (B, S + max_new_tokens) kLong: the prompt followed
//   by max_new_tokens tokens, each chosen by sample_next_token from the model's prediction after all
//   the tokens before it, of which the model sees at most the last max_seq_len (the positions it has
//   embeddings for).
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
