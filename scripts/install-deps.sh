#!/usr/bin/env bash
# Installs everything wgperf needs to build and test on Debian 12 (run as root).
# Idempotent: skips apt when every package is already installed.
#
# CUDA 11.8 (nvidia-cuda-toolkit, nvidia-cuda-dev): the newest CUDA whose headers
# clang 19 reads, so that .cu programs compile against the real CUDA headers and
# ptxas/nvcc 11.8 count registers for sm_35 ... sm_90 (docs/cuda.md).  Debian
# ships it in `non-free`; its libcuda1 dependency needs `nvidia-support` from
# `contrib`.  Both components are enabled in a source file of their own
# (/etc/apt/sources.list.d/wgperf-cuda.sources) and pinned so that apt takes only
# the CUDA packages and their dependencies from them
# (/etc/apt/preferences.d/wgperf-cuda).  About 1.5 GiB to download and 5 GiB
# installed, about 7.5 minutes on a 2-core machine.  WGPERF_CUDA=0 leaves it out; wgperf then compiles CUDA with its
# stand-in headers and says so.
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config python3
  llvm-19-dev llvm-19-tools clang-19 libclang-rt-19-dev libclang-19-dev libclc-19 libclc-19-dev lld-19
  parallel
  libisl-dev libjansson-dev libcmocka-dev
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers clinfo pocl-opencl-icd
  zlib1g-dev libzstd-dev libedit-dev libxml2-dev libcurl4-openssl-dev libffi-dev
  # headers the real CUDA programs of the coverage test include (test/real-programs):
  # OpenMP's for clang (Rodinia kmeans), GLEW (Rodinia hybridsort)
  libomp-19-dev libglew-dev
)
# nvidia-cuda-toolkit: ptxas, nvcc and libdevice; nvidia-cuda-dev: the headers (the
# toolkit depends on it, and it on every CUDA library: apt cannot take less)
CUDA_PKGS=(nvidia-cuda-toolkit nvidia-cuda-dev)
# The CUDA samples' Common/ helpers (helper_cuda.h, helper_timer.h), which programs
# built on the CUDA SDK include (Rodinia cfd's $(SDK_DIR)/common/inc; the coverage test
# of test/real-programs), are taken out of the nvidia-cuda-samples package alone
# (84 MB to download, 4.4 MB kept) into this folder: installing the package would also
# install what its samples build with (boost, Vulkan, MPI, GLFW, FreeImage: ~470 MB).
SAMPLES_COMMON=/usr/local/share/wgperf/cuda-samples-11.8/Common

want_cuda=${WGPERF_CUDA:-1}
case "$(dpkg --print-architecture)" in
amd64 | arm64 | ppc64el) ;;
*) want_cuda=0 ;; # Debian builds CUDA for these only
esac

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

missing=()
for p in "${PKGS[@]}"; do
  installed "$p" || missing+=("$p")
done
cuda_missing=()
want_samples=0
if [ "$want_cuda" != 0 ]; then
  for p in "${CUDA_PKGS[@]}"; do
    installed "$p" || cuda_missing+=("$p")
  done
  [ -f "$SAMPLES_COMMON/helper_cuda.h" ] || want_samples=1
fi

if [ ${#missing[@]} -eq 0 ] && [ ${#cuda_missing[@]} -eq 0 ] && [ "$want_samples" = 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

SOURCES=/etc/apt/sources.list.d/wgperf-cuda.sources
PINS=/etc/apt/preferences.d/wgperf-cuda

# The mirror the machine already uses for Debian's main archive (not -security), from
# a deb822 .sources file or a one-line sources.list; deb.debian.org when none is found.
debian_mirror() {
  local f uri
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && [ "$f" != "$SOURCES" ] || continue
    uri=$(awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) if ($i ~ /\/debian\/?$/) { print $i; exit } }' "$f")
    if [ -n "$uri" ]; then
      echo "$uri"
      return
    fi
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\/.*\/debian\/?$/) { print $i; exit } }' "$f")
    if [ -n "$uri" ]; then
      echo "$uri"
      return
    fi
  done
  echo "http://deb.debian.org/debian"
}

# Writes FILE with the text on stdin unless it already holds exactly that; says
# whether it changed (exit 0) or not (exit 1).
write_if_changed() {
  local file=$1 text
  text=$(cat)
  if [ -f "$file" ] && [ "$(cat "$file")" = "$text" ]; then
    return 1
  fi
  printf '%s\n' "$text" | $SUDO tee "$file" > /dev/null
}

if [ ${#cuda_missing[@]} -gt 0 ] || [ "$want_samples" = 1 ]; then
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  mirror=$(debian_mirror)
  write_if_changed "$SOURCES" << EOF || true
# wgperf (scripts/install-deps.sh): Debian's CUDA 11.8 toolkit, and nothing else, from
# non-free and contrib (see $PINS)
Types: deb
URIs: $mirror
Suites: $codename $codename-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  # Only the CUDA toolkit's package set may come from these components: its libraries
  # (libcu*, libnpp*, libnv*, ...), the driver's libcuda1 and what it needs to be
  # installable (nvidia-support, nvidia-alternative, the glx alternatives), and no other
  # non-free or contrib package.
  write_if_changed "$PINS" << 'EOF' || true
# wgperf (scripts/install-deps.sh): non-free and contrib for the CUDA toolkit's package set only
Package: *
Pin: release o=Debian, c=non-free
Pin-Priority: -1

Package: *
Pin: release o=Debian, c=contrib
Pin-Priority: -1

Package: /^(nvidia-|libnvidia-|libcuda|libcudart|libcu[a-z]*[0-9]|libcupti|libcub-dev|libcu\+\+-dev|libthrust-dev|libaccinj|libnpp|libnv|glx-|update-glx)/
Pin: release o=Debian
Pin-Priority: 500
EOF
fi

all=("${missing[@]}" "${cuda_missing[@]}")
$SUDO apt-get update -q
if [ ${#all[@]} -gt 0 ]; then
  echo "install-deps: installing ${all[*]}"
  $SUDO apt-get install -y -q --no-install-recommends "${all[@]}"
fi

if [ "$want_samples" = 0 ]; then exit 0; fi
echo "install-deps: the CUDA samples' Common/ headers into $SAMPLES_COMMON"
tmp=$(mktemp -d)
chmod 755 "$tmp" # apt downloads as _apt
trap 'rm -rf "$tmp"' EXIT
# apt-get download checks the package against the archive's signed index, as install does
(cd "$tmp" && apt-get download -q nvidia-cuda-samples)
mkdir -p "$tmp/x"
dpkg-deb --fsys-tarfile "$tmp"/nvidia-cuda-samples_*.deb |
  tar -x -C "$tmp/x" --wildcards './usr/share/doc/nvidia-cuda-toolkit/examples/Common/*'
$SUDO mkdir -p "$(dirname "$SAMPLES_COMMON")"
$SUDO rm -rf "$SAMPLES_COMMON"
$SUDO cp -r "$tmp/x/usr/share/doc/nvidia-cuda-toolkit/examples/Common" "$SAMPLES_COMMON"
