#!/usr/bin/env python3
"""Checks the built objects for what the include check (check_includes.py) cannot see: who defines what a
file calls. A call goes upward at link time when the function is defined in a higher layer than the
caller's (a pattern's runner, run from the session; a request's handler, run by the peer server). That is
allowed only the way patterns are registered: the caller includes -- through a registry -- a header that
declares the function, in the folder of the file that defines it. A lower layer declaring what a higher
one defines (the kit naming every pattern's handlers), or a call reaching a definition with no
declaration included at all, is a problem.

  check_links.py --build BUILD [--root ROOT]

Reads every object under BUILD with nm (binutils), the sources under ROOT. A declaration is recognised by
the function's name and the project types of its parameters. Templates and inline functions have no one
definition to link to and are left to the include check. Exits 77 (skipped) when there is no nm, no
object of the layered sources, or no upward call at all (a CPU-only build).
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import check_includes  # noqa: E402  (the layers and the include graph)

STRONG = set("TDBRC")  # defined here, not weak or inline: the one definition a call links to


def source_of(build: pathlib.Path, root: pathlib.Path, obj: pathlib.Path):
    """The source an object was built from: BUILD/X/CMakeFiles/T.dir/REL.o is ROOT/X/REL ('__' is '..')."""
    parts = obj.relative_to(build).parts
    if "CMakeFiles" not in parts:
        return None
    i = parts.index("CMakeFiles")
    if i + 2 >= len(parts) or not parts[i + 1].endswith(".dir"):
        return None
    rel = [".." if p == "__" else p for p in parts[:i] + parts[i + 2:]]
    rel[-1] = rel[-1][: -len(".o")]
    path = pathlib.Path(os.path.normpath(root / pathlib.Path(*rel)))
    if not path.is_file():
        return None  # a stale object of a source since removed, or a generated one
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


def symbols(obj: pathlib.Path):
    """(strongly defined, undefined) mangled names of one object."""
    def nm(*flags):
        out = subprocess.run(["nm", "-P", *flags, str(obj)], capture_output=True, text=True, check=True).stdout
        return [line.split() for line in out.splitlines() if line.strip()]
    defined = {f[0] for f in nm("--defined-only") if len(f) >= 2 and f[1] in STRONG}
    undefined = {f[0] for f in nm("-u") if f}
    return defined, undefined


def demangle(names):
    if not names:
        return {}
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout
    return dict(zip(names, out.splitlines()))


def split_signature(demangled: str):
    """('handle', ['PeerState', 'Import', 'UniqueFd']): a function's name and the project types of its
    parameters (the words a declaration of it must name)."""
    depth, cut = 0, None
    for i, ch in enumerate(demangled):
        if ch in "<(":
            if ch == "(" and depth == 0:
                cut = i
                break
            depth += 1
        elif ch == ">":
            depth -= 1
    head = demangled if cut is None else demangled[:cut]
    name = re.sub(r"\[abi:\w+\]", "", re.sub(r"<.*>", "", head)).split("::")[-1]
    params = [] if cut is None else re.findall(r"vmmcheck::(?:\w+::)*(\w+)", demangled[cut:])
    return name, sorted(set(params))


def declares(text: str, name: str, params) -> bool:
    """Whether a header's text declares function `name` with parameters naming each of `params` (comments
    left out)."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    for m in re.finditer(r"\b%s\s*\(" % re.escape(name), text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        inside = text[m.end():i]
        if all(re.search(r"\b%s\b" % re.escape(p), inside) for p in params):
            return True
    return False


def closure(start: str, edges):
    seen, todo = set(), [start]
    while todo:
        for t in edges.get(todo.pop(), ()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def problems_of(objects, texts, edges, demangler=demangle):
    """objects: {source: (defined, undefined)}; texts: {header: text}; edges: the include graph;
    demangler: mangled names -> {mangled: demangled}. Returns (upward calls allowed, problems), each a
    list of strings."""
    definer = {}
    for src, (defined, _) in objects.items():
        for s in defined:
            definer.setdefault(s, src)
    upward = []  # (caller, definer, symbol)
    for src, (_, undefined) in objects.items():
        mine = check_includes.layer_of(src)
        for s in undefined:
            d = definer.get(s)
            if d is None or d == src:
                continue
            theirs = check_includes.layer_of(d)
            if mine is not None and theirs is not None and theirs > mine:
                upward.append((src, d, s))
    names = demangler(sorted({s for _, _, s in upward}))
    allowed, problems = [], []
    for src, d, s in sorted(upward):
        name, params = split_signature(names.get(s, s))
        mine = check_includes.layer_of(src)
        headers = [h for h in sorted(closure(src, edges))
                   if check_includes.layer_of(h) is not None and check_includes.layer_of(h) <= mine
                   and declares(texts.get(h, ""), name, params)]
        folder = pathlib.PurePosixPath(d).parent
        owned = [h for h in headers if pathlib.PurePosixPath(h).parent == folder]
        outside = [h for h in headers if h not in owned]
        reached = set(closure(src, edges)) | {src}
        registered = [h for h in owned if any(r in reached and h in closure(r, edges) for r in check_includes.REGISTRIES)]
        what = f"{src} calls {names.get(s, s)}, defined in {d} ({check_includes.LAYERS[check_includes.layer_of(d)][0]})"
        if outside:
            problems.append(f"{what}: declared in {', '.join(outside)}, outside the definer's folder -- "
                            f"a lower layer naming what a higher one defines")
        elif not owned:
            problems.append(f"{what}: with no declaration of it included")
        elif not registered:
            problems.append(f"{what}: its declaration ({owned[0]}) is not reached through a registry "
                            f"({', '.join(check_includes.REGISTRIES)})")
        else:
            allowed.append(f"{what}: declared beside it in {registered[0]}, through a registry")
    return allowed, problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=pathlib.Path(__file__).resolve().parents[2], type=pathlib.Path)
    ap.add_argument("--build", required=True, type=pathlib.Path)
    ap.add_argument("--verbose", action="store_true", help="list the upward calls allowed as well")
    args = ap.parse_args()
    root, build = args.root.resolve(), args.build.resolve()
    if not shutil.which("nm") or not shutil.which("c++filt"):
        print("skipped: no nm / c++filt (binutils)")
        return 77
    objects = {}
    for obj in sorted(build.rglob("*.o")):
        src = source_of(build, root, obj)
        if src is not None and check_includes.layer_of(src) is not None:
            objects[src] = symbols(obj)
    if not objects:
        print(f"skipped: no objects of the layered sources under {build}")
        return 77
    _, edges, _ = check_includes.include_edges(root)
    texts = {h: (root / h).read_text(encoding="utf-8") for h in {t for ts in edges.values() for t in ts}}
    allowed, problems = problems_of(objects, texts, edges)
    if not allowed and not problems:
        # A CPU-only build has neither the session nor the peer server: nothing here calls upward.
        print(f"skipped: no call to a higher layer in the {len(objects)} objects under {build} (a CPU-only build?)")
        return 77
    for line in (allowed if args.verbose else []) + problems:
        print(line)
    print(f"{len(objects)} objects, {len(allowed)} upward calls through a registry, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
