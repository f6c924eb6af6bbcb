#pragma once
// Whether a results file may be continued here (`run --resume FILE`; docs/design.md, "Isolation, timeouts,
// resuming"). A resumed file keeps every result it holds and its own context, so it must be the same run:
// the same GPU model and count, driver, vmmcheck (version and git sha), case tables (their resolved paths,
// not as spelt), selection (--filter, --caselist, --shard), device and budget. Anything else would file one
// machine's results under another's name, or mix two runs in one file.
#include <string>
#include <vector>

#include "run/records/report_json.hpp"

namespace vmmcheck::run {

// "1 x NVIDIA H200", "2 x NVIDIA H200", "NVIDIA H200 + NVIDIA H100", "no GPU".
std::string devices_text(const std::vector<DeviceSummary>& devices);

// What differs between the file's run and this one, one phrase each ("the GPUs: that run had 1 x NVIDIA
// H200, this machine has no GPU"); empty when the file may be resumed here.
std::vector<std::string> resume_mismatches(const RunContext& file, const RunContext& here);

}  // namespace vmmcheck::run
