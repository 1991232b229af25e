// Errors: TORCH_CHECK in user code, c10::Error from the library, AT_ASSERT. Only the first line of
// what() is printed: LibTorch appends where the exception was raised.
#include <iostream>
#include <string>

#include "compat.h"

namespace errors_checks_program {

std::string first_line(const c10::Error& e) {
  std::string message = e.what();
  return message.substr(0, message.find('\n'));
}

int checked_divide(int a, int b) {
  TORCH_CHECK(b != 0, "checked_divide: division by zero (a=", a, ")");
  return a / b;
}

COMPAT_PROGRAM(errors_checks) {
  std::cout << "6 / 3 = " << checked_divide(6, 3) << "\n";
  try {
    checked_divide(1, 0);
  } catch (const c10::Error& e) {
    std::cout << "TORCH_CHECK: " << first_line(e) << "\n";
  }
  try {
    TORCH_CHECK(1 + 1 == 3);
  } catch (const c10::Error& e) {
    std::cout << "TORCH_CHECK without message: " << first_line(e) << "\n";
  }
  try {
    AT_ASSERT(2 > 3);
    std::cout << "AT_ASSERT did not throw\n";
  } catch (const c10::Error&) {
    std::cout << "AT_ASSERT threw c10::Error\n";
  }
  try {
    torch::ones({2, 3}).mm(torch::ones({2, 3}));
  } catch (const c10::Error& e) {
    std::cout << "mm: " << first_line(e) << "\n";
  }
  try {
    torch::ones({2, 3}) + torch::ones({4});
  } catch (const c10::Error& e) {
    std::cout << "broadcast: " << first_line(e) << "\n";
  }
  try {
    torch::arange(6).view({4, -1});
  } catch (const std::exception& e) {  // LibTorch throws std::runtime_error here, not c10::Error
    std::cout << "view: " << std::string(e.what()).substr(0, std::string(e.what()).find('\n')) << "\n";
  }
  try {
    torch::ones({2}).backward();
  } catch (const c10::Error& e) {
    std::cout << "backward: " << first_line(e) << "\n";
  }
  try {
    torch::arange(3).data_ptr<float>();
  } catch (const std::exception& e) {
    std::cout << "std::exception catches it too: " << std::string(e.what()).substr(0, std::string(e.what()).find('\n'))
              << "\n";
  }
  return 0;
}

}  // namespace errors_checks_program
