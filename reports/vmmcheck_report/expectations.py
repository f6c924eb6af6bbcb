"""Expectation files per GPU and driver, and applying them to a run (docs/design.md, "Conventions").

ci/expectations/<gpu>-<driver release>-fails.txt
    ``name,Status`` rows, Status one of Fail/Crash/Timeout/Error. Each row needs the reason as one or
    more ``#`` comment lines directly above it: a known failure nobody can explain is not "expected".
    A blank line ends a comment, so a header comment followed by a blank line belongs to no row.
ci/expectations/<gpu>-<driver release>-flakes.txt
    One regular expression per line, matched against the whole dotted name; a failing case that
    matches becomes Flake. Only the subset of docs/design.md ("Conventions") that ``vmmcheck run
    --baseline`` (std::regex, ECMAScript) reads alike is accepted: see check_pattern.
ci/expectations/<gpu>-<driver release>-skips.txt
    Same format; a matching case becomes Skip (never Pass) whatever it did.

Applying rewrites each result's status, keeps vmmcheck's in ``original_status`` (and the reason it
replaced in ``original_reason``), says why in ``note``, and recomputes the totals. Applying is
idempotent: it always starts again from ``original_status``.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Collection, Dict, List, Mapping, Optional, Pattern, Tuple

from . import model

# ci/expectations at the repository root: reports/vmmcheck_report/../../ci/expectations
DEFAULT_DIR = Path(__file__).resolve().parent.parent.parent / "ci" / "expectations"
KINDS = ("fails", "flakes", "skips")
NAME = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")  # the schema's pattern for a case name
# What a line is trimmed of: the C++ reader's trimmed() (harness/common/text.hpp), not str.strip(), which
# also takes form feeds, no-break spaces and the like.
BLANK = " \t\r"

HEADERS = {
    "fails": """\
# Expected failures of vmmcheck on {stem}: rows "name,Status", Status one of {statuses}.
# Each row needs its reason as a "#" comment line directly above it (no blank line between);
# a row without one is an error. A listed case that fails with that status becomes ExpectedFail;
# one that passes becomes UnexpectedPass (remove the row); another status stays a failure.
# Regenerate from a run (with reports/ on PYTHONPATH) with:
#   python3 -m vmmcheck_report expectations apply RESULTS.json --write-baseline
""",
    "flakes": """\
# Known flaky cases of vmmcheck on {stem}: one regular expression per line (the subset of
# docs/design.md, "Conventions"), matched against the whole dotted case name. A failing case that
# matches becomes Flake.
# Comment lines start with "#"; say why each pattern is here. Example (commented out):
#   alias\\.resident\\..*
""",
    "skips": """\
# Cases vmmcheck skips on {stem}: one regular expression per line (the subset of docs/design.md,
# "Conventions"), matched against the whole dotted case name. A matching case becomes Skip (never
# Pass), whatever it did.
# Comment lines start with "#"; say why each pattern is here. Example (commented out):
#   alias\\.mp\\..*\\.sys
""",
}


class ExpectationsError(Exception):
    """A malformed expectation file; str() is "file:line: problem"."""


@dataclass(frozen=True)
class ExpectedFailure:
    name: str
    status: str
    reason: str
    where: str   # file:line, for notes


@dataclass(frozen=True)
class NamePattern:
    regex: Pattern
    path: Path
    line: int

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass
class Expectations:
    fails: Dict[str, ExpectedFailure] = field(default_factory=dict)
    flakes: List[NamePattern] = field(default_factory=list)
    skips: List[NamePattern] = field(default_factory=list)
    files: Dict[str, Optional[str]] = field(default_factory=dict)   # kind -> path read (None: none)


def paths_for(doc: Mapping, directory: Optional[Path] = None) -> Dict[str, Path]:
    """The default expectation files of a run: <dir>/<gpu>-<driver>-{fails,flakes,skips}.txt."""
    stem = model.expectation_stem(doc)
    d = Path(directory) if directory else DEFAULT_DIR
    return {kind: d / f"{stem}-{kind}.txt" for kind in KINDS}


def check_dir(directory: Optional[Path]) -> Path:
    """The --expectations-dir the user named (None: the default folder), refused unless it is a folder: a
    mistyped one would silently mean "no expectations", and a gate would pass on nothing."""
    if directory is None:
        return DEFAULT_DIR
    d = Path(directory)
    if not d.is_dir():
        raise ExpectationsError(f"{d}: no such folder (--expectations-dir)" if not d.exists()
                                else f"{d}: not a folder (--expectations-dir)")
    return d


def _lines(path: Path):
    # Lines end at "\n" alone, as std::getline reads them: not at a lone "\r", a form feed or the other
    # breaks of str.splitlines() (a "\r" before the "\n" is trimmed with the line).
    from .load import LoadError, read_bytes

    try:
        text = read_bytes(path, "expectation file").decode("utf-8")
    except LoadError as e:   # a FIFO, a device, a folder: refused before it is opened
        raise ExpectationsError(str(e)) from None
    except UnicodeDecodeError:
        raise ExpectationsError(f"{path}: not UTF-8 text") from None
    return enumerate(text.split("\n"), start=1)


def parse_fails(path: Path) -> Dict[str, ExpectedFailure]:
    out: Dict[str, ExpectedFailure] = {}
    comment: List[str] = []
    for number, line in _lines(path):
        where = f"{path}:{number}"
        stripped = line.strip(BLANK)
        if not stripped:
            comment = []
        elif stripped.startswith("#"):
            comment.append(stripped.lstrip("#").strip(BLANK))
        else:
            parts = [p.strip(BLANK) for p in stripped.split(",")]
            if len(parts) != 2:
                raise ExpectationsError(f"{where}: expected 'name,Status', got {stripped!r}")
            name, status = parts
            if not NAME.match(name):
                raise ExpectationsError(f"{where}: {name!r} is not a dotted case name")
            if status not in model.FAILING:
                raise ExpectationsError(f"{where}: status {status!r} is not one of {sorted(model.FAILING)}")
            reason = " ".join(c for c in comment if c)
            if not reason:
                raise ExpectationsError(f"{where}: {name},{status} has no '# reason' comment line above it")
            if name in out:
                raise ExpectationsError(f"{where}: {name} is already listed at {out[name].where}")
            out[name] = ExpectedFailure(name, status, reason, where)
            comment = []
    return out


# The pattern subset (docs/design.md, "Conventions"): what ECMAScript (std::regex, run --baseline) and
# Python's re read alike. check_pattern in harness/run/records/baseline.cpp is this in C++, with the same
# messages; tests/data/expectations/corpus.json holds both readers to the same answers.
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")  # stand for themselves
_ESCAPABLE = frozenset(".\\*+?()[]{}|^$-")  # a backslash before one of these: that character
_CLASS_ESCAPES = frozenset("dDwWsS")         # alike in both over ASCII, and names are ASCII
_COUNT = re.compile(r"\{([0-9]{1,3})(,([0-9]{1,3})?)?\}")


def _shown(c: str) -> str:
    return f"'{c}'" if " " < c < "\x7f" else "a space, control or non-ASCII character"


def _escape_problem(e: str) -> Optional[str]:
    """What is wrong with a backslash before `e` ("" at the end of the pattern), or None."""
    if not e:
        return "a '\\' ends the pattern"
    if e in _ESCAPABLE or e in _CLASS_ESCAPES:
        return None
    return (f"'\\{e}'" if " " < e < "\x7f" else _shown(e)) + \
        " is not in the subset (a '\\' goes before one of .\\*+?()[]{}|^$- or d w s D W S)"


def _class_end(text: str, start: int) -> Tuple[int, Optional[str]]:
    """The class opening at text[start]: (the index after it, None), or (where it goes wrong, why)."""
    i = start + 1
    if text[i:i + 1] == "^":
        i += 1
    first = i
    while i < len(text) and text[i] != "]":
        c = text[i]
        if c == "\\":
            problem = _escape_problem(text[i + 1:i + 2])
            if problem:
                return i, problem
            i += 2
        elif c == "-":
            # a literal only first or last: elsewhere the dialects read it differently ([a-z-0], [--a])
            if i != first and text[i + 1:i + 2] != "]":
                return i, "'-' in a class must be first, last or in a range such as a-z"
            i += 1
        elif c in _PLAIN or c == ".":
            if text[i + 1:i + 2] == "-" and text[i + 2:i + 3] not in ("", "]"):  # a range c-high
                high = text[i + 2]
                if high not in _PLAIN and high != ".":
                    return i + 2, f"a range ends at {_shown(high)}: only letters, digits, '_' and '.' do"
                if high < c:
                    return i, f"the range '{c}-{high}' is reversed"
                i += 3
            else:
                i += 1
        else:  # '[' (a POSIX class or a nested set in the one, a literal in the other), '^', ...
            return i, f"{_shown(c)} in a class is not in the subset"
    if i >= len(text):
        return start, "'[' is not closed"
    if i == first:  # [] matches nothing in ECMAScript and opens a class holding ']' in Python
        return start, "an empty class ('[]' or '[^]') is not in the subset"
    return i + 1, None


# Bounds that keep every reader's matcher small (as harness/run/records/baseline.cpp says).
MOST_PATTERN_LENGTH = 256
MOST_GROUP_DEPTH = 8
# The ways a pattern can try to match a name, bounded (as harness/run/records/baseline.cpp says why).
UNBOUNDED_WAYS = 128
MOST_WAYS = 65536


class _Ways:
    """Per group still open, and the pattern's top: its ways are sum + prefix * last."""

    def __init__(self) -> None:
        self.sum, self.prefix, self.last = 0, 1, 1  # branches before the last '|'; atoms before the last; the last

    def total(self) -> int:
        return self.sum + self.prefix * self.last


def _count_ways(count: "re.Match") -> int:
    if count.group(2) is None:
        return 1
    if count.group(3) is None:
        return UNBOUNDED_WAYS
    return int(count.group(3)) - int(count.group(1)) + 1


def check_pattern(text: str) -> Optional[str]:
    """Why `text` is outside the pattern subset ("column N: ..."), or None when it is in it."""
    opened: List[int] = []   # where each group still open starts
    counted: List[bool] = []  # per group still open: it holds a count {n}
    repeatable = False       # what was just read is an atom, which a quantifier may follow
    quantified = False       # what was just read is a quantifier
    group_holds_count = False  # what was just read is a group holding a count
    ways = [_Ways()]         # the top, then each group still open

    def too_many_ways() -> Optional[str]:
        # Over every open level (their ways multiplied: at least the pattern's). Python's integers do not
        # overflow; C++ saturates at MOST_WAYS + 1, which decides alike.
        product = 1
        for w in ways:
            product *= w.total()
        if product <= MOST_WAYS:
            return None
        return (f"the pattern can try more than {MOST_WAYS} ways to match a name (its choices multiplied; "
                f"'*', '+' and '{{n,}}' count {UNBOUNDED_WAYS}) and is not in the subset")
    if len(text) > MOST_PATTERN_LENGTH:
        return (f"column {MOST_PATTERN_LENGTH + 1}: a pattern of more than {MOST_PATTERN_LENGTH} characters "
                "is not in the subset")
    i = 0
    while i < len(text):
        c, problem = text[i], None
        if c in "*+?{":
            if not repeatable:
                problem = (f"'{c}' after a quantifier (possessive or repeated) is not in the subset" if quantified
                           else f"'{c}' repeats nothing")
            elif c == "{" and group_holds_count:
                problem = "a count on a group that holds a count is not in the subset"
            elif c == "{":
                count = _COUNT.match(text, i)
                if not count:
                    problem = "'{' starts no count {n}, {n,} or {n,m} (at most three digits each)"
                elif count.group(3) is not None and int(count.group(3)) < int(count.group(1)):
                    problem = f"the count '{count.group(0)}' is reversed"
            if not problem and c != "?" and ways[-1].last > 1:
                problem = ("a quantifier other than '?' on a group that holds a choice ('|', '?', '*', '+' or "
                           "'{n,m}') is not in the subset")
            if not problem:
                w = ways[-1]
                w.last = w.last + 1 if c == "?" else _count_ways(count) if c == "{" else UNBOUNDED_WAYS
                problem = too_many_ways()
            if problem:
                return f"column {i + 1}: {problem}"
            if c == "{" and counted:
                counted[-1] = True
            group_holds_count = False
            i = count.end() if c == "{" else i + 1
            if text[i:i + 1] == "?":
                i += 1  # lazy: alike in both, and no different from greedy in a whole-name match
            repeatable, quantified = False, True
            continue
        at, repeatable, quantified, group_holds_count = i, True, False, False
        if c not in "()|":  # an atom of one way (or an anchor): the last one joins the prefix
            ways[-1].prefix *= ways[-1].last
            ways[-1].last = 1
        if c in _PLAIN or c == ".":
            i += 1
        elif c == "\\":
            problem = _escape_problem(text[i + 1:i + 2])
            i += 2
        elif c == "[":
            i, problem = _class_end(text, i)
            at = i
        elif c == "(":
            if text.startswith("(?", i) and not text.startswith("(?:", i):
                problem = ("'(?' other than '(?:' (a lookaround, named group, inline flag, atomic group) "
                           "is not in the subset")
            if not problem and len(opened) == MOST_GROUP_DEPTH:
                problem = f"groups nested more than {MOST_GROUP_DEPTH} deep are not in the subset"
            opened.append(i)
            counted.append(False)
            ways.append(_Ways())
            i += 3 if text.startswith("(?:", i) else 1
            repeatable = False
        elif c == ")":
            if not opened:
                problem = "')' closes no group"
            else:
                opened.pop()
                group_holds_count = counted.pop()
                if group_holds_count and counted:
                    counted[-1] = True
                group = ways.pop().total()
                ways[-1].prefix *= ways[-1].last
                ways[-1].last = group
                problem = too_many_ways()
            i += 1
        elif c == "|":
            ways[-1].sum, ways[-1].prefix, ways[-1].last = ways[-1].total(), 1, 1
            repeatable = False
            i += 1
        elif c in "^$":
            repeatable = False
            i += 1
        else:
            problem = f"{_shown(c)} is not in the subset"
        if problem:
            return f"column {at + 1}: {problem}"
    if opened:
        return f"column {opened[-1] + 1}: '(' is not closed"
    return None


def parse_patterns(path: Path) -> List[NamePattern]:
    out = []
    for number, line in _lines(path):
        stripped = line.strip(BLANK)
        if not stripped or stripped.startswith("#"):
            continue
        problem = check_pattern(stripped)
        # The pattern as the message shows it: its start, where a long one would fill the terminal.
        quoted = "'" + (stripped[:60] + "..." if len(stripped) > 60 else stripped) + "'"
        if problem:
            raise ExpectationsError(f"{path}:{number}: bad regular expression {quoted}: {problem}")
        try:
            out.append(NamePattern(re.compile(stripped), path, number))
        except re.error as e:  # not expected in the subset; still file:line rather than a traceback
            raise ExpectationsError(f"{path}:{number}: bad regular expression {quoted}: {e}") from None
    return out


def read(paths: Mapping[str, Optional[Path]], required: Collection[str] = ()) -> Expectations:
    """Read the files given per kind. A missing file is no expectations of that kind, unless its kind
    is in `required` (the user named the file): then it is an error."""
    exp = Expectations()
    for kind in KINDS:
        path = paths.get(kind)
        if path is None or (not Path(path).exists() and kind not in required):
            exp.files[kind] = None
            continue
        path = Path(path)
        if not path.exists():
            raise ExpectationsError(f"{path}: no such file")
        exp.files[kind] = str(path)
        if kind == "fails":
            exp.fails = parse_fails(path)
        else:
            setattr(exp, kind, parse_patterns(path))
    return exp


def _match(patterns: List[NamePattern], name: str) -> Optional[NamePattern]:
    return next((p for p in patterns if p.regex.fullmatch(name)), None)


def _rewrite(r: dict, status: str, note: str, reason: Optional[str] = None) -> None:
    r["original_status"] = model.raw_status(r)
    r["status"] = status
    r["note"] = note
    if reason is not None and reason != r["reason"]:
        r.setdefault("original_reason", r["reason"])
        r["reason"] = reason


def reset(r: dict) -> None:
    """Undo an earlier apply/rerun on one record, so that applying again starts from what vmmcheck said."""
    if "original_status" in r:
        r["status"] = r.pop("original_status")
    if "original_reason" in r:
        r["reason"] = r.pop("original_reason")
    r.pop("note", None)
    r.pop("attempts", None)


def apply(doc: Mapping, exp: Expectations) -> dict:
    """A copy of `doc` with the expectations applied (see the module docstring), totals recomputed."""
    out = copy.deepcopy(doc)
    for r in out["results"]:
        reset(r)
        name, status = r["name"], r["status"]
        skip = _match(exp.skips, name)
        listed = exp.fails.get(name)
        flake = _match(exp.flakes, name) if status in model.FAILING else None
        if skip:
            _rewrite(r, "Skip", f"skipped by {skip.where}",
                     f"skipped by {skip.path} (pattern {skip.regex.pattern!r})")
        elif listed and status == listed.status:
            _rewrite(r, "ExpectedFail", f"expected {listed.status} ({listed.where}): {listed.reason}")
        elif listed and status == "Pass":
            _rewrite(r, "UnexpectedPass", f"listed as expected {listed.status} at {listed.where}, but passed")
        elif listed:
            # Listed, but failing differently (or not running): that is news, so it stays what it is.
            r["note"] = f"listed as expected {listed.status} at {listed.where}, but got {status}"
        elif flake:
            _rewrite(r, "Flake", f"known flaky ({flake.where})")
    out["totals"] = model.count_statuses(out["results"])
    out["expectations"] = dict(exp.files)
    return out


def unexpected(doc: Mapping) -> List[Mapping]:
    """Results that keep the run from being clean."""
    return [r for r in doc["results"] if r["status"] in model.UNEXPECTED]


def summary(doc: Mapping) -> str:
    """Totals, then each unexpected result with what to do about it."""
    totals = ", ".join(f"{n} {s}" for s, n in doc["totals"].items() if n)
    lines = [f"{model.describe_run(doc)}: {totals or 'no results'}"]
    for kind, path in (doc.get("expectations") or {}).items():
        lines.append(f"  {kind}: {path or '(none)'}")
    bad = unexpected(doc)
    for r in bad:
        text = r.get("note") or r["reason"]
        lines.append(f"UNEXPECTED {r['status']}: {r['name']}" + (f": {text}" if text else ""))
    lines.append(f"{len(bad)} unexpected" if bad else "no unexpected results")
    return "\n".join(lines) + "\n"


def baseline_text(doc: Mapping) -> str:
    """A fails file listing every failing case of a run, each with its reason as the comment."""
    lines = [header_text("fails", doc).rstrip("\n"), ""]
    for r in doc["results"]:
        status = model.raw_status(r)
        if status in model.FAILING and r["status"] in model.FAILING | {"ExpectedFail"}:
            reason = " ".join((r.get("original_reason") or r["reason"]).split())
            reason = reason or f"{status} with no reason given by vmmcheck"
            lines += [f"# {reason}", f"{r['name']},{status}", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def header_text(kind: str, doc: Mapping) -> str:
    return HEADERS[kind].format(stem=model.expectation_stem(doc), statuses="/".join(sorted(model.FAILING)))


def write_baseline(doc: Mapping, paths: Mapping[str, Path]) -> List[Tuple[str, Path]]:
    """Write the fails file from a run; create flakes/skips with their header when absent.
    Returns [(what was done, path)]."""
    done = []
    fails = Path(paths["fails"])
    fails.parent.mkdir(parents=True, exist_ok=True)
    fails.write_text(baseline_text(doc), encoding="utf-8")
    done.append(("wrote", fails))
    for kind in ("flakes", "skips"):
        path = Path(paths[kind])
        if not path.exists():
            path.write_text(header_text(kind, doc), encoding="utf-8")
            done.append(("created", path))
    return done
