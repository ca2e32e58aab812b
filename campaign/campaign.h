#pragma once
// The fuzz loop behind `mcpfuzz fuzz`: generated cases sent to a target in every era it
// speaks, each answer judged as the check the case names. A misjudged answer (FAIL or
// WARN), a crash or a hang is a finding: it is re-sent to tell stable from flaky, shrunk to a
// minimal case with the same failure signature, and written at once as a case file that
// `Replay` (and the one-line reproducer inside it) can send again.
//
// Same seed, same target: same case sequence. Each case's RapidCheck seed and size derive
// from the run seed and the case's index alone.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "coverage/coverage_map.h"
#include "coverage/coverage_use.h"
#include "generators/generated_case.h"
#include "model/reproducer.h"
#include "model/request.h"
#include "model/sequence.h"
#include "oracles/oracle.h"
#include "oracles/verdict.h"
#include "transport/client.h"
#include "transport/era_probe.h"

namespace mcpfuzz {

/// The folder under CampaignOptions::corpus_dir that a steered run writes its corpus into, a
/// case file per entry, named by seed and case index; `replay` sends them again.
inline constexpr std::string_view kCoverageCorpusFolder = "coverage";

/// The seed `mcpfuzz fuzz` uses when none is given.
inline constexpr std::uint64_t kDefaultCampaignSeed = 1;

struct CampaignOptions {
  std::uint64_t seed = kDefaultCampaignSeed;
  /// Generated cases to send (shrinking and re-sending do not count).
  std::size_t max_cases = 1000;
  /// Stop after this long, whatever max_cases says. It bounds the findings' investigation
  /// too: once it is up, no finding is re-sent or shrunk, except the one re-send alone that
  /// proves a silence learnt before the full limit (without it the finding could be false).
  std::optional<std::chrono::milliseconds> duration;
  /// Generator families by name (generators/registry.h); empty means every family that calls
  /// no real tool, plus tool-arguments when call_real_tools is set.
  std::set<std::string> families;
  /// How often a finding is re-sent to tell a stable failure from a flaky one.
  int resends = 3;
  /// Where findings are written, one case file each; empty means nowhere. A steered run
  /// (CoverageUse::kSteer) writes its corpus into kCoverageCorpusFolder under it.
  std::filesystem::path corpus_dir;
  /// Allow cases that run the target's real tools (the tool-arguments family, and unknown
  /// names derived from real tool names).
  bool call_real_tools = false;
  /// Ask tools/call, prompts/get and resources/read of a random name when a session opens
  /// (one exchange each, for the capabilities declared): names.unknown-consistent compares
  /// impossible names with those answers, and draws none without them.
  bool ask_random_names = true;
  /// The largest request body the limits family sends (`--max-request-bytes`).
  std::size_t max_request_bytes = kDefaultMaxRequestBytes;
  /// Fuzz this revision only, instead of the newest revision of each era the target speaks
  /// (and 2025-03-26, the one revision whose batch rules differ).
  std::optional<Revision> revision;
  /// Where the reproducers in case files send their request. Left empty, it is taken from the
  /// transport: the URL over HTTP; over stdio the command, split on spaces.
  ReproducerTarget reproducer;
  /// Stop after this many distinct findings; 0 means no limit.
  std::size_t max_findings = 0;
  /// Bounds on shrinking one finding: requests sent (at most 8 when its exchange timed out,
  /// since every candidate may cost a timeout too), and time.
  std::size_t max_shrink_sends = 200;
  std::chrono::milliseconds max_shrink_time{20000};
  /// Cases are sent by this many workers at once per revision, each with a connection (HTTP)
  /// or a server process (stdio) of its own. The cases and the findings do not depend on it:
  /// results are taken back in case order, and re-sending and shrinking a finding pause the
  /// other workers. (Over stdio a death found between two exchanges is listed when the case
  /// that found it is concluded, which may put it after findings of cases in between.)
  std::size_t concurrency = 1;
  /// HTTP targets at concurrency 1: draw the cases ahead on a thread of their own, so the
  /// sending thread finds the next one ready. The cases and findings are the same either way.
  /// (Above 1, cases are always drawn on a thread of their own.)
  bool pipeline = true;
  /// Stdio targets: up to this many cases written back to back on one server process, with
  /// one sentinel behind them, when their ids let the replies be told apart (the others go
  /// alone). The cases, verdicts and findings do not depend on it; 1 sends one case at a time.
  /// 16: the sentinel's round trip and grace are paid once per 16 cases instead of per case,
  /// while a window that must be sent again one at a time (or is cut short by a finding, whose
  /// re-sends restart the server) wastes few exchanges, and 16 lines stay far below the pipe
  /// buffer the server reads them from.
  std::size_t stdio_pipeline_depth = 16;
  /// Big inputs (bodies of kBigInputBytes and more: the limits family's deep nestings and
  /// megabyte bodies) cost their size on every send, and what one can show at a target (a
  /// refusal, a crash, deafness at a size) shows the first time. So the first case of each size
  /// class is sent, and after it one case of the class in this many, chosen by case index, as a
  /// re-check; the others are generated but not sent (CampaignResult::big_inputs_held_back).
  /// 1 sends every one. The decision is taken in case order from the cases alone, never from
  /// the clock, so it is the same at every load, concurrency and pipeline depth.
  std::size_t big_input_every = 16;
  /// A sequence mixed into the default families over stdio starts a server process of its own
  /// (0.2-0.4 s of a node server's start-up, and its CPU), the cost of hundreds of ordinary
  /// cases: at one case in 64 they took two thirds of a minute's run against SDK v1. So, as big
  /// inputs are, the first sequence ending on each check is sent, and after it one in this many,
  /// chosen by case index (CampaignResult::sequences_held_back). 1 sends every one. Over HTTP a
  /// sequence costs a session, and every one is sent; so is every one of a run that names the
  /// sequences family.
  std::size_t sequence_every = 16;
  /// Set from elsewhere (a signal handler) to stop the run after the exchange in flight; the
  /// result is returned as for --time. Nothing means never.
  const std::atomic<bool>* stop = nullptr;
  /// What `duration` is measured with; the steady clock when empty. A test moves time on
  /// with it, so that the time being up is an event it causes, not a race with the load.
  std::function<std::chrono::steady_clock::time_point()> clock;
  /// Ask the stdio server's coverage agent (StdioTarget::coverage_agent) what ran after each
  /// case is decided, report how the server's coverage grew (CampaignResult::coverage), and
  /// with kSteer steer the cases by it.
  CoverageUse coverage = CoverageUse::kOff;
  /// Keep the wire form of every generated case in CampaignResult::case_log (for determinism
  /// checks). Off by default: it grows with the run.
  bool record_cases = false;
  /// Shard K of N (1-based) of the case indices: only indices i with i % N == K - 1 are sent
  /// (and counted against max_cases' bound, which stays the whole run's). Case i is the same
  /// case in every shard, since it follows from the seed and i alone. What a shard decides
  /// from what it saw is decided from its own cases only: deduplication (the shards' reports
  /// are merged by signature), skipping a check after kHangsBeforeSkipping hangs, stopping
  /// after max_findings or `duration`, blaming a stdio death on the case sent before it, and
  /// which session takes the later cases once one is lost.
  std::size_t shard_index = 1;
  std::size_t shard_count = 1;
};

/// One distinct failure, after re-sending and shrinking.
struct CampaignFinding {
  /// check id, verdict, expected answer, observed channel, code, HTTP status (and the outcome
  /// of a failed exchange): what makes two failures the same one.
  std::string signature;
  /// A short hash of `signature`, in the case file's name.
  std::string signature_hash;
  std::string family;
  /// The check that failed: the case's own, or stdio.no-early-exit / stdio.keeps-answering
  /// when the server died or went deaf on it.
  std::string check_id;
  /// The check the generated case named.
  std::string case_check_id;
  std::string variant;
  JudgeContext context;
  std::size_t case_index = 0;
  Revision revision = kLatestRevision;
  /// The request before shrinking, when shrinking changed it (else `minimal` is it). Set once
  /// shrinking is over: a body of megabytes is then not held once more while candidates are.
  std::optional<Request> original;
  /// The smallest request found with the same signature (the original when nothing shrank).
  Request minimal;
  /// The verdict on `minimal`.
  Verdict verdict;
  /// A finding of the sequences family: the fewest steps found that still fail with the same
  /// signature, the failing step last (`minimal` is that step's request); empty otherwise.
  Sequence steps;
  /// How many steps the generated sequence had (0 for one-request cases).
  std::size_t original_steps = 0;
  /// Re-sends of the original that gave the same signature, out of `resends`.
  int reproduced = 0;
  /// Re-sends made: CampaignOptions::resends, fewer when a signal stopped them.
  int resends = 0;
  bool stable = false;
  std::size_t shrink_steps = 0;  ///< Accepted shrinks.
  std::size_t shrink_sends = 0;  ///< Requests sent while shrinking.
  /// Later cases with the same signature (not re-sent, not written).
  std::size_t repeats = 0;
  /// A shell command that sends `minimal` again (model/reproducer.h), made once when the
  /// finding is; the case file, the reports and the terminal all show this one.
  std::string reproducer;
  /// The case file, when one was written; why not otherwise.
  std::filesystem::path file;
  std::string file_error;
};

/// Progress for long runs.
struct CampaignProgress {
  std::size_t cases = 0;
  std::size_t findings = 0;
  double cases_per_second = 0;
  std::chrono::milliseconds elapsed{0};
  /// The cases the run is to send (this shard's), and its time budget: what is left of
  /// either says when it ends. No case budget when only a time was given.
  std::optional<std::size_t> planned_cases;
  std::optional<std::chrono::milliseconds> duration;
};
using CampaignProgressCallback = std::function<void(const CampaignProgress&)>;

/// Where a campaign's time went. The parts do not add up to `elapsed`: generating, judging
/// and writing case files are left out.
struct CampaignTiming {
  /// Era detection, opening the sessions and listing their tools, prompts and resources.
  std::chrono::microseconds startup{0};
  /// Exchanges of generated cases that got their reply.
  std::chrono::microseconds sending{0};
  /// Exchanges of generated cases that ended without one: a drop learnt from the sentinel, a
  /// timeout, a notification's quiet window (over stdio, a pipelined window with any such case).
  std::chrono::microseconds silence{0};
  /// Sending findings again to tell stable from flaky, restarts included.
  std::chrono::microseconds resends{0};
  /// Shrinking findings.
  std::chrono::microseconds shrinking{0};
  /// Asking the coverage agent, and re-sending cases that ran new code to learn which of its
  /// blocks follow the input.
  std::chrono::microseconds coverage{0};
  /// CPU time (user and system) over the run: mcpfuzz's own, and that of the processes it
  /// started and ended during it (the stdio servers; not a --server-cmd server, which its
  /// caller ends after the run): whose work the run waited on.
  std::chrono::microseconds own_cpu{0};
  std::chrono::microseconds servers_cpu{0};
};

/// The server's own coverage over a campaign (CampaignOptions::coverage), from its agent.
struct CampaignCoverage {
  /// Why no coverage was taken (the first take failed: no agent, a server that is not Node);
  /// empty when it was.
  std::string off;
  /// Blocks seen running, and those of them under node_modules (the SDK's, for most servers).
  std::size_t blocks = 0;
  std::size_t in_node_modules = 0;
  std::vector<coverage::ScriptCoverage> scripts;
  /// After how many cases sent (mutants included) the blocks grew, and to how many: one step
  /// per growth.
  struct Step {
    std::size_t cases = 0;
    std::size_t blocks = 0;
  };
  std::vector<Step> growth;
  /// Takes asked, and those that failed after coverage was on (a server that had just ended:
  /// what it ran since the take before is not counted).
  std::size_t takes = 0;
  std::size_t missed = 0;
  /// Blocks that ran for a case but not when it was sent again (set-up run once, a timer):
  /// counted in `blocks`, ignored by steering.
  std::size_t unstable = 0;
  /// Steering (CoverageUse::kSteer): whether the cases were steered, the mutants sent, and the
  /// corpus: each case that ran new code or got an answer of a new shape (`blocks`: of its new
  /// blocks, those that ran again when it was re-sent).
  bool steered = false;
  std::size_t mutants = 0;
  struct Entry {
    std::size_t case_index = 0;
    std::string family;
    std::string variant;
    std::size_t blocks = 0;
    bool new_answer = false;
    std::size_t mutants = 0;
  };
  std::vector<Entry> corpus;
};

struct CampaignResult {
  EraReport eras;
  /// What the target announced (McpClient::server_info) in the first session of the run that
  /// opened with one, revisions taken in the order they are opened (newest first); one is
  /// enough, as a server names itself alike in every revision. Nothing when none did.
  std::optional<ServerInfo> server_info;
  /// The revision of each session the cases were spread over, in order.
  std::vector<Revision> revisions;
  std::size_t cases = 0;
  /// `cases` by generator family, and by the revision of the session they were sent in.
  std::map<std::string, std::size_t> cases_per_family;
  std::map<std::string, std::size_t> cases_per_revision;
  /// Cases a generator could not produce (skipped, counted).
  std::size_t generation_failures = 0;
  /// Cases generated but not sent, because three earlier cases of the same check went
  /// unanswered until the timeout (each costs a whole timeout).
  std::size_t skipped = 0;
  /// Big inputs generated but not sent: their size class had been sent, and their index drew
  /// no re-check (CampaignOptions::big_input_every).
  std::size_t big_inputs_held_back = 0;
  /// Stdio sequences of the default mix generated but not sent: one ending on their check had
  /// been sent, and their index drew no re-check (CampaignOptions::sequence_every).
  std::size_t sequences_held_back = 0;
  std::vector<CampaignFinding> findings;
  /// What a report should mention: sessions that could not be opened, a target that went away.
  std::vector<std::string> notes;
  /// Families left out of the default mix because they call the target's real tools, where
  /// they had something to call (the target lists tools): a run with call_real_tools could
  /// have found more. Empty when families were named or call_real_tools was set.
  std::set<std::string> real_tool_families_left_out;
  std::chrono::milliseconds elapsed{0};
  /// Connections the run opened to the target, each a new session in the handshake era: the
  /// era probe's, one per revision and worker, and each reopening after an exchange that left
  /// its session broken (a timeout, a reset).
  std::size_t sessions_opened = 0;
  CampaignTiming timing;
  /// Stdio: cases judged from a pipelined window (the rest were sent one at a time).
  std::size_t pipelined = 0;
  /// Sessions reopened (a stdio server restarted), and how many of those took the spare
  /// server started ahead of time.
  std::size_t restarts = 0;
  std::size_t warm_restarts = 0;
  /// Stdio exchanges on which the server went deaf (nothing answered, the process alive):
  /// those learnt by waiting out the timeout (the first on each session), and those learnt
  /// within the shorter patience a session keeps for a server it saw go deaf.
  std::size_t deaf_timeouts = 0;
  std::size_t deaf_within_patience = 0;
  /// With CampaignOptions::record_cases: "<revision> <transport> <check id> <wire body>" per
  /// case, in order; a body of 64 KiB or more as "<N bytes>", since a case held back as a big
  /// input is never written whole.
  std::vector<std::string> case_log;
  /// With CampaignOptions::coverage.
  std::optional<CampaignCoverage> coverage;
};

/// Runs a campaign. Never throws; failures to reach the target end up in `notes`. `progress`
/// is called a few times per second, after every finding, and once at the end.
CampaignResult RunCampaign(const TransportFactory& connect, const CampaignOptions& options,
                           const CampaignProgressCallback& progress = {});

/// One case file sent again.
struct ReplayedCase {
  std::filesystem::path file;
  std::string check_id;
  /// The revision of the session it was sent in again (a sequence's: its last step's); nothing
  /// when the file could not be read.
  std::optional<Revision> revision;
  /// The verdict now; nothing when the file could not be read or the target not reached.
  std::optional<Verdict> verdict;
  /// FAIL, WARN, or a crash or hang again.
  bool still_fails = false;
  /// Fails with the very signature the file recorded.
  bool same_signature = false;
  /// The signature it fails with now; empty when it no longer fails.
  std::string signature;
  std::string error;
};

struct ReplayResult {
  std::vector<ReplayedCase> cases;
  std::size_t still_failing = 0;
  /// `stop` was set before every case file was sent again.
  bool stopped_early = false;
};

/// Reads case files (`path` is one file, or a directory whose *.json files are read in name
/// order), re-sends each request in a session of its revision, and judges it again. Set from a
/// signal handler, `stop` ends the replay after the case in flight.
ReplayResult Replay(const TransportFactory& connect, const std::filesystem::path& path,
                    const std::atomic<bool>* stop = nullptr);

}  // namespace mcpfuzz
