#!/usr/bin/env bash
# The framework installs with `cmake --install` and a user's own program links it through
# find_package(tinytorch): the README's example, built and run from a temporary prefix.
set -euo pipefail
: "${TINYTORCH_BUILD_DIR:?}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cmake --install "$TINYTORCH_BUILD_DIR" --prefix "$scratch/prefix" >/dev/null
mkdir "$scratch/app"
cat > "$scratch/app/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(app CXX)
find_package(tinytorch REQUIRED)
add_executable(app main.cpp)
target_link_libraries(app tinytorch::tinytorch)
add_executable(gradients gradients.cpp)
target_link_libraries(gradients tinytorch::tinytorch)
CMAKE
cat > "$scratch/app/main.cpp" <<'CPP'
#include <tinytorch/torch.h>
#include <iostream>
int main() {
  torch::Tensor a = torch::tensor({{1.0, 2.0}, {3.0, 4.0}});
  std::cout << torch::matmul(a, a.t()) << "\n" << a.memory_footprint() << " bytes\n";
}
CPP
# A LibTorch program never enables autograd: the installed package must link module 06's engine in.
cat > "$scratch/app/gradients.cpp" <<'CPP'
#include <tinytorch/torch.h>
#include <iostream>
int main() {
  auto x = torch::tensor({1.0, 2.0}, torch::requires_grad());
  (x * x).sum().backward();
  std::cout << x.grad() << "\n";
}
CPP
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$scratch/app" -B "$scratch/app/build" "${generator[@]}" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/app/build" >/dev/null
out=$("$scratch/app/build/app")
echo "$out"
expected=$'  5  11\n 11  25\n[ CPUFloatType{2,2} ]\n16 bytes'
[ "$out" = "$expected" ] || { echo "FAIL: unexpected output from the installed framework"; exit 1; }
out=$("$scratch/app/build/gradients")
echo "$out"
expected=$' 2\n 4\n[ CPUFloatType{2} ]'
[ "$out" = "$expected" ] || { echo "FAIL: autograd is not active in a program linked against the installed package"; exit 1; }
echo "installed package works"
