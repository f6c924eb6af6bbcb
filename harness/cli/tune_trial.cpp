#include "cli/tune_trial.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <string>

#include "common/error.hpp"

namespace vmmcheck::cli {

double Measured::per_gpu_second() const { return gpu_seconds > 0 ? static_cast<double>(weak) / gpu_seconds : 0; }

double Measured::rate() const {
  if (!per_instance) return per_gpu_second();
  return instances > 0 ? 1e6 * static_cast<double>(weak) / static_cast<double>(instances) : 0;
}

double Trial::score() const {
  double sum = 0;
  for (const Measured& m : targets) sum += std::log10(1 + m.rate());
  return targets.empty() ? 0 : sum / static_cast<double>(targets.size());
}

std::size_t Trial::racing() const {
  return static_cast<std::size_t>(std::count_if(targets.begin(), targets.end(), [](const Measured& m) { return m.weak > 0; }));
}

bool Trial::better_than(const Trial& other) const {
  if (rejected.empty() != other.rejected.empty()) return rejected.empty();
  return racing() != other.racing() ? racing() > other.racing() : score() > other.score();
}

double Trial::weak_per_gpu_second() const {
  std::uint64_t weak = 0;
  double s = 0;
  for (const Measured& m : targets) weak += m.weak, s += m.gpu_seconds;
  return s > 0 ? static_cast<double>(weak) / s : 0;
}

std::vector<std::size_t> confirm_candidates(const std::vector<Trial>& trials, std::size_t k) {
  std::vector<std::size_t> order(trials.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Stable: of two draws that measured alike, the earlier (the simpler: the default comes first) leads.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return trials[a].better_than(trials[b]); });
  std::vector<std::size_t> chosen;
  std::set<std::string> knobs;
  for (std::size_t i : order) {
    if (chosen.size() == k) break;
    if (!trials[i].rejected.empty()) break;  // sorted: the rest are rejected too
    if (knobs.insert(run::to_json(trials[i].params).dump()).second) chosen.push_back(i);
  }
  return chosen;
}

Draw DrawPlan::at(std::uint32_t i) const {
  if (i == 0) return Draw::Default;
  if (i == 1) return Draw::ContiguousWords;
  if (i < kFixed + starts) return Draw::Start;
  return i >= trials - refinements ? Draw::Refined : Draw::Random;
}

DrawPlan plan_draws(std::uint32_t trials, std::optional<std::uint32_t> refine, std::size_t starts) {
  if (starts > 0 && trials < DrawPlan::kFixed + starts)
    throw InputError("tune --trials " + std::to_string(trials) + ": too few for the default, contiguous words and the " +
                     std::to_string(starts) + " --start draw" + (starts == 1 ? "" : "s") + " (at least " +
                     std::to_string(DrawPlan::kFixed + starts) + ")");
  DrawPlan plan;
  plan.trials = trials;
  plan.starts = static_cast<std::uint32_t>(starts);
  const std::uint32_t fixed = DrawPlan::kFixed + plan.starts;  // the default, contiguous words and the starts stay
  plan.refinements = std::min(refine.value_or(trials / 3), trials > fixed ? trials - fixed : 0u);
  return plan;
}

std::optional<std::size_t> confirmed_best(const std::vector<Trial>& again) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < again.size(); ++i)
    if (again[i].rejected.empty() && (!best || again[i].better_than(again[*best]))) best = i;
  return best;
}

}  // namespace vmmcheck::cli
