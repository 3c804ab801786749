#!/usr/bin/env bash
# Installs everything wgperf needs to build and test on Debian 12 (run as root).
# Idempotent: a second run changes nothing and downloads nothing.
#
# CUDA 11.8: the newest CUDA whose headers clang 19 reads, so that .cu programs
# compile against the real CUDA headers and ptxas/nvcc 11.8 count registers for
# sm_35 ... sm_90 (docs/cuda.md).  Debian ships it in `non-free` (nvidia-cuda-toolkit,
# nvidia-cuda-dev), but installing those packages brings every CUDA library and the
# driver (1.5 GiB to download, 5 GiB installed) where wgperf needs only the headers,
# nvcc, ptxas, cicc and libdevice.  So the script downloads the five packages that
# hold these (apt-get download, which checks them against the archive's signed
# index), installs none of them, and unpacks only those files, in the layout of
# NVIDIA's own toolkit, into $WGPERF_CUDA_DIR (default /opt/wgperf/cuda-11.8, where
# wgperf looks for it).  Non-free is enabled for the download in a source file of its
# own (/etc/apt/sources.list.d/wgperf-cuda.sources), pinned so that apt takes no other
# package from it (/etc/apt/preferences.d/wgperf-cuda).  WGPERF_CUDA=0 leaves CUDA
# out; wgperf then compiles CUDA with its stand-in headers and says so.
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config python3
  llvm-19-dev llvm-19-tools clang-19 libclang-rt-19-dev libclang-19-dev libclc-19 libclc-19-dev lld-19
  parallel
  # a real single-node Slurm for the job-array test (scripts/slurm-local.sh, lit tune-slurm.test)
  slurm-wlm munge
  libisl-dev libjansson-dev libcmocka-dev
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers clinfo pocl-opencl-icd
  zlib1g-dev libzstd-dev libedit-dev libxml2-dev libcurl4-openssl-dev libffi-dev
  # headers the real CUDA programs of the coverage test include (test/real-programs):
  # OpenMP's for clang (Rodinia kmeans), GLEW (Rodinia hybridsort)
  libomp-19-dev libglew-dev
)
# What wgperf's CUDA 11.8 is made of (downloaded, not installed): nvidia-cuda-toolkit
# (nvcc, ptxas, cicc, libdevice), nvidia-cuda-dev (the headers; its libraries are not
# unpacked), and the header-only libraries nvidia-cuda-dev depends on, which CUDA
# programs include as part of the toolkit (thrust, cub, libcu++).
CUDA_PKGS=(nvidia-cuda-toolkit nvidia-cuda-dev libthrust-dev libcub-dev libcu++-dev)
CUDA_DIR=${WGPERF_CUDA_DIR:-/opt/wgperf/cuda-11.8}
# The record of a complete unpacking (the packages and versions), copied in last: a
# folder without it is redone.
CUDA_STAMP=$CUDA_DIR/wgperf-cuda.txt
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
want_toolkit=0
want_samples=0
if [ "$want_cuda" != 0 ]; then
  [ -f "$CUDA_STAMP" ] || want_toolkit=1
  [ -f "$SAMPLES_COMMON/helper_cuda.h" ] || want_samples=1
fi

if [ ${#missing[@]} -eq 0 ] && [ "$want_toolkit" = 0 ] && [ "$want_samples" = 0 ]; then
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

if [ "$want_toolkit" = 1 ] || [ "$want_samples" = 1 ]; then
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  mirror=$(debian_mirror)
  write_if_changed "$SOURCES" << EOF || true
# wgperf (scripts/install-deps.sh): Debian's CUDA 11.8 toolkit, and nothing else, from
# non-free and contrib (see $PINS); downloaded, not installed
Types: deb
URIs: $mirror
Suites: $codename $codename-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  # Only the packages downloaded below may come from these components (none of them is
  # installed), and no other non-free or contrib package.
  write_if_changed "$PINS" << 'EOF' || true
# wgperf (scripts/install-deps.sh): non-free and contrib for the CUDA toolkit's packages only
Package: *
Pin: release o=Debian, c=non-free
Pin-Priority: -1

Package: *
Pin: release o=Debian, c=contrib
Pin-Priority: -1

Package: /^nvidia-cuda-(toolkit|dev|samples)$/
Pin: release o=Debian
Pin-Priority: 500
EOF
fi


$SUDO apt-get update -q
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ "$want_toolkit" = 0 ] && [ "$want_samples" = 0 ]; then exit 0; fi

tmp=$(mktemp -d)
chmod 755 "$tmp" # apt downloads as _apt
trap 'rm -rf "$tmp"' EXIT

if [ "$want_toolkit" = 1 ]; then
  echo "install-deps: CUDA 11.8's headers, nvcc, ptxas and libdevice into $CUDA_DIR (${CUDA_PKGS[*]}, not installed)"
  mkdir -p "$tmp/debs" "$tmp/x"
  chmod 755 "$tmp/debs"
  # apt-get download checks each package against the archive's signed index, as install does
  (cd "$tmp/debs" && apt-get download -q "${CUDA_PKGS[@]}")
  for deb in "$tmp"/debs/*.deb; do
    case "$(basename "$deb")" in
    nvidia-cuda-dev_*) # the headers, not the libraries
      dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" --wildcards './usr/include/*' ;;
    nvidia-cuda-toolkit_*) # the compilers, not the profilers, debuggers and sanitizers
      dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" ./usr/bin/ptxas ./usr/bin/cudafe++ ./usr/bin/fatbinary \
        ./usr/bin/nvlink ./usr/bin/bin2c ./usr/lib/nvidia-cuda-toolkit/bin/nvcc ./usr/lib/nvidia-cuda-toolkit/bin/cicc \
        ./usr/lib/nvidia-cuda-toolkit/bin/crt ./usr/lib/nvidia-cuda-toolkit/libdevice ./usr/include/nvvm.h ;;
    *) dpkg-deb -x "$deb" "$tmp/x" ;;
    esac
  done
  # NVIDIA's layout, which clang (--cuda-path) and nvcc expect: include/, bin/ with nvcc
  # and ptxas, nvvm/bin/cicc, nvvm/libdevice/
  t=$tmp/toolkit
  tk=$tmp/x/usr/lib/nvidia-cuda-toolkit
  mkdir -p "$t/bin" "$t/nvvm/bin" "$t/lib64"
  mv "$tmp/x/usr/include" "$t/include"
  mv "$tk/bin/nvcc" "$tk/bin/crt" "$t/bin/" # Debian's /usr/bin/nvcc is a script that runs this one
  mv "$tk/bin/cicc" "$t/nvvm/bin/"
  mv "$tk/libdevice" "$t/nvvm/libdevice"
  for b in ptxas cudafe++ fatbinary nvlink bin2c; do mv "$tmp/x/usr/bin/$b" "$t/bin/"; done
  # Debian's nvcc.profile is a link to /etc/nvcc.profile, which names /usr paths; this
  # one, like NVIDIA's, names the folders relative to nvcc's own
  printf '%s\n' 'TOP                = $(_HERE_)/..' \
    'NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice' \
    'PATH              += $(TOP)/nvvm/bin:$(_HERE_):' \
    'INCLUDES          += "-I$(TOP)/include" $(_SPACE_)' \
    'LIBRARIES          =+ $(_SPACE_) "-L$(TOP)/lib64"' > "$t/bin/nvcc.profile"
  {
    echo "# wgperf (scripts/install-deps.sh): CUDA 11.8's headers and compilers from these Debian packages"
    for deb in "$tmp"/debs/*.deb; do dpkg-deb -f "$deb" Package Version | paste -sd' '; done
  } > "$tmp/stamp"
  rm -rf "$tmp/debs" "$tmp/x"
  $SUDO mkdir -p "$(dirname "$CUDA_DIR")"
  $SUDO rm -rf "$CUDA_DIR"
  $SUDO cp -a "$t" "$CUDA_DIR"
  $SUDO cp "$tmp/stamp" "$CUDA_STAMP"
  rm -rf "$t"
fi

if [ "$want_samples" = 0 ]; then exit 0; fi
echo "install-deps: the CUDA samples' Common/ headers into $SAMPLES_COMMON"
mkdir -p "$tmp/s/x"
chmod 755 "$tmp/s"
(cd "$tmp/s" && apt-get download -q nvidia-cuda-samples)
dpkg-deb --fsys-tarfile "$tmp"/s/nvidia-cuda-samples_*.deb |
  tar -x -C "$tmp/s/x" --wildcards './usr/share/doc/nvidia-cuda-toolkit/examples/Common/*'
$SUDO mkdir -p "$(dirname "$SAMPLES_COMMON")"
$SUDO rm -rf "$SAMPLES_COMMON"
$SUDO cp -r "$tmp/s/x/usr/share/doc/nvidia-cuda-toolkit/examples/Common" "$SAMPLES_COMMON"
