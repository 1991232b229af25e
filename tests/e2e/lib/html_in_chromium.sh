#!/usr/bin/env bash
# Loads HTML pages in headless Chromium and checks that each one rendered: the DOM Chromium built has
# the expected <title> and a body with text in it (not an error page, not an empty page).
#
# Usage: html_in_chromium.sh [--title TEXT] FILE.html [[--title TEXT] FILE.html ...]
#   --title TEXT   the title the next FILE must show; without it, the title FILE's own <title> declares
#                  (so only the parse by the browser is checked)
# Prints one "ok: FILE (title)" or "FAILED: FILE: why" line per page.
# Exit status: 0 every page rendered; 1 some page did not; 2 usage error; 77 no Chromium installed (the e2e
# runner reports 77 as skipped; scripts/setup --with-test-packages installs Debian's chromium).
# Environment: CHROMIUM, the browser to use (default: the first of chromium, chromium-browser,
# google-chrome on the PATH); CHROMIUM_TIMEOUT, seconds per page (default 60).
# Each page is loaded on its own with a fresh profile, offline (no background networking, no updates).
set -euo pipefail

usage() { echo "usage: $0 [--title TEXT] FILE.html [[--title TEXT] FILE.html ...]" >&2; exit 2; }
[ $# -gt 0 ] || usage

browser=${CHROMIUM:-}
if [ -z "$browser" ]; then
  for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null; then browser=$candidate; break; fi
  done
fi
if [ -z "$browser" ] || ! command -v "$browser" >/dev/null; then
  echo "skipped: no Chromium to load the pages in (fix: sudo apt-get install chromium, or scripts/setup --with-test-packages)"
  exit 77
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/html-in-chromium-XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# check_dom DOM_FILE EXPECTED_TITLE PAGE_FILE: what Chromium built against what the page should show.
check_dom() {
  python3 - "$@" <<'PY'
import html.parser, re, sys
dom_file, expected, page_file = sys.argv[1], sys.argv[2], sys.argv[3]

class Reader(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.where, self.title, self.body = [], "", ""
    def handle_starttag(self, tag, attrs):
        self.where.append(tag)
    def handle_endtag(self, tag):
        if tag in self.where:
            del self.where[len(self.where) - 1 - self.where[::-1].index(tag):]
    def handle_data(self, data):
        if "title" in self.where: self.title += data
        elif "body" in self.where and not {"style", "script"} & set(self.where): self.body += data

def read(path):
    reader = Reader()
    reader.feed(open(path, encoding="utf-8", errors="replace").read())
    return reader

if not expected:  # the title the page itself declares
    expected = read(page_file).title
dom = read(dom_file)
if not dom.where and not dom.title and not dom.body:
    sys.exit("Chromium printed no document")
if not expected.strip():
    sys.exit("the page has no <title>")
if dom.title.strip() != expected.strip():
    sys.exit(f"the title is {dom.title.strip()!r}, expected {expected.strip()!r}")
words = len(re.findall(r"\w+", dom.body))
if words == 0:
    sys.exit("the body has no text")
print(f"{dom.title.strip()}, {words} words")
PY
}

failed=0
title=""
while [ $# -gt 0 ]; do
  case $1 in
    --title) [ $# -ge 2 ] || usage; title=$2; shift 2; continue ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
  esac
  page=$1; shift
  if [ ! -f "$page" ]; then
    echo "FAILED: $page: no such file"; failed=1; title=""; continue
  fi
  absolute=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
  url="file://$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$absolute")"
  profile=$(mktemp -d "$scratch/profile-XXXXXX")
  rc=0
  timeout "${CHROMIUM_TIMEOUT:-60}" "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$profile" \
    --dump-dom "$url" >"$scratch/dom.html" 2>"$scratch/chromium.log" || rc=$?
  if [ "$rc" != 0 ]; then
    echo "FAILED: $page: $browser exited $rc; its last messages:"; tail -n 5 "$scratch/chromium.log" | sed 's/^/  /'
    failed=1
  elif verdict=$(check_dom "$scratch/dom.html" "$title" "$page" 2>&1); then
    echo "ok: $page ($verdict)"
  else
    echo "FAILED: $page: $verdict"
    failed=1
  fi
  title=""
done
exit "$failed"
