"""Measured figures in README.md and docs/, generated from the committed results files -- never typed.

A generated section sits between two markers; the first names what to write and from which file:

    <!-- figures: KIND PATH -->
    ... (written by ``python -m vmmcheck_report figures``; do not edit) ...
    <!-- /figures -->

KIND is one of the keys of KINDS below; PATH is relative to the repository root; the `cases` kind takes a
third word, a glob over case names. ``figures`` rewrites
every section of the documents it is given (default: README.md and docs/*.md); ``figures --check``
writes nothing and exits 1 naming each section whose text differs from what its file gives now (the
CPU test suite runs it, so a results file and the text about it cannot drift apart). Prose outside the
markers states no measured figure.
"""

from __future__ import annotations

import json
import math
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from . import load, model
from .fmt import byte_size, exact, pct, pct_range, short, sig, times

BEGIN = re.compile(r"^<!-- figures: (?P<spec>[^>]*?) -->\s*$")
END = "<!-- /figures -->"


class FiguresError(Exception):
    """A marker that cannot be used, or a source file that cannot be read; str() names file and line."""


# --- Markdown (the numbers are fmt.py's) -------------------------------------------------------------

def code(text: str) -> str:
    return f"`{text}`"


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> List[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return out


# --- reading the sources -----------------------------------------------------------------------------

@dataclass
class Source:
    path: Path      # absolute
    shown: str      # as the marker names it


def results(src: Source) -> dict:
    try:
        return load.load(src.path)
    except load.LoadError as e:
        raise FiguresError(str(e)) from None


def plain_json(src: Source, kind: str, schemas: Sequence[str] = (), keys: Optional[Mapping[str, type]] = None) -> dict:
    """A JSON source of its own kind (no JSON Schema of its own), checked by load.read_document: an object, its
    "schema" one of `schemas` (where given) and each of `keys` there with a value of its type; FiguresError
    naming the file and the kind expected otherwise."""
    try:
        return load.read_document(src.path, kind, schemas, keys, where=src.shown)
    except load.LoadError as e:
        raise FiguresError(str(e)) from None


def provenance(doc: Mapping, src: Source) -> str:
    ctx = doc["context"]
    return (f"From `{src.shown}` (git {ctx.get('git_sha') or '?'}; {model.describe_run(doc)}; "
            f"{len(ctx.get('devices', []))} GPU{'s' if len(ctx.get('devices', [])) != 1 else ''} visible)")


def share_of_forbidden(r: Mapping) -> Tuple[int, int]:
    p = r["power"]
    return p["violations"], p["instances"]


def common_prefix(names: Sequence[str]) -> str:
    """`peer.*` for peer.a.b and peer.c: the longest shared dotted prefix, starred; the name when one."""
    if len(names) == 1:
        return names[0]
    parts = [n.split(".") for n in names]
    shared = []
    for segs in zip(*parts):
        if len(set(segs)) != 1:
            break
        shared.append(segs[0])
    return (".".join(shared) + ".*") if shared else "*"


def ran(r: Mapping) -> bool:
    return model.raw_status(r) not in ("NotSupported",) and r["instances"] > 0


# --- the kinds of section ----------------------------------------------------------------------------

def cases(src: Source, pattern: str, only_ran: bool = False) -> List[str]:
    """The cases of a run whose names match `pattern` (fnmatch): status, histogram, weak share, power."""
    import fnmatch

    doc = results(src)
    chosen = [r for r in doc["results"] if fnmatch.fnmatchcase(r["name"], pattern)]
    if not chosen:
        raise FiguresError(f"{src.shown}: no case matches {pattern!r}")
    left_out = 0
    if only_ran:
        left_out = sum(1 for r in chosen if not ran(r))
        chosen = [r for r in chosen if ran(r)]
        if not chosen:
            raise FiguresError(f"{src.shown}: no case matching {pattern!r} ran")
    rows = []
    for r in chosen:
        p = r.get("power")
        power = "-" if not p else (f"{pct(p['violations'], p['instances'])} forbidden without {p['mechanism']}"
                                    if p["discriminating"] else f"none forbidden without {p['mechanism']}")
        rows.append([code(r["name"]), _question(r), model.raw_status(r),
                     model.histogram_text({k: v for k, v in r["histogram"].items() if v}) if ran(r) else "-",
                     pct(r["weak"], judged(r)) if ran(r) else "-", power])
    what = f", the cases `{pattern}`" + (f" that ran ({left_out} more did not)" if only_ran else "")
    return [provenance(doc, src) + what + ":", ""] + table(["case", "expectation", "status", "histogram", "weak", "control"], rows)


def _question(r: Mapping) -> str:
    """A case's expectation; a litmus row's question (`permit`, `assert`), and `model` where only the
    artifact's reading holds an assert row (a case a retired family's row stands for reads so too)."""
    if r.get("pattern") != "litmus":
        return r["expectation"]
    expect = r["axes"]["expect"]
    return f"{expect} (model)" if expect == "assert" and r["expectation"] == "model" else expect


def cases_ran(src: Source, pattern: str) -> List[str]:
    """As `cases`, the cases that ran only (a corpus of which a GPU runs a part)."""
    return cases(src, pattern, only_ran=True)


def run_summary(src: Source) -> List[str]:
    """Totals, what did not run and why, warnings and failures with their reasons, power in a line."""
    doc = results(src)
    rs = doc["results"]
    totals = model.count_statuses(rs)
    seconds = sum(r["seconds"] for r in rs)
    b = doc["context"]["budget"]
    out = [provenance(doc, src) + ", budget " + f"{short(b['instances'])} instances per in-kernel case, "
           f"{short(b['op_words'])} words x {b['iterations']} per operation case:", ""]
    out += table(["status", "cases"], [[s, exact(n)] for s, n in totals.items() if n] + [["all", exact(len(rs))]])
    out += ["", f"The cases' wall times add up to {seconds:.1f} s, their controls and isolated children included."]
    skipped: Dict[str, List[str]] = {}
    for r in rs:
        if model.raw_status(r) == "NotSupported":
            skipped.setdefault(r["reason"], []).append(r["name"])
    if skipped:
        out += ["", "Not run here (`NotSupported`), with the reason each gave:", ""]
        for reason, names in sorted(skipped.items(), key=lambda kv: (-len(kv[1]), kv[1][0])):
            out.append(f"- {len(names)} {code(common_prefix(names))}: {cell(reason)}")
    notable = [r for r in rs if model.raw_status(r) not in ("Pass", "NotSupported")]
    if notable:
        out += ["", "Every result that is neither `Pass` nor `NotSupported`:", ""]
        for r in notable:
            out.append(f"- {code(r['name'])} ({r['expectation']}): **{model.raw_status(r)}** -- {cell(r['reason'])}")
    t = model.power_tally(rs)
    if t["required"] + t["fault"]:
        out += ["", f"Power: {t['required_discriminating']} of {t['required']} `required` and "
                    f"{t['fault_discriminating']} of {t['fault']} `fault` cases discriminating -- their controls "
                    f"showed an outcome the case forbids ({len(t['not'])} not)."]
    return out


def families(src: Source) -> List[str]:
    """Per family: statuses, power, and the ranges of what the undefined cases and the controls showed."""
    doc = results(src)
    out = [provenance(doc, src) + ". Weak: the share of instances with a weak outcome in each `undefined` "
           "case that ran (lowest - highest); forbidden: the share of each discriminating control's instances "
           "with an outcome its case forbids.", ""]
    rows = []
    for fam, rs in model.families(doc["results"]).items():
        statuses = model.count_statuses(rs)
        ran_here = [r for r in rs if ran(r)]
        with_power = [r for r in rs if r.get("power")]
        disc = [r for r in with_power if r["power"]["discriminating"]]
        undefined = [(r["weak"], r["instances"]) for r in ran_here if r["expectation"] == "undefined"]
        rows.append([code(fam), str(len(rs)), str(statuses.get("Pass", 0)),
                     str(sum(n for s, n in statuses.items() if s not in ("Pass", "NotSupported", "Skip"))),
                     str(statuses.get("NotSupported", 0) + statuses.get("Skip", 0)),
                     f"{len(disc)} of {len(with_power)}" if with_power else "-",
                     pct_range(undefined), pct_range([share_of_forbidden(r) for r in disc])])
    out += table(["family", "cases", "Pass", "other", "not run", "discriminating", "weak (undefined)",
                  "forbidden (controls)"], rows)
    return out


def api_statuses(src: Source) -> List[str]:
    """What the driver returned for each api case, and what the case checked beside the status."""
    doc = results(src)
    out = [provenance(doc, src) + ":", ""]
    rows = []
    for r in doc["results"]:
        if r["family"] != "api":
            continue
        status = " ".join(k for k, v in r["histogram"].items() if v) or "-"
        saw = re.sub(r"^the driver returned [A-Z_]+(; )?", "", r["reason"])
        rows.append([code(r["name"]), r["expectation"], model.raw_status(r), status, saw])
    out += table(["case", "expectation", "result", "returned", "checked beside the status"], rows)
    return out


def power_details(src: Source) -> List[str]:
    """The power counts, how each control was made, and every required or fault case whose control showed
    nothing forbidden, with that control's histogram."""
    doc = results(src)
    rs = doc["results"]
    t = model.power_tally(rs)
    by_how: Dict[str, int] = {}
    for r in rs:
        p = r.get("power")
        if p:
            how = f"the case itself under `{p['mutant']}`" if p.get("mutant") else "a separate case"
            by_how[how] = by_how.get(how, 0) + 1
    out = [provenance(doc, src) + ":", "",
           f"- {t['required_discriminating']} of {t['required']} `required` and {t['fault_discriminating']} of "
           f"{t['fault']} `fault` cases discriminating here.",
           "- Controls: " + ", ".join(f"{n} {how}" for how, n in sorted(by_how.items(), key=lambda kv: -kv[1])) + "."]
    missing = [r for r in rs if r.get("power") and not r["power"]["discriminating"]]
    if missing:
        out += ["", f"The {len(missing)} cases whose control showed no forbidden outcome:", ""]
        rows = []
        for r in missing:
            p = r["power"]
            control = f"itself under `{p['mutant']}`" if p.get("mutant") else code(p["control"])
            rows.append([code(r["name"]), control, p["mechanism"], p["status"],
                         model.histogram_text({k: v for k, v in p["histogram"].items() if v})])
        out += table(["case", "control", "removes", "control ran", "control histogram"], rows)
    return out


def selftest(src: Source) -> List[str]:
    """The mutant x pattern matrix of a `vmmcheck selftest --json` file (schema vmmcheck-selftest/2, or /3:
    its time, and each mutant's passes and the generated rows it left as built)."""
    doc = plain_json(src, "vmmcheck-selftest/2 or /3", ("vmmcheck-selftest/2", "vmmcheck-selftest/3"),
                     {"as_built": dict, "mutants": list, "git_sha": str})
    built = doc["as_built"]
    took = (f" It took {doc['seconds']:.1f} s, {built['seconds']:.1f} s of them the as-built pass." if "seconds" in doc else "")
    out = [f"From `{src.shown}` (git {doc['git_sha']}): as built {built['passed']} of {built['cases']} cases passed "
           f"({len(built['not_passing'])} with another verdict left out); then each mutant over the cases of the "
           "patterns it lives in" + (", in rounds: the first few cases of each pattern, then the rest of a pattern "
                                     "none caught yet; a generated row whose kernel the mutant leaves as built is not rerun"
                                     if "seconds" in doc else "") + "." + took, ""]
    rows, verdicts = [], {}
    for m in doc["mutants"]:
        for c in m["patterns"]:
            verdicts[c["verdict"]] = verdicts.get(c["verdict"], 0) + 1
            example = c["caught_by"][0] if c["caught_by"] else None
            detail = (f"{code(example['case'])} {example['status']}: {example['histogram']}" if example
                      else c.get("because", ""))
            rows.append([code(m["mutant"]), code(c["pattern"]), c["verdict"].replace("_", " "),
                         f"{len(c['caught_by'])} of {c['cases_run']}", detail])
    out += table(["mutant", "pattern", "verdict", "cases gone wrong", "for example / why not"], rows)
    out += ["", "Pairs: " + ", ".join(f"{n} {v.replace('_', ' ')}" for v, n in sorted(verdicts.items())) + "."]
    return out


def experiments(src: Source) -> List[str]:
    """The hand-edit experiments: for each results file in the folder, the diff it ran and what failed."""
    if not src.path.is_dir():
        raise FiguresError(f"{src.shown}: not a folder")
    rows = []
    diffs = src.path.resolve().parents[2] / "ci" / "experiments"  # ci/results/experiments -> ci/experiments
    for path in sorted(src.path.glob("*.json")):
        name = path.stem.split(".")[-1]
        if not (diffs / f"{name}.diff").is_file():
            continue  # a run kept beside them that no hand edit made (a mirror table's last run)
        doc = results(Source(path, f"{src.shown}/{path.name}"))
        rs = doc["results"]
        failed = [r for r in rs if model.raw_status(r) == "Fail"]
        by_family: Dict[str, List[Mapping]] = model.families(failed)
        example = "; ".join(f"{code(fam)}: {len(fs)} failed, e.g. {code(fs[0]['name'])} "
                            f"{model.histogram_text({k: v for k, v in fs[0]['histogram'].items() if v})}"
                            for fam, fs in by_family.items())
        totals = model.count_statuses(rs)
        rows.append([f"[`{name}`](ci/experiments/{name}.diff)", doc["context"].get("git_sha") or "?",
                     f"{totals.get('Pass', 0)} / {totals.get('Fail', 0)} / {totals.get('NotSupported', 0)}", example])
    out = [f"From `{src.shown}/*.json` (each run of `vmmcheck run --no-power` built with the diff applied):", ""]
    out += table(["edit", "git", "pass / fail / not run", "what failed"], rows)
    return out


def bench_litmus(src: Source) -> List[str]:
    """The side-by-side bench (ci/bench-litmus.sh): each run, then the ratios it computed."""
    doc = plain_json(src, "vmmcheck-bench-litmus/1", ("vmmcheck-bench-litmus/1",),
                     {"machine": dict, "cuda_litmus": dict, "vmmcheck": dict, "runs": list, "ratios": dict,
                      "plain_mp": dict})

    def num(v, fmt):
        return "-" if v is None else fmt(v)

    out = [f"From `{src.shown}` ({doc['machine']['gpu']}, driver {doc['machine']['driver']}; cuda-litmus "
           f"{doc['cuda_litmus']['commit'][:7]}, vmmcheck {doc['vmmcheck']['git_sha']}):", ""]
    rows = [[r["id"], exact(r["weak"]), short(r["instances"]), num(r.get("gpu_seconds"), lambda v: f"{v:.3g}"),
             num(r.get("weak_per_gpu_second"), short), f"{r['wall_seconds']:.2f}", short(r["weak_per_wall_second"])]
            for r in doc["runs"]]
    out += table(["run", "weak (stale)", "instances", "GPU s", "weak / GPU s", "wall s", "weak / wall s"], rows)
    out.append("")
    for key, r in doc["ratios"].items():
        out.append(f"- {r['label']}: {r['weak_per_gpu_second']:.3g}x weak per GPU second (against `{r['cuda_litmus_gpu']}`), "
                   f"{r['weak_per_wall_second']:.3g}x per wall second (against `{r['cuda_litmus_wall']}`), "
                   f"{r['weak_rate']:.3g}x the weak rate.")
    p = doc["plain_mp"]
    out.append(f"- Plain message passing (`{p['case']}`, {p['status']}): {exact(p['instances'])} instances in "
               f"{p['gpu_seconds']:.3g} GPU s, {short(p['instances_per_gpu_second'])} instances per GPU second.")
    return out


def mpi_ranks(src: Source) -> List[str]:
    """A `run --mpi` results file: each rank's totals, and what its unordered ipc readers saw."""
    doc = results(src)
    out = [provenance(doc, src) + ", one rank per GPU:", ""]
    ranks = [("0", doc["results"])] + [(str(r["rank"]), r["results"]) for r in doc.get("ranks", [])]
    rows = []
    for rank, rs in ranks:
        totals = model.count_statuses(rs)
        none = [(r["weak"], r["instances"]) for r in rs if ".none." in r["name"] and r["name"].startswith("ipc.") and ran(r)]
        rows.append([rank, ", ".join(f"{n} {s}" for s, n in totals.items() if n), pct_range(none)])
    out += table(["rank", "results", "weak in the unordered `ipc.kernels.none.*`"], rows)
    return out


def litmus_rows(doc: Mapping) -> List[Mapping]:
    return [r for r in doc["results"] if r.get("pattern") == "litmus"]


def judged(r: Mapping) -> int:
    """The instances a litmus row's weak count is out of: those whose preconditions held."""
    return r.get("judged", r["instances"])


def litmus(src: Source) -> List[str]:
    """The litmus rows of a run (cases/litmus): per file, statuses and how many permit rows showed their weak outcome."""
    doc = results(src)
    rows_by_file: Dict[str, List[Mapping]] = {}
    for r in litmus_rows(doc):
        rows_by_file.setdefault(r["axes"]["file"], []).append(r)
    if not rows_by_file:
        raise FiguresError(f"{src.shown}: no litmus row")
    table_rows = []
    for name, rs in sorted(rows_by_file.items()):
        totals = model.count_statuses(rs)
        permits = [r for r in rs if r["axes"]["expect"] != "assert" and ran(r)]
        shown = [(r["weak"], judged(r)) for r in permits if r["weak"] > 0]
        table_rows.append([code(name), exact(len(rs)), ", ".join(f"{n} {s}" for s, n in totals.items() if n),
                           f"{len(shown)} of {len(permits)}", pct_range(shown)])
    out = [provenance(doc, src) + ", the litmus rows (`cases/litmus/`):", ""]
    out += table(["file", "rows", "statuses", "permit rows whose weak outcome showed", "its rate where it did"],
                 table_rows)
    flagged = [r for r in litmus_rows(doc) if model.raw_status(r) not in ("Pass", "NotSupported")]
    if flagged:
        out += ["", "Rows that did not pass:", ""]
        out += [f"- `{r['name']}` ({model.raw_status(r)}): {r['reason']}" for r in flagged]
    return out


def permit_rows(doc: Mapping) -> List[Mapping]:
    """A run's litmus permit rows that ran: what "permit rows showing their weak outcome" counts of."""
    return [r for r in litmus_rows(doc) if r["axes"]["expect"] != "assert" and ran(r)]


def proved_nothing(doc: Mapping) -> Tuple[List[Mapping], List[Mapping]]:
    """The litmus rows of a run that proved nothing (docs/litmus.md, "Power"): its assert rows none of whose
    controls showed the outcome they forbid, and its permit rows that ran and did not show their weak outcome."""
    asserts = [r for r in litmus_rows(doc) if r.get("power") and not r["power"]["discriminating"]]
    return asserts, [r for r in permit_rows(doc) if r["weak"] == 0]


def litmus_power(src: Source) -> List[str]:
    """The power of a run's litmus assert rows (docs/litmus.md, "Power"): per file, how many have a control
    that showed the forbidden outcome, and every row none of whose controls did, with the evidence."""
    doc = results(src)
    asserts = [r for r in litmus_rows(doc) if r.get("power")]
    if not asserts:
        raise FiguresError(f"{src.shown}: no litmus row with power (a run with --no-power, or from before it)")
    permits = permit_rows(doc)
    showing = sum(1 for r in permits if r["weak"] > 0)
    by_file: Dict[str, List[Mapping]] = {}
    for r in asserts:
        by_file.setdefault(r["axes"]["file"], []).append(r)
    discriminating = sum(1 for r in asserts if r["power"]["discriminating"])
    tried = sum(len(r["power"].get("tried", [])) for r in asserts)
    out = [provenance(doc, src) + f": {discriminating} of {len(asserts)} litmus assert rows "
           f"({pct(discriminating, len(asserts))}) have a control that showed the outcome the row forbids, "
           f"of {exact(tried)} controls run; {showing} of {len(permits)} permit rows showed their weak outcome.", ""]
    rows = []
    for name, rs in sorted(by_file.items()):
        shown = [(r["power"]["violations"], r["power"]["instances"]) for r in rs if r["power"]["discriminating"]]
        rows.append([code(name), exact(len(rs)), f"{len(shown)} of {len(rs)}", pct_range(shown) if shown else "-"])
    out += table(["file", "assert rows", "discriminating", "the strongest control's rate"], rows)
    out += ["", "Rows none of whose controls showed it, with what they tried:", ""]
    rows = []
    for r in proved_nothing(doc)[0]:
        p = r["power"]
        t = p.get("tried", [])
        changes = ", ".join(code(x["control"].rsplit(".", 1)[-1]) for x in t[:4]) + (f" (+{len(t) - 4})" if len(t) > 4 else "")
        rows.append([code(r["name"]), exact(len(t)), short(sum(x["instances"] for x in t)), changes])
    out += table(["row", "controls", "their instances", "changes"], rows) if rows else ["(none)"]
    return out


def _per_gpu_second(n: int, r: Mapping) -> str:
    """Instances per GPU second of a record: how fast it shows what it shows."""
    seconds = r.get("gpu_seconds") or 0
    return f"{short(n / seconds)}/s" if seconds > 0 and n else "0"


def _power_cell(r: Mapping) -> str:
    """A case's or row's power: what its strongest control showed, out of its instances."""
    p = r.get("power")
    if not p:
        return "-"
    return (f"{exact(p['violations'])} of {short(p['instances'])} ({pct(p['violations'], p['instances'])})"
            + ("" if p["discriminating"] else ", none"))


# A hand-written kernel's bins that say its spin gave up waiting for the flag (patterns/message_passing:
# "timeout"). The kernel counts them among its weak outcomes (a Warning where the rules require the flag be
# seen); a litmus row counts an instance whose spin reached its bound as one whose preconditions did not
# hold. Neither is the outcome the question asks about, so the mirror table compares them apart.
SPIN_BOUND_BINS = ("timeout",)


def _spin_bound(r: Mapping) -> int:
    """The instances of a side whose spin reached its bound: a row's outcomes with a register `timeout`
    (its other unjudged instances are preconditions its conditions name), a case's timeout bins."""
    h = r.get("histogram", {})
    if r.get("pattern") == "litmus":
        return sum(n for outcome, n in h.items() if "=timeout" in outcome)
    return sum(h.get(b, 0) for b in SPIN_BOUND_BINS)


def _mirror_strength(r: Mapping) -> float:
    """What a side shows per instance of the outcome its question is about: a permit row's (or undefined
    case's) weak outcome, an assert row's (or required case's) strongest control's forbidden outcome. A
    case's spins that gave up are not that outcome (SPIN_BOUND_BINS)."""
    p = r.get("power")
    if p:
        return p["violations"] / p["instances"] if p["instances"] else 0.0
    if r.get("pattern") == "litmus":
        return r["weak"] / judged(r) if judged(r) else 0.0
    seen = r["instances"] - _spin_bound(r)  # as a row's judged: the instances whose spin saw the flag
    return (r["weak"] - _spin_bound(r)) / seen if seen > 0 else 0.0


def _spin_bound_note(r: Mapping) -> str:
    """`; N at a spin's bound` where a side's spins gave up, so the table hides none of what it counts."""
    n = _spin_bound(r)
    return f"; {exact(n)} at a spin's bound ({pct(n, r['instances'])})" if n else ""


def _row_cells(r: Mapping) -> List[str]:
    """A litmus row's own cells of the mirror table: name, question, status, weak outcome, power."""
    return [code(r["name"]), _question(r), model.raw_status(r),
            f"{exact(r['weak'])} of {short(judged(r))} ({pct(r['weak'], judged(r))}), {_per_gpu_second(r['weak'], r)}"
            f"{_spin_bound_note(r)}",
            _power_cell(r)]


def litmus_vs_hand(src: Source) -> List[str]:
    """The mirror litmus rows beside the hand-written cases they mirror, from one run: what each side
    shows (the weak outcome where it is allowed; its controls' forbidden outcome where it is not), how
    fast, and which side is the stronger."""
    doc = results(src)
    by_name = {r["name"]: r for r in doc["results"]}
    rows, pairs, stronger = [], 0, 0
    verdicts: Dict[str, List[str]] = {f: [] for f in model.LITMUS_MIRRORS}
    paired = set()
    retired: Dict[str, List[str]] = {}  # family -> the case names its rows bear (`case NAME`: its kernel is gone)
    for r in litmus_rows(doc):
        family = next((f for f, stem in model.LITMUS_MIRRORS.items() if stem == r["axes"]["file"]), None)
        if not family:
            continue
        if model.stands_for_case(r):  # the row is the case now
            retired.setdefault(family, []).append(r["name"])
            rows.append(_row_cells(r) + ["- (retired: the row is the case)", "-"])
            continue
        hand = by_name.get(family + "." + r["axes"]["command"].replace("_", "."))
        if hand is None:  # a token with an underscore of its own (relaxed_gpu): match by spelling
            hand = next((h for n, h in by_name.items() if n.startswith(family + ".") and
                         n[len(family) + 1:].replace(".", "_") == r["axes"]["command"]), None)
        verdict = "-"
        if hand is not None:
            pairs += 1
            mine, theirs = _mirror_strength(r), _mirror_strength(hand)
            verdict = "litmus" if mine >= theirs and mine > 0 else "hand" if theirs > mine else "neither"
            stronger += verdict == "litmus"
            verdicts[family].append(verdict)
            paired.add(hand["name"])
        hand_cell = "-" if hand is None else (f"{code(hand['name'])} {model.raw_status(hand)}: "
                                              f"{exact(hand['weak'])} of {short(hand['instances'])} ({pct(hand['weak'], hand['instances'])}), "
                                              f"{_per_gpu_second(hand['weak'], hand)}{_spin_bound_note(hand)}; "
                                              f"power {_power_cell(hand)}")
        rows.append(_row_cells(r) + [hand_cell, verdict])
    if not rows:
        raise FiguresError(f"{src.shown}: no litmus row mirrors a hand-written family")
    out = [provenance(doc, src) + ": each litmus row that mirrors a hand-written case, its weak outcome out of the "
           "instances meeting its preconditions and per GPU second, and its power (what its strongest control showed), "
           "beside the case's; `stronger` compares what each side shows per instance -- the weak outcome where it is "
           "allowed, its strongest control's forbidden outcome where it is not. A hand-written kernel counts a spin "
           "that gave up waiting for its flag among its weak outcomes, a row as an instance whose preconditions did "
           "not hold; both are listed (`at a spin's bound`), and neither is the outcome compared.", "",
           f"The litmus row is at least as strong in {stronger} of {pairs} pairs.", "",
           "A family retires when each of its cases has a mirror row and no case is the stronger side (and some "
           "row is); where the hand-written case is stronger, or has no mirror, the family stays:", ""]
    summary = []
    for family, seen in verdicts.items():
        if family in retired:
            n = exact(len(retired[family]))
            summary.append([code(family), n, n, "-", "-", "-",
                            f"retired: its cases are rows of `{model.LITMUS_MIRRORS[family]}.test`"])
            continue
        cases = [r["name"] for r in doc["results"] if r.get("family") == family]
        if not cases and not seen:
            continue  # a run that selected nothing of the family (--filter) says nothing of it
        unmirrored = sum(1 for n in cases if n not in paired)
        hand, litmus, neither = seen.count("hand"), seen.count("litmus"), seen.count("neither")
        why = [f"{hand} stronger by hand"] if hand else []
        why += [f"{unmirrored} without a mirror row in this run"] if unmirrored else []
        retires = "no: " + ", ".join(why) if why else "yes" if litmus else "no: no side showed anything"
        summary.append([code(family), exact(len(cases)), exact(len(seen)), exact(litmus), exact(hand), exact(neither), retires])
    out += table(["family", "cases", "mirrored", "litmus at least as strong", "hand-written stronger", "neither showed it",
                  "retires"], summary) + [""]
    out += table(["litmus row", "asks", "status", "weak (litmus)", "power (litmus)", "hand-written case: weak, power",
                  "stronger"], rows)
    return out


MiB, GiB = 2 ** 20, 2 ** 30


def _grow_line(grow: Mapping[str, Mapping[int, Mapping]], to: int, shown) -> str:
    """One headline of the growable buffer: the step reaching `to` both ways, and all steps up to it."""
    from . import bench

    ok = bench.ok
    v, c = grow["grow.vmm"].get(to), grow["grow.cudamalloc"].get(to)
    step = (v or c)["axes"].get("step")
    text = f"- Growing to {byte_size(to)}" + (f" (step {step})" if step is not None else "") + ": one step of "
    text += ", of ".join(f"{code(name)} {shown(r)}" for name, r in (("grow.vmm", v), ("grow.cudamalloc", c))
                         if r is not None)
    if v is not None and c is not None and ok(v) and ok(c):
        text += f" ({times(c['p50'] / v['p50'])} as long with cudaMalloc)"
        sums = {}
        for name in grow:
            steps = [r for t, r in grow[name].items() if t <= to]
            sums[name] = (math.fsum(r["p50"] for r in steps if ok(r)), sum(1 for r in steps if ok(r)), len(steps))
        (sv, nv, kv), (sc, nc, kc) = sums["grow.vmm"], sums["grow.cudamalloc"]
        ran = "" if (nv, nc) == (kv, kc) else f" ({nv} of {kv} and {nc} of {kc} steps ran)"
        text += (f"; all steps up to it, p50s summed: {sig(sv)} {v['unit']} against {sig(sc)} {c['unit']} "
                 f"({times(sc / sv)} as long){ran}")
    return text + "."


def bench_compare(src: Source, new_path: str) -> List[str]:
    """Two bench files (the marker names BASE, then NEW) compared as `bench-compare` does (threshold 20%):
    the verdicts, every row that is not `same`, and how large a slowdown the rows of BASE resolve
    (bench.smallest_flagged: bench-report's "flagged from")."""
    from . import bench

    root = Path(str(src.path)[: -len(src.shown)]) if str(src.path).endswith(src.shown) else src.path.parent
    new_full = (root / new_path).resolve()
    if not new_full.exists():
        raise FiguresError(f"{new_path}: no such file")
    try:
        base, new = bench.load(src.path), bench.load(new_full)
    except load.LoadError as e:
        raise FiguresError(str(e)) from None
    cmp = bench.compare(base, new)
    out = [f"`python -m vmmcheck_report bench-compare {src.shown} {new_path}` (two runs of git "
           f"{base['context'].get('git_sha', '?')} and {new['context'].get('git_sha', '?')}): {cmp.summary()}.", ""]
    moved = [r for r in cmp.rows if r.verdict in ("slower", "faster")]
    if moved:
        out += table(["row", "BASE p50", "NEW p50", "ratio [interval]", "verdict"],
                     [[code(r.id), f"{sig(r.base_p50)} {r.unit}", f"{sig(r.new_p50)} {r.unit}",
                       bench.ratio_text(r), r.verdict] for r in moved]) + [""]
    unresolved = cmp.of("unresolved")
    if unresolved:
        widest = max(unresolved, key=lambda r: r.high / r.low)
        steadiest = min(unresolved, key=lambda r: r.high / r.low)
        out += [f"The {len(unresolved)} unresolved rows' intervals reach past 20% one way or both: their cost moved "
                f"between rounds (processes) by more than that; from {code(steadiest.id)} "
                f"{bench.ratio_text(steadiest)} to {code(widest.id)} {bench.ratio_text(widest)}.", ""]
    needs = sorted(f for f in (bench.smallest_flagged(r) for r in base["results"]) if f is not None)
    if needs:
        within = sum(1 for f in needs if f <= 1.25)
        out += [f"Against a run like `{src.shown}`, a slowdown of 25% is flagged in {within} of its {len(needs)} rows "
                f"(bench-report's \"flagged from\"); the median row needs {(needs[len(needs) // 2] - 1) * 100:.0f}%, "
                f"the steadiest {(needs[0] - 1) * 100:.0f}%.", ""]
    return out


def bench_headline(src: Source) -> List[str]:
    """A `vmmcheck bench --json` file (docs/bench.md): the headline rows, what they add up to, and their ratios.

    The VMM calls at 2 MiB and at the file's largest size; map + set-access of 2 MiB; `chunks.map` of the largest
    total as one chunk against the most chunks; `ipc.import_fd` of 2 MiB in the same process against another;
    the growth step reaching the largest size both ways of growing reached (grow.vmm against grow.cudamalloc,
    one step and all steps up to it); `access` through one view against two at the largest size of each memory
    kind. Figures are p50s unless a column says otherwise; a row that did not run shows its status and why."""
    from . import bench

    try:
        doc = bench.load(src.path)
    except load.LoadError as e:
        raise FiguresError(str(e)) from None
    rows = doc["results"]

    def find(name: str, **axes) -> Optional[Mapping]:
        return next((r for r in rows if r["bench"] == name and all(r["axes"].get(k) == v for k, v in axes.items())),
                    None)

    def ok(r: Optional[Mapping]) -> bool:
        return r is not None and r["status"] == "ok"

    def value(r: Mapping, key: str = "p50") -> str:
        return f"{sig(r[key])} {r['unit']}"

    def why(r: Mapping) -> str:
        return f"{r['status']}: {r['why']}"

    def shown(r: Mapping) -> str:
        return value(r) if ok(r) else why(r)

    s = doc["settings"]
    out = [provenance(doc, src) + f"; `vmmcheck bench{' --quick' if s['quick'] else ''}`, {s['min_samples']} to "
           f"{s['max_samples']} samples a point:", ""]
    found = False

    sizes = [r["axes"]["size"] for r in rows if r["group"] == "vmm" and isinstance(r["axes"].get("size"), int)]
    vmm_rows = []
    for name, extra in (("vmm.create", {}), ("vmm.reserve", {}), ("vmm.map", {}), ("vmm.set_access", {"devices": 1}),
                        ("vmm.set_access", {"devices": 2}), ("vmm.unmap", {}), ("vmm.release", {})):
        for size in dict.fromkeys([2 * MiB, max(sizes, default=2 * MiB)]):
            r = find(name, size=size, **extra)
            if r is None:
                continue
            label = code(name) + "".join(f" {k}={v}" for k, v in extra.items())
            vmm_rows.append([label, byte_size(size)] + ([value(r, "p50"), value(r, "p90"), value(r, "p99"),
                                                          exact(r["n"])] if ok(r) else [why(r), "-", "-", "-"]))
    if vmm_rows:
        found = True
        out += table(["operation", "size", "p50", "p90", "p99", "samples"], vmm_rows)
        out.append("")

    lines = []
    m, a = find("vmm.map", size=2 * MiB), find("vmm.set_access", size=2 * MiB, devices=1)
    if ok(m) and ok(a) and m["unit"] == a["unit"]:
        lines.append(f"- Map + set-access of 2 MiB (`vmm.map` + `vmm.set_access` devices=1, p50s): {sig(m['p50'])} + "
                     f"{sig(a['p50'])} = {sig(m['p50'] + a['p50'])} {m['unit']}.")
    elif m is not None or a is not None:
        missing = "; ".join(f"{code(r['id'])} {why(r)}" for r in (m, a) if r is not None and not ok(r))
        lines.append(f"- Map + set-access of 2 MiB: not measured here ({missing or 'a row is missing'}).")

    chunk_rows = [r for r in rows if r["bench"] == "chunks.map" and ok(r)
                  and isinstance(r["axes"].get("total"), int) and isinstance(r["axes"].get("chunks"), int)]
    if chunk_rows:
        total = max(r["axes"]["total"] for r in chunk_rows)
        these = sorted((r for r in chunk_rows if r["axes"]["total"] == total), key=lambda r: r["axes"]["chunks"])
        one, most = these[0], these[-1]

        def chunks(r):
            n = r["axes"]["chunks"]
            return f"{exact(n)} chunk{'s' if n != 1 else ''}"
        text = f"- `chunks.map` of {byte_size(total)}: as {chunks(one)} {value(one)}"
        if most is not one:
            text += f", as {chunks(most)} {value(most)} ({times(most['p50'] / one['p50'])})"
        lines.append(text + ".")

    same, other = find("ipc.import_fd", size=2 * MiB, process="same"), find("ipc.import_fd", size=2 * MiB, process="other")
    if same is not None or other is not None:
        parts = [f"{where} {shown(r)}" for where, r in (("in the same process", same), ("in another process", other))
                 if r is not None]
        ratio = f" ({times(other['p50'] / same['p50'])})" if ok(same) and ok(other) else ""
        lines.append(f"- `ipc.import_fd` of 2 MiB: {', '.join(parts)}{ratio}.")

    grow = {name: {r["axes"]["to"]: r for r in rows if r["bench"] == name and isinstance(r["axes"].get("to"), int)}
            for name in ("grow.vmm", "grow.cudamalloc")}
    all_to = set(grow["grow.vmm"]) | set(grow["grow.cudamalloc"])
    if all_to:
        both = [to for to in all_to if ok(grow["grow.vmm"].get(to)) and ok(grow["grow.cudamalloc"].get(to))]
        # At 1 GiB where both ways reached it, and at the largest size both reached.
        targets = sorted({to for to in (1 << 30, max(both or all_to)) if to in (both or all_to)})
        for to in targets:
            lines.append(_grow_line(grow, to, shown))
    if lines:
        found = True
        out += lines + [""]

    access_rows = []
    for name in ("access.bandwidth", "access.latency"):
        mine = [r for r in rows if r["bench"] == name and isinstance(r["axes"].get("size"), int)]
        for memory in dict.fromkeys(r["axes"].get("memory") for r in mine):
            kind = [r for r in mine if r["axes"].get("memory") == memory]
            size = max((r["axes"]["size"] for r in kind if ok(r)), default=max(r["axes"]["size"] for r in kind))
            one, two = find(name, memory=memory, views=1, size=size), find(name, memory=memory, views=2, size=size)
            if one is None and two is None:
                continue
            cells = [shown(r) if r is not None else "-" for r in (one, two)]
            if one is not None and two is not None and not ok(one) and (one["status"], one["why"]) == (two["status"], two["why"]):
                cells[1] = "-"
            ratio = times(two["p50"] / one["p50"]) if ok(one) and ok(two) else "-"
            access_rows.append([code(name), str(memory), byte_size(size), *cells, ratio])
    if access_rows:
        found = True
        out += ["Through one view and through two views of the same allocation, at the largest size of each memory kind:",
                ""]
        out += table(["benchmark", "memory", "size", "one view", "two views", "two / one"], access_rows)
        out.append("")

    if not found:
        raise FiguresError(f"{src.shown}: no headline row (vmm.*, chunks.map, ipc.import_fd, grow.*, access.*)")
    counts: Dict[str, int] = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    out.append(f"All {exact(len(rows))} rows of the file: " + ", ".join(f"{n} {st}" for st, n in counts.items()) + ".")
    return out


def shards(src: Source) -> List[str]:
    """A folder holding one run of the suite in full (*.full.json), the same run as `--shard K/N` files
    (*.shard-K-of-N.json), one after another on one machine, and its console (*.console.txt, with the
    "LABEL: exit C in S s" lines of ci/gpu-shards.sh): each run's statuses, the shards joined by `merge`
    and compared with the full run name by name, and what `compare` says between the two."""
    from . import compare, merge

    if not src.path.is_dir():
        raise FiguresError(f"{src.shown}: not a folder")
    fulls = sorted(src.path.glob("*.full.json"))
    parts = sorted(src.path.glob("*.shard-*-of-*.json"))
    if len(fulls) != 1 or not parts:
        raise FiguresError(f"{src.shown}: needs one *.full.json and *.shard-K-of-N.json files")
    full = results(Source(fulls[0], f"{src.shown}/{fulls[0].name}"))
    docs = [(f"{src.shown}/{p.name}", results(Source(p, f"{src.shown}/{p.name}"))) for p in parts]
    try:
        joined = merge.merge(docs)
    except merge.MergeError as e:
        raise FiguresError(str(e)) from None
    walls: Dict[str, str] = {}
    for console in src.path.glob("*.console.txt"):
        for line in console.read_text(encoding="utf-8").splitlines():
            m = re.match(r"^(full|shard \d+/\d+): exit (\d+) in (\d+) s$", line)
            if m:
                walls[m.group(1)] = f"{m.group(3)} s (exit {m.group(2)})"

    def row(label: str, doc: Mapping, wall_key: str) -> List[str]:
        rs = doc["results"]
        rows_ = sum(1 for r in rs if r.get("pattern") == "litmus")
        totals = model.count_statuses(rs)
        return [label, exact(len(rs) - rows_), exact(rows_), ", ".join(f"{n} {st}" for st, n in totals.items() if n),
                walls.get(wall_key, "-")]

    out = [provenance(full, Source(fulls[0], f"{src.shown}/{fulls[0].name}")) + f"; then the same suite as "
           f"{len(docs)} shards, one after another on the same GPU, joined by `merge`:", ""]
    rows = [row("full run", full, "full")]
    for path, doc in sorted(docs, key=lambda d: d[1]["context"]["shard"]["index"]):
        shard = doc["context"]["shard"]
        label = f"shard {shard['index']}/{shard['count']}"
        rows.append([f"`--shard {shard['index']}/{shard['count']}`"] + row(label, doc, label)[1:])
    rows.append(row("shards merged", joined, ""))
    out += table(["run", "cases", "litmus rows", "statuses", "wall"], rows)
    before = {r["name"]: r["status"] for r in full["results"]}
    after = {r["name"]: r["status"] for r in joined["results"]}
    same = [n for n in before if after.get(n) == before[n]]
    only = sorted(set(before) ^ set(after))
    out += ["", f"Name by name: the merged shards hold {exact(len(after))} names, the full run {exact(len(before))}; "
                f"{exact(len(only))} in one only; {exact(len(same))} with the same status in both."]
    for n in sorted(n for n in before if n in after and after[n] != before[n]):
        out.append(f"- {code(n)}: {before[n]} in the full run, {after[n]} in its shard")
    cmp = compare.compare(full, joined)
    out += ["", f"`compare` of the full run (baseline) with the merged shards: {cmp.verdict()}"
                f" (exit {cmp.exit_code})."]
    for c in cmp.lost_power:
        out.append(f"- lost power: {code(c.name)} -- {cell(c.detail)}")
    return out


def engine(src: Source) -> List[str]:
    """The litmus engine's benchmark (ci/bench-engine.sh): a folder of runs, one subfolder each (before,
    after, ...) holding the engine.json ci/bench_engine.py wrote; one table of every run of every one."""
    if not src.path.is_dir():
        raise FiguresError(f"{src.shown}: not a folder")
    def before_first(p: Path):  # the run folders: "before" first, then the others by name
        return (not p.parent.name.startswith("before"), p.parent.name)

    found = sorted(src.path.glob("*/engine.json"), key=before_first)
    if not found:
        raise FiguresError(f"{src.shown}: no */engine.json")
    out: List[str] = []
    rows = []
    for path in found:
        doc = plain_json(Source(path, f"{src.shown}/{path.parent.name}/engine.json"), "bench-engine (engine.json)",
                         keys={"label": str, "gpu": str, "runs": dict})
        for rid, r in doc["runs"].items():
            ctx = r.get("context") or {}
            ratio = r["host_s"] / r["gpu_s"] if r["gpu_s"] else None
            rows.append([doc["label"], rid, f"{ctx.get('git_sha') or '?'}", exact(r["cases"]), exact(r["litmus_rows"]),
                         f"{r['wall_s']:.1f}", "-" if r["compile_s"] is None else f"{r['compile_s']:.1f}",
                         "-" if r.get("compile_wait_s") is None else f"{r['compile_wait_s']:.1f}",
                         f"{r['gpu_s']:.2f}", f"{r['host_s']:.1f}", "-" if ratio is None else f"{ratio:.1f}x",
                         short(r["instances_per_s"])])
        gpu = doc["gpu"]
    out += [f"From `{src.shown}` ({gpu}): each run from a cold NVRTC cache (`-cold`) or right after one (`-warm`); "
            "compile is NVRTC's summed time (on several threads, ahead of the rows), waited the rows' summed wait "
            "for it, host the rows' time less their GPU time and that wait.", ""]
    out += table(["build", "run", "git", "cases", "litmus rows", "wall s", "compile s", "waited s", "GPU s", "host s", "host/GPU",
                  "instances / s"], rows)
    # The budget: how many permit rows showed their weak outcome in each litmus-rows run of the folder.
    runs = [(f"{p.parent.name}/{p.name}", p) for p in
            sorted(src.path.glob("*/litmus-warm.json"), key=before_first)]
    runs += [(p.name, p) for p in sorted(src.path.glob("litmus-*.json"))]
    budget_rows = []
    for shown, path in runs:
        doc = results(Source(path, f"{src.shown}/{shown}"))
        rows_ = [r for r in doc["results"] if r.get("pattern") == "litmus"]
        permit = [r for r in rows_ if r["axes"].get("expect") == "permit"]
        b = doc["context"]["budget"]
        budget_rows.append([code(shown), short(b["instances"]), str(b.get("row_launches", b["iterations"])),
                            f"{sum(1 for r in permit if r['weak'] > 0)} of {len(permit)}",
                            f"{sum(r['gpu_seconds'] for r in rows_):.2f}", f"{sum(r['seconds'] for r in rows_):.1f}"])
    out += ["", "Each litmus-rows run's budget, and how many `permit` rows showed their weak outcome:", ""]
    out += table(["results", "instances a row", "launches a row", "permit rows showing it", "GPU s", "rows' s"], budget_rows)
    return out


def toolchain_matrix(src: Source) -> List[str]:
    """The ptxas matrix of vmmcheck toolchain (ci/toolchain-matrix.sh): version x -O level."""
    from . import toolchain
    return toolchain.table_lines(plain_json(src, toolchain.KIND, toolchain.SCHEMAS, toolchain.KEYS), src.shown)


def knobs(src: Source) -> List[str]:
    """How each way of building a generated kernel bore on its power (ci/gpu-knobs.sh, ci/knobs_table.py;
    schema vmmcheck-knobs/1): the kernel knobs over every shipped row, the stress knobs over cuda-litmus's
    tests as litmus files, and the spin bound."""
    doc = plain_json(src, "vmmcheck-knobs/1", ("vmmcheck-knobs/1",),
                     {"gpu": str, "kernel": dict, "stress": dict, "spin": dict})
    out = [f"From `{src.shown}` ({doc['gpu']}).", ""]
    kernel = doc["kernel"]
    out += [f"The kernel knobs over every row of `cases/litmus` and `ci/cuda-litmus` (git {kernel['git_sha']}; "
            f"`{kernel['command']}`): assert rows with a control that showed the forbidden outcome, permit rows "
            "that showed their weak outcome, the rows' GPU seconds, and the weak outcomes (of the instances judged) "
            "of cuda-litmus's message passing and of the mirror of the hand-written racy message-passing case:", ""]
    rows = []
    for name, v in kernel["variants"].items():
        mp = v["rows"].get("litmus.mp.tb_0_1_scope_block") or v["rows"].get("litmus.mp.0.block") or {}
        mirror = v["rows"].get("litmus.alias_mp.0.same_flagsame_nofence_cta", {})
        rows.append([code(name), ", ".join(f"{k} {json.dumps(x)}" for k, x in v["params"].items()),
                     f"{v['discriminating']} of {v['asserts']}", f"{v['showing']} of {v['permits']}", f"{v['gpu_seconds']:.1f}",
                     pct(mp.get("weak", 0), mp.get("judged", 0)), pct(mirror.get("weak", 0), mirror.get("judged", 0))])
    out += table(["variant", "knobs", "assert rows discriminating", "permit rows showing it", "rows' GPU s",
                  "cuda-litmus mp", "`alias_mp.0` (racy mp mirror)"], rows)
    stress = doc["stress"]
    names = list(stress["variants"])
    tests = sorted(next(iter(stress["variants"].values()))["rows"])
    out += ["", f"The stress knobs over cuda-litmus's tests as litmus files (git {stress['git_sha']}; `{stress['command']}`): "
            "each row's weak outcomes per instance judged:", ""]
    trows = []
    for t in tests:
        cells = []
        for n in names:
            r = stress["variants"][n]["rows"].get(t, {})
            cells.append(pct(r.get("weak", 0), r.get("judged", 0)))
        trows.append([code(t)] + cells)
    out += table(["row"] + [code(n) for n in names], trows)
    spin = doc["spin"]
    out += ["", f"The spin bound (`{spin['command']}`): the same rows and cases at each bound:", ""]
    srows = []
    for us, kinds in spin["bounds_us"].items():
        for kind, v in kinds.items():
            srows.append([f"{int(us) / 1000:g} ms", kind, str(v["cases"]), ", ".join(f"{k} {n}" for k, n in sorted(v["statuses"].items())),
                          pct(v["timeouts"], v["instances"]), exact(v["weak"]), f"{v['gpu_seconds']:.2f}"])
    out += table(["bound", "of", "cases", "statuses", "instances at the bound", "weak outcomes", "GPU s"], srows)
    words = doc.get("words")
    if words:
        names = list(words["variants"])
        out += ["", f"Where the words lie, `row_word_order` (git {words['git_sha']}; `{words['command']}`): assert rows "
                "discriminating, permit rows showing their weak outcome, the rows' GPU seconds, then each row's weak "
                "outcomes per instance judged -- cuda-litmus's tests and the racy mirrors of hand-written cases:", ""]
        out += table(["variant", "assert rows discriminating", "permit rows showing it", "rows' GPU s"],
                     [[code(n), f"{v['discriminating']} of {v['asserts']}", f"{v['showing']} of {v['permits']}",
                       f"{v['gpu_seconds']:.1f}"] for n, v in words["variants"].items()])
        wrows = []
        for t in sorted(next(iter(words["variants"].values()))["rows"]):
            cells = []
            for n in names:
                r = words["variants"][n]["rows"].get(t, {})
                cells.append(pct(r.get("weak", 0), r.get("judged", 0)))
            wrows.append([code(t)] + cells)
        out += [""] + table(["row"] + [code(n) for n in names], wrows)
    return out


def start_label(path: str) -> str:
    """A start of vmmcheck's search as a reader knows it: the earlier table's picks (bench-cuda-litmus.sh lays
    them out under its output folder's params-from/params/) by what they were scored by, another as given."""
    for suffix, what in ((".vmmcheck-speed-params.json", "per GPU second"), (".vmmcheck-params.json", "per instance")):
        if path.startswith("params-from/params/") and path.endswith(suffix):
            return f"the earlier table's pick {what}"
    return code(path)


def cuda_litmus(src: Source) -> List[str]:
    """cuda-litmus's tests beside the same tests as litmus files (ci/bench-cuda-litmus.sh; schema
    vmmcheck-bench-cuda-litmus/1): weak outcomes per instance and per wall second, default and tuned."""
    doc = plain_json(src, "vmmcheck-bench-cuda-litmus/1", ("vmmcheck-bench-cuda-litmus/1",),
                     {"tests": list, "gpu": str, "cuda_litmus_commit": str})

    def cell(run: Mapping) -> str:
        if not run.get("ok"):
            return "did not run"
        n = run.get("judged", run["instances"])
        return f"{exact(run['weak'])} of {short(n)} ({pct(run['weak'], n)}), {short(round(run['weak_per_wall_second']))}/s"

    def ratio(v) -> str:
        return "-" if v is None else (f"{v:.3g}x")

    retuned = (f"; cuda-litmus's search taken from an earlier call (`{doc['params_from']}`), vmmcheck tuned again"
               + (" per instance, its long runs under that call's search per GPU second" if doc.get("vmmcheck_speed_kept") else "")
               if doc.get("vmmcheck_retuned") else "")
    confirm = doc.get("vmmcheck_confirm")
    confirmed = (f", its {confirm} best draws measured again and the best of those kept (`--confirm {confirm}`)"
                 if isinstance(confirm, int) else ", some searches confirming their best draws" if confirm else "")
    started = (", its searches drawing earlier picks first (`tune --start`, counted among the draws)"
               if doc.get("vmmcheck_started") else "")
    out = [f"From `{src.shown}` ({doc['gpu']}; cuda-litmus {doc['cuda_litmus_commit'][:7]}; vmmcheck {doc['vmmcheck']}; "
           f"tuned: the best of {doc['draws']} draws each, cuda-litmus's drawn as its tune.sh draws and run at 1000 "
           f"iterations, vmmcheck's by `tune --litmus --per instance`{started}{confirmed}{retuned}). Each cell: weak outcomes of the "
           "instances (judged), and per second of the process's wall time; the ratios are vmmcheck's over "
           "cuda-litmus's, tuned:", ""]
    rows = []
    ahead = 0
    for e in doc["tests"]:
        ahead += (e["per_instance_ratio_tuned"] or 0) >= 1
        rows.append([code(e["test"]), cell(e["cuda_litmus_default"]), cell(e["vmmcheck_default"]), cell(e["cuda_litmus_tuned"]),
                     cell(e["vmmcheck_tuned"]), ratio(e["per_instance_ratio_tuned"]), ratio(e["per_wall_second_ratio_tuned"])])
    out += table(["test", "cuda-litmus, default", "vmmcheck, default", "cuda-litmus, tuned", "vmmcheck, tuned",
                  "per instance", "per wall second"], rows)
    out += ["", f"vmmcheck is at least as strong per instance on {ahead} of {len(doc['tests'])} tests, tuned."]
    if doc.get("vmmcheck_started"):
        # Which tuned picks were an earlier pick, drawn again and kept, and which a draw of this call's.
        started = [e["vmmcheck_tuned_starts"] | {"test": e["test"]} for e in doc["tests"] if e.get("vmmcheck_tuned_starts")]
        kept = [f"{code(s['test'])} ({start_label(s['kept_start'])})" for s in started if s.get("kept_start")]
        fixed = sum(1 for s in started if not s.get("kept_start") and (s.get("kept_trial") or 0) <= 2)  # no stress, contiguous words
        new_draws = len(started) - len(kept) - fixed
        out[-1] += (f" Of vmmcheck's searches per instance that drew earlier picks first, {len(kept)} kept one -- "
                    + (", ".join(kept) if kept else "none") + f" -- and {new_draws} a draw of this call's (random, or "
                    "refining the best so far, which can be a start)"
                    + (f", {fixed} one of the two fixed draws" if fixed else "") + ".")
    long = doc.get("long")
    if long:
        tuned = ("both tuned for speed: cuda-litmus with its tuned params above (its tune.sh scores weak behaviours "
                 f"per second), vmmcheck with the best of {doc['draws']} trials of `tune --litmus --per gpu-second`"
                 if long.get("vmmcheck_tuned_per") == "gpu-second" else "both tuned as above")
        out += ["", f"Long runs, {tuned}: cuda-litmus at {exact(long['cuda_litmus_iterations'])} iterations, "
                f"vmmcheck at {short(long['vmmcheck_instances'])} instances (`--long`), so that neither tool's start is most "
                "of its wall time:", ""]
        lrows, fast = [], 0
        for e in doc["tests"]:
            fast += (e.get("per_wall_second_ratio_long") or 0) >= 10
            lrows.append([code(e["test"]), cell(e["cuda_litmus_long"]), cell(e["vmmcheck_long"]),
                          ratio(e.get("per_instance_ratio_long")), ratio(e.get("per_wall_second_ratio_long"))])
        out += table(["test", "cuda-litmus, long", "vmmcheck, long", "per instance", "per wall second"], lrows)
        out += ["", f"vmmcheck shows at least ten times as many weak outcomes per wall second on {fast} of "
                f"{len(doc['tests'])} tests in the long runs."]
    if doc.get("problems"):
        out += ["", "Problems: " + "; ".join(doc["problems"])]
    return out


def cuda_litmus_headline(src: Source) -> List[str]:
    """README's one line of the cuda-litmus side-by-side (the table is docs/litmus.md's, `cuda_litmus`): on how
    many of its tests vmmcheck is ahead per instance, tuned, and ten times ahead per wall second, long."""
    doc = plain_json(src, "vmmcheck-bench-cuda-litmus/1", ("vmmcheck-bench-cuda-litmus/1",), {"tests": list, "gpu": str})
    n = len(doc["tests"])
    ahead = sum((e.get("per_instance_ratio_tuned") or 0) >= 1 for e in doc["tests"])
    line = (f"From `{src.shown}` ({doc['gpu']}): vmmcheck is at least as strong per instance as cuda-litmus, both "
            f"tuned, on {ahead} of its {n} tests")
    if doc.get("long"):
        fast = sum((e.get("per_wall_second_ratio_long") or 0) >= 10 for e in doc["tests"])
        line += f", and shows at least ten times its weak outcomes per wall second in long runs on {fast} of {n}"
    return [line + " (docs/litmus.md, \"Beside cuda-litmus\")."]


def tune_confirm_ab(src: Source) -> List[str]:
    """The A/B of `tune --confirm` (ci/gpu-tune-confirm.sh, ci/tune_confirm_ab.py; schema
    vmmcheck-tune-confirm-ab/1): each test's two picks, each scored in the search, measured again and in a
    fresh run, and how often the confirmed pick ran stronger where the two differ."""
    doc = plain_json(src, "vmmcheck-tune-confirm-ab/1", ("vmmcheck-tune-confirm-ab/1",),
                     {"tests": list, "summary": dict, "gpu": str, "vmmcheck": str})

    def score(v) -> str:
        return "-" if v is None else f"{v:.2f}"

    def pick(p: Mapping) -> str:
        return f"{p['trial']}: {score(p['search_score'])}, {score(p['again_score'])}, {score(p['fresh']['score'])}"

    rows = [[code(e["test"]), pick(e["search_pick"]), pick(e["confirmed_pick"]),
             "same" if e["search_pick"]["trial"] == e["confirmed_pick"]["trial"] else
             score(round(e["confirmed_pick"]["fresh"]["score"] - e["search_pick"]["fresh"]["score"], 2) + 0.0)]  # no "-0.00"
            for e in doc["tests"]]
    s = doc["summary"]
    first = doc["tests"][0] if doc["tests"] else {}
    out = [f"From `{src.shown}` ({doc['gpu']}; vmmcheck {doc['vmmcheck']}; {first.get('trials', '?')} trials a "
           f"search, its {first.get('confirmed', '?')} best measured again). Each pick: its trial, then its score "
           "(log10(1 + weak outcomes per million instances)) in the search, measured again, and in a fresh run; "
           "the last column the confirmed pick's fresh score less the search's pick's:", ""]
    out += table(["test", "the search's pick", "the confirmed pick", "fresh, confirmed less search"], rows)
    out += ["", f"The picks differ on {s['picks_differ']} of {s['tests']} tests; fresh, the confirmed pick ran stronger "
            f"on {s['confirmed_stronger']} of those and weaker on {s['search_stronger']}. From its score in the search "
            f"to the fresh run the search's pick fell {score(s['search_pick_drop_mean'])} on average; the confirmed pick, "
            f"from its second measurement, {score(s['confirmed_pick_drop_mean'])}."]
    if doc.get("problems"):
        out += ["", "Problems: " + "; ".join(doc["problems"])]
    return out


def permit_kinds(src: Source) -> List[str]:
    """The permit rows of a run by kind, and which showed their weak outcome (ci/permit_kinds.py; schema
    vmmcheck-permit-kinds/1): what the share showing can reach where rows of some kinds show nothing."""
    doc = plain_json(src, "vmmcheck-permit-kinds/1", ("vmmcheck-permit-kinds/1",),
                     {"permit_rows": int, "showing": int, "showing_if_every_multi_cta_row_without_alias_did": int,
                      "kinds": dict})
    n, showing, reach = doc["permit_rows"], doc["showing"], doc["showing_if_every_multi_cta_row_without_alias_did"]
    out = [f"From `{src.shown}` (the run of git {doc['results_git_sha']}; {doc['device']}, driver {doc['driver']}): "
           f"{showing} of {n} permit rows ({pct(showing, n)}) showed their weak outcome; by kind:", ""]
    rows = []
    for kind, k in doc["kinds"].items():
        missing = k["not_showing"]
        shown = ", ".join(code(m) for m in missing[:3]) + (f" (+{len(missing) - 3})" if len(missing) > 3 else "")
        rows.append([kind, str(k["rows"]), str(k["showing"]), shown or "-"])
    out += table(["kind", "permit rows", "showing", "showing nothing"], rows)
    out += ["", f"Were every row of two or more CTAs that reads no second path to show its weak outcome, {reach} of "
            f"{n} would ({pct(reach, n)})."]
    return out


def rows_tune(src: Source) -> List[str]:
    """`tune --litmus cases/litmus --each` (a vmmcheck-stress-params/1 file with "rows", as committed:
    each file's best and baseline, and the default suite run with and without the rows' knobs)."""
    doc = plain_json(src, "vmmcheck-stress-params/1", ("vmmcheck-stress-params/1",),
                     {"rows": list, "searches": dict, "search": dict})
    out = [f"From `{src.shown}` ({doc['device']}, {doc['driver_release']}; vmmcheck {doc['tool_version']} (git "
           f"{doc['git_sha']}); scored per {doc['search'].get('per', 'gpu-second')}): each file's best draw, and the "
           "targets (controls and permit rows) that showed their outcome under it and under the default:", ""]
    rows = []
    for entry in doc["rows"]:
        family = entry["rows"].removesuffix(".*")
        s = doc["searches"].get(family, {})
        best, base = s.get("best", {}), s.get("baseline", {})
        rows.append([code(family), str(s.get("trials", "-")), f"{base.get('racing', '-')}", f"{best.get('racing', '-')}",
                     "yes" if best.get("admissible") else "no"])
    out += table(["file", "draws", "targets showing, default", "targets showing, best", "best admissible"], rows)
    a, b = doc.get("suite_default"), doc.get("suite_under_rows")
    if a and b:
        out += ["", "The default suite (git " + str(a["git_sha"]) + ") without and with these knobs:", ""]
        out += table(["run", "assert rows discriminating", "permit rows showing", "litmus rows' seconds", "wall s"],
                     [[name, f"{r['assert_rows_discriminating']} of {r['assert_rows']}",
                       f"{r['permit_rows_showing']} of {r['permit_rows']}", f"{r['litmus_row_seconds']:.1f}", str(r["wall_seconds"])]
                      for name, r in (("default knobs", a), ("each file's best", b))])
    return out


def dat3m(src: Source) -> List[str]:
    """Dat3M's PTX litmus corpus asked of the model (ci/dat3m_check.py; schema vmmcheck-dat3m-check/1): how
    many files the language takes, how many answers agree with Dat3M's expected ones, what the rest need,
    and which decided files a GPU could run."""
    doc = plain_json(src, "vmmcheck-dat3m-check/1", ("vmmcheck-dat3m-check/1",), {"summary": dict, "tests": list})
    s = doc["summary"]
    out = [f"From `{src.shown}` (Dat3M {doc.get('dat3m_commit', '?')[:9]}, its PTX v7.5 expected results; vmmcheck "
           f"{doc.get('vmmcheck', '?')}):", ""]
    out += table(["files listed", "decided by the model", "agree, ISA reading", "agree, artifact reading",
                  "decided files a GPU could run"],
                 [[str(s["listed"]), str(s["decided"]), f"{s['agree_isa']} of {s['decided']}",
                   f"{s['agree_artifact']} of {s['decided']}", f"{s['would_run_on_gpu']} of {s['decided']}"]])
    not_taken = dict(s["unsupported"])
    refused = [e for e in doc["tests"] if e["status"] == "refused"]
    rows = [[name, str(n)] for name, n in sorted(not_taken.items(), key=lambda kv: -kv[1])]
    rows += [[f"refused: {e['reason'].split(': ', 1)[-1]} (`{Path(e['file']).name}`)", "1"] for e in refused]
    if rows:
        out += ["", "Not decided: what the language lacks, or what it refuses, file by file:", ""]
        out += table(["construct", "files"], rows)
    else:
        out += ["", "Every file listed is decided: the language takes each, and the model refuses none."]
    out += ["", "Decided, but not run by a generated kernel in this version:", ""]
    out += table(["why", "files"], [[why, str(n)] for why, n in sorted(s["not_on_gpu"].items(), key=lambda kv: -kv[1])])
    wrong = [e for e in doc["tests"] if e["status"] == "decided" and not (e["agrees_isa"] and e["agrees_artifact"])]
    out += ["", f"Disagreements with Dat3M: {len(wrong)}" + ("." if not wrong else ": " + ", ".join(
        f"`{Path(e['file']).name}` (ISA {'agrees' if e['agrees_isa'] else 'differs'}, artifact "
        f"{'agrees' if e['agrees_artifact'] else 'differs'})" for e in wrong) + ".")]
    if "ran_on_gpu" in s:  # --gpu-results: what the runnable files did on a GPU
        gpu = doc.get("gpu", {})
        ran = [e for e in doc["tests"] if "gpu_run" in e]
        statuses = ", ".join(f"{st} {n}" for st, n in sorted(s["gpu_statuses"].items()))
        out += ["", f"On the GPU ({gpu.get('device', '?')}, driver {gpu.get('driver', '?')}, vmmcheck git "
                    f"{gpu.get('git_sha', '?')[:12]}; `vmmcheck run --litmus DIR` over the files `--copy-runnable` put in "
                    f"DIR): {s['ran_on_gpu']} ran -- {statuses}; {s['gpu_weak_shown']} showed the outcome their condition "
                    f"names, and {sum(1 for e in ran if e['gpu_run'].get('control_showed'))} assert rows' controls "
                    f"showed what the row forbids."]
        bad = [e for e in ran if e["gpu_run"]["status"] not in ("Pass",)]
        if bad:
            out += ["", "Not Pass: " + ", ".join(f"`{Path(e['file']).name}` ({e['gpu_run']['status']})" for e in bad) + "."]
    return out


def cuda_litmus_variants(src: Source) -> List[str]:
    """cuda-litmus's published variant matrix asked of the model (ci/cuda_litmus_variants.py; schema
    vmmcheck-cuda-litmus-variants/1): per test, the model's verdicts beside cuda-litmus's base and
    strengthened models and what its three GPUs showed; with --gpu-results, what a vmmcheck run showed. The
    figures are the file's summary (the script's counts(), held to its entries by its verify)."""
    doc = plain_json(src, "vmmcheck-cuda-litmus-variants/1", ("vmmcheck-cuda-litmus-variants/1",), {"summary": dict})
    s = doc["summary"]
    gpu = "gpu_judged" in s
    out = [f"From `{src.shown}` (cuda-litmus {(doc.get('cuda_litmus_commit') or '?')[:9]}, its PLDI'26 output "
           f"`pldi26-output/results.csv`; vmmcheck {doc.get('vmmcheck') or '?'}). Allowed: the model (ISA reading) "
           "allows the weak outcome; agree: the model's verdict, under both readings, is the base model's; only base: "
           "allowed by the model and the base model, forbidden by the strengthened one; seen: the weak outcome on "
           "cuda-litmus's H100 (on any of its A100, H100, GH200); one CTA: allowed variants with every thread in one "
           "CTA" + ("; H200: the variants whose weak outcome the vmmcheck run below showed, of those it judged" if gpu else "")
           + ":", ""]
    header = ["test", "variants", "allowed", "agree with the base model", "only base (seen)", "seen on H100 (any)",
              "one CTA, seen"] + (["H200 showed", "H200 showed where H100 did"] if gpu else [])

    def row(name: str, c: Mapping) -> List[str]:
        r = [name, str(c["variants"]), str(c["allowed"]), f"{c['agree_base']} of {c['variants']}",
             f"{c['only_base']} ({c['only_base_seen']})", f"{c['seen_h100']} ({c['seen_any']})",
             f"{c['allowed_one_cta_seen']} of {c['allowed_one_cta']}"]
        if gpu:
            r += [f"{c['gpu_shown']} of {c['gpu_judged']}", f"{c['gpu_shown_where_h100_did']} of {c['gpu_seen_h100']}"]
        return r

    out += table(header, [row(code(t), c) for t, c in s["by_test"].items()] + [row("**all**", s)])
    out += ["", f"The model agrees with cuda-litmus's base model on {s['agree_base']} of {s['variants']} variants, "
                "under both readings. No GPU of cuda-litmus's showed a weak outcome the model forbids" +
            (": " + ", ".join(map(code, s["seen_but_forbidden"])) + " did." if s["seen_but_forbidden"] else ".") +
            f" Of the {s['only_base']} variants only the strengthened model forbids, {s['only_base_seen']} were seen; of "
            f"the {s['allowed_one_cta']} allowed with every thread in one CTA, {s['allowed_one_cta_seen']}. "
            f"{s['never_ran']} variants cuda-litmus's kernel never ran (it skipped every instance): their "
            "\"not seen\" is no observation."]
    if gpu:
        g = doc.get("gpu", {})
        statuses = ", ".join(f"{st} {n}" for st, n in sorted(s["gpu_statuses"].items()))
        out += ["", f"On the GPU ({g.get('device') or '?'}, driver {g.get('driver') or '?'}, vmmcheck git "
                    f"{(g.get('git_sha') or '?')[:12]}; `vmmcheck run --litmus DIR --instances "
                    f"{g.get('instances') or '?'}` over the generated files): "
                    f"{statuses}; of the {s['gpu_judged']} rows that judged their instances, {s['gpu_shown']} showed their "
                    f"weak outcome -- {s['gpu_shown_where_h100_did']} of the {s['gpu_seen_h100']} the H100 showed, "
                    f"{s['gpu_shown_where_none_did']} that none of cuda-litmus's GPUs showed, {s['gpu_shown_only_base']} "
                    "that only the strengthened model forbids. Outcomes the model forbids: " +
                    (", ".join(map(code, s["gpu_failed"])) if s["gpu_failed"] else "none") + "."]
    return out


KINDS: Dict[str, Callable[..., List[str]]] = {
    "cuda-litmus-variants": cuda_litmus_variants,
    "dat3m": dat3m,
    "cases": cases,
    "cases-ran": cases_ran,
    "run-summary": run_summary,
    "families": families,
    "api-statuses": api_statuses,
    "power": power_details,
    "selftest": selftest,
    "experiments": experiments,
    "bench-litmus": bench_litmus,
    "mpi-ranks": mpi_ranks,
    "litmus": litmus,
    "litmus-vs-hand": litmus_vs_hand,
    "litmus-power": litmus_power,
    "bench": bench_headline,
    "bench-compare": bench_compare,
    "shards": shards,
    "engine": engine,
    "toolchain": toolchain_matrix,
    "knobs": knobs,
    "cuda-litmus": cuda_litmus,
    "cuda-litmus-headline": cuda_litmus_headline,
    "rows-tune": rows_tune,
    "permit-kinds": permit_kinds,
    "tune-confirm-ab": tune_confirm_ab,
}


# --- documents ---------------------------------------------------------------------------------------

@dataclass
class Section:
    doc: Path
    line: int        # of the opening marker, 1-based
    spec: str        # "KIND PATH"
    old: List[str]   # the lines between the markers


def sections(text: str, doc: Path) -> List[Section]:
    out, open_at = [], None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = BEGIN.match(line)
        if m:
            if open_at is not None:
                raise FiguresError(f"{doc}:{i + 1}: a figures section opens inside the one at line {open_at[0] + 1}")
            open_at = (i, m.group("spec").strip())
        elif line.strip() == END:
            if open_at is None:
                raise FiguresError(f"{doc}:{i + 1}: {END} with no section open")
            out.append(Section(doc, open_at[0] + 1, open_at[1], lines[open_at[0] + 1:i]))
            open_at = None
    if open_at is not None:
        raise FiguresError(f"{doc}:{open_at[0] + 1}: the figures section is never closed ({END})")
    return out


def generate(spec: str, root: Path, where: str) -> List[str]:
    try:
        words = shlex.split(spec)
    except ValueError as e:   # an unbalanced quote
        raise FiguresError(f"{where}: cannot read the marker {spec!r}: {e}") from None
    arity = 3 if words and words[0] in ("cases", "cases-ran", "bench-compare") else 2
    if len(words) != arity or words[0] not in KINDS:
        raise FiguresError(f"{where}: expected '<!-- figures: KIND PATH -->' (cases: KIND PATH GLOB) with KIND one of "
                           f"{', '.join(KINDS)}; got {spec!r}")
    kind, path, *rest = words
    full = (root / path).resolve()
    if not full.exists():
        raise FiguresError(f"{where}: {path}: no such file")
    try:
        return KINDS[kind](Source(full, path), *rest)
    except FiguresError as e:
        raise FiguresError(f"{where}: {e}") from None


def rewrite(text: str, doc: Path, root: Path) -> Tuple[str, List[Tuple[Section, List[str]]]]:
    """The document with every section regenerated, and the sections whose text changed (old, new)."""
    lines = text.splitlines()
    changed = []
    out, i = [], 0
    for s in sections(text, doc):
        new = [""] + generate(s.spec, root, f"{doc}:{s.line}") + [""]
        out += lines[i:s.line] + new
        i = s.line + len(s.old)
        if s.old != new:
            changed.append((s, new))
    out += lines[i:]
    return "\n".join(out) + ("\n" if text.endswith("\n") else ""), changed


def default_documents(root: Path) -> List[Path]:
    return [root / "README.md"] + sorted((root / "docs").glob("*.md"))


def case_counts(readme: str, doc: Mapping) -> List[str]:
    """Rows of README's "What is tested" table ("| `family` | ... | N |") whose N differs from the number of
    that family's cases in `doc` (a retired family's: the litmus rows named for them): problems, one line each."""
    counts: Dict[str, int] = {}
    for r in doc["results"]:
        counts[r["family"]] = counts.get(r["family"], 0) + 1
    problems = []
    section = ""
    for n, line in enumerate(readme.splitlines(), start=1):
        if line.startswith("## "):
            section = line[3:].strip()
        if section != "What is tested":  # other tables (the bench's) end in numbers too
            continue
        m = re.match(r"^\| `([a-z0-9_.*]+)` \|.*\| (\d+) \|$", line)
        if not m:
            continue
        fam, said = m.group(1), int(m.group(2))
        # A family's cases in the tables, and a retired family's as the litmus rows that bear their names
        # (`case NAME`, rows of a litmus family): `alias.memory.*` counts both kinds.
        wild = fam.endswith("*")
        prefix = fam[:-1] if wild else fam + "."
        ours = (lambda f: f.startswith(prefix)) if wild else (lambda f: f == fam)
        have = sum(v for k, v in counts.items() if ours(k)) + \
            sum(1 for r in doc["results"] if r.get("pattern") == "litmus" and r["name"].startswith(prefix)
                and not ours(r["family"]))
        have = have or None
        if have is None:
            problems.append(f"README.md:{n}: family `{fam}` is in no case of the results")
        elif have != said:
            problems.append(f"README.md:{n}: `{fam}` has {have} cases in the results, the table says {said}")
    return problems
