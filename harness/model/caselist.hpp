#pragma once
// `run --caselist FILE` (docs/design.md, "Case lists and shards"; deqp-runner's convention): one case
// name or glob a line (the globs of --filter: `*`, `?`, `[...]`), `#` to the end of a line a comment,
// blank lines ignored. A run takes the cases and litmus rows some line names. A line that names nothing
// -- a misspelt name, a glob that matches no case -- is an InputError naming file:line, found before
// anything runs.
#include <filesystem>
#include <string>
#include <vector>

namespace vmmcheck::model {

class Caselist {
 public:
  // Reads FILE; an InputError naming it when it cannot be read or holds no entry.
  static Caselist read(const std::filesystem::path& file);

  // Whether some entry names `name`.
  bool selects(const std::string& name) const;
  // InputError at the first entry that names none of `known` (every case and litmus row there is).
  void check_against(const std::vector<std::string>& known) const;

  const std::string& path() const { return path_; }  // resolved, as the results' context records it
  std::size_t size() const { return entries_.size(); }

 private:
  struct Entry {
    std::string glob, where;  // where: file:line
  };
  std::vector<Entry> entries_;
  std::string path_;
};

}  // namespace vmmcheck::model
