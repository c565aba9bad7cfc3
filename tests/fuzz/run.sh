#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz.mk: clang with AddressSanitizer
# and UndefinedBehaviorSanitizer, into build-fuzz/) and fuzzes each for
# FUZZ_SECONDS (default 300; tests/e2e/test_fuzz_short.sh runs a few seconds
# each in `make check`, `make fuzz` the default).
#
# Targets: json (JSON-lines reader), url (canonicaliser and resolver),
# url_plain (the links' fast path against libcurl's resolution), robots
# (robots.txt parser and matcher), links (HTML link extractor, sitemaps),
# export (frontier-import's row and header decoding).
# FUZZ_TARGETS="url robots" picks some.
#
# Corpus: tests/fuzz/corpus/TARGET/ holds the checked-in seeds; every file
# there runs first, every time, so an input that once crashed stays fixed
# (put a crash's artifact there, with a name that says what it was, once the
# bug is fixed). New interesting inputs go to build-fuzz/corpus/TARGET/
# (kept between runs, not checked in). A crash stops the run with exit 1
# and leaves the input in build-fuzz/crashes/.
#
# clang and Debian's libclang-rt (the libFuzzer runtime) are installed with
# apt-get when missing (root or sudo; only Debian mirrors are needed).
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_EACH=${FUZZ_SECONDS:-300}
TARGETS=${FUZZ_TARGETS:-"json url url_plain robots links export"}

fuzzer_runtime() {
    local f
    f=$(clang++ -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)
    [ -n "$f" ] && [ -f "$f" ] && return 0
    ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a > /dev/null 2>&1
}
if ! command -v clang++ > /dev/null 2>&1 || ! fuzzer_runtime; then
    echo "fuzz: installing clang and libclang-rt-dev" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get install -y -q --no-install-recommends clang libclang-rt-dev > /dev/null 2>&1 || {
        $SUDO apt-get update -q > /dev/null
        $SUDO apt-get install -y -q --no-install-recommends clang libclang-rt-dev > /dev/null
    }
fi

make --no-print-directory -s -f tests/fuzz/fuzz.mk -j"$(nproc)" >&2

declare -A MAX_LEN=([json]=8192 [url]=4096 [url_plain]=4096 [robots]=16384 [links]=65536 [export]=4096)
mkdir -p build-fuzz/crashes
status=0
for t in $TARGETS; do
    mkdir -p "build-fuzz/corpus/$t"
    log="build-fuzz/fuzz_$t.log"
    set +e
    # leak detection off: libxml2 and libcurl keep per-thread state for the
    # life of the process by design.
    ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "build-fuzz/fuzz_$t" -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2048 \
        -max_len="${MAX_LEN[$t]}" -print_final_stats=1 -artifact_prefix="build-fuzz/crashes/$t-" \
        "build-fuzz/corpus/$t" "tests/fuzz/corpus/$t" > "$log" 2>&1
    rc=$?
    set -e
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    if [ $rc -eq 0 ]; then
        echo "fuzz $t: ok, $runs runs in ${SECONDS_EACH} s, $cov, corpus $(ls "build-fuzz/corpus/$t" | wc -l) + $(ls "tests/fuzz/corpus/$t" | wc -l) seeds"
    else
        echo "fuzz $t: FAILED (exit $rc); input in build-fuzz/crashes/, log $log:"
        grep -E 'ERROR|SUMMARY|runtime error|Test unit written|abort' "$log" | head -20
        status=1
    fi
done
exit $status
