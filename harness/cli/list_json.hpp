#pragma once
// `vmmcheck list --json`: the selected cases with their pattern and axes, and, per family they belong
// to, everything a report or a handbook needs to explain them without the case tables: the axes' docs
// and value descriptions, the outcomes and which are weak, and the prune rules with their `why`.
#include <nlohmann/json.hpp>
#include <vector>

#include "model/loader.hpp"

namespace vmmcheck::cli {

nlohmann::ordered_json list_document(const model::CaseTable& table, const std::vector<const model::Case*>& selected);

}  // namespace vmmcheck::cli
