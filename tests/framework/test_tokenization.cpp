// Module 10's given code: special tokens, the BPE training loop's checks, the merges file and its
// errors, to_tensor and analyze_tokenization (the learner's functions are graded by
// curriculum/10_tokenization/tests; here they run as the reference wrote them).
#include <catch2/catch.hpp>
#include <tinytorch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace text = torch::text;
using Ids = std::vector<int64_t>;
using Catch::Matchers::Contains;

namespace {

std::string temporary_file(const std::string& name, const std::string& contents) {
  const char* folder = std::getenv("TMPDIR");
  const std::string path = std::string(folder ? folder : "/tmp") + "/tinytorch_framework_" + name;
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

}  // namespace

TEST_CASE("SpecialTokens cuts a text at its tokens, the longest first") {
  const text::SpecialTokens special({"<a>", "<a>b", "<pad>"});
  const auto pieces = special.split("x<a>b<a>y<pad>");
  REQUIRE(pieces.size() == 5);
  CHECK(pieces[0].text == "x");
  CHECK(pieces[0].special_index == -1);
  CHECK(pieces[1].text == "<a>b");  // "<a>b" is longer than "<a>" at the same place
  CHECK(pieces[1].special_index == 1);
  CHECK(pieces[2].special_index == 0);
  CHECK(pieces[3].text == "y");
  CHECK(pieces[4].special_index == 2);
  CHECK(special.split("").empty());

  CHECK_THROWS_WITH(text::SpecialTokens({""}), Contains("must not be empty"));
  CHECK_THROWS_WITH(text::SpecialTokens({"<end of text>"}), Contains("contains whitespace"));
  CHECK_THROWS_WITH(text::SpecialTokens({"<pad>", "<pad>"}), Contains("is given twice"));
}

TEST_CASE("split_words starts a word before every space and newline") {
  CHECK(text::split_words("hello world  x\ny") ==
        std::vector<std::string>{"hello", " world", " ", " x", "\ny"});
  CHECK(text::split_words(" a") == std::vector<std::string>{" a"});
  CHECK(text::split_words("").empty());
}

TEST_CASE("CharTokenizer: given vocabulary, special ids and errors") {
  text::CharTokenizer tokenizer({"b", "a", "b", "\xC3\xA9"}, {"<eos>"});
  CHECK(tokenizer.vocab() == std::vector<std::string>{"<UNK>", "<eos>", "b", "a", "\xC3\xA9"});
  CHECK(tokenizer.encode("ab<eos>\xC3\xA9z") == Ids{3, 2, 1, 4, 0});
  CHECK(tokenizer.decode({3, 1, 0}) == "a<eos><UNK>");
  CHECK(tokenizer.token_id("<eos>") == 1);
  CHECK_THROWS_WITH(tokenizer.token_id("z"), Contains("\"z\" is not in the vocabulary"));
  CHECK_THROWS_WITH(tokenizer.decode({-1}), Contains("token id -1 is out of range"));
  CHECK_THROWS_WITH(text::CharTokenizer({"ab"}), Contains("must be exactly one character"));
  // build_vocab keeps <UNK> and the special tokens first and replaces the characters.
  tokenizer.build_vocab({"zz"});
  CHECK(tokenizer.vocab() == std::vector<std::string>{"<UNK>", "<eos>", "z"});
}

TEST_CASE("BPETokenizer: vocabulary layout, token ids and decode checks") {
  text::BPETokenizer tokenizer({"<|endoftext|>"});
  CHECK(tokenizer.vocab_size() == 257);  // untrained: bytes and the special token
  CHECK(tokenizer.encode("hi<|endoftext|>") == Ids{'h', 'i', 256});
  tokenizer.train("aaaa aaaa", 300);
  // Words "aaaa" and " aaaa": (a,a) 6 -> 256 "aa"; then (256,256) 2 -> 257; then (32,257) 1 -> 258.
  CHECK(tokenizer.merges() == std::vector<text::TokenPair>{{97, 97}, {256, 256}, {32, 257}});
  CHECK(tokenizer.vocab_size() == 260);  // stopped early: 256 + 3 merges + 1 special
  CHECK(tokenizer.token_id("<|endoftext|>") == 259);
  CHECK(tokenizer.token_id("aa") == 256);
  CHECK(tokenizer.token_bytes(258) == " aaaa");
  CHECK(tokenizer.decode({257, 259, 97}) == "aaaa<|endoftext|>a");
  CHECK_THROWS_WITH(tokenizer.decode({260}), Contains("token id 260 is out of range") && Contains("ids 0 to 259"));
  CHECK_THROWS_WITH(tokenizer.token_id("aaa"), Contains("neither a special token nor one learned token"));
  CHECK_THROWS_WITH(tokenizer.train("a", 256), Contains("Fix: pass vocab_size >= 257"));
  // Training again forgets the earlier merges.
  tokenizer.train("xy", 258);
  CHECK(tokenizer.merges() == std::vector<text::TokenPair>{{'x', 'y'}});
}

TEST_CASE("BPETokenizer::load names the file and line of a damaged merges file") {
  const std::string header = "tinytorch-bpe 1\n";
  struct Damage {
    std::string contents, expected;
  };
  const std::vector<Damage> damages = {
      {"tinytorch-bpe 2\n", "line 1: expected the header \"tinytorch-bpe 1\""},
      {header + "merge 97 98\nspecial <s>\n", "line 3: a special token after the merges"},
      {header + "special <s> <t>\n", "line 2: expected \"special <token>\""},
      {header + "special <s>\nspecial <s>\n", "line 3: the special token <s> is listed twice"},
      {header + "merge 97 98\nmerge 256 257\n", "line 3: the merge (256, 257) names a token that does not exist yet"},
      {header + "merge 97 98\nmerge 97 98\n", "line 3: the merge (97, 98) is listed twice"},
      {header + "merge -1 98\n", "line 2: the merge (-1, 98)"},
      {header + "merges 97 98\n", "line 2: expected a \"special\" or \"merge\" line"},
  };
  for (const Damage& damage : damages) {
    const std::string path = temporary_file("damaged_merges.txt", damage.contents);
    CHECK_THROWS_WITH(text::BPETokenizer::load(path),
                      Contains(path + ", " + damage.expected) && Contains("Fix: the file is damaged"));
    std::remove(path.c_str());
  }
  const std::string good = temporary_file("good_merges.txt", header + "special <s>\n\nmerge 97 98\nmerge 256 99\n");
  const text::BPETokenizer loaded = text::BPETokenizer::load(good);
  CHECK(loaded.encode("abc<s>") == Ids{257, 258});
  std::remove(good.c_str());
}

TEST_CASE("to_tensor pads on the right and cuts at max_length") {
  const torch::Tensor batch = text::to_tensor({{1, 2, 3}, {4}, {}}, 9);
  CHECK(batch.dtype() == torch::kLong);
  CHECK(batch.sizes() == std::vector<int64_t>{3, 3});
  CHECK(torch::equal(batch, torch::tensor({{1, 2, 3}, {4, 9, 9}, {9, 9, 9}})));
  const torch::Tensor cut = text::to_tensor({{1, 2, 3}, {4}}, 0, 2);
  CHECK(torch::equal(cut, torch::tensor({{1, 2}, {4, 0}})));
  CHECK(text::to_tensor({}, 0).sizes() == std::vector<int64_t>{0, 0});
  CHECK_THROWS_WITH(text::to_tensor({{1}}, 0, -1), Contains("max_length must be >= 0"));
}

TEST_CASE("analyze_tokenization counts bytes, tokens and distinct ids") {
  text::CharTokenizer chars;
  chars.build_vocab({"abc"});
  const text::TokenizationStats stats = text::analyze_tokenization({"abca", "b\xC3\xA9"}, chars);
  CHECK(stats.vocab_size == 4);
  CHECK(stats.total_bytes == 7);
  CHECK(stats.total_tokens == 6);  // é is one (unknown) character of two bytes
  CHECK(stats.max_sequence_length == 4);
  CHECK(stats.average_sequence_length == 3.0);
  CHECK(stats.bytes_per_token == Approx(7.0 / 6.0));
  CHECK(stats.unique_tokens == 4);  // a, b, c and <UNK>
}

TEST_CASE("pad_sequence: LibTorch's layouts, dtype of the first sequence, its error") {
  namespace rnn = torch::nn::utils::rnn;
  const torch::Tensor a = torch::tensor({1, 2, 3}), b = torch::tensor({4});
  CHECK(torch::equal(rnn::pad_sequence({a, b}), torch::tensor({{1, 4}, {2, 0}, {3, 0}})));  // (T, B)
  CHECK(torch::equal(rnn::pad_sequence({a, b}, true, 7), torch::tensor({{1, 2, 3}, {4, 7, 7}})));
  const torch::Tensor mixed = rnn::pad_sequence({a, torch::tensor({2.5})}, true);
  CHECK(mixed.dtype() == torch::kLong);
  CHECK(torch::equal(mixed, torch::tensor({{1, 2, 3}, {2, 0, 0}})));
  // The same batch as to_tensor makes from the ids.
  CHECK(torch::equal(rnn::pad_sequence({a, b}, true), text::to_tensor({{1, 2, 3}, {4}})));
  CHECK_THROWS_WITH(rnn::pad_sequence(std::vector<torch::Tensor>{}), Contains("received an empty list of sequences"));
  CHECK_THROWS_WITH(rnn::pad_sequence({torch::tensor(3)}), Contains("0-dim tensor"));
}
