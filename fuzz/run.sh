#!/usr/bin/env bash
# Runs each fuzz target for a bounded time (default 25 s). The case-file target starts from the shipped
# case tables and the malformed corpus; the command-line target from fuzz/corpus/command_line; the
# litmus-file target from the shipped and the grammar litmus files; the expectations target from the
# readers' expectation corpus, the case-list target from fuzz/corpus/caselist, the results target from
# the documents and inputs corpora. Exits
# non-zero on a crash, a leak or a sanitizer report (libFuzzer writes the input as crash-*/leak-*).
#   fuzz/run.sh BUILD_DIR [SECONDS]
set -euo pipefail
build=${1:?usage: fuzz/run.sh BUILD_DIR [SECONDS]}
seconds=${2:-25}
here="$(cd "$(dirname "$0")" && pwd)"
work="$build/fuzz-work"
targets="case_file command_line litmus_file expectations caselist results"
for t in $targets; do mkdir -p "$work/$t"; done
mkdir -p "$work/artifacts"
cp "$here"/../cases/*.toml "$here"/../tests/corpus/malformed/*.toml "$here"/../tests/planted/*.toml "$work/case_file/"
cp "$here"/corpus/command_line/* "$work/command_line/"
cp "$here"/../cases/litmus/*.test "$here"/../tests/litmus/grammar/*.test "$work/litmus_file/"
# The expectation files of the readers' shared corpus and ci/expectations; case lists; small results files.
cp "$here"/../tests/data/expectations/*.txt "$here"/../ci/expectations/*.txt "$work/expectations/" 2>/dev/null || true
cp "$here"/corpus/caselist/* "$work/caselist/"
cp "$here"/../tests/corpus/documents/*.json "$here"/../tests/corpus/inputs/files/*.json "$work/results/"
for target in $targets; do
  echo "fuzz: $target for ${seconds} s"
  # -rss_limit_mb guards against a parser that allocates without bound; dictionaries are not needed.
  "$build/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/$target-" "$work/$target" 2>&1 | tail -n 12
done
echo "fuzz: no crash"
