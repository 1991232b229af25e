// Module 10 (Tokenization), learner file: the three steps of byte-level BPE (lesson sections 4-6).
// The given code (tokenizers.cpp) runs the training loop: it counts each distinct word of the corpus
// once, calls count_pairs, takes the most frequent pair (ties: the smallest), gives it the next id and
// calls merge_pair on every word; and it encodes a text word by word with encode_word.
#include <map>
#include <string>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/tokenization.h"

namespace tinytorch {
namespace text {

// TODO: count_pairs(words, counts) -> how many times each adjacent pair of tokens occurs in the
//   corpus, where word w occurs counts[w] times (section 4). Overlapping pairs all count ({a, a, a}
//   holds (a, a) twice); empty and one-token words hold none. No pair: an empty map.
//   Example: words {h, e, l, l, o} x3 and {h, e, l, p} x1 -> (h, e): 4, (e, l): 4, (l, l): 3,
//   (l, o): 3, (l, p): 1.
std::map<TokenPair, int64_t> count_pairs(const std::vector<std::vector<int64_t>>& words,
                                         const std::vector<int64_t>& counts) {
  std::map<TokenPair, int64_t> pair_counts;
  // BEGIN SOLUTION name="tinytorch::text::count_pairs" lesson="4. Byte-level BPE: counting pairs"
  for (size_t w = 0; w < words.size(); ++w) {
    const std::vector<int64_t>& word = words[w];
    for (size_t i = 0; i + 1 < word.size(); ++i) pair_counts[{word[i], word[i + 1]}] += counts[w];
  }
  // END SOLUTION
  return pair_counts;
}

// TODO: merge_pair(tokens, pair, new_id) -> tokens with the occurrences of pair replaced by new_id,
//   leftmost first (section 5). A token takes part in one merge at most, so {a, a, a} merging (a, a)
//   into X gives {X, a}, and {a, a, a, a} gives {X, X}. tokens is not changed.
//   Example: {h, e, l, l, o} merging (l, l) into 300 -> {h, e, 300, o}.
std::vector<int64_t> merge_pair(const std::vector<int64_t>& tokens, TokenPair pair, int64_t new_id) {
  std::vector<int64_t> merged;
  merged.reserve(tokens.size());
  // BEGIN SOLUTION name="tinytorch::text::merge_pair" lesson="5. The merge step and training"
  size_t i = 0;
  while (i < tokens.size()) {
    if (i + 1 < tokens.size() && tokens[i] == pair.first && tokens[i + 1] == pair.second) {
      merged.push_back(new_id);
      i += 2;
    } else {
      merged.push_back(tokens[i]);
      i += 1;
    }
  }
  // END SOLUTION
  return merged;
}

// TODO: BPETokenizer::encode_word(word) -> the ids training would have made of this word: its
//   bytes as ids 0-255 (every byte, valid UTF-8 or not), with the learned merges applied in the order
//   they were learned, until no adjacent pair is a learned merge (section 6). merge_rank_ maps a
//   learned pair to its rank r, and merge r made the id kByteTokens + r. Depends on nothing but the
//   merges.
//   Example: merges (a, b) -> 256, (256, c) -> 257: "abcab" -> {97, 98, 99, 97, 98} -> {256, 99, 256}
//   -> {257, 256}.
std::vector<int64_t> BPETokenizer::encode_word(const std::string& word) const {
  std::vector<int64_t> ids;
  // BEGIN SOLUTION name="tinytorch::text::BPETokenizer::encode_word" lesson="6. Encoding with learned merges"
  ids.reserve(word.size());
  for (const char byte : word) ids.push_back(static_cast<unsigned char>(byte));
  while (ids.size() >= 2) {
    int64_t best_rank = -1;
    for (size_t i = 0; i + 1 < ids.size(); ++i) {
      const auto found = merge_rank_.find({ids[i], ids[i + 1]});
      if (found != merge_rank_.end() && (best_rank < 0 || found->second < best_rank)) best_rank = found->second;
    }
    if (best_rank < 0) break;  // no learned pair left
    ids = merge_pair(ids, merges_[static_cast<size_t>(best_rank)], kByteTokens + best_rank);
  }
  // END SOLUTION
  return ids;
}

}  // namespace text
}  // namespace tinytorch
