#pragma once
// A litmus test as a file writes it (docs/litmus.md): its declarations, threads and one command, in
// the language the parser reads. Derived controls (litmus/derived_controls.hpp) are shown, run and
// cached by this text; parse_text of it gives the same test back (a CPU test checks it).
#include <string>

#include "litmus/file.hpp"

namespace vmmcheck::litmus {

// "ld.acquire.gpu r0, [flag] == 1", "st [x], r0", "fence.proxy.alias": one operation, as written.
std::string op_text(const patterns::litmus::Litmus& test, const patterns::litmus::Op& op);

// The whole test with `row`'s command (its condition, named by the last part of its name).
std::string test_text(const Row& row);

}  // namespace vmmcheck::litmus
