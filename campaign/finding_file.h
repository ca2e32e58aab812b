#pragma once
// Case files of findings: readable JSON, one finding per file, written once and never
// rewritten, so a killed run loses nothing it already wrote.
//
// {"format":"mcpfuzz-case","version":1,"origin":"fuzz seed=1 case=17",
//  "family":"unknown-names","check_id":"tools.unknown-name","variant":"…",
//  "context":{"capability_declared":true,"argument_name":""},
//  "request":{…model/case_file.h…},"original_request":{…},
//  "expected":{"text":"…","channels":[…],"codes":[…],"http_statuses":[…]},
//  "observed":{"verdict":"FAIL","outcome":"ok","channel":"execution_error","code":null,
//              "http_status":200,"excerpt":"…","findings":[…]},
//  "signature":"…","stable":true,"reproduced":3,"resends":3,"seed":1,"case":17,
//  "reproducer":"curl …"}

#include <boost/json/value.hpp>
#include <cstdint>
#include <filesystem>
#include <string>

#include "campaign/campaign.h"
#include "model/pretty_json.h"
#include "model/result.h"

namespace mcpfuzz {

inline constexpr std::string_view kCaseFileFormat = "mcpfuzz-case";
inline constexpr int kCaseFileVersion = 1;

/// `fuzz-<check id>-<signature hash>.json`.
std::string FindingFileName(const CampaignFinding& finding);

/// The case file's content.
boost::json::value FindingToJson(const CampaignFinding& finding, std::uint64_t seed,
                                 const ReproducerTarget& reproducer);

/// Writes `json` as `directory`/`name` (creating the directory), through a temporary file
/// renamed into place. An existing file of that name (the same failure, found before) is left
/// as it was, and its path returned.
Result<std::filesystem::path> WriteCaseFile(const std::filesystem::path& directory,
                                            const std::string& name,
                                            const boost::json::value& json);

/// What replaying a case file needs.
struct StoredCase {
  std::string check_id;
  Request request;
  JudgeContext context;
  /// The signature it failed with when written; empty when the file has none.
  std::string signature;
};

/// Reads a case file written by WriteCaseFile (or by hand: only format, check_id and request
/// are required).
Result<StoredCase> ReadCaseFile(const std::filesystem::path& path);

}  // namespace mcpfuzz
