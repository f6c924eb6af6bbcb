#pragma once
// JSON results (schema/results.schema.json, version kSchemaVersion): a context block that says what ran where, then one record
// per case. The file is rewritten after every case, so a run that dies keeps what it finished.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "device/machine.hpp"
#include "model/shard.hpp"
#include "run/records/budget.hpp"
#include "run/records/result.hpp"

namespace vmmcheck::run {

// Version 2 adds each record's `pattern` and `axes`; files of version 1 are still read (resume, reports).
constexpr int kSchemaVersion = 2;

// Documents keep their keys in the order written: a record reads name, family, pattern, axes (in the
// order of the name's segments), status, ...; a histogram lists its bins in kernel order.
using Json = nlohmann::ordered_json;

using device::DeviceSummary;

struct RunContext {
  std::string tool_version;
  std::string git_sha;
  int driver_version = 0;   // e.g. 13000: the CUDA version the driver supports
  std::string driver_release;  // e.g. 580.159.04, from /proc/driver/nvidia/version (empty if absent)
  int runtime_version = 0;
  std::vector<DeviceSummary> devices;
  int device = 0;           // the device the cases ran on
  Budget budget;
  std::string cases_path;   // resolved, comma-separated (cli/cases.hpp)
  std::string filter;
  std::string caselist;     // run --caselist: the file, resolved; empty: none
  std::optional<model::Shard> shard;  // run --shard K/N
  std::string started;      // ISO 8601 UTC
  std::vector<std::string> resumed;   // when `run --resume` continued the file (ISO 8601 UTC), oldest first
  // The baseline files applied (run --baseline): kind ("fails", "flakes", "skips") -> path, "" for none.
  std::vector<std::pair<std::string, std::string>> expectations;
};

// Fills what `m` says of the machine: driver, runtime, devices.
void set_machine(RunContext& c, const device::Machine& m);

Json to_json(const Budget& b);
Json to_json(const RunContext& c);
Json to_json(const CaseResult& r);
Json results_document(const RunContext& c, const std::vector<CaseResult>& results);
// The same around a context block as it is: a resumed run writes its file's own context, not this machine's.
Json results_document(const Json& context, const std::vector<CaseResult>& results,
                      const std::vector<std::pair<std::string, std::string>>& expectations);

// The reverse of to_json, for results that come back from a child process or from a file being
// resumed. Throws InputError naming `source` and the field when the JSON is not a valid record.
CaseResult result_from_json(const Json& j, const std::string& source);
Budget budget_from_json(const Json& j, const std::string& source);

// A results file written by `run --json`: its context (as written, and what it says) and its records.
// Throws InputError naming the file and the problem when it cannot be read or is not a results document.
struct StoredRun {
  Json context_block;  // exactly as the file has it
  RunContext context;  // what it says: tool, machine, budget, selection (devices and budget parsed)
  std::vector<CaseResult> results;
};
StoredRun read_results(const std::filesystem::path& path);
// The same of a parsed document (`source` names it in messages).
StoredRun stored_run_of(const Json& doc, const std::string& source);

// Writes the document to `path` atomically (a temporary file, then rename).
void write_results(const std::filesystem::path& path, const Json& document);

// The results file of a run in progress, rewritten after every case (nothing lost on a crash) without
// serializing every earlier case again: each result's text is made once, and the document is those
// texts in the text of the rest -- the very bytes write_results would write for results_document (a
// suite of 800 cases re-serialized all of them 800 times: 440 MB of JSON, ten seconds).
class ResultsFile {
 public:
  ResultsFile(std::filesystem::path path, Json context, std::vector<std::pair<std::string, std::string>> expectations);
  void add(const CaseResult& r);  // the run's next result, in order
  void write() const;             // the document of every result added so far, atomically
  std::string text() const;       // what write() writes

 private:
  std::filesystem::path path_;
  Json context_;
  std::vector<std::pair<std::string, std::string>> expectations_;
  std::vector<CaseResult> counted_;  // statuses only matter (totals); kept as results_document takes them
  std::string results_;              // the texts so far, each indented as the document nests it
};

std::string utc_now_iso8601();

}  // namespace vmmcheck::run
