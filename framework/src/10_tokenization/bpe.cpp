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

// TODO: count_pairs -- for every word w and every position i with a next token, the pair
//   (words[w][i], words[w][i + 1]) occurs counts[w] more times (section 4). A word of n tokens has
//   n - 1 pairs; overlapping pairs all count ({a, a, a} holds (a, a) twice). No pair: an empty map.
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

// TODO: merge_pair -- scan left to right; where tokens[i], tokens[i + 1] is the pair, write new_id
//   and move on past both; elsewhere copy tokens[i] (section 5). A token takes part in one merge at
//   most, so {a, a, a} merging (a, a) into X gives {X, a}, and {a, a, a, a} gives {X, X}.
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

// TODO: BPETokenizer::encode_word -- start from the word's bytes (ids 0-255: read each char as
//   unsigned char). Then, while some adjacent pair has been learned, take the pair of the lowest rank
//   (merge_rank_ maps a learned pair to its rank r; it made the id kByteTokens + r) and merge it
//   everywhere in the word with merge_pair. Training merged in rank order, so this reproduces what
//   training made of the word (section 6).
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
