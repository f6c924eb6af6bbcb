#pragma once
// `vmmcheck list --json` ("schema": "vmmcheck-list/1"): the selected cases with their pattern and axes,
// and, per family they belong to, everything a report or a handbook needs to explain them without the
// case tables: the axes' docs and value descriptions, the outcomes and which are weak, and the prune rules
// with their `why`. Then the selected litmus rows (`litmus_rows`), each as `run` names and judges it, with
// the question its file asks and the model's answer.
#include <nlohmann/json.hpp>
#include <vector>

#include "litmus/file.hpp"
#include "model/loader.hpp"
#include "run/rows/row_result.hpp"

namespace vmmcheck::cli {

nlohmann::ordered_json list_document(const model::CaseTable& table, const std::vector<const model::Case*>& selected,
                                     const std::vector<litmus::Row>& rows, const std::vector<litmus::RowVerdict>& verdicts);

}  // namespace vmmcheck::cli
