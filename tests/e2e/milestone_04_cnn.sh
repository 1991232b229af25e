#!/usr/bin/env bash
# Milestone 04 (CNN, 1998) end to end through the real `tito`, on the reference code:
# - part 1 (TinyDigits CNN) passes both gates, accuracy and min_conv_weight_change, and draws its
#   filters and feature maps as SVG;
# - the same program with a flatten that cuts the graph (a copy in a scratch TITO_HOME whose training
#   loop detaches the flattened features) still trains its last layer, but its convolution does not
#   move, and tito reports the part as failed;
# - part 2 (Fashion-MNIST) is skipped when the dataset is not installed;
# - part 3 (CIFAR-10): skipped without --data-dir; --data-dir to a missing folder is a usage error; a
#   folder with a truncated batch fails the part with the loader's message naming the file; a small
#   generated dataset in the real binary format runs end to end for the epochs asked (-- --epochs 2),
#   says how long the full part takes before it starts, and, being noise, misses the 75% gate.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/milestone_story.bash"

echo "== part 1 on the reference: both gates measured and met, pictures drawn"
run_tito 0 milestone run cnn --part 1 --reference
expect "$out" "gate: accuracy >= 0.9 and min_conv_weight_change >= 0.25" "milestone run 04 --part 1"
expect "$out" "MaxPool2d [2, 8, 3, 3]" "milestone run 04 --part 1 (the shapes through the layers)"
expect "$out" "measured: part 1 min_conv_weight_change = " "milestone run 04 --part 1"
expect "$out" "meet the gates accuracy >= 0.9 and min_conv_weight_change >= 0.25" "milestone run 04 --part 1"
grep -q "Conv2d #1 (8x1x3x3): largest weight gradient [0-9.]*e[-+][0-9]*, weights moved [0-9.]*%" <<<"$out" ||
  fail "the convolution's learning report is missing" "$out"
svg=milestones/04_cnn/tinydigits_filters.svg
grep -q "<svg" "$svg" || fail "milestone 04 drew no SVG at $svg"
grep -qF "The 8 learned 3x3 filters" "$svg" || fail "the SVG does not show the filters" "$(head -c 600 "$svg")"
grep -qF "Feature maps" "$svg" || fail "the SVG does not show the feature maps" "$(head -c 600 "$svg")"

echo "== a flatten that cuts the graph: the last layer trains, the convolution does not, the part fails"
home="$scratch/home"
mkdir -p "$home/milestones"
ln -s "$TINYTORCH_SOURCE_DIR/curriculum" "$home/curriculum"
ln -s "$TINYTORCH_SOURCE_DIR/framework" "$home/framework"
ln -s "$TINYTORCH_SOURCE_DIR/milestones/common" "$home/milestones/common"
cp -r "$TINYTORCH_SOURCE_DIR/milestones/04_1998_cnn" "$home/milestones/"
program="$home/milestones/04_1998_cnn/tinydigits_cnn.cpp"
sed -i 's|F::cross_entropy(model->forward(images), batch.target)|F::cross_entropy(classifier(flatten(pool(relu(conv(images)))).detach()), batch.target)|' "$program"
grep -qF ".detach()), batch.target)" "$program" || fail "could not plant the cut graph in $program"
TITO_HOME="$home" run_tito 1 milestone run 04 --part 1 --reference
expect "$out" "measured: part 1 min_conv_weight_change = 0" "the cut graph"
expect "$out" "weights moved 0.0% from their initial values" "the cut graph"
expect "$out" "Part 1 failed: " "the cut graph"
expect "$out" "Check that YOUR conv2d backward (module 09)" "the cut graph"
expect "$out" "The reference code does NOT pass this milestone" "the cut graph"

echo "== part 2 without Fashion-MNIST is skipped"
mkdir -p "$scratch/no-fashion-mnist"
TINYTORCH_FASHION_MNIST="$scratch/no-fashion-mnist" run_tito 0 milestone run 04 --part 2 --reference
expect "$out" "Part 2 skipped (optional" "milestone run 04 --part 2 without the data"
expect "$out" "sudo apt-get install dataset-fashion-mnist" "milestone run 04 --part 2 without the data"

echo "== part 3 (CIFAR-10): skipped without --data-dir, a usage error for a missing folder"
run_tito 0 milestone run 04 --part 3 --reference
expect "$out" "Part 3 skipped (optional" "milestone run 04 --part 3 without --data-dir"
expect "$out" "cifar-10-binary.tar.gz" "milestone run 04 --part 3 without --data-dir"
expect "$out" "--data-dir DIR" "milestone run 04 --part 3 without --data-dir"
run_tito 2 milestone run 04 --part 3 --reference --data-dir "$scratch/nowhere"
expect "$out" "--data-dir $scratch/nowhere: there is no such folder" "--data-dir to a missing folder"

# CIFAR-10's binary format: records of 1 label byte + 3072 pixel bytes; $1 records per batch file.
make_cifar() {
  python3 - "$1" "$2" <<'PY'
import os, random, sys
folder, records = sys.argv[1], int(sys.argv[2])
os.makedirs(folder, exist_ok=True)
rng = random.Random(4)
for name in [f"data_batch_{i}.bin" for i in range(1, 6)] + ["test_batch.bin"]:
    with open(os.path.join(folder, name), "wb") as f:
        for _ in range(records):
            f.write(bytes([rng.randrange(10)]) + bytes(rng.randrange(256) for _ in range(3072)))
PY
}

echo "== part 3 with a truncated batch file fails, naming the file"
make_cifar "$scratch/cifar-damaged" 2
head -c 5000 "$scratch/cifar-damaged/data_batch_4.bin" >"$scratch/cut" && mv "$scratch/cut" "$scratch/cifar-damaged/data_batch_4.bin"
run_tito 1 milestone run 04 --part 3 --reference --data-dir "$scratch/cifar-damaged"
expect "$out" "Cannot read CIFAR-10 from" "a truncated CIFAR-10 batch"
expect "$out" "data_batch_4.bin is 5000 bytes long, which is not a whole number of 3073-byte records" "a truncated batch"
expect "$out" "Part 3 failed: the program did not finish" "a truncated CIFAR-10 batch"

echo "== part 3 on a small generated dataset runs end to end (noise: it misses the accuracy gate)"
make_cifar "$scratch/cifar-noise" 40
run_tito 1 milestone run 04 --part 3 --reference --data-dir "$scratch/cifar-noise" -- --epochs 2
expect "$out" "Optional, and long: about " "part 3 on generated data (its duration, said before it starts)"
expect "$out" "200 training and 40 test images of 3x32x32" "part 3 on generated data"
expect "$out" "batch 64, 2 epochs, random mirror and shifts of up to 4 pixels" "part 3 -- --epochs 2"
expect "$out" "does not meet the gate accuracy >= 0.75" "part 3 on generated data (the original course's gate)"
expect "$out" "measured: part 3 accuracy = " "part 3 on generated data"
expect "$out" "Part 3 failed: accuracy = " "part 3 on generated data"
grep -q "<svg" milestones/04_cnn/cifar10_filters.svg || fail "part 3 drew no SVG"

echo "milestone_04_cnn: all checks passed"
