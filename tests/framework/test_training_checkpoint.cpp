// Module 08's checkpoints: torch::save / torch::load of modules, optimizers and tensors, and the
// Trainer's checkpoint. The central property: training k steps, saving, loading into fresh
// objects and training on gives bit for bit what training on without the round trip gives.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace nn = torch::nn;
namespace training = torch::training;

namespace {

// A file name in the temporary directory, removed when the test ends.
struct TemporaryFile {
  std::string path;
  explicit TemporaryFile(const std::string& name) : path("/tmp/tinytorch_test_" + name + "_" + std::to_string(::getpid())) {}
  ~TemporaryFile() {
    std::remove(path.c_str());
    std::remove((path + ".tmp").c_str());
  }
};

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

nn::Sequential make_mlp() { return nn::Sequential(nn::Linear(3, 5), nn::ReLU(), nn::Linear(5, 2)); }

// A fixed classification problem: 8 samples of 3 features, 2 classes.
torch::Tensor inputs() {
  torch::manual_seed(7);
  return torch::randn({8, 3});
}
torch::Tensor labels() { return torch::tensor({0, 1, 1, 0, 1, 0, 0, 1}); }

void train_steps(nn::Sequential& model, torch::optim::Optimizer& optimizer, int steps) {
  const torch::Tensor x = inputs(), y = labels();
  for (int i = 0; i < steps; ++i) {
    optimizer.zero_grad();
    torch::cross_entropy_loss(model->forward(x), y).backward();
    optimizer.step();
  }
}

void require_same_parameters(const nn::Sequential& a, const nn::Sequential& b) {
  const auto pa = a->named_parameters(), pb = b->named_parameters();
  REQUIRE(pa.size() == pb.size());
  for (size_t i = 0; i < pa.size(); ++i) {
    INFO(pa[i].key());
    CHECK(pa[i].value().equal(pb[i].value()));  // bit for bit, not approximately
  }
}

}  // namespace

TEST_CASE("training: save, load into fresh objects, train on: bit-identical to training on (Adam)", "[training][checkpoint]") {
  TemporaryFile model_file("model"), optimizer_file("optimizer");
  torch::manual_seed(1);
  auto model = make_mlp();
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(0.01));
  train_steps(model, optimizer, 5);
  torch::save(model, model_file.path);
  torch::save(optimizer, optimizer_file.path);
  train_steps(model, optimizer, 5);

  torch::manual_seed(2);  // different initial weights: the load must overwrite all of them
  auto resumed = make_mlp();
  torch::optim::Adam resumed_optimizer(resumed->parameters(), torch::optim::AdamOptions(0.01));
  const torch::Tensor weight_before = resumed->named_parameters()["0.weight"];
  torch::load(resumed, model_file.path);
  torch::load(resumed_optimizer, optimizer_file.path);
  // The load copied into the model's own tensors, which the optimizer holds.
  CHECK(resumed->named_parameters()["0.weight"].is_same(weight_before));
  train_steps(resumed, resumed_optimizer, 5);
  require_same_parameters(model, resumed);
}

TEST_CASE("training: without the optimizer's state the resumed run differs", "[training][checkpoint]") {
  // The control experiment: Adam's moments matter, so a fresh optimizer does not continue exactly.
  TemporaryFile model_file("model_only");
  torch::manual_seed(1);
  auto model = make_mlp();
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(0.01));
  train_steps(model, optimizer, 5);
  torch::save(model, model_file.path);
  train_steps(model, optimizer, 5);
  auto resumed = make_mlp();
  torch::load(resumed, model_file.path);
  torch::optim::Adam fresh(resumed->parameters(), torch::optim::AdamOptions(0.01));
  train_steps(resumed, fresh, 5);
  CHECK_FALSE(model->named_parameters()["0.weight"].equal(resumed->named_parameters()["0.weight"]));
}

TEST_CASE("training: a checkpoint's size is the parameters plus the optimizer state plus a small overhead", "[training][checkpoint][memory]") {
  TemporaryFile model_file("size_model"), optimizer_file("size_optimizer");
  auto model = make_mlp();  // 3*5 + 5 + 5*2 + 2 = 32 floats = 128 bytes
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(0.01));
  train_steps(model, optimizer, 1);
  torch::save(model, model_file.path);
  torch::save(optimizer, optimizer_file.path);
  const size_t model_bytes = read_bytes(model_file.path).size();
  const size_t optimizer_bytes = read_bytes(optimizer_file.path).size();
  CHECK(model_bytes >= 128);
  CHECK(model_bytes < 128 + 400);              // 4 records: key, dtype, sizes; a header and a hash
  CHECK(optimizer_bytes >= 2 * 128);           // Adam: exp_avg and exp_avg_sq per parameter
  CHECK(optimizer_bytes < 2 * 128 + 2000);
  CHECK(torch::optim::memory_footprint(optimizer) == 2 * 128);
}

TEST_CASE("training: loading a checkpoint into a different model names the key and both shapes", "[training][checkpoint][errors]") {
  TemporaryFile file("shapes");
  auto model = make_mlp();
  torch::save(model, file.path);

  auto wider = nn::Sequential(nn::Linear(3, 6), nn::ReLU(), nn::Linear(6, 2));
  const torch::Tensor before = wider->named_parameters()["2.weight"].clone();
  CHECK_THROWS_WITH(torch::load(wider, file.path),
                    Catch::Contains("'0.weight'") && Catch::Contains("[5, 3]") && Catch::Contains("[6, 3]"));
  // Nothing was copied: the check runs before any copy.
  CHECK(wider->named_parameters()["2.weight"].equal(before));

  auto deeper = nn::Sequential(nn::Linear(3, 5), nn::ReLU(), nn::Linear(5, 2), nn::Linear(2, 2));
  CHECK_THROWS_WITH(torch::load(deeper, file.path), Catch::Contains("no tensor '3.weight'"));

  auto shallower = nn::Sequential(nn::Linear(3, 5));
  CHECK_THROWS_WITH(torch::load(shallower, file.path), Catch::Contains("'2.weight'") && Catch::Contains("does not have"));
}

TEST_CASE("training: a truncated or foreign checkpoint is refused with a clear error", "[training][checkpoint][errors]") {
  TemporaryFile file("truncated"), cut("cut");
  auto model = make_mlp();
  torch::save(model, file.path);
  const std::string bytes = read_bytes(file.path);
  // Every cut of the file is refused, never misread, and the model is untouched.
  const torch::Tensor before = model->named_parameters()["0.weight"].clone();
  for (size_t length : {size_t{0}, size_t{5}, size_t{20}, bytes.size() / 2, bytes.size() - 9, bytes.size() - 1}) {
    write_bytes(cut.path, bytes.substr(0, length));
    INFO("cut at " << length << " of " << bytes.size() << " bytes");
    CHECK_THROWS_AS(torch::load(model, cut.path), torch::Error);
  }
  write_bytes(cut.path, bytes.substr(0, bytes.size() / 2));
  CHECK_THROWS_WITH(torch::load(model, cut.path), Catch::Contains("truncated") && Catch::Contains(cut.path));
  CHECK(model->named_parameters()["0.weight"].equal(before));

  write_bytes(cut.path, "epoch,loss\n1,0.5\n");
  CHECK_THROWS_WITH(torch::load(model, cut.path), Catch::Contains("not a TinyTorch archive"));
  CHECK_THROWS_WITH(torch::load(model, "/nonexistent/dir/model.tt"), Catch::Contains("/nonexistent/dir/model.tt"));
  // An optimizer's file is not a model's.
  torch::optim::SGD sgd(model->parameters(), torch::optim::SGDOptions(0.1));
  torch::save(sgd, cut.path);
  CHECK_THROWS_AS(torch::load(model, cut.path), torch::Error);
}

TEST_CASE("training: tensors and lists of tensors round-trip exactly, through files and streams", "[training][checkpoint]") {
  TemporaryFile file("tensors");
  torch::Tensor weights = torch::randn({3, 4});
  torch::save(weights, file.path);
  torch::Tensor loaded;
  torch::load(loaded, file.path);
  CHECK(loaded.equal(weights));

  std::vector<torch::Tensor> list{torch::arange(5), torch::randn({2, 2}).to(torch::kDouble), torch::ones({1}) > 0};
  std::stringstream stream;
  torch::save(list, stream);
  std::vector<torch::Tensor> read_back;
  torch::load(read_back, stream);
  REQUIRE(read_back.size() == 3);
  for (size_t i = 0; i < list.size(); ++i) CHECK(read_back[i].equal(list[i]));
}

TEST_CASE("training: Trainer checkpoints resume the run exactly, schedule and history included", "[training][checkpoint][trainer]") {
  TemporaryFile file("trainer");
  const std::vector<torch::data::Example<>> batches{{inputs().slice(0, 0, 4), labels().slice(0, 0, 4)},
                                                    {inputs().slice(0, 4, 8), labels().slice(0, 4, 8)}};
  torch::manual_seed(3);
  auto model = make_mlp();
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.5).momentum(0.9));
  torch::optim::StepLR scheduler(optimizer, 1, 0.5);
  training::Trainer trainer(model, optimizer, nn::CrossEntropyLoss(),
                            training::TrainerOptions().scheduler(&scheduler).progress(false));
  std::vector<torch::data::Example<>> epoch_batches = batches;
  trainer.train_epoch(epoch_batches);
  trainer.train_epoch(epoch_batches);
  trainer.save_checkpoint(file.path);
  trainer.train_epoch(epoch_batches);
  trainer.train_epoch(epoch_batches);

  torch::manual_seed(4);
  auto resumed_model = make_mlp();
  torch::optim::SGD resumed_optimizer(resumed_model->parameters(), torch::optim::SGDOptions(0.5).momentum(0.9));
  torch::optim::StepLR resumed_scheduler(resumed_optimizer, 1, 0.5);
  training::Trainer resumed(resumed_model, resumed_optimizer, nn::CrossEntropyLoss(),
                            training::TrainerOptions().scheduler(&resumed_scheduler).progress(false));
  resumed.load_checkpoint(file.path);
  CHECK(resumed.epoch() == 2);
  CHECK(resumed.step() == 4);
  CHECK(resumed.history().epochs.size() == 2);
  resumed.train_epoch(epoch_batches);
  resumed.train_epoch(epoch_batches);
  require_same_parameters(model, resumed_model);
  REQUIRE(resumed.history().epochs.size() == 4);
  for (size_t e = 0; e < 4; ++e) {
    CHECK(resumed.history().epochs[e].lr == trainer.history().epochs[e].lr);
    CHECK(resumed.history().epochs[e].train_loss == trainer.history().epochs[e].train_loss);
  }
  // step() after each epoch, and LibTorch's first step() keeps the rate: 0.5, 0.5, 0.25, 0.125.
  CHECK(resumed.history().epochs[3].lr == Approx(0.5 * 0.25));
}

TEST_CASE("torch::save and torch::load keep every plain dtype, the integer codes too", "[training][checkpoint]") {
  for (const auto dtype : {torch::kBool, torch::kByte, torch::kChar, torch::kInt, torch::kLong, torch::kFloat, torch::kDouble}) {
    const torch::Tensor x = torch::arange(4).to(dtype);
    std::stringstream stream;
    torch::save(x, stream);
    torch::Tensor y;
    torch::load(y, stream);
    CHECK(y.scalar_type() == dtype);
    CHECK(y.to(torch::kLong).equal(x.to(torch::kLong)));  // kByte/kChar/kInt have no arithmetic here
  }
}
