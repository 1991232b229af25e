// torch::from_file: a file this program writes, mapped privately (writes stay in memory) and shared
// (writes reach the file); size in elements, other dtypes over the same bytes, size 0, a file
// created and grown by a shared mapping, and the errors for a short or missing file.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "compat.h"

namespace tensor_from_file_program {

std::string first_line(const c10::Error& e) {
  std::string message = e.what();
  return message.substr(0, message.find('\n'));
}

int64_t file_size(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  return static_cast<int64_t>(in.tellg());
}

COMPAT_PROGRAM(tensor_from_file) {
  const std::string path = "from_file_values.bin";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    for (int i = 0; i < 6; ++i) {
      const float value = static_cast<float>(i) + 0.5f;
      out.write(reinterpret_cast<const char*>(&value), sizeof(value));
    }
  }
  auto mapped = torch::from_file(path, /*shared=*/false, /*size=*/6);
  std::cout << "private\n" << mapped << "\nsizes " << mapped.sizes() << " dtype " << mapped.dtype() << " nbytes "
            << mapped.storage().nbytes() << " contiguous " << mapped.is_contiguous() << "\n";
  mapped[0] = 100;
  std::cout << "written in memory " << mapped[0].item<float>() << ", in the file "
            << torch::from_file(path, c10::nullopt, 6)[0].item<float>() << "\n";

  auto writer = torch::from_file(path, /*shared=*/true, 6);
  auto reader = torch::from_file(path, /*shared=*/true, 6);
  writer[2] = 300;
  std::cout << "shared reader sees " << reader[2].item<float>() << ", a new private mapping sees "
            << torch::from_file(path, false, 6)[2].item<float>() << "\n";

  std::cout << "first 3 of 6\n" << torch::from_file(path, false, 3) << "\n";
  std::cout << "as bytes\n" << torch::from_file(path, false, 8, torch::kByte) << "\n";
  std::cout << "as int64\n" << torch::from_file(path, false, 3, torch::kLong).sizes() << "\n";
  std::cout << "size 0: numel " << torch::from_file(path).numel() << ", missing file with size 0: numel "
            << torch::from_file("from_file_missing.bin").numel() << "\n";
  std::cout << "requires_grad "
            << torch::from_file(path, false, 2, torch::TensorOptions().requires_grad(true)).requires_grad() << "\n";
  auto view = torch::from_file(path, false, 6).view({2, 3}).narrow(1, 1, 2);
  std::cout << "view\n" << view << "\n";

  const std::string created = "from_file_created.bin";
  std::remove(created.c_str());
  auto fresh = torch::from_file(created, /*shared=*/true, 4, torch::kInt);
  fresh[1] = 7;
  std::cout << "created\n" << fresh << "\nfile bytes " << file_size(created) << "\n";
  std::cout << "read back\n" << torch::from_file(created, false, 4, torch::kInt) << "\n";

  try {
    torch::from_file(path, false, 7);
  } catch (const c10::Error& e) {
    std::cout << "too small: " << first_line(e) << "\n";
  }
  std::cout << "file bytes after " << file_size(path) << "\n";
  try {
    torch::from_file("from_file_missing.bin", false, 2);
  } catch (const c10::Error& e) {
    std::cout << "missing: " << first_line(e) << "\n";
  }
  return 0;
}

}  // namespace tensor_from_file_program
