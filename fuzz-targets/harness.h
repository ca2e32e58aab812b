#pragma once
// Judging one fuzz case and stopping the fuzzer on a misclassification: an oracle FAIL, a
// crash or a hang aborts the process, so libFuzzer records, deduplicates and minimises it like
// any crash (-minimize_crash=1, crash-* artifacts).

#include <boost/json/value.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fuzz-targets/case_spec.h"
#include "model/observation.h"
#include "oracles/judgement.h"
#include "oracles/verdict.h"
#include "refserver/faults.h"
#include "transport/client.h"

namespace mcpfuzz::fuzzing {

/// One case and the oracles' judgement of what came back. `finding` (FindingRule::kHarness) is
/// what aborts the fuzzer: a FAIL, or an exchange the server broke off or never answered
/// (crash, hang, exit), except silence where the check tolerates no reply.
struct Judged : Judgement {
  FuzzCase fuzz_case;
};

/// Judges `observation`, the answer to the case, under the harness's finding rule. Nearly every
/// input passes and nobody reads a PASS's text here, so a PASS is judged without it
/// (VerdictText::kUnlessPass) unless it is a finding all the same (a crash).
Judged JudgeFuzzCase(FuzzCase fuzz_case, Observation observation);

/// Prints the verdict and the request (as a case file, model/case_file.h) to stderr.
void Describe(const Judged& judged);

/// The finding as a case file, written by the one case-file writer (reports/finding_file.h)
/// with origin "libFuzzer" and no campaign facts, so `mcpfuzz replay` can send it again.
boost::json::value FindingJson(const Judged& judged);

/// Describe(), then std::abort(): how a target reports a finding to libFuzzer. When
/// MCPFUZZ_FINDING_FILE names a file, FindingJson is written there first (`mcpfuzz minimize`
/// reads it back).
[[noreturn]] void AbortOnFinding(const Judged& judged);

/// How long the in-process reference server lives.
enum class ServerLifetime {
  /// One server per revision and transport, its session opened once and the server rewound to
  /// that state before each case (refserver::ReferenceServer::Checkpoint): what the fuzz target
  /// uses, since a handshake per input costs more than the input.
  kReused,
  /// A new server and handshake per case: the reference kReused is tested against.
  kFreshPerCase,
};

/// The reference server's handler, in process: the session of the case's revision opened
/// (initialize, or nothing in 2026-07-28), then the case sent and judged.
class InProcessServer {
 public:
  explicit InProcessServer(refserver::FaultSet faults = {},
                           ServerLifetime lifetime = ServerLifetime::kReused);
  ~InProcessServer();
  InProcessServer(const InProcessServer&) = delete;
  InProcessServer& operator=(const InProcessServer&) = delete;

  /// Nothing when the spec builds no case or no session opens.
  std::optional<Judged> Run(const CaseSpec& spec);
  /// Sends `fuzz_case.request` on a session of its revision and transport and judges it with
  /// the case's check and context as they are (a case file's). Nothing when no session opens.
  std::optional<Judged> Send(FuzzCase fuzz_case);

 private:
  struct Session;
  Session* SessionFor(Revision revision, TransportKind transport);
  std::optional<Judged> SendOn(Session& session, FuzzCase fuzz_case);

  refserver::FaultSet faults_;
  ServerLifetime lifetime_;
  /// kReused: one per revision and transport, made on first use.
  std::vector<std::unique_ptr<Session>> sessions_;
  /// kFreshPerCase: the one of the current case.
  std::unique_ptr<Session> fresh_;
};

/// The names tools/list, prompts/list and resources/list return on `client`'s open session
/// (first page only), for the capabilities the server declared.
KnownNames ListKnownNames(McpClient& client);

/// The faults named in MCPFUZZ_FAULTS (comma-separated kebab-case names). An unknown name
/// is reported on stderr and ends the process with exit code 2.
refserver::FaultSet FaultsFromEnvironment();

}  // namespace mcpfuzz::fuzzing
