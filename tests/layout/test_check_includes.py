#!/usr/bin/env python3
"""check_includes.py on made-up trees: the arrangement issue 44 removed (the vocabulary in patterns/, read
by the harness below it) is a problem, and so is every other arrow that runs up between the top folders;
the arrangement of today's tree is not."""
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import check_includes  # noqa: E402


def problems_of(files):
    with tempfile.TemporaryDirectory() as d:
        root = pathlib.Path(d).resolve()
        for path, text in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        return check_includes.include_edges(root)[2]


GOOD = {
    "vocabulary/shape.hpp": "#pragma once\n",
    "patterns/registry.hpp": '#include "patterns/mp/definition.hpp"\n',
    "patterns/mp/definition.hpp": '#include "vocabulary/shape.hpp"\n',
    "patterns/mp/runner.cpp": '#include "patterns/mp/definition.hpp"\n#include "run/kit/session.hpp"\n',
    "harness/run/kit/session.hpp": '#include "vocabulary/shape.hpp"\n',
    "harness/model/registry.hpp": '#include "patterns/registry.hpp"\n',
}


class CheckIncludes(unittest.TestCase):
    def test_the_layers_of_today_have_no_problem(self):
        self.assertEqual(problems_of(GOOD), [])

    def test_the_vocabulary_inside_patterns_is_a_problem(self):
        tree = dict(GOOD, **{"patterns/shape.hpp": "#pragma once\n",
                             "harness/litmus/file.hpp": '#include "patterns/shape.hpp"\n'})
        problems = problems_of(tree)
        self.assertTrue(any("patterns/shape.hpp: patterns/ holds plug-ins only" in p for p in problems), problems)
        self.assertTrue(any("harness/litmus/file.hpp:1: includes patterns/shape.hpp" in p for p in problems), problems)

    def test_the_vocabulary_including_anything_else_is_a_problem(self):
        problems = problems_of(dict(GOOD, **{"vocabulary/shape.hpp": '#include "common/error.hpp"\n',
                                             "harness/common/error.hpp": "#pragma once\n"}))
        self.assertTrue(any("the vocabulary includes harness/common/error.hpp" in p for p in problems), problems)

    def test_a_pattern_reached_other_than_through_a_registry_is_a_problem(self):
        problems = problems_of(dict(GOOD, **{"harness/run/kit/session.cpp": '#include "patterns/mp/definition.hpp"\n'}))
        self.assertTrue(any("only through a registry" in p for p in problems), problems)
        self.assertTrue(any("reaches into a pattern's folder" in p for p in problems), problems)

    def test_an_include_to_a_higher_layer_is_a_problem(self):
        problems = problems_of(dict(GOOD, **{"harness/model/oracle.cpp": '#include "run/kit/session.hpp"\n'}))
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("includes upward", problems[0])


if __name__ == "__main__":
    unittest.main()
