#!/usr/bin/env bash
# Runs each fuzz target for a bounded time (default 25 s). The case-file target starts from the shipped
# case tables and the malformed corpus; the command-line target from fuzz/corpus/command_line; the
# litmus-file target from the shipped and the grammar litmus files. Exits
# non-zero on a crash, a leak or a sanitizer report (libFuzzer writes the input as crash-*/leak-*).
#   fuzz/run.sh BUILD_DIR [SECONDS]
set -euo pipefail
build=${1:?usage: fuzz/run.sh BUILD_DIR [SECONDS]}
seconds=${2:-25}
here="$(cd "$(dirname "$0")" && pwd)"
work="$build/fuzz-work"
mkdir -p "$work/case_file" "$work/command_line" "$work/litmus_file" "$work/artifacts"
cp "$here"/../cases/*.toml "$here"/../tests/corpus/malformed/*.toml "$here"/../tests/planted/*.toml "$work/case_file/"
cp "$here"/corpus/command_line/* "$work/command_line/"
cp "$here"/../cases/litmus/*.test "$here"/../tests/litmus/grammar/*.test "$work/litmus_file/"
for target in case_file command_line litmus_file; do
  echo "fuzz: $target for ${seconds} s"
  # -rss_limit_mb guards against a parser that allocates without bound; dictionaries are not needed.
  "$build/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/$target-" "$work/$target" 2>&1 | tail -n 12
done
echo "fuzz: no crash"
