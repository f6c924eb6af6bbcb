#!/usr/bin/env python3
"""Applies (or with -R undoes) a unified diff of the kind ci/experiments/ holds, on a machine that may have
neither git nor patch: each hunk's old text (context and '-' lines) must occur exactly once in its file,
and is replaced by its new text (context and '+' lines). Any preamble before the first 'diff --git' is
ignored, as git apply ignores it.
    ci/apply_diff.py [-R] FILE.diff
"""
import pathlib
import sys


def hunks(text):
    path, old, new = None, None, None
    for line in text.splitlines(keepends=True):
        if line.startswith("+++ "):
            path = line[4:].strip()
            path = path[2:] if path.startswith("b/") else path
        elif line.startswith("@@"):
            if old is not None:
                yield path, "".join(old), "".join(new)
            old, new = [], []
        elif old is not None and line[:1] in (" ", "-", "+"):
            if line[0] != "+":
                old.append(line[1:])
            if line[0] != "-":
                new.append(line[1:])
        elif line.startswith("diff --git") and old is not None:
            yield path, "".join(old), "".join(new)
            old, new = None, None
    if old is not None:
        yield path, "".join(old), "".join(new)


def main():
    reverse = sys.argv[1] == "-R"
    diff = pathlib.Path(sys.argv[-1]).read_text()
    for path, old, new in hunks(diff):
        if reverse:
            old, new = new, old
        f = pathlib.Path(path)
        text = f.read_text()
        if text.count(old) != 1:
            sys.exit(f"{sys.argv[-1]}: a hunk of {path} occurs {text.count(old)} times, not once")
        f.write_text(text.replace(old, new))


if __name__ == "__main__":
    main()
