#!/usr/bin/env bash
# The lessons as a learner reads them in a browser: `tito lessons build` writes index.html and every
# lesson's page, `tito module view NN --html` writes one page (into the workspace's lessons/ folder, or
# ./tinytorch-lessons without a workspace) and never replaces a file it did not write; then every page
# is loaded in headless Chromium (lib/html_in_chromium.sh), which must render it with its title.
# Skipped (77) where no Chromium is installed: scripts/setup --with-test-packages installs it.
# Needs: TITO (the binary), TINYTORCH_SOURCE_DIR, TINYTORCH_BUILD_DIR.
set -euo pipefail

here=$(dirname "${BASH_SOURCE[0]}")
source "$here/lib/learner_env.bash"
e2e_scratch lessons
expect() { grep -qF -- "$1" "$OUT" || fail "expected '$1' in the output of the last command"; }

cd "$SCRATCH"
step "lessons build writes the index and one page per written lesson"
run 0 "$TITO" lessons build --out "$SCRATCH/site"
expect "Open it in a browser: file://$SCRATCH/site/index.html"
lessons=$(python3 - "$TINYTORCH_SOURCE_DIR" <<'PY'
import json, os, sys
src = sys.argv[1]
for m in json.load(open(os.path.join(src, "curriculum/curriculum.json")))["modules"]:
    if os.path.exists(os.path.join(src, m.get("lesson", f"curriculum/{m['number']}_{m['slug']}/lesson.md"))):
        print(f"{m['number']}_{m['slug']}")
PY
)
pages=()
for folder in $lessons; do
  [ -f "site/$folder/lesson.html" ] || fail "no page for $folder"
  pages+=("site/$folder/lesson.html")
done
[ ${#pages[@]} -ge 20 ] || fail "only ${#pages[@]} lesson pages"
grep -q 'href="01_tensor/lesson.html"' site/index.html || fail "the index does not link lesson 01"
run 0 "$TITO" lessons build --out "$SCRATCH/site"  # its own pages are replaced

step "view --html without a workspace writes under ./tinytorch-lessons; with one, into its lessons/ folder"
run 0 "$TITO" module view 01 --html
expect "$SCRATCH/tinytorch-lessons/01_tensor/lesson.html"
run 0 "$TITO" init ws
(cd ws && "$TITO" module view 02 --html) >"$OUT" 2>&1 || fail "view --html in a workspace failed"
expect "$SCRATCH/ws/lessons/02_activations/lesson.html"
expect "file://$SCRATCH/ws/lessons/02_activations/lesson.html"

step "view --html --out refuses to replace a file tito did not write"
echo "<p>my notes</p>" >notes.html
run 1 "$TITO" module view 01 --html --out notes.html
expect "tito did not write it"
expect "fix: tito module view 01 --html --out"
grep -qx "<p>my notes</p>" notes.html || fail "notes.html was changed"
run 0 "$TITO" module view 01 --html --out one.html

step "lessons build --lang es: module 01 from its Spanish lesson, the others in English, each page saying its language"
run 0 "$TITO" lessons build --out "$SCRATCH/site-es" --lang es
expect "1 of them in 'es', the others in English (not translated yet)."
grep -q '<html lang="es">' site-es/01_tensor/lesson.html || fail "the Spanish page of lesson 01 does not say lang=es"
grep -q 'Módulo 01 - Tensor' site-es/01_tensor/lesson.html || fail "lesson 01 is not the Spanish one"
grep -q 'translation-of' site-es/01_tensor/lesson.html && fail "the translation's header comment shows on the page"
grep -q '<html lang="en">' site-es/02_activations/lesson.html || fail "lesson 02 (not translated) is not in English"
run 0 "$TITO" module view 01 --path --lang es
expect "curriculum/01_tensor/lesson.es.md"
run 0 "$TITO" module view 02 --path --lang es
expect "has no translation in 'es' yet: showing it in English"

step "every page renders in headless Chromium"
rc=0
bash "$here/lib/html_in_chromium.sh" --title "TinyTorch C++ lessons" site/index.html "${pages[@]}" \
  --title "01 Tensor" one.html ws/lessons/02_activations/lesson.html site-es/01_tensor/lesson.html >"$OUT" 2>&1 || rc=$?
cat "$OUT"
[ "$rc" = 77 ] && exit 77
[ "$rc" = 0 ] || fail "a page did not render in Chromium"

echo "lessons_in_chromium: all checks passed"
