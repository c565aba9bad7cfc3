# A short fuzz run of every libFuzzer target (tests/fuzz/run.sh: the JSON-lines
# reader, URL canonicaliser, the links' fast path against libcurl, robots.txt
# parser, link extractor and the frontier-import row decoding, under
# AddressSanitizer and UndefinedBehaviorSanitizer): each replays its checked-in
# corpus (tests/fuzz/corpus/, crashes found earlier among them) and then
# mutates for FUZZ_SECONDS (3 here; `make fuzz` runs 300 each).
# e2e: long (tests/e2e/run.sh starts it first)
set -euo pipefail
out=$(FUZZ_SECONDS=${FUZZ_SECONDS:-3} "$ROOT/tests/fuzz/run.sh")
echo "$out"
for t in json url url_plain robots links export; do
    grep -q "^fuzz $t: ok, [0-9]* runs" <<<"$out" || { echo "fuzz target $t did not run clean"; exit 1; }
done
