#pragma once
// Module 10 (Tokenization): text to token ids and back. LibTorch has no tokenizer, so the names follow
// the original TinyTorch (CharTokenizer, BPETokenizer, build_vocab, train, encode, decode) in C++
// style, under torch::text.
//
//   torch::text::CharTokenizer chars;                 // one id per Unicode character
//   chars.build_vocab({"hello world"});               // vocab: <UNK>, ' ', d, e, h, l, o, r, w
//   std::vector<int64_t> ids = chars.encode("hello"); // {4, 3, 5, 5, 6}
//
//   torch::text::BPETokenizer bpe({"<|endoftext|>", "<pad>"});  // special tokens, kept whole
//   bpe.train(corpus, 512);                           // 256 bytes + 254 merges + 2 special tokens
//   torch::Tensor batch = torch::text::to_tensor({bpe.encode("hi"), bpe.encode("hello")}, bpe.token_id("<pad>"));
//
// Byte-level BPE starts from the 256 byte values, so every byte string encodes and decodes back to
// itself, invalid UTF-8 included. Its ids: 0-255 the bytes, then one id per learned merge in the
// order learned (256, 257, ...), then the special tokens in the order given.
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tinytorch/tensor.h"

namespace tinytorch {
namespace text {

// Special tokens (e.g. "<|endoftext|>", "<pad>") are matched in the text before anything else and
// encode to one id each, never split. Both tokenizers use this to cut a text into pieces.
class SpecialTokens {
 public:
  SpecialTokens() = default;
  // Each token non-empty, without whitespace (the merges file stores one per line), and unique.
  explicit SpecialTokens(std::vector<std::string> tokens);

  // A text cut at every occurrence of a special token (the longest one wins where several start at
  // the same place): plain pieces have special_index -1, special pieces the token's index.
  struct Piece {
    std::string text;
    int64_t special_index;
  };
  std::vector<Piece> split(const std::string& text) const;

  const std::vector<std::string>& tokens() const { return tokens_; }
  int64_t size() const { return static_cast<int64_t>(tokens_.size()); }

 private:
  std::vector<std::string> tokens_;
};

// What every tokenizer does: encode, decode, and say how many ids it uses.
class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  virtual std::vector<int64_t> encode(const std::string& text) const = 0;
  virtual std::string decode(const std::vector<int64_t>& ids) const = 0;
  virtual int64_t vocab_size() const = 0;
};

// One id per Unicode character (a UTF-8 sequence; a byte that starts no valid sequence counts as a
// character of its own). Id 0 is the unknown token "<UNK>", then the special tokens, then the
// characters in byte order.
class CharTokenizer : public Tokenizer {
 public:
  static constexpr const char* kUnknownToken = "<UNK>";

  // The vocabulary given: "<UNK>" first, then the special tokens, then `characters` in the order
  // given (duplicates dropped, the first occurrence wins). Each entry of `characters` must be one
  // character.
  explicit CharTokenizer(const std::vector<std::string>& characters = {},
                         const std::vector<std::string>& special_tokens = {});

  // Replaces the characters with every distinct character of `corpus`, in byte order (the unknown
  // and special tokens stay first).
  void build_vocab(const std::vector<std::string>& corpus);

  // Unknown characters encode to unk_id(); a special token's text to its id.
  std::vector<int64_t> encode(const std::string& text) const override;
  // Every id must be in [0, vocab_size()); the unknown id decodes to "<UNK>".
  std::string decode(const std::vector<int64_t>& ids) const override;
  int64_t vocab_size() const override { return static_cast<int64_t>(vocab_.size()); }

  int64_t unk_id() const { return 0; }
  const std::vector<std::string>& vocab() const { return vocab_; }
  // The id of a character or special token; throws if it has none.
  int64_t token_id(const std::string& token) const;

 private:
  void index_vocab();  // char_to_id_ from vocab_

  SpecialTokens special_;
  std::vector<std::string> vocab_;  // id -> text
  std::unordered_map<std::string, int64_t> char_to_id_;
};

// The characters of a text, one string each: a valid UTF-8 sequence (1-4 bytes), or a single byte
// where the bytes start no valid sequence. Concatenated they give the text back. (Learner code.)
std::vector<std::string> utf8_characters(const std::string& text);

// ---- The steps of byte-level BPE (learner code, used by BPETokenizer) ----
using TokenPair = std::pair<int64_t, int64_t>;

// How often each adjacent pair of ids occurs: words[w] occurs counts[w] times in the corpus, so each
// of its adjacent pairs counts counts[w] times. Overlapping pairs all count: {a, a, a} holds (a, a) twice.
std::map<TokenPair, int64_t> count_pairs(const std::vector<std::vector<int64_t>>& words,
                                         const std::vector<int64_t>& counts);

// `tokens` with every occurrence of `pair` replaced by `new_id`, scanning left to right; a token is
// used by one merge at most, so {a, a, a} merging (a, a) gives {new_id, a}.
std::vector<int64_t> merge_pair(const std::vector<int64_t>& tokens, TokenPair pair, int64_t new_id);

// Byte-level BPE with special tokens; see the top of this file for its ids.
class BPETokenizer : public Tokenizer {
 public:
  static constexpr int64_t kByteTokens = 256;

  explicit BPETokenizer(const std::vector<std::string>& special_tokens = {});

  // Learns vocab_size - 256 - (number of special tokens) merges from `text` (forgetting any learned
  // before): repeatedly the most frequent adjacent pair (ties: the smallest pair of ids) becomes a new
  // token. Merges never cross a word boundary (before every space and newline) or a special token.
  // Stops early when no pair is left. vocab_size must leave room for the bytes and special tokens.
  void train(const std::string& text, int64_t vocab_size);

  std::vector<int64_t> encode(const std::string& text) const override;
  // Every id must be in [0, vocab_size()). The bytes of the tokens, concatenated: not necessarily
  // valid UTF-8 when the ids are a slice of an encoding.
  std::string decode(const std::vector<int64_t>& ids) const override;
  int64_t vocab_size() const override;

  // The merges in the order learned: merges()[r] made the id 256 + r.
  const std::vector<TokenPair>& merges() const { return merges_; }
  const std::vector<std::string>& special_tokens() const { return special_.tokens(); }
  // The bytes an id stands for (a special token's text for a special id).
  const std::string& token_bytes(int64_t id) const;
  // The id of a special token, or of a single-token byte string; throws if it has none.
  int64_t token_id(const std::string& token) const;

  // A text file: a header line, one "special <token>" line per special token, one "merge <left>
  // <right>" line per merge in order. load() checks every line and names the file and line of the
  // first problem.
  void save(const std::string& path) const;
  static BPETokenizer load(const std::string& path);

  // The ids of one word (no special tokens in it): its bytes, then the merges applied by rank, the
  // earliest learned first, as training applied them. (Learner code.)
  std::vector<int64_t> encode_word(const std::string& word) const;

 private:
  void add_merge(TokenPair pair);  // the next id: records its bytes and rank

  SpecialTokens special_;
  std::vector<TokenPair> merges_;
  std::map<TokenPair, int64_t> merge_rank_;  // pair -> index in merges_
  std::vector<std::string> token_bytes_;     // id -> bytes, for bytes and merges
};

// A text cut into BPE's words: a new word starts before every space and newline byte, so " world"
// keeps its leading space. Concatenated they give the text back.
std::vector<std::string> split_words(const std::string& text);

// Token id sequences as one (N, L) Long tensor, L the longest sequence's length (or max_length when
// positive: longer sequences are cut), shorter ones filled with padding_id on the right. LibTorch's
// torch::nn::utils::rnn::pad_sequence(tensors, /*batch_first=*/true, padding_id) does the same from tensors.
Tensor to_tensor(const std::vector<std::vector<int64_t>>& sequences, int64_t padding_id = 0, int64_t max_length = 0);

// What a tokenizer makes of some texts: the figures the lesson's trade-off table is made of.
struct TokenizationStats {
  int64_t vocab_size = 0;
  int64_t total_bytes = 0;
  int64_t total_tokens = 0;
  int64_t max_sequence_length = 0;
  double average_sequence_length = 0;
  double bytes_per_token = 0;  // the compression ratio
  int64_t unique_tokens = 0;
};
TokenizationStats analyze_tokenization(const std::vector<std::string>& texts, const Tokenizer& tokenizer);

}  // namespace text
}  // namespace tinytorch
