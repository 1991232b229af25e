// torch::save / torch::load of a tensor, a vector of tensors, and through archives by key.
#include <iostream>
#include <vector>

#include "compat.h"

namespace serialize_tensors_program {

COMPAT_PROGRAM(serialize_tensors) {
  auto tensor = torch::arange(6, torch::kDouble).reshape({2, 3}) / 4;
  torch::save(tensor, "tensor.pt");
  torch::Tensor loaded;
  torch::load(loaded, "tensor.pt");
  std::cout << "loaded\n" << loaded << "\nequal " << torch::equal(tensor, loaded) << "\n";

  std::vector<torch::Tensor> many = {torch::ones({2}), torch::arange(3), torch::tensor({true, false})};
  torch::save(many, "many.pt");
  std::vector<torch::Tensor> many_loaded;
  torch::load(many_loaded, "many.pt");
  std::cout << "vector of " << many_loaded.size() << "\n";
  for (const auto& t : many_loaded) std::cout << t << "\n";

  torch::serialize::OutputArchive out;
  out.write("weights", torch::full({2, 2}, 0.5));
  out.write("step", torch::tensor(7));
  out.save_to("archive.pt");
  torch::serialize::InputArchive in;
  in.load_from("archive.pt");
  torch::Tensor weights, step;
  in.read("weights", weights);
  in.read("step", step);
  std::cout << "archive weights\n" << weights << "\nstep " << step.item<int64_t>() << "\n";
  return 0;
}

}  // namespace serialize_tensors_program
