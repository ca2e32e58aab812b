// mcpfuzz against real MCP servers that nobody here wrote: the official TypeScript SDK v1 and
// v2 and server-everything, installed from npm by scripts/bootstrap.sh and started on
// 127.0.0.1 by these tests. They assert that mcpfuzz reaches each server in every era it
// speaks; how the servers answer malformed requests is for the oracles to judge.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "campaign/campaign.h"
#include "checks/checks.h"
#include "model/json_depth.h"
#include "model/subscription.h"
#include "oracles/check_ids.h"
#include "transport/client.h"
#include "transport/era_probe.h"
#include "transport/server_process.h"

namespace mcpfuzz {
namespace {

using ServerProcess = HttpServerProcess;

std::string RealServersDir() { return std::string(MCPFUZZ_SOURCE_DIR) + "/tests/servers"; }

constexpr std::chrono::milliseconds kStartTimeout{20000};

Limits TestLimits() {
  Limits limits;
  // Long enough for node to start; the stdio SDKs drop some malformed lines without a reply,
  // and each of those costs one full timeout in the check runs.
  limits.timeout = std::chrono::milliseconds(2000);
  return limits;
}

std::vector<std::string> Node(const std::string& script, std::vector<std::string> args) {
  std::vector<std::string> argv = {"node", RealServersDir() + "/" + script};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

class RealServers : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(RealServersDir() + "/node_modules/@modelcontextprotocol"))
        << "the real servers are missing: run scripts/bootstrap.sh";
  }

  static TransportFactory HttpFactory(const std::string& url) {
    return [url]() -> Result<std::unique_ptr<Transport>> {
      return OpenHttp(HttpTarget{url, {}, false, TestLimits()});
    };
  }
  static TransportFactory StdioFactory(std::vector<std::string> argv,
                                       std::chrono::milliseconds timeout = TestLimits().timeout) {
    return [argv, timeout]() -> Result<std::unique_ptr<Transport>> {
      StdioTarget target;
      target.argv = argv;
      target.limits = TestLimits();
      target.limits.timeout = timeout;
      auto spawned = SpawnStdio(target);
      if (!spawned) return spawned.error();
      return std::unique_ptr<Transport>(std::move(*spawned));
    };
  }

  // Opens `revision` on a fresh connection and lists the tools; the list must name `tool`.
  static void ExpectToolsListed(const TransportFactory& connect, Revision revision,
                                const std::string& tool) {
    auto transport = connect();
    ASSERT_TRUE(transport.ok()) << transport.error().message;
    McpClient client(**transport, revision);
    auto opened = client.Open();
    ASSERT_TRUE(opened.ok()) << ToString(revision) << ": " << opened.error().message;
    EXPECT_EQ(client.revision(), revision);
    EXPECT_TRUE(client.Declares("tools"));

    Request list = client.Make("tools/list");
    Observation observation = client.Send(list);
    Reply reply = ClassifyReply(list, observation);
    ASSERT_EQ(reply.channel, Channel::kSuccess)
        << ToString(revision) << ": " << DescribeReply(reply, observation) << " "
        << observation.body;
    bool found = false;
    for (const auto& listed : reply.message->at("result").at("tools").as_array()) {
      found = found || listed.at("name") == boost::json::value(tool);
    }
    EXPECT_TRUE(found) << "tools/list did not name " << tool;
    client.Close();
  }

  static EraReport Eras(const TransportFactory& connect) { return DetectEras(connect); }

  // Runs the whole checklist. The servers' deviations are findings, not test failures: what
  // must hold is that every check reached a verdict about the server itself where it could,
  // and that the famous one, the unknown tool, was judged in every era spoken.
  static void ExpectCheckRunJudges(const TransportFactory& connect,
                                   std::initializer_list<Revision> revisions) {
    checks::CheckRun run = checks::RunChecks(connect, {});
    for (Revision revision : revisions) {
      EXPECT_TRUE(run.eras.Speaks(revision)) << ToString(revision);
      bool unknown_tool_judged = false;
      for (const auto& result : run.results) {
        if (result.revision != revision) continue;
        EXPECT_FALSE(result.verdict.check_id.empty());
        if (result.verdict.kind != VerdictKind::kNotApplicable) {
          EXPECT_FALSE(result.exchanges.empty()) << result.verdict.check_id;
        }
        const VerdictKind kind = result.verdict.kind;
        if (result.verdict.check_id == "tools.unknown-name") {
          unknown_tool_judged = kind == VerdictKind::kPass || kind == VerdictKind::kWarn ||
                                kind == VerdictKind::kFail;
        }
      }
      EXPECT_TRUE(unknown_tool_judged) << ToString(revision);
    }
  }
};

TEST_F(RealServers, SdkV1StatefulHttpSpeaksTheHandshakeEraWithSessions) {
  auto server = ServerProcess::Start(Node("sdk-v1.mjs", {"--http", "--stateful"}), kStartTimeout);
  ASSERT_TRUE(server.ok()) << server.error().message;
  auto connect = HttpFactory(server->url());
  EraReport eras = Eras(connect);
  EXPECT_TRUE(eras.Speaks(Revision::k2025_11_25));
  EXPECT_TRUE(eras.Speaks(Revision::k2025_03_26));
  EXPECT_FALSE(eras.Speaks(Revision::k2026_07_28));
  ExpectToolsListed(connect, Revision::k2025_11_25, "echo");

  // The session id must be what carries the session: without it the server refuses.
  auto transport = connect();
  ASSERT_TRUE(transport.ok());
  McpClient client(**transport, Revision::k2025_11_25);
  ASSERT_TRUE(client.Open().ok());
  EXPECT_FALSE((*transport)->session_id().empty());
  Request unbound = client.Make("tools/list");
  unbound.session = SessionBinding::kOmit;
  EXPECT_EQ(client.Send(unbound).http_status, 400);
  auto closed = client.Close();
  ASSERT_TRUE(closed.has_value());
  EXPECT_EQ(closed->http_status / 100, 2);
}

TEST_F(RealServers, SdkV1StatelessHttpServesHandshakeRequestsWithoutSessions) {
  auto server = ServerProcess::Start(Node("sdk-v1.mjs", {"--http", "--stateless"}), kStartTimeout);
  ASSERT_TRUE(server.ok()) << server.error().message;
  auto connect = HttpFactory(server->url());
  ExpectToolsListed(connect, Revision::k2025_11_25, "echo");
  ExpectToolsListed(connect, Revision::k2025_06_18, "echo");
}

TEST_F(RealServers, SdkV1Stdio) {
  auto connect = StdioFactory(Node("sdk-v1.mjs", {"--stdio"}));
  ExpectToolsListed(connect, Revision::k2025_11_25, "echo");
  ExpectToolsListed(connect, Revision::k2025_03_26, "echo");
}

TEST_F(RealServers, SdkV2HttpSpeaksBothErasOnOneEndpoint) {
  auto server = ServerProcess::Start(Node("sdk-v2.mjs", {"--http"}), kStartTimeout);
  ASSERT_TRUE(server.ok()) << server.error().message;
  auto connect = HttpFactory(server->url());
  EraReport eras = Eras(connect);
  EXPECT_TRUE(eras.Speaks(Revision::k2026_07_28));
  EXPECT_TRUE(eras.Speaks(Revision::k2025_11_25));
  ExpectToolsListed(connect, Revision::k2026_07_28, "echo");
  ExpectToolsListed(connect, Revision::k2025_11_25, "echo");
}

// SDK v2 serves a request with neither MCP-Protocol-Version nor _meta on its legacy leg, as
// tables §10 X6 lets a server that supports older clients do: meta.missing judges that variant
// by the handshake-era rows, and the variant with the header by V1, so no false FAIL.
TEST_F(RealServers, SdkV2HttpGetsNoMetaMissingFailForItsLegacyLeg) {
  auto server = ServerProcess::Start(Node("sdk-v2.mjs", {"--http"}), kStartTimeout);
  ASSERT_TRUE(server.ok()) << server.error().message;
  checks::CheckOptions options;
  options.only = {"meta.missing"};
  const checks::CheckRun run = checks::RunChecks(HttpFactory(server->url()), options);
  int judged = 0;
  for (const auto& result : run.results) {
    if (result.verdict.check_id != "meta.missing" || result.revision != Revision::k2026_07_28) {
      continue;
    }
    ++judged;
    EXPECT_NE(result.verdict.kind, VerdictKind::kFail) << Summarize(result.verdict);
    EXPECT_NE(result.verdict.kind, VerdictKind::kUnverified) << Summarize(result.verdict);
  }
  EXPECT_EQ(judged, 1);
}

TEST_F(RealServers, SdkV2StdioSpeaksBothEras) {
  auto connect = StdioFactory(Node("sdk-v2.mjs", {"--stdio"}));
  ExpectToolsListed(connect, Revision::k2026_07_28, "echo");
  ExpectToolsListed(connect, Revision::k2025_11_25, "echo");
}

// SDK v2 keeps a subscription open while it honors anything (it declares every listChanged):
// the transports hear the stream out once it is acknowledged and quiet, over both transports,
// and subscriptions.acknowledged passes on what it sent.
TEST_F(RealServers, SdkV2AcknowledgesAListenThatStaysOpen) {
  auto server = ServerProcess::Start(Node("sdk-v2.mjs", {"--http"}), kStartTimeout);
  ASSERT_TRUE(server.ok()) << server.error().message;
  for (const TransportFactory& connect :
       {HttpFactory(server->url()), StdioFactory(Node("sdk-v2.mjs", {"--stdio"}))}) {
    auto transport = connect();
    ASSERT_TRUE(transport.ok()) << transport.error().message;
    McpClient client(**transport, Revision::k2026_07_28);
    ASSERT_TRUE(client.Open().ok());
    const Request listen = client.Make(
        kListenMethod, {{"notifications", boost::json::object{{"toolsListChanged", true}}}});
    const Observation observation = client.Send(listen);
    EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
    ASSERT_FALSE(observation.messages.empty()) << (*transport)->Describe();
    EXPECT_TRUE(IsAcknowledgement(observation.messages.front()));
    const Verdict verdict = Judge(check::kListenAcknowledged, listen, observation);
    EXPECT_EQ(verdict.kind, VerdictKind::kPass) << Summarize(verdict);
    client.Close();
  }
}

TEST_F(RealServers, ServerEverythingHttpOnLoopback) {
  auto server = ServerProcess::Start(Node("everything.mjs", {"--http"}), kStartTimeout);
  ASSERT_TRUE(server.ok()) << server.error().message;
  EXPECT_EQ(server->url().rfind("http://127.0.0.1:", 0), 0U) << server->url();
  auto connect = HttpFactory(server->url());
  ExpectToolsListed(connect, Revision::k2025_11_25, "echo");
  EXPECT_FALSE(Eras(connect).Speaks(Revision::k2026_07_28));
}

TEST_F(RealServers, ServerEverythingStdio) {
  ExpectToolsListed(StdioFactory(Node("everything.mjs", {"--stdio"})), Revision::k2025_11_25,
                    "echo");
}

TEST_F(RealServers, CheckRunsAgainstEveryServerAndMode) {
  auto v1 = ServerProcess::Start(Node("sdk-v1.mjs", {"--http", "--stateful"}), kStartTimeout);
  ASSERT_TRUE(v1.ok()) << v1.error().message;
  ExpectCheckRunJudges(HttpFactory(v1->url()), {Revision::k2025_11_25});
  auto v2 = ServerProcess::Start(Node("sdk-v2.mjs", {"--http"}), kStartTimeout);
  ASSERT_TRUE(v2.ok()) << v2.error().message;
  ExpectCheckRunJudges(HttpFactory(v2->url()), {Revision::k2026_07_28, Revision::k2025_11_25});
  auto everything = ServerProcess::Start(Node("everything.mjs", {"--http"}), kStartTimeout);
  ASSERT_TRUE(everything.ok()) << everything.error().message;
  ExpectCheckRunJudges(HttpFactory(everything->url()), {Revision::k2025_11_25});
}

TEST_F(RealServers, CheckRunsOverStdio) {
  // Each restart's first answer includes node's start, which on a loaded machine can take
  // longer than 2 s. Not the 15 s the fuzz tests below allow: the checklist waits the timeout
  // out wherever an SDK stays silent with no sentinel behind (83 s at 15 s, against 6.6 s).
  constexpr std::chrono::milliseconds kNodeStart{6000};
  ExpectCheckRunJudges(StdioFactory(Node("sdk-v2.mjs", {"--stdio"}), kNodeStart),
                       {Revision::k2026_07_28, Revision::k2025_11_25});
  ExpectCheckRunJudges(StdioFactory(Node("sdk-v1.mjs", {"--stdio"}), kNodeStart),
                       {Revision::k2025_11_25});
}

// Blame the layer: popular servers built on SDK v1 inherit its deviations. The checklist over
// stdio gives memory, filesystem, sequential-thinking and everything the same FAIL/WARN verdict
// as a bare SDK v1 server on every check both judged (a check one of them cannot be asked, for
// want of prompts or resources, is compared nowhere); and the bare server does deviate, so the
// comparison is not between two empty lists.
class BlameTheLayer : public RealServers {
 protected:
  // check id → verdict, for the checks that judged the server (PASS, WARN or FAIL).
  static std::map<std::string, VerdictKind> Judged(const TransportFactory& connect) {
    std::map<std::string, VerdictKind> judged;
    for (const auto& result : checks::RunChecks(connect, {}).results) {
      const VerdictKind kind = result.verdict.kind;
      if (kind == VerdictKind::kPass || kind == VerdictKind::kWarn || kind == VerdictKind::kFail) {
        judged[result.verdict.check_id] = kind;
      }
    }
    return judged;
  }
  static constexpr std::chrono::milliseconds kNodeStart{6000};
};

TEST_F(BlameTheLayer, SdkV1ServersShareTheBareSdksDeviations) {
  const auto bare = Judged(StdioFactory(Node("sdk-v1.mjs", {"--stdio"}), kNodeStart));
  std::size_t deviations = 0;
  for (const auto& [check, kind] : bare) deviations += kind != VerdictKind::kPass;
  ASSERT_GT(deviations, 0U) << "the bare SDK v1 server deviates nowhere: nothing to inherit";

  const std::vector<std::vector<std::string>> apps = {
      Node("sdk-v1-apps.mjs", {"--server", "memory", "--stdio"}),
      Node("sdk-v1-apps.mjs", {"--server", "filesystem", "--stdio"}),
      Node("sdk-v1-apps.mjs", {"--server", "sequential-thinking", "--stdio"}),
      Node("everything.mjs", {"--stdio"})};
  for (const auto& argv : apps) {
    SCOPED_TRACE(argv[1] + " " + argv[3 % argv.size()]);
    const auto app = Judged(StdioFactory(argv, kNodeStart));
    std::size_t compared = 0;
    for (const auto& [check, kind] : app) {
      const auto in_bare = bare.find(check);
      if (in_bare == bare.end()) continue;
      ++compared;
      EXPECT_EQ(ToString(kind), ToString(in_bare->second)) << check;
    }
    // The tools checks, at least, judge every one of them.
    EXPECT_GT(compared, bare.size() / 2) << compared << " of " << bare.size();
  }
}

// Issue #13 items 5-7 against the servers that showed them, each run bounded: one family, a
// fixed seed, a few hundred cases at most, and the run stops at its first matching finding.
class RealServerFindings : public RealServers {
 protected:
  static CampaignResult Fuzz(const TransportFactory& connect, std::string family, std::size_t cases,
                             std::size_t max_request_bytes = 0) {
    CampaignOptions options;
    options.seed = 1;
    options.max_cases = cases;
    options.families = {std::move(family)};
    options.max_request_bytes = max_request_bytes;
    options.resends = 1;
    return RunCampaign(connect, options);
  }
  static const CampaignFinding* Find(const CampaignResult& result, std::string_view check_id) {
    for (const CampaignFinding& finding : result.findings) {
      if (finding.check_id == check_id) return &finding;
    }
    return nullptr;
  }
  static std::string Describe(const CampaignResult& result) {
    std::string text = std::to_string(result.cases) + " cases;";
    for (const CampaignFinding& finding : result.findings) text += " " + finding.signature + ";";
    return text;
  }
};

// SDK v1 and v2 look tools up through a plain object: __proto__ is "disabled", not unknown.
TEST_F(RealServerFindings, FuzzFindsThePrototypeNameAnswerOnSdkV1AndV2) {
  for (const char* script : {"sdk-v1.mjs", "sdk-v2.mjs"}) {
    SCOPED_TRACE(script);
    const CampaignResult result =
        // node's first answer includes its start, which on a loaded machine can take longer
        // than the 2 s other tests allow; these servers answer every case of this family, so
        // the longer timeout is never waited out once they run.
        Fuzz(StdioFactory(Node(script, {"--stdio"}), std::chrono::milliseconds(15000)),
             "unknown-names", 300);
    const CampaignFinding* found = Find(result, check::kUnknownNameConsistent);
    ASSERT_NE(found, nullptr) << Describe(result);
    EXPECT_EQ(found->verdict.kind, VerdictKind::kWarn) << Summarize(found->verdict);
    EXPECT_NE(found->verdict.observed.excerpt.find("disabled"), std::string::npos)
        << Summarize(found->verdict);
  }
}

// fastmcp 4.20.16 answers valid JSON nested 10,000 deep with HTTP 500 -32603.
TEST_F(RealServerFindings, FuzzExercisesDeepNestingOnFastmcp) {
  auto server = ServerProcess::Start(Node("fastmcp.mjs", {"--http"}), kStartTimeout);
  ASSERT_TRUE(server.ok()) << server.error().message;
  const CampaignResult result = Fuzz(HttpFactory(server->url()), "limits", 20);
  const CampaignFinding* found = Find(result, check::kDeepNesting);
  ASSERT_NE(found, nullptr) << Describe(result);
  EXPECT_EQ(found->verdict.observed.http_status, 500) << Summarize(found->verdict);
  EXPECT_GE(JsonNestingDepth(found->minimal.WireBody()), 10000U);
}

// SDK v1 over stdio stops answering after a line over 10 MiB (and answers one of exactly
// 10 MiB): the shrunk case is the smallest size that shows it.
TEST_F(RealServerFindings, FuzzFindsTheBigLineDeafnessOnSdkV1Stdio) {
  // A 15 s timeout for node's start on a loaded machine (above); the deafness costs it once.
  const CampaignResult result =
      Fuzz(StdioFactory(Node("sdk-v1.mjs", {"--stdio"}), std::chrono::milliseconds(15000)),
           "limits", 20, (std::size_t{10} << 20) + 1);
  const CampaignFinding* found = Find(result, check::kKeepsAnswering);
  ASSERT_NE(found, nullptr) << Describe(result);
  EXPECT_EQ(found->case_check_id, check::kOversizedRequest);
  EXPECT_GT(found->minimal.WireBody().size(), std::size_t{10} << 20);
}

// The timing says whose CPU a run spent: a server started apart costs the run none of its own,
// and over stdio the node server's is the larger (its start alone is more than mcpfuzz's own).
// The HTTP run goes first, so no server of the stdio run can be waited for during it.
TEST_F(RealServerFindings, TheTimingSaysWhoseCpuTheRunSpent) {
  using std::chrono::milliseconds;
  {
    auto server =
        ServerProcess::Start(Node("sdk-v1.mjs", {"--http", "--stateless"}), kStartTimeout);
    ASSERT_TRUE(server.ok()) << server.error().message;
    const CampaignResult http = Fuzz(HttpFactory(server->url()), "unknown-method", 200);
    EXPECT_EQ(http.cases, 200U) << Describe(http);
    EXPECT_EQ(http.timing.servers_cpu.count(), 0);
    EXPECT_GT(http.timing.own_cpu.count(), 0);
  }
  const CampaignResult stdio = Fuzz(
      StdioFactory(Node("sdk-v1.mjs", {"--stdio"}), milliseconds(15000)), "unknown-method", 200);
  EXPECT_EQ(stdio.cases, 200U) << Describe(stdio);
  EXPECT_GE(stdio.timing.servers_cpu, milliseconds(100));
  EXPECT_GT(stdio.timing.servers_cpu, stdio.timing.own_cpu);
}

}  // namespace
}  // namespace mcpfuzz
