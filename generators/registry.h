#pragma once
// The registry of generator families: their names, where they apply, and one weighted mix.

#include <rapidcheck/Gen.h>

#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "generators/generated_case.h"

namespace mcpfuzz::gen {

/// One family as the registry knows it.
struct FamilyInfo {
  /// Stable kebab-case name, used by `mcpfuzz fuzz --family` and written into case files.
  std::string_view name;
  std::string_view description;
  /// The family calls real tools (side effects): never selected unless asked for by name.
  bool calls_real_tools = false;
  /// Relative frequency in AnyCase.
  int weight = 1;
  /// False when the family has nothing to say about the context (headers outside 2026-07-28
  /// HTTP, sessions without one, pagination without a list capability...).
  bool (*applies)(const GenContext& context) = nullptr;
  rc::Gen<GeneratedCase> (*generator)(const GenContext& context) = nullptr;
};

/// Every family, in a fixed order.
std::span<const FamilyInfo> AllFamilies();
/// The family named `name`, or nullptr.
const FamilyInfo* FindFamily(std::string_view name);
/// The names of every family that calls no real tool, but sequences (each of its cases opens a
/// connection of its own; `--families sequences` asks for it): what runs when none are named.
std::set<std::string> DefaultFamilies();

/// The families of `names` that apply to `context`, in registry order.
std::vector<const FamilyInfo*> ApplicableFamilies(const GenContext& context,
                                                  const std::set<std::string>& names);

/// One case from the families of `names` that apply to `context` (empty `names` means
/// DefaultFamilies()), picked by weight. The family is picked once and never changes while
/// shrinking. Generating from it fails (RapidCheck GenerationFailure, contained by callers)
/// when no named family applies.
rc::Gen<GeneratedCase> AnyCase(const GenContext& context, const std::set<std::string>& names);

}  // namespace mcpfuzz::gen
