#pragma once
// The files commands write their JSON into (docs/design.md, "Output files"). Every document vmmcheck and
// its report driver write is of one kind, read off its top level alone (tests/corpus/documents/README.md):
// "schema": "vmmcheck-<kind>/<version>" (model, list, probe, bench, selftest, stress-params, ...), or a
// results document (`schema_version`, a vmmcheck `context`, `results`), or a list written before lists had
// "schema". A command never overwrites a file that holds a document of another kind: `list --json r.json`
// where r.json holds a run's results is an InputError, and r.json stays as it was.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace vmmcheck::run {

// "results", "list", "model", ... or nullopt: not a vmmcheck document (another program's JSON, not an object).
std::optional<std::string> document_kind(const nlohmann::ordered_json& doc);
// The kind of the document in `path`; nullopt when there is no such file, or it is not a vmmcheck document
// (not JSON at all, empty, another program's).
std::optional<std::string> document_kind_of_file(const std::filesystem::path& path);

// Before a command first writes `path`: an InputError naming the file when it holds a document of another
// kind than `kind`, when it is one of the command's `inputs` (the same file by any name: a litmus file,
// a case table, a case list), or when it is not a file that can be replaced (a folder, a device, a FIFO:
// `--json /dev/full` must not turn the device into a file). Nothing is written.
void claim_output(const std::filesystem::path& path, const std::string& kind,
                  const std::vector<std::filesystem::path>& inputs = {});

}  // namespace vmmcheck::run
