#!/usr/bin/env bash
# In a learner's build the learner's loops run at every size: module 17's fast kernels (vectorised
# element-wise and reduction loops, the blocked GEMM) are not linked until the learner has written
# module 17. A planted module 01 that is right on small tensors and wrong on large ones passes its
# tests, and a program built on it (a scratch milestone) gets the large results wrong; the same
# program on the reference library (--reference, with the fast kernels) gets them all right.
set -euo pipefail
: "${TITO:?set TITO to the tito binary}" "${TINYTORCH_SOURCE_DIR:?}"
export CI=1 NO_COLOR=1

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $1"; [ -n "${2:-}" ] && echo "$2"; exit 1; }
expect() { grep -qF -- "$2" <<<"$1" || fail "expected \"$2\" in the output of $3" "$1"; }

home="$scratch/home"
mkdir -p "$home/milestones/09_2099_sizes"
ln -s "$TINYTORCH_SOURCE_DIR/curriculum" "$home/curriculum"
ln -s "$TINYTORCH_SOURCE_DIR/framework" "$home/framework"
export TITO_HOME="$home"
cat > "$home/milestones/09_2099_sizes/milestone.json" <<'JSON'
{"id": "09", "year": 2099, "slug": "sizes", "title": "Sizes", "summary": "a test fixture",
 "parts": [{"number": 1, "title": "Small and large", "program": "sizes.cpp", "required_modules": ["01"],
            "gate": {"metric": "accuracy", "comparison": ">=", "value": 1.0}}]}
JSON
# Each op on 32 x 32 (1,024 elements: above the old fast-path threshold of 256, below the planted
# fault's 4,096) and on 128 x 128, checked against plain loops written here.
cat > "$home/milestones/09_2099_sizes/sizes.cpp" <<'CPP'
#include <cmath>
#include <cstdio>
#include <tinytorch/torch.h>

int checks = 0, right = 0;
void report(const char* what, int64_t n, bool ok) {
  ++checks;
  right += ok;
  std::printf("%s %lldx%lld: %s\n", what, static_cast<long long>(n), static_cast<long long>(n), ok ? "right" : "wrong");
}

int main() {
  std::printf("fast kernels: %s\n", torch::acceleration::fast_kernels_available() ? "yes" : "no");
  for (const int64_t n : {32, 128}) {
    const torch::Tensor a = torch::rand({n, n}), b = torch::rand({n, n});
    const float* pa = a.data_ptr<float>();
    const float* pb = b.data_ptr<float>();
    const torch::Tensor sum = a + b, greater = a > b, column_sums = a.sum(0), product = torch::mm(a, b);
    bool add_ok = true, gt_ok = true, sum_ok = true, mm_ok = true;
    for (int64_t i = 0; i < n * n; ++i) {
      add_ok = add_ok && sum.data_ptr<float>()[i] == pa[i] + pb[i];
      gt_ok = gt_ok && greater.data_ptr<bool>()[i] == (pa[i] > pb[i]);
    }
    for (int64_t col = 0; col < n; ++col) {
      float total = 0;
      for (int64_t i = 0; i < n; ++i) total += pa[i * n + col];
      sum_ok = sum_ok && std::fabs(column_sums.data_ptr<float>()[col] - total) <= 1e-3f * n;
      for (int64_t i = 0; i < n; ++i) {
        float dot = 0;
        for (int64_t k = 0; k < n; ++k) dot += pa[i * n + k] * pb[k * n + col];
        mm_ok = mm_ok && std::fabs(product.data_ptr<float>()[i * n + col] - dot) <= 1e-3f * n;
      }
    }
    report("a + b", n, add_ok);
    report("a > b", n, gt_ok);
    report("a.sum(0)", n, sum_ok);
    report("mm(a, b)", n, mm_ok);
  }
  std::printf("TITO_RESULT {\"part\":1,\"metric\":\"accuracy\",\"value\":%g}\n", double(right) / checks);
}
CPP

cd "$scratch"
"$TITO" init ws >/dev/null
cd ws
"$TITO" module start 01 --reference >/dev/null
dir=$(ls -d modules/01_*)
python3 - "$dir" <<'PY' || fail "could not plant the faulty module 01"
import re, sys
d = sys.argv[1]
def plant(name, anchor, planted):
    path = f"{d}/{name}"
    text = open(path).read()
    assert anchor in text, (name, anchor)
    open(path, "w").write(text.replace(anchor, planted, 1))
plant("elementwise.cpp", 'name="tinytorch::native::broadcast_binary_loop" lesson="4. Element-wise arithmetic and broadcasting"\n',
      'name="tinytorch::native::broadcast_binary_loop" lesson="4. Element-wise arithmetic and broadcasting"\n'
      '  if (out.numel() >= 4096) op = [](In p, In) { return static_cast<Out>(p); };  // planted: wrong when large\n')
plant("reductions.cpp", "acc[out_offset] + in[in_offset]", "acc[out_offset] + (input.numel() >= 4096 ? 2 : 1) * in[in_offset]")
plant("matmul.cpp", 'name="tinytorch::native::mm" lesson="6. Matrix multiplication"\n',
      'name="tinytorch::native::mm" lesson="6. Matrix multiplication"\n'
      '  if (self.dim() == 2 && mat2.dim() == 2 && self.size(0) >= 64) return zeros({self.size(0), mat2.size(1)}, self.options());\n')
PY

echo "== the planted module 01 is right on small inputs: its tests pass"
out=$("$TITO" module complete 01 2>&1) || fail "the planted module 01 did not pass its tests" "$out"

echo "== built on it, the large cases are wrong: the learner's loops ran, not a fast path"
set +e
out=$("$TITO" milestone run sizes 2>&1)
status=$?
set -e
[ "$status" -eq 1 ] || fail "the program on the planted module 01 passed (exit $status)" "$out"
expect "$out" "fast kernels: no" "the program on the planted module 01 (torch::acceleration::fast_kernels_available)"
for op in "a + b" "a > b" "a.sum(0)" "mm(a, b)"; do
  expect "$out" "$op 32x32: right" "the program on the planted module 01"
  expect "$out" "$op 128x128: wrong" "the program on the planted module 01"
done

echo "== on the reference library (fast kernels) every case is right"
out=$("$TITO" milestone run sizes --reference 2>&1) || fail "the program on the reference failed" "$out"
expect "$out" "fast kernels: yes" "the program on the reference (torch::acceleration::fast_kernels_available)"
for op in "a + b" "a > b" "a.sum(0)" "mm(a, b)"; do
  expect "$out" "$op 128x128: right" "the program on the reference"
done

echo "learner_code_at_every_size: all checks passed"
