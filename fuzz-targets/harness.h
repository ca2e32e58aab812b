#pragma once
// Judging one fuzz case and stopping the fuzzer on a misclassification: an oracle FAIL, a
// crash or a hang aborts the process, so libFuzzer records, deduplicates and minimises it like
// any crash (-minimize_crash=1, crash-* artifacts).

#include <boost/json/value.hpp>
#include <optional>
#include <string>

#include "fuzz-targets/case_spec.h"
#include "model/observation.h"
#include "oracles/verdict.h"
#include "refserver/faults.h"
#include "transport/client.h"

namespace mcpfuzz::fuzzing {

/// One case, what came back, and the oracles' verdict on it.
struct Judged {
  FuzzCase fuzz_case;
  Observation observation;
  Verdict verdict;
};

/// A FAIL, or an exchange the server broke off or never answered (crash, hang, exit) — except
/// silence where the check tolerates no reply.
bool IsFailure(const Judged& judged);

/// Prints the verdict and the request (as a case file, model/case_file.h) to stderr.
void Describe(const Judged& judged);

/// The finding as a case file (campaign/finding_file.h's format: format, version, origin,
/// check_id, context, request, summary), so `mcpfuzz replay` can send it again.
boost::json::value FindingJson(const Judged& judged);

/// Describe(), then std::abort(): how a target reports a finding to libFuzzer. When
/// MCPFUZZ_FINDING_FILE names a file, FindingJson is written there first (`mcpfuzz minimize`
/// reads it back).
[[noreturn]] void AbortOnFinding(const Judged& judged);

/// The reference server's handler, in process: a fresh server per case, the session of the
/// case's revision opened (initialize, or nothing in 2026-07-28), then the case sent and judged.
class InProcessServer {
 public:
  explicit InProcessServer(refserver::FaultSet faults = {}) : faults_(std::move(faults)) {}
  /// Nothing when the spec builds no case.
  std::optional<Judged> Run(const CaseSpec& spec) const;

 private:
  refserver::FaultSet faults_;
};

/// The names tools/list, prompts/list and resources/list return on `client`'s open session
/// (first page only), for the capabilities the server declared.
KnownNames ListKnownNames(McpClient& client);

/// The faults named in MCPFUZZ_FAULTS (comma-separated kebab-case names). An unknown name
/// is reported on stderr and ends the process with exit code 2.
refserver::FaultSet FaultsFromEnvironment();

}  // namespace mcpfuzz::fuzzing
