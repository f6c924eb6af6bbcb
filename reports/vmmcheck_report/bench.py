"""`bench-report` and `bench-compare`: the JSON of `vmmcheck bench --json` (docs/bench.md), read, shown and compared.

A bench file ("schema": "vmmcheck-bench/1", checked against schema/bench.schema.json) holds one row per
benchmark point: its samples (`values`, in `unit`) and their statistics or, for a row that did not run, its
`status` and `why`.

The statistics mirror the doc, so a row's figures can be recomputed from its samples: `quantile` is linear
interpolation between order statistics (numpy's default), `quantile_ci` the distribution-free interval from
the order statistics (both as harness/bench/stats.cpp computes them). `compare` pairs rows by `id`; for a row that ran in both files it takes the slowdown
ratio of the p50s -- NEW/BASE where lower is better, BASE/NEW where higher is -- with a percentile bootstrap
interval: each row's samples are resampled with replacement RESAMPLES times, and the statistic is the ratio
of the resampled medians; a row of several rounds (each a process of its own) is resampled round by round,
so a cost that shifts between processes widens its interval. Each row's generator is seeded from SEED and the row's id, so the same two files
always give the same answer, and a row's answer does not depend on what other rows the files hold. A row is
flagged (`slower`) when the whole interval lies above 1 + threshold, `faster` when it lies below
1/(1 + threshold), `same` when it lies between the two, `unresolved` when it reaches past a bound without
lying beyond it; only a flagged row makes bench-compare exit 1 -- and, with --fail-on-unresolved, an
unresolved one (the summary then says which made it fail). Rows in one file only, or not `ok` in either,
are listed and not compared; but where no row ran in both files the comparison judged nothing, and that
too is exit 1 (as `compare` fails on a case CURRENT lacks) unless --allow-missing. A file with no rows at
all is bad input (exit 2).

Rounds to resolve a row. For each unresolved row the comparison estimates how many rounds in each run would
resolve it, from its own spread (rounds_to_resolve). A bootstrap interval narrows as 1/sqrt(rounds): with k
the smaller of the two rows' round counts (len(rounds), 1 where a row has none), in log space around the
ratio r (the interval's geometric centre where r lies outside it), for the bound the interval straddles --
1 + T or 1/(1 + T) -- the half-width on the side that reaches over it must shrink by the factor s = (the
distance from the centre to the bound) / (that half-width) for the bound to fall outside the interval; so
about k' = ceil(k / s^2) rounds (at least k + 1). An interval that straddles both bounds around a centre
between them resolves as `same` only once both sides clear theirs: the smaller s counts. A centre on the
bound cannot be resolved by more rounds (None: the change is the threshold itself). The estimate is shown
as a line per unresolved row in the text, a column in the HTML, and in --json as each compared row's
``rounds_to_resolve`` (null where the row is not unresolved or cannot be resolved; ``rounds_now`` is its k).

The HTML pages, which carry bench_plots.py's plots, are bench_html.py's: the plots read this module's rows,
so this module imports neither (the dependency runs one way: bench_html -> bench_plots -> bench).
"""

from __future__ import annotations

import functools
import json
import math
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from . import fmt, jsontext
from . import load as loader
from . import model

SCHEMA_ID = "vmmcheck-bench/1"
COMPARE_SCHEMA_ID = "vmmcheck-bench-compare/1"
# schema/ at the repository root: reports/vmmcheck_report/../../schema
DEFAULT_SCHEMA = Path(__file__).resolve().parent.parent.parent / "schema" / "bench.schema.json"

DEFAULT_THRESHOLD = 0.20
# What the report's "flagged from" column means.
FLAGGED_FROM = ("flagged from: the smallest slowdown of the row that bench-compare (threshold 20%) flags "
                "against a run like this one; a row whose cost shifts between rounds needs a larger one")
RESAMPLES = 2000
CONFIDENCE = 0.95     # of the bootstrap interval
SEED = 20261201       # with the row's id, the seed of the row's bootstrap

BYTE_AXES = ("size", "total", "to")     # axes whose values are byte counts: shown as 2 MiB, 1 GiB
VERDICTS = ("slower", "faster", "unresolved", "same")  # the order the comparison lists them in

LoadError = loader.LoadError


# --- reading ------------------------------------------------------------------------------------------

def default_schema_path() -> Path:
    return DEFAULT_SCHEMA


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def parse(text: str, where: str, schema: dict) -> dict:
    """Check a bench document's text; `where` names it in messages (LoadError, one line)."""
    loader.check_json_text(text, where, "bench file")
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        end = text.rstrip()
        hint = " (truncated?)" if e.pos >= len(end) - 1 or not end.endswith("}") else ""
        raise LoadError(f"{where}: not JSON: {e}{hint}") from None
    except ValueError as e:  # NaN, Infinity: Python would read them; JSON has no such number
        raise LoadError(f"{where}: not JSON: {e}") from None
    if isinstance(doc, dict) and "schema" in doc and doc["schema"] != SCHEMA_ID:
        raise LoadError(f"{where}: not a {SCHEMA_ID} file (schema {doc['schema']!r})")
    if isinstance(doc, dict) and "schema" not in doc and "schema_version" in doc:
        raise LoadError(f"{where}: not a {SCHEMA_ID} file but a `vmmcheck run` results file")
    loader.check_schema(schema, doc, where)
    seen: Dict[str, int] = {}
    for i, r in enumerate(doc["results"]):
        if r["id"] in seen:
            raise LoadError(f"{where}: results[{i}].id: {r['id']!r} repeats results[{seen[r['id']]}]")
        seen[r["id"]] = i
        if r["id"] != r["bench"] and not r["id"].startswith(r["bench"] + "["):
            raise LoadError(f"{where}: results[{i}].id: {r['id']!r} does not start with its bench {r['bench']!r}")
        if r["status"] == "ok" and r["n"] != len(r["values"]):
            raise LoadError(f"{where}: results[{i}].n: {r['n']}, but the row has {len(r['values'])} values")
        if r["status"] == "ok":
            # The figures are the samples' (the module docstring): a row whose p50, min or max its own values do
            # not give is not what vmmcheck wrote, and comparing it would judge one number by another.
            vs = r["values"]
            for key, want in (("min", min(vs)), ("max", max(vs)), ("p50", quantile(vs, 0.5))):
                if not math.isclose(r[key], want, rel_tol=1e-9):
                    raise LoadError(f"{where}: results[{i}].{key}: {r[key]!r}, but the row's values give {want!r}")
    return doc


def read_schema(schema_path: Optional[Path] = None) -> dict:
    return loader.read_schema(Path(schema_path) if schema_path else DEFAULT_SCHEMA)


def load(path, schema_path: Optional[Path] = None) -> dict:
    """Read and check one bench file; raises LoadError (load.LoadError) with a one-line message naming the file."""
    return parse(loader.read_text(path, "bench file"), str(path), read_schema(schema_path))


# --- statistics (docs/bench.md, "How a figure is made") -------------------------------------------------

def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile (0 <= q <= 1) by linear interpolation between order statistics: numpy's default,
    numpy.percentile(values, 100 * q)."""
    if not values:
        raise ValueError("quantile of no values")
    if not 0 <= q <= 1:
        raise ValueError(f"quantile {q} outside [0, 1]")
    xs = sorted(values)
    h = (len(xs) - 1) * q
    lo = math.floor(h)
    if lo + 1 >= len(xs):
        return float(xs[-1])
    return float(xs[lo] + (h - lo) * (xs[lo + 1] - xs[lo]))


def _binomial_pmf(n: int, k: int, q: float) -> float:
    """P(B = k) for B ~ Binomial(n, q), in log space so that n in the thousands does not underflow."""
    if q <= 0.0:
        return 1.0 if k == 0 else 0.0
    if q >= 1.0:
        return 1.0 if k == n else 0.0
    return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                    + k * math.log(q) + (n - k) * math.log1p(-q))


def quantile_ci(values: Sequence[float], q: float, confidence: float = 0.95) -> Tuple[Optional[float], Optional[float]]:
    """A distribution-free confidence interval of the q-quantile from the order statistics, as vmmcheck computes
    it (harness/bench/stats.cpp, quantile_ranks). B, the number of samples below the quantile, is
    Binomial(n, q); with the sorted samples X(1) <= ... <= X(n), X(a) <= quantile < X(b+1) exactly when
    a <= B <= b. A run [a, b] of values of B grows from the mode, each time by the more probable neighbour,
    until its probability reaches `confidence` (a tie, within rounding, taken above); the interval is [X(a), X(b+1)], its lower bound None where
    a = 0 and its upper one None where b + 1 > n (too few samples to have it: p99 of fewer than ~300)."""
    xs = sorted(values)
    n = len(xs)
    if n == 0:
        return None, None
    a = min(n, math.floor((n + 1) * q))
    b = a
    coverage = _binomial_pmf(n, a, q)
    while coverage < confidence and (a > 0 or b < n):
        left = _binomial_pmf(n, a - 1, q) if a > 0 else -1.0
        right = _binomial_pmf(n, b + 1, q) if b < n else -1.0
        # Equal in exact arithmetic (q = 0.5 is symmetric) is decided by the last bits of lgamma, which differ
        # between CPython's and the C library's: such a tie goes up, as it does in the case stats.cpp pins.
        if left > right * (1 + 1e-9):
            coverage += left
            a -= 1
        else:
            coverage += right
            b += 1
    return (float(xs[a - 1]) if a > 0 else None), (float(xs[b]) if b + 1 <= n else None)


def summarize(values: Sequence[float], confidence: float = 0.95) -> dict:
    """The statistics of an `ok` row, as docs/bench.md defines them, from its samples."""
    return {"n": len(values), "p50": quantile(values, 0.5), "p90": quantile(values, 0.9),
            "p99": quantile(values, 0.99), "mean": math.fsum(values) / len(values),
            "min": float(min(values)), "max": float(max(values)),
            "ci": {f"p{int(q * 100)}": list(quantile_ci(values, q, confidence)) for q in (0.5, 0.9, 0.99)}}


def _rounds_of(row_values: Sequence[float], rounds: Optional[Sequence[int]]) -> Optional[List[int]]:
    """The row's samples per round (docs/bench.md, "Rounds") when there are two rounds or more and they
    account for every sample; else None (one pool)."""
    if not rounds or len(rounds) < 2 or sum(rounds) != len(row_values) or min(rounds) < 1:
        return None
    return list(rounds)


def _resampled_medians(values: Sequence[float], rounds: Optional[Sequence[int]], rng, resamples: int):
    """Medians of `resamples` bootstrap resamples. With rounds, two levels: the rounds are drawn with
    replacement, then as many samples from each drawn round (with replacement) as the largest round has --
    each process weighs alike -- so a cost that shifts between processes (the rounds) widens the interval
    as it should, which resampling the pooled samples alone would hide."""
    import numpy as np

    v = np.asarray(values, dtype=float)
    if rounds is None:
        return np.median(v[rng.integers(0, v.size, size=(resamples, v.size))], axis=1)
    sizes = np.asarray(rounds)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    count, widest = len(sizes), int(sizes.max())
    pick = rng.integers(0, count, size=(resamples, count, 1))             # the rounds drawn
    within = np.floor(rng.random((resamples, count, widest)) * sizes[pick]).astype(np.int64)
    return np.median(v[offsets[pick] + within].reshape(resamples, count * widest), axis=1)


# bootstrap_ratio's answers in this process, by everything they depend on: a comparison, a report and its
# page resample the same rows again and again (the interval is a pure function of its arguments: the
# resampling is seeded by the row's id).
_INTERVALS: dict = {}


def bootstrap_ratio(base_values: Sequence[float], new_values: Sequence[float], better: str, key: str,
                    resamples: int = RESAMPLES, confidence: float = CONFIDENCE,
                    seed: int = SEED, base_rounds: Optional[Sequence[int]] = None,
                    new_rounds: Optional[Sequence[int]] = None) -> Optional[Tuple[float, float]]:
    """The percentile-bootstrap interval of the slowdown ratio of the medians (NEW/BASE for better=lower,
    BASE/NEW for better=higher); None where a resampled median to divide by is not positive. A row of
    several rounds is resampled round by round (_resampled_medians)."""
    memo = (tuple(base_values), tuple(new_values), better, key, resamples, confidence, seed,
            tuple(base_rounds or ()), tuple(new_rounds or ()))
    if memo not in _INTERVALS:
        if len(_INTERVALS) > 100_000:
            _INTERVALS.clear()
        _INTERVALS[memo] = _bootstrap_ratio(base_values, new_values, better, key, resamples, confidence, seed,
                                            base_rounds, new_rounds)
    return _INTERVALS[memo]


def _bootstrap_ratio(base_values, new_values, better, key, resamples, confidence, seed, base_rounds, new_rounds):
    import numpy as np

    rng = np.random.default_rng([seed, zlib.crc32(key.encode("utf-8"))])
    mb = _resampled_medians(base_values, _rounds_of(base_values, base_rounds), rng, resamples)
    mn = _resampled_medians(new_values, _rounds_of(new_values, new_rounds), rng, resamples)
    top, bottom = (mn, mb) if better == "lower" else (mb, mn)
    if not np.all(bottom > 0):
        return None
    tail = (1.0 - confidence) / 2
    lo, hi = np.quantile(top / bottom, [tail, 1.0 - tail])
    return float(lo), float(hi)


def smallest_flagged(row: Mapping, threshold: float = DEFAULT_THRESHOLD, resamples: int = RESAMPLES,
                     confidence: float = CONFIDENCE, seed: int = SEED) -> Optional[float]:
    """The smallest slowdown of this row that bench-compare flags against a run like this one: NEW with
    every sample of the row `f` times slower has the interval of the row against itself times `f` (the
    same resampling, scaled), so it is flagged once f * low > 1 + threshold. None where no ratio is had."""
    if not ok(row):
        return None
    got = bootstrap_ratio(row["values"], row["values"], row["better"], row["id"], resamples, confidence, seed,
                          row.get("rounds"), row.get("rounds"))
    return None if got is None or got[0] <= 0 else (1.0 + threshold) / got[0]


def verdict(low: float, high: float, threshold: float) -> str:
    """slower: the whole interval above 1 + threshold; faster: the whole interval below 1/(1 + threshold);
    same: the whole interval between the two (no change as large as the threshold); unresolved: the
    interval reaches past a bound without lying beyond it -- the row's spread (between rounds, mostly)
    is too wide to tell a change of the threshold from noise."""
    if low > 1.0 + threshold:
        return "slower"
    if high < 1.0 / (1.0 + threshold):
        return "faster"
    if high <= 1.0 + threshold and low >= 1.0 / (1.0 + threshold):
        return "same"
    return "unresolved"


def round_count(row: Mapping) -> int:
    """How many rounds (processes) a row's samples came from: len(rounds), 1 where it has none."""
    return len(row.get("rounds") or [1])


def rounds_needed(ratio: float, low: float, high: float, threshold: float, rounds: int) -> Optional[int]:
    """About how many rounds in each run would resolve an unresolved interval [low, high] of `ratio`, from
    `rounds` now (the module docstring, "Rounds to resolve a row"); None where the centre lies on the bound
    it straddles, or the interval is not unresolved."""
    if verdict(low, high, threshold) != "unresolved" or not (0 < low <= high):
        return None
    lo, hi = math.log(low), math.log(high)
    centre = math.log(ratio) if ratio > 0 and low <= ratio <= high else (lo + hi) / 2
    upper, lower = math.log1p(threshold), -math.log1p(threshold)
    factors = []
    for bound, straddled in ((upper, lo <= upper < hi), (lower, lo < lower <= hi)):
        if not straddled:
            continue
        if math.isclose(centre, bound, rel_tol=1e-9, abs_tol=1e-12):   # on it, to rounding
            return None
        # The side of the interval that reaches over the bound, and how far the centre is from it.
        half = centre - lo if centre > bound else hi - centre
        factors.append(abs(centre - bound) / half)
    if not factors:
        return None
    if centre > upper or centre < lower:
        # Beyond a bound: clearing that one (the nearer straddled bound) resolves it.
        s = factors[0] if centre > upper else factors[-1]
    else:
        s = min(factors)          # between the bounds: every straddled side must clear its bound
    return max(rounds + 1, math.ceil(rounds / (s * s)))


def resolve_text(r: "Compared") -> str:
    """What more rounds would do for an unresolved row, in words."""
    if r.rounds_to_resolve is None:
        return (f"its ratio lies on the bound: more rounds cannot resolve it (now {r.rounds_now} "
                f"round{'s' if r.rounds_now != 1 else ''})")
    return (f"about {r.rounds_to_resolve} rounds in each run would resolve it (now {r.rounds_now} "
            f"round{'s' if r.rounds_now != 1 else ''})")


# --- naming and numbers ---------------------------------------------------------------------------------

def axis_text(name: str, value) -> str:
    """One axis of a row as a label shows it: byte axes as sizes, the others name=value."""
    if name in BYTE_AXES and isinstance(value, (int, float)):
        return fmt.byte_size(value)
    return f"{name}={value}"


def row_label(r: Mapping, drop: Sequence[str] = ()) -> str:
    """"import_fd 2 MiB process=other": the bench without its group, then the axes not in `drop`."""
    bench_name = r["bench"]
    short = bench_name[len(r["group"]) + 1:] if bench_name.startswith(r["group"] + ".") else bench_name
    return " ".join([short] + [axis_text(k, v) for k, v in r["axes"].items() if k not in drop])


# A measured figure as fmt.sig gives it, without thousands separators (3443): the bench pages committed in
# ci/results/bench/ at 8b4f51a (in git history) were made so, and bench-report reproduces them byte for byte.
num = functools.partial(fmt.sig, thousands="")


def interval_text(ci, missing: str = "—") -> str:
    lo, hi = ci
    return f"[{num(lo, missing)}, {num(hi, missing)}]"


def ok(r: Mapping) -> bool:
    return r["status"] == "ok"


def groups(rows: Sequence[Mapping]) -> Dict[str, List[Mapping]]:
    """Rows by group, groups in the order they first appear."""
    out: Dict[str, List[Mapping]] = {}
    for r in rows:
        out.setdefault(r["group"], []).append(r)
    return out


def describe(doc: Mapping) -> str:
    """One line naming a bench run: GPU, driver, git sha, start; `quick` for a --quick run."""
    ctx = doc["context"]
    quick = ", --quick" if doc["settings"].get("quick") else ""
    return f"{model.describe_run(doc)}; git {ctx.get('git_sha') or '?'}; {ctx['started']}{quick}"


def status_text(r: Optional[Mapping]) -> str:
    if r is None:
        return "absent"
    return "ok" if ok(r) else f"{r['status']}: {r['why']}"


# --- comparing two runs ---------------------------------------------------------------------------------

@dataclass
class Compared:
    """A row that ran in both files."""
    id: str
    bench: str
    group: str
    axes: dict
    unit: str
    better: str
    base_p50: float
    new_p50: float
    base_n: int
    new_n: int
    ratio: float          # the slowdown ratio of the p50s: above 1 is slower
    low: float            # the bootstrap interval of the ratio
    high: float
    verdict: str          # slower, faster, unresolved, same
    rounds_now: int = 1   # k: the smaller of the two rows' round counts
    rounds_to_resolve: Optional[int] = None   # unresolved rows: about how many rounds in each run resolve it

    @property
    def flagged(self) -> bool:
        return self.verdict == "slower"


@dataclass
class Uncompared:
    """A row in one file only, or not `ok` in one of them, or not comparable: what each file says of it."""
    id: str
    group: str
    base_status: Optional[str]      # None: not in BASE
    new_status: Optional[str]
    base_why: str = ""
    new_why: str = ""
    why: str = ""                   # why it was not compared, where both ran


@dataclass
class BenchComparison:
    base: str                       # the files, as named on the command line
    new: str
    base_run: str                   # describe() of each
    new_run: str
    threshold: float
    confidence: float = CONFIDENCE
    resamples: int = RESAMPLES
    seed: int = SEED
    rows: List[Compared] = field(default_factory=list)          # slower first, then faster, then same
    not_compared: List[Uncompared] = field(default_factory=list)
    only_base: List[Uncompared] = field(default_factory=list)
    only_new: List[Uncompared] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    fail_on_unresolved: bool = False
    allow_missing: bool = False     # no row compared is then no failure (bench-compare --allow-missing)

    def of(self, what: str) -> List[Compared]:
        return [r for r in self.rows if r.verdict == what]

    @property
    def flagged(self) -> List[Compared]:
        return self.of("slower")

    def failing(self) -> List[str]:
        """What makes the comparison exit 1: slower rows, and unresolved ones with --fail-on-unresolved."""
        why = []
        if not self.rows and not self.allow_missing:
            # As `compare` counts a case CURRENT lacks as a regression: a gate that compared nothing passed nothing.
            why.append("no row ran in both files")
        if self.flagged:
            why.append(f"{len(self.flagged)} slower")
        if self.fail_on_unresolved and self.of("unresolved"):
            why.append(f"{len(self.of('unresolved'))} unresolved (--fail-on-unresolved)")
        return why

    @property
    def exit_code(self) -> int:
        return 1 if self.failing() else 0

    def counts(self) -> Dict[str, int]:
        out = {v: len(self.of(v)) for v in VERDICTS}
        out.update(not_compared=len(self.not_compared), only_in_base=len(self.only_base),
                   only_in_new=len(self.only_new))
        return out

    def summary(self) -> str:
        c = self.counts()
        text = f"{c['slower']} slower, {c['faster']} faster, {c['unresolved']} unresolved, {c['same']} same"
        extra = [f"{n} {what}" for what, n in (("not compared", c["not_compared"]), ("only in BASE", c["only_in_base"]),
                                               ("only in NEW", c["only_in_new"])) if n]
        if extra:
            text += "; " + ", ".join(extra)
        # Said only where --fail-on-unresolved is given, or nothing was compared: otherwise the summary is what it
        # always was.
        if self.fail_on_unresolved or not self.rows:
            text += "; fails: " + (", ".join(self.failing()) or "nothing")
        return text


def _uncompared(rid: str, b: Optional[Mapping], a: Optional[Mapping], why: str = "") -> Uncompared:
    some = b if b is not None else a
    return Uncompared(id=rid, group=some["group"],
                      base_status=None if b is None else b["status"], new_status=None if a is None else a["status"],
                      base_why="" if b is None else b.get("why", ""), new_why="" if a is None else a.get("why", ""),
                      why=why)


def compare(base: Mapping, new: Mapping, threshold: float = DEFAULT_THRESHOLD, base_name: str = "BASE",
            new_name: str = "NEW", resamples: int = RESAMPLES, confidence: float = CONFIDENCE,
            seed: int = SEED, fail_on_unresolved: bool = False, allow_missing: bool = False) -> BenchComparison:
    if not threshold > 0:
        raise ValueError(f"threshold {threshold} is not > 0")
    out = BenchComparison(base=base_name, new=new_name, base_run=describe(base), new_run=describe(new),
                          threshold=threshold, confidence=confidence, resamples=resamples, seed=seed,
                          fail_on_unresolved=fail_on_unresolved, allow_missing=allow_missing)
    if model.gpu_name(base) != model.gpu_name(new):
        out.notes.append(f"the runs are of different GPUs: {model.gpu_name(base)} in BASE, {model.gpu_name(new)} in NEW")
    if base["settings"].get("quick") != new["settings"].get("quick"):
        which = "BASE" if base["settings"].get("quick") else "NEW"
        out.notes.append(f"only {which} is a --quick run (fewer samples: wider intervals)")
    after = {r["id"]: r for r in new["results"]}
    before = {r["id"]: r for r in base["results"]}
    compared: List[Compared] = []
    for b in base["results"]:
        a = after.get(b["id"])
        if a is None:
            out.only_base.append(_uncompared(b["id"], b, None))
            continue
        if not (ok(b) and ok(a)):
            out.not_compared.append(_uncompared(b["id"], b, a))
            continue
        if (b["unit"], b["better"]) != (a["unit"], a["better"]):
            out.not_compared.append(_uncompared(b["id"], b, a, f"BASE is in {b['unit']} ({b['better']} is better), "
                                                               f"NEW in {a['unit']} ({a['better']} is better)"))
            continue
        top, bottom = (a["p50"], b["p50"]) if b["better"] == "lower" else (b["p50"], a["p50"])
        interval = bootstrap_ratio(b["values"], a["values"], b["better"], b["id"], resamples, confidence, seed,
                                   b.get("rounds"), a.get("rounds"))
        if interval is None or bottom <= 0:
            out.not_compared.append(_uncompared(b["id"], b, a, "a median of 0 or below: no ratio"))
            continue
        k = min(round_count(b), round_count(a))
        compared.append(Compared(id=b["id"], bench=b["bench"], group=b["group"], axes=dict(b["axes"]), unit=b["unit"],
                                 better=b["better"], base_p50=b["p50"], new_p50=a["p50"], base_n=b["n"], new_n=a["n"],
                                 ratio=top / bottom, low=interval[0], high=interval[1],
                                 verdict=verdict(interval[0], interval[1], threshold), rounds_now=k,
                                 rounds_to_resolve=rounds_needed(top / bottom, interval[0], interval[1], threshold, k)))
    for a in new["results"]:
        if a["id"] not in before:
            out.only_new.append(_uncompared(a["id"], None, a))
    out.rows = sorted(compared, key=lambda r: VERDICTS.index(r.verdict))  # stable: BASE's order within a verdict
    return out


def ratio_text(r: Compared) -> str:
    return f"{r.ratio:.3f} [{r.low:.3f}, {r.high:.3f}]"


def rule_text(cmp: BenchComparison) -> str:
    return (f"ratio: NEW/BASE of the p50s (BASE/NEW where higher is better), above 1 is slower; "
            f"[{cmp.confidence:.0%} bootstrap interval, {cmp.resamples} resamples]; slower when the interval lies "
            f"above {1 + cmp.threshold:.3g}, faster when below {1 / (1 + cmp.threshold):.3g}")


def uncompared_line(u: Uncompared) -> str:
    def side(name, status, why):
        if status is None:
            return f"not in {name}"
        return f"{name} {status}" + (f" ({why})" if why else "")
    if u.base_status is not None and (u.base_status, u.base_why) == (u.new_status, u.new_why):
        parts = [f"{u.base_status} in both" + (f" ({u.base_why})" if u.base_why else "")]
    else:
        parts = [side("BASE", u.base_status, u.base_why), side("NEW", u.new_status, u.new_why)]
    if u.why:
        parts.append(u.why)
    return f"{u.id}: " + "; ".join(parts)


def format_text(cmp: BenchComparison) -> str:
    lines = [f"base: {cmp.base} ({cmp.base_run})", f"new:  {cmp.new} ({cmp.new_run})"]
    lines += [f"note: {n}" for n in cmp.notes]
    lines.append(rule_text(cmp))
    lines.append("")
    if cmp.rows:
        rows = [[r.verdict, r.id, f"{num(r.base_p50)} {r.unit}", f"{num(r.new_p50)} {r.unit}", ratio_text(r)]
                for r in cmp.rows]
        lines += fmt.table(["verdict", "id", "base p50", "new p50", "ratio [interval]"], rows, right=(2, 3))
    else:
        lines.append("no row ran in both files")
    unresolved = cmp.of("unresolved")
    if unresolved:
        lines += ["", f"Unresolved ({len(unresolved)}): rounds that would resolve each, from its spread:"]
        lines += [f"  {r.id}: {resolve_text(r)}" for r in unresolved]
    for title, items in (("Not compared", cmp.not_compared), ("Only in BASE", cmp.only_base),
                         ("Only in NEW", cmp.only_new)):
        if items:
            lines += ["", f"{title} ({len(items)}):"]
            lines += [f"  {uncompared_line(u)}" for u in items]
    lines += ["", cmp.summary()]
    return "\n".join(lines) + "\n"


def to_json(cmp: BenchComparison) -> dict:
    return {
        "schema": COMPARE_SCHEMA_ID,
        "base": {"file": cmp.base, "run": cmp.base_run},
        "new": {"file": cmp.new, "run": cmp.new_run},
        "threshold": cmp.threshold, "confidence": cmp.confidence, "resamples": cmp.resamples, "seed": cmp.seed,
        "notes": list(cmp.notes),
        "counts": cmp.counts(),
        "exit_code": cmp.exit_code,
        "fail_on_unresolved": cmp.fail_on_unresolved,
        "failing": cmp.failing(),
        "rows": [asdict(r) for r in cmp.rows],
        "not_compared": [asdict(u) for u in cmp.not_compared],
        "only_in_base": [asdict(u) for u in cmp.only_base],
        "only_in_new": [asdict(u) for u in cmp.only_new],
    }


def format_json(cmp: BenchComparison) -> str:
    return json.dumps(to_json(cmp), indent=2) + "\n"


# --- one run --------------------------------------------------------------------------------------------

def _row_view(r: Mapping) -> dict:
    view = {"id": r["id"], "bench": r["bench"], "label": row_label(r), "unit": r["unit"], "better": r["better"],
            "status": r["status"], "ok": ok(r), "why": r.get("why", "")}
    if ok(r):
        f = smallest_flagged(r)
        view.update(n=str(r["n"]), p50=num(r["p50"]), p50_ci=interval_text(r["ci"]["p50"]), p90=num(r["p90"]),
                    p99=num(r["p99"]), mean=num(r["mean"]), min=num(r["min"]), max=num(r["max"]),
                    rounds=str(len(r.get("rounds") or [1])),
                    flags_at="—" if f is None else f"+{(f - 1) * 100:.0f}%")
    return view


def report_view(doc: Mapping, name: str) -> dict:
    """Everything the report shows, once, so that text, Markdown and HTML agree; each group's `plots` is
    empty, for bench_html.render_html to fill."""
    sections = []
    for g, rows in groups(doc["results"]).items():
        counts: Dict[str, int] = {}
        for r in rows:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        sections.append({"name": g, "rows": [_row_view(r) for r in rows], "plots": [], "counts": counts})
    counts: Dict[str, int] = {}
    for r in doc["results"]:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    s = doc["settings"]
    return {
        "title": f"vmmcheck bench — {model.describe_run(doc)}",
        "file": name,
        "run": describe(doc),
        "ctx": doc["context"],
        "gpu": model.gpu_name(doc),
        "settings": s,
        "finished": doc.get("finished"),
        "confidence": f"{s['confidence']:.0%}",
        "counts": counts,
        "total": len(doc["results"]),
        "groups": sections,
        "flagged_from": FLAGGED_FROM,
    }


def _counts_text(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {status}" for status, n in counts.items())


def format_report_text(doc: Mapping, name: str) -> str:
    v = report_view(doc, name)
    lines = [f"{name}: {v['run']}", f"{v['total']} rows: {_counts_text(v['counts'])}"]
    for g in v["groups"]:
        lines += ["", f"{g['name']} ({len(g['rows'])} rows: {_counts_text(g['counts'])})"]
        rows = [[r["id"], r["n"], f"{r['p50']} {r['p50_ci']}", r["p90"], r["p99"], r["unit"], r["flags_at"], ""]
                if r["ok"] else [r["id"], "-", r["status"], "-", "-", r["unit"], "-", r["why"]] for r in g["rows"]]
        lines += fmt.table(["id", "n", f"p50 [{v['confidence']} CI]", "p90", "p99", "unit", "flagged from", "why"],
                           rows, right=(1, 3, 4, 6), indent="  ")
    lines += ["", FLAGGED_FROM]
    return "\n".join(lines) + "\n"


def render_markdown(doc: Mapping, name: str) -> str:
    from .render import environment

    return environment().get_template("bench_report.md.j2").render(**report_view(doc, name))

