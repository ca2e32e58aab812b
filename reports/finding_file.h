#pragma once
// Case files of findings: readable JSON, one finding per file, written once and never
// rewritten, so a killed run loses nothing it already wrote. `mcpfuzz fuzz` writes them, the
// libFuzzer harnesses write them (MCPFUZZ_FINDING_FILE), `mcpfuzz minimize` writes them, and
// `mcpfuzz replay` reads them all.
//
// {"format":"mcpfuzz-case","version":1,"origin":"fuzz seed=1 case=17",
//  "family":"unknown-names","check_id":"tools.unknown-name","variant":"…",
//  "context":{"capability_declared":true,"argument_name":""},
//  "request":{…model/case_file.h…},"original_request":{…},
//  "verdict":"FAIL","strength":"MUST","expected":{…},"observed":{…},"spec_ref":"…",
//  "notes":[…],"findings":[…],                          (oracles/verdict_json.h)
//  "summary":"…","signature":"…","stable":true,"reproduced":3,"resends":3,"shrink_steps":0,
//  "seed":1,"case":17,"reproducer":"curl …"}
// Only format, check_id and request are required to replay one; family to reproducer are
// written by fuzz campaigns only.

#include <boost/json/value.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "model/request.h"
#include "model/result.h"
#include "model/sequence.h"
#include "oracles/judgement.h"
#include "oracles/oracle.h"
#include "oracles/verdict.h"

namespace mcpfuzz {

inline constexpr std::string_view kCaseFileFormat = "mcpfuzz-case";
inline constexpr int kCaseFileVersion = 1;

/// What a fuzz campaign knows of a finding beyond the case and its verdict.
struct CampaignFacts {
  std::string family;
  /// The check the generated case named, when it is not the one that failed.
  std::string case_check_id;
  std::string variant;
  /// The request before shrinking, when shrinking changed it.
  std::optional<Request> original;
  std::string signature;
  bool stable = false;
  int reproduced = 0;
  int resends = 0;
  std::size_t shrink_steps = 0;
  std::uint64_t seed = 0;
  std::size_t case_index = 0;
  std::string reproducer;
};

/// One finding as a case file holds it: the case to send again (the smallest that fails) and
/// how it was judged.
struct FindingRecord : Case {
  /// Where it was found: "fuzz seed=1 case=17", "libFuzzer".
  std::string origin;
  Verdict verdict;
  /// Fuzz campaigns only.
  std::optional<CampaignFacts> campaign;
  /// A sequence finding: every step, sent in order on a fresh connection, `request` last.
  Sequence steps;
};

/// `fuzz-<check id>-<signature hash>.json`.
std::string FindingFileName(const std::string& check_id, const std::string& signature_hash);

/// The case file's content.
boost::json::value FindingToJson(const FindingRecord& record);

/// Writes `json` as `directory`/`name` (creating the directory), through a temporary file
/// renamed into place. An existing file of that name (the same failure, found before) is left
/// as it was, and its path returned.
Result<std::filesystem::path> WriteCaseFile(const std::filesystem::path& directory,
                                            const std::string& name,
                                            const boost::json::value& json);

/// What replaying a case file needs: the case, and the signature it failed with.
struct StoredCase : Case {
  /// The signature it failed with when written; empty when the file has none.
  std::string signature;
  /// A sequence: replayed step by step on a fresh connection (`request` is the last step).
  Sequence steps;
};

/// Reads a case file written by WriteCaseFile (or by hand: only format, check_id and request
/// are required).
Result<StoredCase> ReadCaseFile(const std::filesystem::path& path);

}  // namespace mcpfuzz
