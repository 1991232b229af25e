// Module 10 (Tokenization), learner file: the character tokenizer (lesson sections 2 and 3).
// The given code (tokenizers.cpp) builds the vocabulary's first entries ("<UNK>" at id 0, then the
// special tokens) and the lookup table char_to_id_ from vocab_ (index_vocab()); it cuts texts at
// special tokens (special_.split).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "tinytorch/errors.h"
#include "tinytorch/tokenization.h"

namespace tinytorch {
namespace text {

// TODO: utf8_characters(text) -> its characters in order, each a std::string of its bytes
//   (section 2). A complete, valid UTF-8 sequence (section 2's table of lead and continuation bytes)
//   is one character; a byte that does not start one (a stray continuation byte, 0xC0, 0xC1,
//   0xF5-0xFF, a sequence cut short) is a character of one byte on its own. No byte is lost:
//   joining the result gives text back. Throws nothing. Bytes are unsigned: on x86 a plain char is
//   negative above 0x7F.
//   Example: "h\xC3\xA9!" (hé!) -> {"h", "\xC3\xA9", "!"}; "\xC3!" -> {"\xC3", "!"}.
std::vector<std::string> utf8_characters(const std::string& text) {
  std::vector<std::string> characters;
  // BEGIN SOLUTION name="tinytorch::text::utf8_characters" lesson="2. Characters and UTF-8"
  size_t at = 0;
  while (at < text.size()) {
    const auto lead = static_cast<unsigned char>(text[at]);
    size_t length = 1;
    if (lead >= 0xC2 && lead <= 0xDF) length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF) length = 3;
    else if (lead >= 0xF0 && lead <= 0xF4) length = 4;
    bool complete = at + length <= text.size();
    for (size_t k = 1; complete && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[at + k]);
      complete = next >= 0x80 && next <= 0xBF;
    }
    if (!complete) length = 1;
    characters.push_back(text.substr(at, length));
    at += length;
  }
  // END SOLUTION
  return characters;
}

// TODO: CharTokenizer::build_vocab(corpus) -- vocab_ becomes "<UNK>" and the special tokens (kept
//   from the given resize), then every distinct character of every text of the corpus, once, in
//   byte order; a character that is already a special token is not added twice. (section 3)
//   Example: {"hello", "world"} -> <UNK>, d, e, h, l, o, r, w (vocab_size 8).
void CharTokenizer::build_vocab(const std::vector<std::string>& corpus) {
  vocab_.resize(static_cast<size_t>(1 + special_.size()));  // "<UNK>" and the special tokens stay
  // BEGIN SOLUTION name="tinytorch::text::CharTokenizer::build_vocab" lesson="3. A character tokenizer"
  std::set<std::string> seen;
  for (const std::string& text : corpus)
    for (std::string& character : utf8_characters(text)) seen.insert(std::move(character));
  for (const std::string& character : seen)
    if (std::find(vocab_.begin(), vocab_.end(), character) == vocab_.end()) vocab_.push_back(character);
  // END SOLUTION
  index_vocab();
}

// TODO: CharTokenizer::encode -- the ids of a plain piece of text, one per character: its id in
//   char_to_id_, or unk_id() for a character the vocabulary does not have. (section 3)
//   Example (vocab above): "hold" -> {3, 5, 4, 1}; "hi!" -> {3, 0, 0}.
std::vector<int64_t> CharTokenizer::encode(const std::string& text) const {
  std::vector<int64_t> ids;
  for (const SpecialTokens::Piece& piece : special_.split(text)) {
    if (piece.special_index >= 0) {
      ids.push_back(1 + piece.special_index);  // the special tokens follow "<UNK>"
      continue;
    }
    // BEGIN SOLUTION name="tinytorch::text::CharTokenizer::encode" lesson="3. A character tokenizer"
    for (const std::string& character : utf8_characters(piece.text)) {
      const auto found = char_to_id_.find(character);
      ids.push_back(found == char_to_id_.end() ? unk_id() : found->second);
    }
    // END SOLUTION
  }
  return ids;
}

// TODO: CharTokenizer::decode -- the text of each id (vocab_[id]) one after the other. The ids have
//   been checked to be in range; the unknown id gives "<UNK>". (section 3)
//   Example (vocab above): {3, 5, 4, 1} -> "hold".
std::string CharTokenizer::decode(const std::vector<int64_t>& ids) const {
  for (const int64_t id : ids)
    TT_CHECK(id >= 0 && id < vocab_size(), "CharTokenizer: token id ", id, " is out of range: the vocabulary has ",
             vocab_size(), " entries (ids 0 to ", vocab_size() - 1, "). Fix: decode ids made by this tokenizer's encode");
  std::string text;
  // BEGIN SOLUTION name="tinytorch::text::CharTokenizer::decode" lesson="3. A character tokenizer"
  for (const int64_t id : ids) text += vocab_[static_cast<size_t>(id)];
  // END SOLUTION
  return text;
}

}  // namespace text
}  // namespace tinytorch
