#pragma once
// A litmus row as the rest of the tool sees it (docs/litmus.md): its name as a case, and the model's
// answer to the question it asks. No GPU: `vmmcheck model`, `list` and the run all read these.
#include <string>

#include "litmus/file.hpp"
#include "model/case.hpp"

namespace vmmcheck::litmus {

// The model's answer for a row, from its file alone, under both readings (model/ptx_model.hpp): does
// some allowed execution satisfy the condition (permit), or violate it (assert)?
struct RowVerdict {
  bool isa_allows = false;       // the ISA reading's answer to the question the row asks
  bool artifact_allows = false;  // the artifact's (it allows no more than the ISA)
  // The file agrees with some reading: an assert row that the artifact holds, a permit row whose
  // outcome the ISA allows. Where only one reading agrees, readings_differ() says so.
  bool matches = false;
  // What a GPU run expects of it: an assert row the ISA holds is Required; one only the artifact holds
  // is Model (a violation seen is a Warning); a permit row is Required (an outcome the ISA forbids is a
  // Fail), as is an assert row against its file.
  model::Expectation expectation = model::Expectation::Required;
  std::string explanation;  // model::ptx::explanation's lines: the witness or the broken axioms; both readings' where they part
  // The condition holds in every candidate execution that meets the preconditions, or in none, allowed or
  // not: the row's answer does not depend on any ordering, so it tests nothing (the explanation says which).
  bool vacuous = false;
  bool readings_differ() const { return isa_allows != artifact_allows; }
};
// Throws std::invalid_argument for a shape the model does not take.
RowVerdict model_verdict(const Row& row);
// model_verdict, with a shape the model does not take as the user's error (InputError naming file:line).
RowVerdict verdict_of(const Row& row);
// The model's answer: "holds" or "violable" for an assert row, "allowed" or "forbidden" for a permit
// row; where the readings part, both ("violable in the ISA, holds in the artifact") (`vmmcheck model`
// and `list` print it).
std::string answer_of(const Row& row, const RowVerdict& v);

// Case names of rows: "litmus.<row name>" with the file stem and command lowered to [a-z0-9_] (the
// results' names are: row_name_of), or the hand-written case's name the row stands for (`case NAME`, a
// retired family's); family "litmus.<file stem>"; pattern "litmus".
std::string case_name_of(const Row& row);
std::string row_name_of(const Row& row);
std::string family_of(const Row& row);
// A row's axis tokens: its file stem and its command, as row_name_of spells them.
std::string file_token(const Row& row);
std::string command_token(const Row& row);

}  // namespace vmmcheck::litmus
