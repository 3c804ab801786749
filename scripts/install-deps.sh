#!/usr/bin/env bash
# Installs everything wgperf needs to build and test on Debian 12 (run as root).
# Idempotent: skips apt when every package is already installed.
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config python3
  llvm-19-dev llvm-19-tools clang-19 libclang-rt-19-dev libclang-19-dev libclc-19 libclc-19-dev lld-19
  parallel
  libisl-dev libjansson-dev libcmocka-dev
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers clinfo pocl-opencl-icd
  zlib1g-dev libzstd-dev libedit-dev libxml2-dev libcurl4-openssl-dev libffi-dev
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
