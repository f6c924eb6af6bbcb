#!/usr/bin/env python3
"""Checks the include structure of the sources (docs/design.md, "Layers"): every project #include goes to
a file of the same layer or a lower one -- nothing includes upward --, no two files include each other,
and a pattern's folder is its own: only the pattern's files and the registries (REGISTRIES) include from
patterns/<name>/. Between the top folders no arrow runs up: vocabulary/ includes nothing outside itself,
patterns/ holds plug-ins only (a folder per pattern, and the registries), and a file outside patterns/
reaches a pattern only through a registry, the one socket the plug-ins fit. What the includes cannot show -- who defines what another file calls -- check_links.py
checks on the built objects.

The layers, lowest first (a file is in the first layer whose pattern matches its path):
"""
import argparse
import fnmatch
import pathlib
import re
import sys

LAYERS = [
    ("the vocabulary every layer speaks", ["vocabulary/*"]),
    ("pattern definitions", ["patterns/*/definition.hpp"]),
    ("the registry", ["patterns/registry.hpp"]),
    ("common", ["harness/common/*"]),
    ("kernels", ["kernels/*", "kernels/device/*", "patterns/*/kernels.hpp", "patterns/*/kernels.cu"]),
    ("platform: VMM owners, devices, processes, MPI", ["harness/vmm/*", "harness/device/*", "harness/ipc/*",
                                                     "harness/mpi/*"]),
    ("the model", ["harness/model/*"]),
    ("the litmus language: files, parser, rows' names and verdicts", ["harness/litmus/*"]),
    ("the kernel generator and NVRTC", ["harness/codegen/*"]),
    ("the machine-code check of generated kernels (vmmcheck toolchain)", ["harness/toolchain/*"]),
    ("records", ["harness/run/records/*"]),
    ("`vmmcheck model` (no GPU code) and the options it reads", ["harness/cli/model_cmd.*", "harness/cli/options.hpp",
                                                              "harness/cli/app.hpp", "harness/bench/settings.hpp",
                                                              "harness/bench/sampler.hpp"]),
    ("the runners' kit", ["harness/run/kit/*"]),
    ("second-process requests, each beside what asks it", ["patterns/*/peer_requests.hpp", "harness/bench/peer_requests.hpp"]),
    ("the registry of second-process requests", ["patterns/peer_registry.hpp"]),
    ("litmus rows on the GPU", ["harness/run/rows/*"]),
    ("execution", ["harness/run/execution/*"]),
    ("the patterns' host code", ["patterns/*/*.cpp", "patterns/*/*.hpp"]),
    ("benchmarks", ["harness/bench/*"]),
    ("the program", ["harness/cli/*"]),
]
__doc__ += "\n".join(f"  {i}. {name}: {', '.join(globs)}" for i, (name, globs) in enumerate(LAYERS)) + "\n"

SOURCES = ("vocabulary", "harness", "patterns", "kernels")
REGISTRIES = ("patterns/registry.hpp", "patterns/peer_registry.hpp")  # may include from every pattern's folder
INCLUDE_ROOTS = ("", "harness")  # #include "run/..." is harness/run/...; "patterns/..." the repository's


def layer_of(path: str):
    for i, (_, globs) in enumerate(LAYERS):
        if any(fnmatch.fnmatchcase(path, g) for g in globs):
            return i
    return None


def resolve(root: pathlib.Path, src: pathlib.Path, name: str):
    for base in [src.parent] + [root / r for r in INCLUDE_ROOTS]:
        target = (base / name).resolve()
        if target.is_file() and root in target.parents:
            return target.relative_to(root).as_posix()
    return None


def folder_problems(path: str, target: str, n: int):
    """The arrows between top folders: vocabulary/ is below everything, patterns/ is reached through a registry."""
    if path.startswith("vocabulary/") and not target.startswith("vocabulary/"):
        return [f"{path}:{n}: the vocabulary includes {target}: it is below every other folder and includes only itself"]
    if target.startswith("patterns/") and not path.startswith("patterns/") and target not in REGISTRIES:
        return [f"{path}:{n}: includes {target}: outside patterns/, a pattern is reached only through a registry ({', '.join(REGISTRIES)})"]
    return []


def plug_ins_only(root: pathlib.Path):
    """patterns/ holds the patterns' folders and the registries, nothing else a source could include."""
    return [f"{p.relative_to(root).as_posix()}: patterns/ holds plug-ins only (a folder per pattern and the registries); "
            "a type every layer speaks belongs in vocabulary/"
            for p in sorted((root / "patterns").glob("*.*"))
            if p.suffix in (".h", ".hpp", ".cpp", ".cu", ".cuh") and p.relative_to(root).as_posix() not in REGISTRIES]


def include_edges(root: pathlib.Path):
    """(files, {file: set of project files it includes}, problems), paths relative to root."""
    files = sorted(p for d in SOURCES for p in (root / d).rglob("*") if p.suffix in (".h", ".hpp", ".cpp", ".cu", ".cuh"))
    edges, problems = {}, plug_ins_only(root)
    for f in files:
        path = f.relative_to(root).as_posix()
        mine = layer_of(path)
        if mine is None:
            problems.append(f"{path}: in no layer (add it to tests/layout/check_includes.py)")
            continue
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), start=1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            target = resolve(root, f, m.group(1))
            if target is None:
                continue  # a header of a dependency, or generated
            edges.setdefault(path, set()).add(target)
            problems += folder_problems(path, target, n)
            folder = re.match(r"patterns/([^/]+)/", target)
            if folder and not path.startswith(folder.group(0)) and path not in REGISTRIES:
                problems.append(f"{path}:{n}: reaches into a pattern's folder: {target} (only the pattern and the registry may)")
            theirs = layer_of(target)
            if theirs is not None and theirs > mine:
                problems.append(f"{path}:{n}: includes upward: {target} ({LAYERS[theirs][0]}) from {LAYERS[mine][0]}")
    for a, targets in edges.items():
        for b in targets:
            if a < b and a in edges.get(b, ()):
                problems.append(f"{a} and {b} include each other")
    return files, edges, problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=pathlib.Path(__file__).resolve().parents[2], type=pathlib.Path)
    root = ap.parse_args().root.resolve()
    files, edges, problems = include_edges(root)
    for p in problems:
        print(p)
    print(f"{len(files)} files, {sum(len(t) for t in edges.values())} project includes, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
