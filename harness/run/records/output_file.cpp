#include "run/records/output_file.hpp"

#include <fstream>
#include <iterator>

#include "common/error.hpp"
#include "common/json_depth.hpp"

namespace vmmcheck::run {
namespace {

using Json = nlohmann::ordered_json;

// What a person knows each kind by, for the message that refuses to overwrite one.
std::string described(const std::string& kind) {
  if (kind == "results") return "vmmcheck results (run --json)";
  if (kind == "list") return "a vmmcheck case list (list --json)";
  if (kind == "model") return "vmmcheck model verdicts (model --json)";
  if (kind == "probe") return "a vmmcheck probe (probe --json)";
  if (kind == "bench") return "vmmcheck bench rows (bench --json)";
  if (kind == "selftest") return "vmmcheck selftest findings (selftest --json)";
  if (kind == "stress-params") return "vmmcheck stress params (tune --out)";
  if (kind == "toolchain") return "vmmcheck toolchain audits (toolchain --json)";
  return "a vmmcheck " + kind + " document";
}

}  // namespace

std::optional<std::string> document_kind(const Json& doc) {
  if (!doc.is_object()) return std::nullopt;
  if (const auto s = doc.find("schema"); s != doc.end() && s->is_string()) {
    const std::string id = s->get<std::string>();
    const std::string prefix = "vmmcheck-";
    const auto slash = id.rfind('/');
    if (id.rfind(prefix, 0) == 0 && slash != std::string::npos && slash > prefix.size())
      return id.substr(prefix.size(), slash - prefix.size());
    return std::nullopt;
  }
  if (!doc.contains("schema_version")) return std::nullopt;
  if (const auto c = doc.find("context"); c != doc.end() && c->is_object() && c->value("tool", Json()) == "vmmcheck" &&
                                          doc.contains("results"))
    return "results";
  if (doc.contains("families") && doc.contains("cases")) return "list";
  return std::nullopt;
}

std::optional<std::string> document_kind_of_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (json_too_deep_at(text) != std::string::npos) return std::nullopt;  // none of ours nests so deep
  const Json doc = Json::parse(text, nullptr, false);
  if (doc.is_discarded()) return std::nullopt;
  return document_kind(doc);
}

void claim_output(const std::filesystem::path& path, const std::string& kind, const std::vector<std::filesystem::path>& inputs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw InputError(path.string() + ": is a directory; name a file for " + described(kind));
  // The folder it goes into must be there: a missing one (or a file in its place) is said now, not after a
  // run has done its work.
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  if (!fs::is_directory(folder, ec))
    throw InputError(path.string() + ": " + (fs::exists(folder, ec) ? folder.string() + " is not a folder" : "no folder " + folder.string()) +
                     " to write " + described(kind) + " into");
  const fs::file_status st = fs::status(path, ec);
  if (fs::exists(st) && !fs::is_regular_file(st))
    throw InputError(path.string() + ": is not a regular file (a device, FIFO or socket); name a file for " + described(kind));
  for (const fs::path& input : inputs) {
    std::error_code same_ec;
    if (fs::exists(st) && fs::equivalent(path, input, same_ec) && !same_ec)
      throw InputError(path.string() + ": is also an input of this command" +
                       (input.string() == path.string() ? "" : " (" + input.string() + ")") + "; name another file for " +
                       described(kind));
  }
  const std::optional<std::string> held = document_kind_of_file(path);
  if (held && *held != kind)
    throw InputError(path.string() + ": holds " + described(*held) + "; not overwriting it with " + described(kind) +
                     " (name another file)");
}

}  // namespace vmmcheck::run
