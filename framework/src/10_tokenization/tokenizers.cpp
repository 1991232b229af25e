// Given code for module 10 (Tokenization): everything around the learner's functions. Special tokens,
// the BPE training loop (which calls the learner's count_pairs and merge_pair), encoding a text word by
// word (the learner's encode_word), decoding, the merges file, and turning id sequences into a tensor.
#include "tinytorch/tokenization.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "tinytorch/errors.h"
#include "tinytorch/factories.h"

namespace tinytorch {
namespace text {

namespace {
constexpr const char* kMergesFileHeader = "tinytorch-bpe 1";

bool has_whitespace(const std::string& token) {
  return std::any_of(token.begin(), token.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); });
}
}  // namespace

// ---- Special tokens ----

SpecialTokens::SpecialTokens(std::vector<std::string> tokens) : tokens_(std::move(tokens)) {
  std::set<std::string> seen;
  for (const std::string& token : tokens_) {
    TT_CHECK(!token.empty(), "special tokens must not be empty. Fix: remove the empty string from the special tokens");
    TT_CHECK(!has_whitespace(token), "the special token \"", token,
             "\" contains whitespace, which the merges file cannot store. Fix: spell it without spaces or "
             "newlines, e.g. \"<|endoftext|>\"");
    TT_CHECK(seen.insert(token).second, "the special token \"", token,
             "\" is given twice. Fix: list each special token once");
  }
}

std::vector<SpecialTokens::Piece> SpecialTokens::split(const std::string& text) const {
  std::vector<Piece> pieces;
  std::string plain;
  size_t at = 0;
  while (at < text.size()) {
    int64_t found = -1;
    for (size_t i = 0; i < tokens_.size(); ++i)
      if (text.compare(at, tokens_[i].size(), tokens_[i]) == 0 &&
          (found < 0 || tokens_[i].size() > tokens_[static_cast<size_t>(found)].size()))
        found = static_cast<int64_t>(i);
    if (found < 0) {
      plain += text[at++];
      continue;
    }
    if (!plain.empty()) pieces.push_back({std::move(plain), -1});
    plain.clear();
    pieces.push_back({tokens_[static_cast<size_t>(found)], found});
    at += tokens_[static_cast<size_t>(found)].size();
  }
  if (!plain.empty()) pieces.push_back({std::move(plain), -1});
  return pieces;
}

// ---- CharTokenizer: the parts the learner does not write ----

CharTokenizer::CharTokenizer(const std::vector<std::string>& characters, const std::vector<std::string>& special_tokens)
    : special_(special_tokens) {
  vocab_.push_back(kUnknownToken);
  for (const std::string& token : special_.tokens()) vocab_.push_back(token);
  for (const std::string& character : characters) {
    TT_CHECK(utf8_characters(character).size() == 1, "CharTokenizer: the vocabulary entry \"", character, "\" is ",
             utf8_characters(character).size(),
             " characters, but each entry must be exactly one character. Fix: list the characters one by one, "
             "or use build_vocab(corpus)");
    if (std::find(vocab_.begin(), vocab_.end(), character) == vocab_.end()) vocab_.push_back(character);
  }
  index_vocab();
}

void CharTokenizer::index_vocab() {
  char_to_id_.clear();
  for (size_t id = 0; id < vocab_.size(); ++id) char_to_id_.emplace(vocab_[id], static_cast<int64_t>(id));
}

int64_t CharTokenizer::token_id(const std::string& token) const {
  const auto found = char_to_id_.find(token);
  TT_CHECK(found != char_to_id_.end(), "CharTokenizer: \"", token,
           "\" is not in the vocabulary. Fix: build_vocab on a corpus that contains it, or pass it as a special token");
  return found->second;
}

// ---- BPETokenizer ----

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  for (const char byte : text) {
    if ((byte == ' ' || byte == '\n') && !word.empty()) words.push_back(std::move(word)), word.clear();
    word += byte;
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

BPETokenizer::BPETokenizer(const std::vector<std::string>& special_tokens) : special_(special_tokens) {
  for (int64_t byte = 0; byte < kByteTokens; ++byte) token_bytes_.push_back(std::string(1, static_cast<char>(byte)));
}

int64_t BPETokenizer::vocab_size() const {
  return kByteTokens + static_cast<int64_t>(merges_.size()) + special_.size();
}

void BPETokenizer::add_merge(TokenPair pair) {
  merge_rank_.emplace(pair, static_cast<int64_t>(merges_.size()));
  merges_.push_back(pair);
  token_bytes_.push_back(token_bytes_[static_cast<size_t>(pair.first)] + token_bytes_[static_cast<size_t>(pair.second)]);
}

void BPETokenizer::train(const std::string& text, int64_t vocab_size) {
  const int64_t smallest = kByteTokens + special_.size();
  TT_CHECK(vocab_size >= smallest, "BPETokenizer::train: vocab_size ", vocab_size, " leaves no room for the ",
           kByteTokens, " byte tokens and ", special_.size(), " special tokens. Fix: pass vocab_size >= ", smallest,
           " (", smallest, " learns no merge)");
  merges_.clear();
  merge_rank_.clear();
  token_bytes_.resize(static_cast<size_t>(kByteTokens));

  // Each distinct word once, with how often it occurs: counting pairs costs the distinct words only.
  std::map<std::string, int64_t> word_counts;
  for (const SpecialTokens::Piece& piece : special_.split(text))
    if (piece.special_index < 0)
      for (const std::string& word : split_words(piece.text)) ++word_counts[word];
  std::vector<std::vector<int64_t>> words;
  std::vector<int64_t> counts;
  for (const auto& [word, count] : word_counts) {
    if (word.size() < 2) continue;  // holds no pair, now or ever
    words.emplace_back();
    for (const char byte : word) words.back().push_back(static_cast<unsigned char>(byte));
    counts.push_back(count);
  }

  const int64_t merges_wanted = vocab_size - smallest;
  while (static_cast<int64_t>(merges_.size()) < merges_wanted) {
    const std::map<TokenPair, int64_t> pair_counts = count_pairs(words, counts);
    if (pair_counts.empty()) break;  // every word is one token
    // The most frequent pair; among equals the smallest, as the map is ordered and only a larger count wins.
    auto best = pair_counts.begin();
    for (auto it = pair_counts.begin(); it != pair_counts.end(); ++it)
      if (it->second > best->second) best = it;
    const int64_t new_id = kByteTokens + static_cast<int64_t>(merges_.size());
    add_merge(best->first);
    for (std::vector<int64_t>& word : words)
      if (word.size() >= 2) word = merge_pair(word, best->first, new_id);
  }
}

std::vector<int64_t> BPETokenizer::encode(const std::string& text) const {
  std::vector<int64_t> ids;
  const int64_t first_special = kByteTokens + static_cast<int64_t>(merges_.size());
  for (const SpecialTokens::Piece& piece : special_.split(text)) {
    if (piece.special_index >= 0) {
      ids.push_back(first_special + piece.special_index);
      continue;
    }
    for (const std::string& word : split_words(piece.text)) {
      const std::vector<int64_t> word_ids = encode_word(word);
      ids.insert(ids.end(), word_ids.begin(), word_ids.end());
    }
  }
  return ids;
}

const std::string& BPETokenizer::token_bytes(int64_t id) const {
  // A negative id is what an encode that read a byte above 0x7F through a (signed) plain char makes:
  // the fix is then in the encoding, not in the ids handed to decode.
  TT_CHECK(id >= 0 && id < vocab_size(), "BPETokenizer: token id ", id, " is out of range: this tokenizer has ",
           vocab_size(), " tokens (ids 0 to ", vocab_size() - 1, "). Fix: ",
           id < 0 ? "no encoding gives a negative id; if this tokenizer's encode made it, encode_word read a byte above "
                    "0x7F as a negative char: turn each byte into its id through unsigned char (ids 0-255)"
                  : "decode ids made by this tokenizer's encode, or by one with the same merges and special tokens");
  const int64_t first_special = kByteTokens + static_cast<int64_t>(merges_.size());
  if (id >= first_special) return special_.tokens()[static_cast<size_t>(id - first_special)];
  return token_bytes_[static_cast<size_t>(id)];
}

std::string BPETokenizer::decode(const std::vector<int64_t>& ids) const {
  std::string text;
  for (const int64_t id : ids) text += token_bytes(id);
  return text;
}

int64_t BPETokenizer::token_id(const std::string& token) const {
  const auto& specials = special_.tokens();
  const auto special = std::find(specials.begin(), specials.end(), token);
  if (special != specials.end())
    return kByteTokens + static_cast<int64_t>(merges_.size()) + (special - specials.begin());
  const auto found = std::find(token_bytes_.begin(), token_bytes_.end(), token);
  TT_CHECK(found != token_bytes_.end(), "BPETokenizer: \"", token,
           "\" is neither a special token nor one learned token. Fix: pass it as a special token to the constructor, "
           "or encode() it into several ids");
  return found - token_bytes_.begin();
}

void BPETokenizer::save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary);
  TT_CHECK(out.good(), "BPETokenizer::save: cannot write the file ", path,
           ". Fix: check that its folder exists and is writable");
  out << kMergesFileHeader << '\n';
  for (const std::string& token : special_.tokens()) out << "special " << token << '\n';
  for (const TokenPair& pair : merges_) out << "merge " << pair.first << ' ' << pair.second << '\n';
  out.flush();
  TT_CHECK(out.good(), "BPETokenizer::save: writing ", path, " failed (disk full?)");
}

BPETokenizer BPETokenizer::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  TT_CHECK(in.good(), "BPETokenizer::load: cannot open the file ", path,
           ". Fix: check the path; the file is what BPETokenizer::save wrote");
  std::string line;
  int64_t line_number = 0;
  const auto where = [&] { return detail::str(path, ", line ", line_number, ": "); };
  const std::string fix = ". Fix: the file is damaged or not a merges file: write it again with BPETokenizer::save";

  ++line_number;
  TT_CHECK(std::getline(in, line) && line == kMergesFileHeader, "BPETokenizer::load: ", where(), "expected the header \"",
           kMergesFileHeader, "\", got \"", line, "\"", fix);
  std::vector<std::string> specials;
  std::vector<TokenPair> merges;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    std::istringstream fields(line);
    std::string kind;
    fields >> kind;
    if (kind == "special") {
      TT_CHECK(merges.empty(), "BPETokenizer::load: ", where(), "a special token after the merges", fix);
      std::string token, extra;
      TT_CHECK(static_cast<bool>(fields >> token) && !(fields >> extra), "BPETokenizer::load: ", where(),
               "expected \"special <token>\", got \"", line, "\"", fix);
      TT_CHECK(std::find(specials.begin(), specials.end(), token) == specials.end(), "BPETokenizer::load: ", where(),
               "the special token ", token, " is listed twice", fix);
      specials.push_back(token);
    } else if (kind == "merge") {
      int64_t left = -1, right = -1;
      std::string extra;
      TT_CHECK(static_cast<bool>(fields >> left >> right) && !(fields >> extra), "BPETokenizer::load: ", where(),
               "expected \"merge <left id> <right id>\", got \"", line, "\"", fix);
      const int64_t known = kByteTokens + static_cast<int64_t>(merges.size());
      TT_CHECK(left >= 0 && left < known && right >= 0 && right < known, "BPETokenizer::load: ", where(), "the merge (",
               left, ", ", right, ") names a token that does not exist yet (ids 0 to ", known - 1, " exist here)", fix);
      TT_CHECK(std::find(merges.begin(), merges.end(), TokenPair(left, right)) == merges.end(), "BPETokenizer::load: ",
               where(), "the merge (", left, ", ", right, ") is listed twice", fix);
      merges.emplace_back(left, right);
    } else {
      TT_CHECK(false, "BPETokenizer::load: ", where(), "expected a \"special\" or \"merge\" line, got \"", line, "\"",
               fix);
    }
  }
  BPETokenizer tokenizer(specials);
  for (const TokenPair& pair : merges) tokenizer.add_merge(pair);
  return tokenizer;
}

// ---- Tensors and figures ----

Tensor to_tensor(const std::vector<std::vector<int64_t>>& sequences, int64_t padding_id, int64_t max_length) {
  TT_CHECK(max_length >= 0, "to_tensor: max_length must be >= 0 (0: the longest sequence), got ", max_length);
  int64_t length = 0;
  for (const auto& sequence : sequences) length = std::max(length, static_cast<int64_t>(sequence.size()));
  if (max_length > 0) length = max_length;
  Tensor batch = full({static_cast<int64_t>(sequences.size()), length}, padding_id, TensorOptions().dtype(kLong));
  int64_t* out = batch.data_ptr<int64_t>();
  for (size_t row = 0; row < sequences.size(); ++row) {
    const int64_t kept = std::min(length, static_cast<int64_t>(sequences[row].size()));
    std::copy(sequences[row].begin(), sequences[row].begin() + kept, out + static_cast<int64_t>(row) * length);
  }
  return batch;
}

TokenizationStats analyze_tokenization(const std::vector<std::string>& texts, const Tokenizer& tokenizer) {
  TokenizationStats stats;
  stats.vocab_size = tokenizer.vocab_size();
  std::set<int64_t> used;
  for (const std::string& text : texts) {
    const std::vector<int64_t> ids = tokenizer.encode(text);
    stats.total_bytes += static_cast<int64_t>(text.size());
    stats.total_tokens += static_cast<int64_t>(ids.size());
    stats.max_sequence_length = std::max(stats.max_sequence_length, static_cast<int64_t>(ids.size()));
    used.insert(ids.begin(), ids.end());
  }
  stats.unique_tokens = static_cast<int64_t>(used.size());
  if (!texts.empty()) stats.average_sequence_length = static_cast<double>(stats.total_tokens) / texts.size();
  if (stats.total_tokens > 0) stats.bytes_per_token = static_cast<double>(stats.total_bytes) / stats.total_tokens;
  return stats;
}

}  // namespace text
}  // namespace tinytorch
