#!/usr/bin/env bash
# Ricochet: install what is missing (Debian packages), build Release into build/, launch the app.
#
#   ./run.sh                 build and launch build/bin/ricochet (default system, animating)
#   ./run.sh ARGS...         same, passing ARGS to ricochet (e.g. --scenario FILE.json)
#   ./run.sh --build-only    install and build, do not launch (used by ./test.sh)
#
# Environment: RICOCHET_JOBS (default 2) parallel compile jobs; RICOCHET_BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")"

PACKAGES=(
  cmake g++ make pkg-config
  qt6-base-dev libqt6opengl6-dev qt6-svg-dev
  libvtk9-dev libeigen3-dev
  libhdf5-dev hdf5-tools python3-h5py python3-pytest
  libgl1-mesa-dev libgl1-mesa-dri xvfb xauth
  ffmpeg nlohmann-json3-dev parallel libqhull-dev
  pybind11-dev python3-dev python3-numpy python3-distributed python3-matplotlib
  libmujoco-dev  # bench only: ricochet-bodies-bench runs the same gas in MuJoCo
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "ricochet: installing missing Debian packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

BUILD_DIR="${RICOCHET_BUILD_DIR:-build}"
JOBS="${RICOCHET_JOBS:-2}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" -j "$JOBS"

if [ "${1:-}" = "--build-only" ]; then
  exit 0
fi

# VTK 9.1's GLEW loader breaks on Wayland: run through XWayland unless told otherwise.
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-xcb}"
if [ -z "${DISPLAY:-}" ] && [ "$QT_QPA_PLATFORM" = "xcb" ]; then
  echo "ricochet: no DISPLAY; starting under xvfb-run (nothing will be visible)" >&2
  exec xvfb-run -a -s "-screen 0 1280x1024x24" "$BUILD_DIR/bin/ricochet" "$@"
fi
exec "$BUILD_DIR/bin/ricochet" "$@"
