#pragma once
// A litmus row as the rest of the tool sees it (docs/litmus.md): its name as a case, and the model's
// answer to the question it asks. No GPU: `vmmcheck model`, `list` and the run all read these.
#include <string>

#include "litmus/file.hpp"

namespace vmmcheck::litmus {

// The model's answer for a row, from its file alone: does the file's permit/assert hold in the model?
struct RowVerdict {
  bool model_allows = false;  // some allowed execution satisfies the condition (permit/check), or
                              // violates it (assert): the model's answer to the question the row asks
  bool matches = false;       // the file's permit/assert agrees with the model
  std::string explanation;    // the witness or the axioms, one line per item
};
// Throws std::invalid_argument for a shape the model does not take.
RowVerdict model_verdict(const Row& row);
// model_verdict, with a shape the model does not take as the user's error (InputError naming file:line).
RowVerdict verdict_of(const Row& row);
// The model's answer in one word: "holds" or "violable" for an assert row, "allowed" or "forbidden" for a
// permit row (`vmmcheck model` and `list` print it).
std::string answer_of(const Row& row, const RowVerdict& v);

// Case names of rows: "litmus.<row name>" with the file stem and command lowered to [a-z0-9_] (the
// results' names are); family "litmus.<file stem>"; pattern "litmus".
std::string case_name_of(const Row& row);
std::string family_of(const Row& row);
// A row's axis tokens: its file stem and its command, as case_name_of spells them.
std::string file_token(const Row& row);
std::string command_token(const Row& row);

}  // namespace vmmcheck::litmus
