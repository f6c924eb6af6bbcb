#pragma once
// `run --shard K/N` (docs/design.md, "Case lists and shards"): a stable split of a run across N machines.
// A name's shard depends on the name alone -- FNV-1a (64 bits) of its bytes, modulo N, plus one -- so every
// case and litmus row is in exactly one shard, whatever else is selected, and adding a case moves no other.
// The report driver's `merge` checks membership with the same function (reports/vmmcheck_report/merge.py).
#include <cstdint>
#include <string>
#include <string_view>

namespace vmmcheck::model {

struct Shard {
  std::uint32_t index = 1;  // 1..count
  std::uint32_t count = 1;
  bool operator==(const Shard& o) const { return index == o.index && count == o.count; }
  bool operator!=(const Shard& o) const { return !(*this == o); }
};

// "K/N" with 1 <= K <= N; an InputError saying what is wrong otherwise.
Shard parse_shard(const std::string& text);
std::string to_string(const Shard& s);  // "K/N"

std::uint64_t fnv1a_64(std::string_view bytes);
// The shard (1..count) a dotted name belongs to.
std::uint32_t shard_of(std::string_view name, std::uint32_t count);

}  // namespace vmmcheck::model
