#!/usr/bin/env bash
# The package test (ctest label `package`, registered by tests/package/CMakeLists.txt):
#   1. `cmake --install <build> --prefix <tmp>` of the build tree under test (nothing is rebuilt);
#   2. the installed layout: what must be there, and the in-tree archives and headers that must not;
#   3. tests/package/consumer built against the prefix with find_package(zyx CONFIG), and once
#      more with one compile line from `pkg-config --cflags --libs zyx`;
#   4. both programs run with LD_LIBRARY_PATH=<prefix>/lib, ZYX_EMU_INCLUDE_DIR and ZYX_TT_RUNTIME
#      unset, a fresh kernel cache, private config and lock directories; the client must start the
#      installed runtime, the runtime must compile kernels against the installed headers, and the
#      printed numbers must match the ones computed here.
# Usage: run.sh <cmake> <generator> <c++ compiler> <build dir> <consumer source dir>
#               <libdir> <libexecdir> <datadir> <includedir> <soversion> [extra compiler flags]
set -euo pipefail
cmake=$1 generator=$2 cxx=$3 build=$4 consumer=$5
libdir=$6 libexecdir=$7 datadir=$8 includedir=$9 soversion=${10} extra=${11:-}

work=$(mktemp -d "${TMPDIR:-/tmp}/zyx-pkg-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# ---- 1. install ----------------------------------------------------------------------------------
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || {
    cat "$work/install.log" >&2
    fail "cmake --install $build --prefix $prefix"
}

# ---- 2. layout -------------------------------------------------------------------------------------
for f in "$libdir/libzyx.so" "$libdir/libzyx.so.$soversion" "$libdir/cmake/zyx/zyxConfig.cmake" \
    "$libdir/cmake/zyx/zyxConfigVersion.cmake" "$libdir/cmake/zyx/zyxTargets.cmake" "$libdir/pkgconfig/zyx.pc" \
    "$includedir/zyx/tensor.hpp" "$includedir/zyx/device.hpp" "$includedir/zyx/nn.hpp" "$includedir/zyx/optim.hpp" \
    "$includedir/zyx/checkpoint.hpp" "$includedir/zyx/data.hpp" "$includedir/zyx/core/dtype.hpp" \
    "$includedir/zyx/core/error.hpp" "$libexecdir/zyx/zyx-tt-runtime" \
    "$datadir/zyx/emulator/include/zyx_emu/kernel_abi.h" "$datadir/zyx/emulator/include/api/dataflow/dataflow_api.h"; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ -x "$prefix/$libexecdir/zyx/zyx-tt-runtime" ] || fail "the runtime is not executable"
# A full install carries libzyx only: no static archive, no internal header of src/.
for f in "$libdir/libzyx.a" "$libdir/libzyx_backend_tt.a" "$libdir/libzyx_tt_shared.a" "$includedir/zyx/backend"; do
    [ ! -e "$prefix/$f" ] || fail "installed by a full install, but internal: $f"
done
# Nothing installed for consumers points into the source tree.
source_dir=$(cd "$consumer/../../.." && pwd)
if grep -rlF -- "$source_dir/" "$prefix/$libdir/cmake" "$prefix/$libdir/pkgconfig" "$prefix/$includedir" >"$work/leaks"; then
    fail "installed files name the source tree $source_dir: $(cat "$work/leaks")"
fi
# The soname names the ABI version (major.minor while 0.x, as cmake/zyx_package.cmake).
soname=$(objdump -p "$prefix/$libdir/libzyx.so" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = "libzyx.so.$soversion" ] || fail "libzyx.so has soname '$soname', expected libzyx.so.$soversion"

# ---- 3. build the consumer twice ------------------------------------------------------------------
# From a copy outside the source tree: no path of the source tree may appear in its build.
cp -r "$consumer" "$work/consumer"
consumer=$work/consumer
"$cmake" -S "$consumer" -B "$work/cmake-build" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$extra" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$work/configure.log" 2>&1 || {
    cat "$work/configure.log" >&2
    fail "configuring the consumer with find_package(zyx)"
}
grep -qF -- "from $prefix/$libdir/cmake/zyx" "$work/configure.log" || {
    cat "$work/configure.log" >&2
    fail "find_package(zyx) did not take the package of $prefix"
}
"$cmake" --build "$work/cmake-build" >"$work/build.log" 2>&1 || {
    cat "$work/build.log" >&2
    fail "building the consumer with find_package(zyx)"
}

! grep -F -- "$source_dir/" "$work/cmake-build/compile_commands.json" >/dev/null ||
    fail "the consumer's compile line names the source tree: $(cat "$work/cmake-build/compile_commands.json")"

export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
pc_flags=$(pkg-config --cflags --libs zyx) || fail "pkg-config --cflags --libs zyx"
[ "$(pkg-config --modversion zyx)" = "$(sed -n 's/^Version: //p' "$prefix/$libdir/pkgconfig/zyx.pc")" ] ||
    fail "pkg-config --modversion zyx"
# shellcheck disable=SC2086  # the flags are words
"$cxx" -std=c++20 -O1 $extra "$consumer/main.cpp" -o "$work/consumer-pc" $pc_flags >"$work/pc.log" 2>&1 || {
    echo "$cxx -std=c++20 -O1 $extra $consumer/main.cpp -o $work/consumer-pc $pc_flags" >&2
    cat "$work/pc.log" >&2
    fail "building the consumer from pkg-config's flags"
}

# ---- 4. run both and check ------------------------------------------------------------------------
rows=45 cols=70  # not multiples of 32: tt:0 pads the last tile of each axis
expected=$(awk -v R=$rows -v C=$cols 'BEGIN {
    for (i = 0; i < R; i++) {
        r = 0
        for (j = 0; j < C; j++) {
            k = i * C + j; a = (k % 17) / 4; b = k % 5 - 2
            s += a + b; r += a * b
        }
        if (i == 0) r0 = r
        if (i == R - 1) rl = r
    }
    printf "%.9g %.9g %.9g\n", s, r0, rl
}')

mkdir -p "$work/run" "$work/config"
for exe in "$work/cmake-build/consumer" "$work/consumer-pc"; do
    name=$(basename "$exe")
    rm -rf "$work/cache"
    env -u ZYX_EMU_INCLUDE_DIR -u ZYX_TT_RUNTIME -u ZYX_SOURCE_DIR -u ZYX_BUILD_DIR \
        ZYX_CACHE_DIR="$work/cache" XDG_RUNTIME_DIR="$work/run" XDG_CONFIG_HOME="$work/config" \
        LD_LIBRARY_PATH="$prefix/$libdir" ZYX_DEBUG=runtime,emu \
        "$exe" $rows $cols >"$work/$name.out" 2>"$work/$name.err" || {
        cat "$work/$name.out" "$work/$name.err" >&2
        fail "$name exited with an error"
    }
    cat "$work/$name.out"
    # The installed library, runtime and kernel headers were used, nothing of the source tree.
    LD_LIBRARY_PATH="$prefix/$libdir" ldd "$exe" | grep -F -- "$prefix/$libdir/libzyx.so.$soversion" >/dev/null || fail "$name does not load $prefix/$libdir/libzyx.so"
    grep -qF -- "started $prefix/$libexecdir/zyx/zyx-tt-runtime " "$work/$name.err" ||
        fail "$name did not start the installed runtime; its stderr: $(grep -F started "$work/$name.err")"
    grep -qF -- "kernel API headers: $prefix/$datadir/zyx/emulator/include (installed layout)" "$work/$name.err" ||
        fail "the runtime did not take the installed kernel headers: $(grep -F 'kernel API headers' "$work/$name.err")"
    [ -n "$(find "$work/cache" -name '*.so' -print -quit)" ] || fail "$name compiled no kernel into $work/cache"
    for device in host tt:0; do
        line=$(grep "^$device sum " "$work/$name.out") || fail "$name printed no line for $device"
        # "<device> sum S row0 R0 last RL" against the plain-loop sums, relative 1e-6 (every partial
        # sum is a multiple of 1/4 below 2^20, exact in f32 whatever the order).
        awk -v got="$line" -v want="$expected" 'BEGIN {
            split(got, g, " "); split(want, w, " ")
            n = split("sum row0 last", names, " ")
            for (i = 1; i <= n; i++) {
                v = g[2 * i + 1]; e = w[i]; d = v - e; if (d < 0) d = -d
                m = e < 0 ? -e : e; if (m < 1) m = 1
                if (d > 1e-6 * m) { printf "%s: %s is %s, expected %s\n", g[1], names[i], v, e; bad = 1 }
            }
            exit bad
        }' || fail "$name: wrong result on $device"
    done
done
echo "package test passed: install into $prefix, CMake and pkg-config consumers, host and tt:0"
