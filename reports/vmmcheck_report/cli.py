"""The command line: ``python3 -m vmmcheck_report {render,compare,expectations,rerun,merge,junit,figures,handbook,
history,bench-report,bench-compare}``.

Exit codes follow vmmcheck's (docs/design.md, "Exit codes"): 0 nothing unexpected, 1 a failure (a regression, an
unexpected result), 2 bad input or usage, 77 nothing could run here (rerun on a machine without a GPU). Bad
input is always one line on stderr naming the file and the problem, never a traceback: these commands run
unattended in CI, and the line is what a person sees. Every file a command writes is claimed before any work
(outputs.claim_output): an existing file holding a vmmcheck document of another kind is refused, exit 2.
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
from pathlib import Path
from typing import List, Optional

from . import __version__, expectations, load, outputs

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_NOTHING_RAN = 0, 1, 2, 77


def _claim(*outputs_: tuple, inputs=()) -> None:
    """Claim each (path, kind, what) a command will write, before it does any work: all refused or none.
    None is also one of the command's `inputs`, and no two are the same file (outputs.claim_outputs)."""
    outputs.claim_outputs(outputs_, inputs)


def _write(text: str, output: Optional[str]) -> None:
    """Text to a file, or to stdout when no file (or "-") is given."""
    if output in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(output).write_text(text, encoding="utf-8")


def _expectation_paths(args, doc):
    """The run's default files in --expectations-dir, each overridden by --fails/--flakes/--skips;
    also which kinds the user named."""
    paths = expectations.paths_for(doc, args.expectations_dir)
    named = {kind: Path(getattr(args, kind)) for kind in expectations.KINDS if getattr(args, kind)}
    paths.update(named)
    return paths, set(named)


def _expectation_files(args, doc) -> expectations.Expectations:
    """A default file that does not exist means no expectations of that kind; a named one must exist, and so
    must a named --expectations-dir."""
    expectations.check_dir(args.expectations_dir)
    paths, named = _expectation_paths(args, doc)
    return expectations.read(paths, required=named)


def cmd_render(args) -> int:
    _claim((args.output, None, "Markdown" if args.markdown else "HTML"), inputs=(args.results, args.schema))
    doc = load.load(args.results, args.schema)
    from . import render  # jinja2/matplotlib only for this command

    if args.markdown:
        _write(render.render_markdown(doc), args.output)
    else:
        _write(render.render_html(doc, open_all=args.open_all), args.output)
    return EXIT_OK


def _refuse_empty(named_docs, noun: str) -> None:
    """A run that ran or measured nothing (a --filter matching nothing) can vouch for nothing: compared, it is
    not a pass but bad input."""
    for path, doc in named_docs:
        if not doc["results"]:
            raise load.LoadError(f"{path}: no {noun} (results is empty): nothing to compare")


def cmd_compare(args) -> int:
    from . import compare, history

    _claim((args.html, None, "HTML"), inputs=(args.baseline, args.current, args.schema,
                                              history.resolve(args.db) if args.against_history else None))
    if args.against_history:
        # One file: CURRENT (argparse put it in `baseline`, the first positional); the baseline is the newest
        # stored run of its GPU (history.py).
        if args.current is not None:
            return _usage("compare --against-history takes one results file, CURRENT")
        args.current = args.baseline
        cur = load.load(args.current, args.schema)
        try:
            base, baseline_name = history.baseline_for(cur, args.db, args.schema)
        except history.HistoryError as e:
            print(e, file=sys.stderr)
            return EXIT_USAGE
    else:
        if args.current is None:
            return _usage("compare needs BASELINE and CURRENT (or --against-history CURRENT)")
        if args.db is not None:
            return _usage("compare: --db only goes with --against-history")
        base = load.load(args.baseline, args.schema)
        cur = load.load(args.current, args.schema)
        baseline_name = args.baseline
    _refuse_empty(((baseline_name, base), (args.current, cur)), "results")
    result = compare.compare(base, cur, args.rate_threshold, args.weak_threshold,
                             baseline_name=baseline_name, current_name=args.current,
                             allow_missing=args.allow_missing)
    sys.stdout.write(compare.format_text(result))
    if args.html:
        _write(compare.format_html(result), args.html)
    return result.exit_code


def _usage(message: str) -> int:
    print(message, file=sys.stderr)
    return EXIT_USAGE


def cmd_history_add(args) -> int:
    from . import history

    try:
        for line in history.add(args.results, args.db, args.schema):
            print(line)
    except history.HistoryError as e:
        print(e, file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def cmd_history_show(args) -> int:
    import json

    from . import history

    db = history.resolve(args.db)
    if not db.exists():
        # As compare --against-history: a store that is not there is a mistyped path, not an empty history
        # (show never creates one; `history add` does).
        print(f"{db}: no such history database (`history add RESULTS.json` creates one)", file=sys.stderr)
        return EXIT_USAGE
    try:
        if args.case:
            found = history.trend(args.db, args.case, args.gpu, args.family, args.limit)
        else:
            found = history.runs(args.db, args.gpu, args.family, args.limit)
    except history.HistoryError as e:
        print(e, file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        key = "cases" if args.case else "runs"
        sys.stdout.write(json.dumps({"db": str(history.resolve(args.db)), key: found}, indent=2) + "\n")
    elif not found:
        # Nothing there is an answer, not an error: exit 0 and say which filters found nothing.
        filters = [f"{name} {value}" for name, value in (("--gpu", args.gpu), ("--case", args.case),
                                                           ("--family", args.family)) if value]
        empty = not filters or not history.runs(args.db, limit=1)
        print(f"{history.resolve(args.db)}: " + ("the history is empty" if empty
                                                  else f"no match for {' '.join(filters)}"))
    else:
        sys.stdout.write(history.format_trend(found) if args.case else history.format_runs(found, args.db))
    return EXIT_OK


def _named_inputs(args) -> list:
    """The files a command that applies expectations reads, besides the run: the schema, the expectation files
    named. The run itself may be the output: applying is idempotent (it starts again from original_status), so
    `apply r.json -o r.json` updates the run in place and loses nothing."""
    return [args.schema] + [getattr(args, kind) for kind in expectations.KINDS]


def cmd_apply(args) -> int:
    _claim((args.output, "results", None), inputs=_named_inputs(args))
    doc = load.load(args.results, args.schema)
    if args.write_baseline:
        paths, _ = _expectation_paths(args, doc)
        _claim((paths["fails"], None, "an expectation file"), inputs=(args.results, args.schema))
        for what, path in expectations.write_baseline(doc, paths):
            print(f"{what} {path}")
        return EXIT_OK
    outputs.refuse_input_as_output(args.output, _expectation_paths(args, doc)[0].values())
    out = expectations.apply(doc, _expectation_files(args, doc))
    if args.output:
        load.dump(out, args.output)
    sys.stdout.write(expectations.summary(out))
    return EXIT_FAIL if expectations.unexpected(out) else EXIT_OK


def cmd_check(args) -> int:
    """Parse every expectation file in a folder: what CI runs so a bad edit fails early."""
    directory = expectations.check_dir(args.expectations_dir)
    files = sorted(directory.glob("*.txt"))
    for path in files:
        if path.name.endswith("-fails.txt"):
            n = len(expectations.parse_fails(path))
        else:
            n = len(expectations.parse_patterns(path))
        print(f"{path}: {n} entr{'y' if n == 1 else 'ies'}")
    print(f"{len(files)} file{'s' if len(files) != 1 else ''} ok")
    return EXIT_OK


def cmd_rerun(args) -> int:
    """Probe the machine, rerun (rerun.py); 77 where nothing can run here or every rerun came back
    NotSupported, 2 where the machine is not the run's."""
    from . import rerun

    _claim((args.output, "results", None), inputs=_named_inputs(args) + [args.vmmcheck])
    # The program named is the user's input: one that is not there is said so, whatever there is to rerun.
    if not shutil.which(str(args.vmmcheck)):
        print(f"rerun: cannot run {args.vmmcheck}: not an executable program", file=sys.stderr)
        return EXIT_USAGE
    doc = load.load(args.results, args.schema)
    outputs.refuse_input_as_output(args.output, _expectation_paths(args, doc)[0].values())
    try:
        out = rerun.apply_then_rerun(doc, _expectation_files(args, doc), check=True, where=args.results,
                                     vmmcheck=args.vmmcheck, attempts=args.attempts, extra=args.extra,
                                     schema=args.schema, timeout=args.attempt_timeout,
                                     progress=lambda line: print(line, file=sys.stderr, flush=True))
    except rerun.Refused as e:
        print(e, file=sys.stderr)
        return e.code
    if args.output:
        load.dump(out, args.output)
    sys.stdout.write(expectations.summary(out))
    nothing = rerun.nothing_rerun(out)
    if nothing:
        print(nothing, file=sys.stderr)
        return EXIT_NOTHING_RAN
    return EXIT_FAIL if expectations.unexpected(out) else EXIT_OK


def cmd_merge(args) -> int:
    """The shards of one `vmmcheck run --shard K/N` into one results file (merge.py)."""
    from . import merge

    _claim((args.output, "results", None))
    outputs.refuse_input_as_output(args.output, args.shards)
    _, warning = merge.merge_files(args.shards, args.output, args.schema)
    if warning:
        print(warning, file=sys.stderr)
    return EXIT_OK


def cmd_junit(args) -> int:
    from . import junit

    _claim((args.output, None, "JUnit XML"), inputs=(args.results, args.schema))
    junit.write(load.load(args.results, args.schema), args.output)
    return EXIT_OK


def cmd_figures(args) -> int:
    """Regenerate (or with --check, compare) the measured sections of README.md and docs/ (figures.py)."""
    from . import figures

    root = Path(args.root).resolve()
    docs = [Path(d).resolve() for d in args.documents] or figures.default_documents(root)
    problems = []
    for doc in docs:
        raw = load.read_bytes(doc, "document")   # a FIFO or device is refused before it is opened
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise figures.FiguresError(f"{doc}: not UTF-8 text (byte {e.start})") from None
        new, changed = figures.rewrite(text, doc.relative_to(root) if doc.is_relative_to(root) else doc, root)
        for section, lines in changed:
            problems.append(f"{section.doc}:{section.line}: section '{section.spec}' differs from what its file gives now")
        if changed and not args.check:
            outputs.claim_output(doc, None, "Markdown")
            doc.write_text(new, encoding="utf-8")
    counts_from = root / args.counts_from
    readme = root / "README.md"
    if readme in docs and counts_from.exists():
        problems += figures.case_counts(readme.read_text(encoding="utf-8"), load.load(counts_from))
    for p in problems:
        print(p)
    if args.check:
        print(f"{len(problems)} difference{'s' if len(problems) != 1 else ''}"
              + ("; run `python3 -m vmmcheck_report figures` to regenerate" if problems else ""))
        return EXIT_FAIL if problems else EXIT_OK
    print(f"rewrote {sum(1 for p in problems if 'section' in p)} section(s)")
    return EXIT_FAIL if any("section" not in p for p in problems) else EXIT_OK


def cmd_bench_compare(args) -> int:
    """Two `vmmcheck bench --json` files: a row per benchmark point, exit 1 where NEW is slower (bench.py)."""
    import math

    from . import bench

    try:
        threshold = float(args.threshold)
    except ValueError:
        threshold = float("nan")
    if not (math.isfinite(threshold) and threshold > 0):
        return _usage(f"bench-compare: --threshold {args.threshold}: must be a number > 0 (0.2: 20% slower)")
    _claim((args.json, "bench-compare", None), (args.html, None, "HTML"), inputs=(args.base, args.new, args.schema))
    base = bench.load(args.base, args.schema)
    new = bench.load(args.new, args.schema)
    _refuse_empty(((args.base, base), (args.new, new)), "rows")
    result = bench.compare(base, new, threshold, base_name=args.base, new_name=args.new,
                           fail_on_unresolved=args.fail_on_unresolved, allow_missing=args.allow_missing)
    sys.stdout.write(bench.format_text(result))
    if args.json:
        _write(bench.format_json(result), args.json)
    if args.html:
        from . import bench_html  # matplotlib, only where a page is asked for

        _write(bench_html.format_html(result, base, new), args.html)
    return result.exit_code


def cmd_bench_report(args) -> int:
    """One `vmmcheck bench --json` file: per group a table (text or Markdown on stdout) and, with --html, plots."""
    from . import bench

    _claim((args.html, None, "HTML"), inputs=(args.file, args.schema))
    doc = bench.load(args.file, args.schema)
    if args.markdown:
        sys.stdout.write(bench.render_markdown(doc, args.file))
    else:
        sys.stdout.write(bench.format_report_text(doc, args.file))
    if args.html:
        from . import bench_html  # matplotlib, only where a page is asked for

        _write(bench_html.render_html(doc, args.file), args.html)
    return EXIT_OK


def _positive_int(text: str) -> int:
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def _positive_seconds(text: str) -> float:
    x = float(text)
    if not (x > 0 and math.isfinite(x)):
        raise argparse.ArgumentTypeError("must be a number of seconds > 0")
    return x


def _fraction(text: str) -> float:
    x = float(text)
    if not (x >= 0 and math.isfinite(x)):
        raise argparse.ArgumentTypeError("must be a finite number >= 0")
    return x


# argparse, with a bad command line said in one line (load.py; the handbook's parser is one too).
OneLineParser = load.OneLineParser


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--schema", type=Path, default=None,
                        help=f"results JSON Schema (default: {load.default_schema_path()})")

    exp_files = argparse.ArgumentParser(add_help=False)
    exp_files.add_argument("--expectations-dir", type=Path, default=None,
                           help=f"folder of <gpu>-<driver>-{{fails,flakes,skips}}.txt (default: {expectations.DEFAULT_DIR})")
    for kind in expectations.KINDS:
        exp_files.add_argument(f"--{kind}", metavar="FILE", help=f"this {kind} file instead of the folder's")

    parser = OneLineParser(prog="python3 -m vmmcheck_report",
                                     description="Render, compare and gate vmmcheck results.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("render", parents=[common], help="HTML (or markdown) report of one run")
    p.add_argument("results", help="results JSON (vmmcheck run --json)")
    p.add_argument("-o", "--output", help="output file (default: stdout)")
    p.add_argument("--markdown", action="store_true", help="markdown instead of HTML")
    p.add_argument("--open-all", action="store_true", help="expand every family (default: only failing ones)")
    p.set_defaults(func=cmd_render)

    history_db = argparse.ArgumentParser(add_help=False)
    history_db.add_argument("--db", metavar="PATH", default=None,
                            help="the results history, a SQLite file (default: $VMMCHECK_HISTORY, else "
                                 "results-history.sqlite in the current directory)")

    p = sub.add_parser("compare", parents=[common, history_db],
                       help="regressions, fixes and changes between two runs",
                       usage="%(prog)s [options] BASELINE CURRENT\n"
                             "       %(prog)s [options] --against-history [--db PATH] CURRENT")
    # With --against-history the one file given is CURRENT (cmd_compare moves it there).
    p.add_argument("baseline", metavar="BASELINE")
    p.add_argument("current", metavar="CURRENT", nargs="?")
    p.add_argument("--against-history", action="store_true",
                   help="compare CURRENT with the newest run of its GPU in the results history (--db)")
    p.add_argument("--html", metavar="OUT", help="also write the comparison as HTML")
    p.add_argument("--allow-missing", action="store_true",
                   help="a case of BASELINE that CURRENT lacks is listed as vanished, not a regression")
    p.add_argument("--rate-threshold", type=_fraction, default=0.25,
                   help="report instances/s changes beyond this relative change (default 0.25)")
    p.add_argument("--weak-threshold", type=_fraction, default=0.01,
                   help="report weak-outcome rate changes beyond this absolute change (default 0.01)")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("expectations", help="apply or check per-GPU/driver expectation files")
    esub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    a = esub.add_parser("apply", parents=[common, exp_files], help="apply expectations to a run")
    a.add_argument("results")
    a.add_argument("-o", "--output", help="write the adjusted results JSON here")
    a.add_argument("--write-baseline", action="store_true",
                   help="instead: write the fails file from this run's failures (and empty flakes/skips "
                        "files where missing)")
    a.set_defaults(func=cmd_apply)
    c = esub.add_parser("check", help="parse every expectation file of a folder")
    c.add_argument("--expectations-dir", type=Path, default=None)
    c.set_defaults(func=cmd_check)

    p = sub.add_parser("rerun", parents=[common, exp_files], help="rerun unexpected failures to find flakes",
                       usage="%(prog)s RESULTS --vmmcheck PATH [-n N] [options] [-- EXTRA VMMCHECK ARGS...]")
    p.add_argument("results")
    p.add_argument("--vmmcheck", required=True, help="the vmmcheck program")
    p.add_argument("-n", "--attempts", type=_positive_int, default=3, help="reruns per case (default 3)")
    p.add_argument("--attempt-timeout", type=_positive_seconds, default=None, metavar="S", help="limit per rerun, seconds")
    p.add_argument("-o", "--output", help="write the adjusted results JSON here")
    # Arguments after "--" go to `vmmcheck run` verbatim; main() splits them off (argparse's own handling
    # of "--" before a nargs="*" positional in a subcommand drops them).
    p.set_defaults(func=cmd_rerun, takes_extra=True)

    p = sub.add_parser("merge", parents=[common], help="merge the results files of `vmmcheck run --shard K/N`",
                       usage="%(prog)s SHARD.json... -o OUT.json")
    p.add_argument("shards", nargs="+", metavar="SHARD.json", help="results of run --shard K/N, one per shard")
    p.add_argument("-o", "--output", required=True, metavar="OUT.json", help="the merged results file")
    p.set_defaults(func=cmd_merge)

    p = sub.add_parser("junit", parents=[common], help="JUnit XML of one run")
    p.add_argument("results")
    p.add_argument("-o", "--output", required=True, help="output file (\"-\": stdout)")
    p.set_defaults(func=cmd_junit)

    p = sub.add_parser("figures", help="regenerate the measured sections of README.md and docs/ from the "
                                       "committed results (--check: fail where they differ)")
    p.add_argument("documents", nargs="*", help="the documents (default: README.md and docs/*.md under --root)")
    p.add_argument("--root", default=str(Path(__file__).resolve().parent.parent.parent),
                   help="the repository root the sections' paths are relative to (default: this checkout)")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 naming each section that differs")
    p.add_argument("--counts-from", default="ci/results/nvidia-h200_driver-580.159.04.json",
                   help="results whose per-family case counts README's table must match")
    p.set_defaults(func=cmd_figures)

    p = sub.add_parser("history", help="a results history in SQLite: add runs, show runs and per-case trends")
    hsub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    h = hsub.add_parser("add", parents=[common, history_db],
                        help="add results files (all validated first; nothing written if one is bad)")
    h.add_argument("results", nargs="+", metavar="RESULTS.json")
    h.set_defaults(func=cmd_history_add)
    h = hsub.add_parser("show", parents=[history_db], help="the stored runs, or with --case a trend per case")
    h.add_argument("--gpu", metavar="G", help="GPU name contains G (any case)")
    h.add_argument("--case", metavar="GLOB", help="a trend per case whose name matches GLOB (shell-style)")
    h.add_argument("--family", metavar="F", help="only family F and the families under it (F.*)")
    h.add_argument("--limit", metavar="N", type=_positive_int, help="only the newest N runs")
    h.add_argument("--json", action="store_true", help="JSON instead of a table")
    h.set_defaults(func=cmd_history_show)

    bench_schema = argparse.ArgumentParser(add_help=False)
    bench_schema.add_argument("--schema", type=Path, default=None,
                              help="bench JSON Schema (default: schema/bench.schema.json of this checkout)")

    p = sub.add_parser("bench-compare", parents=[bench_schema],
                       help="two `vmmcheck bench --json` runs, row by row: exit 1 where NEW is slower")
    p.add_argument("base", metavar="BASE", help="the baseline bench JSON")
    p.add_argument("new", metavar="NEW", help="the bench JSON to judge")
    p.add_argument("--threshold", default="0.2", metavar="T",
                   help="flag a row when its whole 95%% bootstrap interval of NEW/BASE at the median lies above "
                        "1+T (default 0.2: 20%% slower); faster below 1/(1+T)")
    p.add_argument("--html", metavar="FILE", help="also write the comparison, with a plot per group, as HTML")
    p.add_argument("--json", metavar="FILE", help="also write the comparison as JSON")
    p.add_argument("--fail-on-unresolved", action="store_true",
                   help="exit 1 also when a row is unresolved (its interval reaches past a bound)")
    p.add_argument("--allow-missing", action="store_true",
                   help="exit 0 even when no row ran in both files. Without it that is exit 1, as `compare` "
                        "fails on a case CURRENT lacks: a gate that compared nothing passed nothing. (Rows of "
                        "one file only, or not ok in one, are listed, and fail nothing, while some row is "
                        "compared.) BASE or NEW with no rows at all is bad input: exit 2")
    p.set_defaults(func=cmd_bench_compare)

    p = sub.add_parser("bench-report", parents=[bench_schema],
                       help="one `vmmcheck bench --json` run: a table per group; --html adds plots")
    p.add_argument("file", metavar="FILE", help="bench JSON (vmmcheck bench --json)")
    p.add_argument("--html", metavar="OUT", help="also write a self-contained HTML page with a plot per group")
    p.add_argument("--markdown", action="store_true", help="Markdown instead of text on stdout")
    p.set_defaults(func=cmd_bench_report)

    # Listed for --help; main() hands its arguments to handbook.main, which has its own parser.
    sub.add_parser("handbook", add_help=False,
                   help="the handbook: a static site and one Markdown file, a page per rule with its evidence "
                        "(handbook --help)")
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["handbook"]:
        from . import handbook  # jinja2 only for this command

        return handbook.main(argv[1:])
    extra: List[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1:]
    parser = build_parser()
    args = parser.parse_args(argv)
    if extra and not getattr(args, "takes_extra", False):
        parser.error(f"{args.command} takes no arguments after --")
    args.extra = extra
    from .figures import FiguresError
    from .junit import DuplicateName
    from .merge import MergeError

    try:
        return args.func(args)
    except (load.LoadError, expectations.ExpectationsError, DuplicateName, FiguresError, outputs.OutputError,
            MergeError) as e:
        print(e, file=sys.stderr)
    except BrokenPipeError:  # e.g. `render --markdown | head`
        return EXIT_OK
    except OSError as e:  # an output that cannot be written
        print(f"{e.filename or 'output'}: {e.strerror or e}", file=sys.stderr)
    return EXIT_USAGE
