#!/usr/bin/env bash
# Runs each fuzz target for a bounded time (default 25 s). The case-file target starts from the shipped
# case tables and the malformed corpus; the command-line target from fuzz/corpus/command_line; the
# litmus-file target from the shipped and the grammar litmus files; the run-inputs target (baseline,
# case list, results file) from the readers' corpora. Exits
# non-zero on a crash, a leak or a sanitizer report (libFuzzer writes the input as crash-*/leak-*).
#   fuzz/run.sh BUILD_DIR [SECONDS]
set -euo pipefail
build=${1:?usage: fuzz/run.sh BUILD_DIR [SECONDS]}
seconds=${2:-25}
here="$(cd "$(dirname "$0")" && pwd)"
work="$build/fuzz-work"
targets="case_file command_line litmus_file run_inputs"
for t in $targets; do mkdir -p "$work/$t"; done
mkdir -p "$work/artifacts"
cp "$here"/../cases/*.toml "$here"/../tests/corpus/malformed/*.toml "$here"/../tests/planted/*.toml "$work/case_file/"
cp "$here"/corpus/command_line/* "$work/command_line/"
cp "$here"/../cases/litmus/*.test "$here"/../tests/litmus/grammar/*.test "$here"/../tests/litmus/herd/*.litmus "$work/litmus_file/"
# run_inputs: the first byte picks the reader (0 baseline, 1 case list, 2 results file): the readers'
# expectation corpus and ci/expectations, fuzz/corpus/caselist, the documents and inputs corpora.
seed() { for f in "${@:2}"; do [ -f "$f" ] && { printf "\\$(printf %03o "$1")"; cat "$f"; } >"$work/run_inputs/$1-$(basename "$f")"; done; return 0; }
seed 0 "$here"/../tests/data/expectations/*.txt "$here"/../ci/expectations/*.txt
seed 1 "$here"/corpus/caselist/*
seed 2 "$here"/../tests/corpus/documents/*.json "$here"/../tests/corpus/inputs/files/*.json
for target in $targets; do
  echo "fuzz: $target for ${seconds} s"
  # -rss_limit_mb guards against a parser that allocates without bound; dictionaries are not needed.
  "$build/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/$target-" "$work/$target" 2>&1 | tail -n 12
done
echo "fuzz: no crash"
