#!/usr/bin/env bash
# A learner whose LANG is es_ES.UTF-8 goes through module 01 on a fresh workspace, and tito speaks Spanish:
# the welcome, init (and the workspace's README), module list/start/test/hint/complete/status, milestone
# list, system doctor and the errors, with the module and milestone titles and module 01's hints from the
# curriculum's catalog; the test runner's progress lines, a stub's lesson section (from lesson.es.md) and
# a crash's account; a milestone's verdict with Spanish numbers and "y", `milestone info 05`'s languages,
# the concept checks and the learning journal. The es_ES.UTF-8 locale need not be installed (tito then runs under C.UTF-8 and
# chooses the catalog through LANGUAGE). --json stays English. `tito config language en` switches the
# workspace back to English, `auto` follows LANG again, and a language tito does not speak is refused.
# Needs: TITO (the binary), TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/lib/learner_env.bash"
e2e_scratch spanish
expect() { grep -qF -- "$1" "$OUT" || fail "expected '$1' in the output of the last command"; }
reject() { if grep -qF -- "$1" "$OUT"; then fail "did not expect '$1' in the output"; fi; }
unset LANGUAGE LC_ALL LC_MESSAGES
export LANG=es_ES.UTF-8
if locale -a 2>/dev/null | grep -qix 'es_ES.utf-\?8'; then
  echo "es_ES.UTF-8 is installed"
else
  echo "es_ES.UTF-8 is not installed: tito speaks Spanish through LANGUAGE under C.UTF-8"
fi

cd "$SCRATCH"
step "the welcome"
run 0 "$TITO"
expect "TinyTorch C++ - construye un framework de aprendizaje profundo en C++, módulo a módulo."
expect "Para empezar"
expect "tito module start 01      obtén los archivos de partida del primer módulo"
reject "Get going"

step "init, and the workspace's README"
run 0 "$TITO" init ws
expect "Tu espacio de trabajo de TinyTorch está creado en $SCRATCH/ws"
expect "tito habla español aquí (LANG=es_ES.UTF-8)"
expect "siguiente: cd ws && tito module start 01"
grep -qF "# Mi espacio de trabajo de TinyTorch C++" ws/README.md || fail "the workspace's README is not in Spanish"
run 0 "$TITO" init ws
expect "ya es un espacio de trabajo de TinyTorch"
cd ws

step "help"
run 0 "$TITO" --help
expect "Uso: tito [OPCIONES] [SUBCOMANDO]"
expect "Crea un espacio de trabajo para tu código y tu progreso"

step "module list: the titles in Spanish, --json in English"
run 0 "$TITO" module list
expect "Activaciones"
expect "Funciones de pérdida"
reject "Activations"
run 0 "$TITO" module list --json
python3 -c '
import json, sys
modules = json.load(open(sys.argv[1]))
assert modules[1]["title"] == "Activations", modules[1]
assert modules[0]["state"] == "ready", modules[0]
' "$OUT" || fail "module list --json is not the English one"

step "module start 01 and the starter's test: the hints of module 01 in Spanish"
run 0 "$TITO" module start 01
expect "Los cimientos del ML: almacenamiento, strides, broadcasting, matmul"
expect "siguiente:"
run 1 "$TITO" module test 01
expect "Comprueba que infer_size devuelve la forma común"
reject "Score:"
reject "Check that infer_size"
expect "  compilando 01/elementwise.cpp"
expect "  enlazando module_tests"
grep -qE '^  ejecutando [0-9]+ pruebas$' "$OUT" || fail "expected the runner's 'ejecutando N pruebas'"
expect "sin implementar"
# The stub's lesson section, titled as lesson.es.md titles it (the same place as the English heading).
expect "(lección: 4. Aritmética elemento a elemento y broadcasting)"
reject "Element-wise arithmetic"
reject "running "
reject "compiling "
run 0 "$TITO" module hint 01 "broadcasting a 2x2"
expect "1. Alinea las formas por la derecha"

step "the reference passes; complete and status"
python3 - "$TINYTORCH_SOURCE_DIR" <<'PY'
import json, shutil, sys
src = sys.argv[1]
for m in json.load(open(src + "/curriculum/curriculum.json"))["modules"]:
    if m["number"] == "01":
        for f in m["learner_files"]:
            shutil.copy(src + "/" + f, "modules/01_tensor/")
PY
run 0 "$TITO" module test 01
reject "Score:"

step "a crash: its signal, where it was and the sanitizer's account in Spanish; --json in English"
cp modules/01_tensor/matmul.cpp "$SCRATCH/matmul.cpp"
python3 - modules/01_tensor/matmul.cpp <<'PY'
import sys
path = sys.argv[1]
lines = open(path).read().split("\n")
at = next(i for i, line in enumerate(lines) if 'TT_CHECK(self.dim() == 2, "self must be a matrix");' in line)
lines.insert(at + 1, "  { std::vector<float> tiny(4); volatile float* out_of_bounds = tiny.data(); "
                     "for (std::size_t i = 0; i < (std::size_t(1) << 34); ++i) out_of_bounds[i] = 1; }  // PLANTED")
open(path, "w").write("\n".join(lines))
PY
line=$(grep -n "// PLANTED" modules/01_tensor/matmul.cpp | cut -d: -f1)
run 1 "$TITO" module test 01 "mm multiplies*"
expect "ejecutando 1 prueba"
expect "abortada"
expect "SIGSEGV (violación de segmento: un acceso a memoria no válido)"
expect "dónde: "
if grep -qF "AddressSanitizer" "$OUT"; then
  expect "una prueba abortó: se vuelve a ejecutar con AddressSanitizer para ver por qué"
  expect "heap-buffer-overflow, escritura de 4 bytes, matmul.cpp:$line en tinytorch::native::mm"
  expect "el informe completo del sanitizer: "
else
  expect "SIGSEGV en matmul.cpp:$line"
fi
reject "segmentation fault"
reject "write of"
"$TITO" module test 01 "mm multiplies*" --json >"$OUT" 2>/dev/null || true
python3 -c '
import json, sys
case = json.load(open(sys.argv[1]))["cases"][0]
assert case["status"] == "crashed", case
assert case["failure"].startswith("SIGSEGV (segmentation fault: an invalid memory access)"), case
' "$OUT" || fail "module test --json should keep the crash in English"
cp "$SCRATCH/matmul.cpp" modules/01_tensor/matmul.cpp

run 0 "$TITO" module complete 01
expect "Activaciones"
expect "Perceptrón"
reject "completed"
run 0 "$TITO" module status
expect "1/22"
reject "modules completed"

step "milestone list"
run 0 "$TITO" milestone list
expect "La crisis del XOR"
expect "Minsky y Papert: una sola capa no puede separar el XOR"
expect "bloqueado"

step "milestone run: the gates and what was measured with Spanish numbers, joined with 'y'"
run 0 "$TITO" milestone run xor --reference
expect "(umbral: accuracy == 0,75 y forward_max_error <= 1e-05; límite de tiempo 300 s)"
expect "medido: parte 1 accuracy = 0,75"
# forward_max_error is printed in scientific notation: its decimal mark is a comma too.
grep -qE 'medido: parte 1 forward_max_error = [0-9](,[0-9]+)?e-[0-9]+$' "$OUT" ||
  fail "forward_max_error should be measured with a decimal comma and its exponent"
grep -qE 'Parte 1 superada: accuracy = 0,75, forward_max_error = [0-9](,[0-9]+)?e-[0-9]+ cumplen los umbrales accuracy == 0,75 y forward_max_error <= 1e-05 \(compilación [0-9]+,[0-9] s, ejecución [0-9]+,[0-9] s\)' "$OUT" ||
  fail "the verdict line should read '... cumplen los umbrales accuracy == 0,75 y forward_max_error <= 1e-05'"
# tito's own lines (not the program's output, "  | ...", which stays English) join gates with "y".
if grep -v '^  | ' "$OUT" | grep -qF " and "; then fail "tito's lines should not say ' and '"; fi
run 2 "$TITO" milestone run xor --reference --part 1 -- --steps 3
expect "error: hito 02, parte 1: no admite argumentos después de --, así que '--steps 3' se ignoraría"
run 2 "$TITO" milestone run nada
expect "no hay ningún hito 'nada'; los hitos son 01 perceptron"

step "milestone info 05: each language of part 2 with its gates, and the one milestone run uses"
run 0 "$TITO" milestone info 05
expect "escrita en inglés, español y chino, cada idioma con sus propios umbrales:"
expect "en (inglés): heldout_margin >= 0,35 y causality_max_change <= 0,0001"
expect "greedy_exact_match >= 0,6"
grep -qE '^     es \(español\): heldout_margin >= 0,35 .*<- tito milestone run 05 usa este$' "$OUT" ||
  fail "milestone info 05 should say that part 2 runs in Spanish here"
if grep -E '^     (en|zh) ' "$OUT" | grep -qF "usa este"; then fail "only Spanish is the one milestone run uses"; fi
expect "(tu idioma, español; otro: tito milestone run 05 --part 2 --lang LANG)"

step "concept checks and the learning journal"
run 2 "$TITO" module quiz 01 --answers "a;b;c"
expect "error: --answers tiene 3 respuestas; las preguntas del módulo 01 son"
run 0 "$TITO" module status --journal 01
expect "Tu diario de aprendizaje"
expect "Módulo 01 (Tensor)"
expect "ejecuciones de las pruebas"
expect "preguntas de concepto"
run 0 "$TITO" module status --journal
expect "Tiempo de trabajo"
reject "Time on task"

step "system doctor"
"$TITO" system doctor >"$OUT" 2>&1 || true  # a missing tool on a developer's machine is not this story's concern
expect "Revisión de la instalación de TinyTorch C++"
expect "idioma"
expect "es (LANG=es_ES.UTF-8)"
reject "set-up check"

step "an error and its fix in Spanish"
run 2 "$TITO" config language fr
expect "error: tito no habla 'fr'; elige uno de estos: en, es, zh, o auto"
expect "solución: tito config language es"

step "tito config language en switches this workspace back to English"
run 0 "$TITO" config language en
expect "tito now speaks English in this workspace."
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["language"] == "en"' .tito/config.json || fail "config.json"
run 0 "$TITO" module list
expect "Activations"
reject "Activaciones"
run 0 "$TITO" config language
expect "Language: en (English)"
expect "set for this workspace with tito config language"
run 0 "$TITO"
expect "Get going"

step "auto follows LANG again; the setting wins over LANG"
run 0 "$TITO" config language auto
expect "Este espacio de trabajo vuelve a seguir el entorno: es (español)."
run 0 "$TITO" module list
expect "Activaciones"
run 0 env LANG=C.UTF-8 "$TITO" config language es
expect "tito ahora habla español en este espacio de trabajo."
run 0 env LANG=C.UTF-8 "$TITO" milestone list
expect "La crisis del XOR"
run 0 env LANG=C.UTF-8 "$TITO" --workspace "$SCRATCH/ws" -h
expect "Uso: tito"

step "outside a workspace, config language says how to get one"
cd "$SCRATCH"
run 1 "$TITO" config language es
expect "tito init"
expect "--workspace DIR"

echo "learner in Spanish: all steps passed"
