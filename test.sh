#!/usr/bin/env bash
# Ricochet: install what is missing, build Release into build/, run every test with CTest.
# GUI tests need an X display: everything runs under xvfb-run (Mesa's software renderer).
#
#   ./test.sh                 all tests
#   ./test.sh -L core         only one label (core, cli, gui, python); any ctest arguments work
set -euo pipefail
cd "$(dirname "$0")"
./run.sh --build-only
BUILD_DIR="${RICOCHET_BUILD_DIR:-build}"
export QT_QPA_PLATFORM=xcb
exec xvfb-run -a -s "-screen 0 1280x1024x24" \
  ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${RICOCHET_JOBS:-2}" "$@"
