#!/usr/bin/env python3
"""check_links.py on made-up objects: the arrangement issue 34 removed (the kit declaring the handlers a
pattern defines) is a problem, the registered one (the declaration beside its definition, included
through the registry) is not, and a call with no declaration included at all is one too."""
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import check_links  # noqa: E402

HANDLE = "vmmcheck::run::handle[abi:cxx11](vmmcheck::run::PeerState&, vmmcheck::run::peer::Import const&, vmmcheck::UniqueFd)"
DECLARATION = "nlohmann::json handle(PeerState& s, const peer::Import& q, UniqueFd fd);\n"
SERVER, DEFINER = "harness/run/execution/peer_server.cpp", "patterns/ipc/peer_ops.cpp"
OBJECTS = {SERVER: (set(), {"S"}), DEFINER: ({"S"}, set())}


def check(texts, edges):
    return check_links.problems_of(OBJECTS, texts, edges, demangler=lambda names: {n: HANDLE for n in names})


class CheckLinks(unittest.TestCase):
    def test_a_lower_layer_declaring_a_higher_ones_definition_is_a_problem(self):
        allowed, problems = check({"harness/run/kit/peer_state.hpp": DECLARATION},
                                  {SERVER: {"harness/run/kit/peer_state.hpp"}})
        self.assertEqual(allowed, [])
        self.assertEqual(len(problems), 1)
        self.assertIn("outside the definer's folder", problems[0])
        self.assertIn("harness/run/kit/peer_state.hpp", problems[0])

    def test_the_declaration_beside_its_definition_through_the_registry_is_allowed(self):
        allowed, problems = check({"patterns/peer_registry.hpp": '#include "patterns/ipc/peer_requests.hpp"\n',
                                   "patterns/ipc/peer_requests.hpp": DECLARATION},
                                  {SERVER: {"patterns/peer_registry.hpp"},
                                   "patterns/peer_registry.hpp": {"patterns/ipc/peer_requests.hpp"}})
        self.assertEqual(problems, [])
        self.assertEqual(len(allowed), 1)
        self.assertIn("declared beside it in patterns/ipc/peer_requests.hpp", allowed[0])

    def test_a_declaration_beside_the_definition_does_not_hide_one_in_a_lower_layer(self):
        allowed, problems = check({"patterns/peer_registry.hpp": "", "patterns/ipc/peer_requests.hpp": DECLARATION,
                                   "harness/run/kit/peer_state.hpp": "// not this one: handle(PeerState&, Import)\n" + DECLARATION},
                                  {SERVER: {"patterns/peer_registry.hpp", "harness/run/kit/peer_state.hpp"},
                                   "patterns/peer_registry.hpp": {"patterns/ipc/peer_requests.hpp"}})
        self.assertEqual(allowed, [])
        self.assertEqual(len(problems), 1)
        self.assertIn("declared in harness/run/kit/peer_state.hpp, outside the definer's folder", problems[0])

    def test_a_declaration_beside_the_definition_reached_not_through_a_registry_is_a_problem(self):
        _, problems = check({"patterns/ipc/peer_requests.hpp": DECLARATION}, {SERVER: {"patterns/ipc/peer_requests.hpp"}})
        self.assertEqual(len(problems), 1)
        self.assertIn("not reached through a registry", problems[0])

    def test_a_commented_out_declaration_does_not_count(self):
        _, problems = check({"patterns/peer_registry.hpp": "", "patterns/ipc/peer_requests.hpp": "// " + DECLARATION},
                            {SERVER: {"patterns/peer_registry.hpp"}, "patterns/peer_registry.hpp": {"patterns/ipc/peer_requests.hpp"}})
        self.assertIn("no declaration of it included", problems[0])

    def test_an_object_is_named_by_its_source(self):
        with tempfile.TemporaryDirectory() as tmp:
            root, build = pathlib.Path(tmp), pathlib.Path(tmp) / "build"
            (root / "patterns/ipc").mkdir(parents=True)
            (root / "patterns/ipc/peer_ops.cpp").write_text("")
            obj = build / "harness/CMakeFiles/vmmcheck_run.dir/__/patterns/ipc/peer_ops.cpp.o"
            self.assertEqual(check_links.source_of(build, root, obj), "patterns/ipc/peer_ops.cpp")
            gone = build / "harness/CMakeFiles/vmmcheck_run.dir/__/patterns/ipc/removed.cpp.o"
            self.assertIsNone(check_links.source_of(build, root, gone))  # a stale object: its source is gone

    def test_a_declaration_of_another_overload_does_not_count(self):
        other = "nlohmann::json handle(PeerState& s, const peer::Prime& q, UniqueFd fd);\n"
        _, problems = check({"patterns/ipc/peer_requests.hpp": other}, {SERVER: {"patterns/ipc/peer_requests.hpp"}})
        self.assertEqual(len(problems), 1)
        self.assertIn("no declaration of it included", problems[0])

    def test_a_call_downward_is_not_looked_at(self):
        objects = {DEFINER: (set(), {"S"}), SERVER: ({"S"}, set())}
        self.assertEqual(check_links.problems_of(objects, {}, {}, demangler=lambda n: {}), ([], []))

    def test_signatures_name_their_project_types(self):
        self.assertEqual(check_links.split_signature(HANDLE), ("handle", ["Import", "PeerState", "UniqueFd"]))
        self.assertEqual(check_links.split_signature("vmmcheck::run::kSomething"), ("kSomething", []))


if __name__ == "__main__":
    unittest.main()
