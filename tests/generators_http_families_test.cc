// The two HTTP-only families the fault sweep needed: a foreign Origin, and initialize asking
// for an unsupported version. Each breaks exactly its one rule of a well-formed request and
// applies only where that rule exists. (Row coverage, schema validation of the templates,
// determinism and shrinking are checked for every family in generators_test.cc.)

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <boost/json.hpp>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "generators/generators.h"
#include "model/request_builder.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

namespace json = boost::json;

constexpr TransportKind kHttp = TransportKind::kHttp;
constexpr TransportKind kStdio = TransportKind::kStdio;

GenContext Context(Revision revision, TransportKind transport, bool session = true) {
  GenContext context;
  context.revision = revision;
  context.transport = transport;
  context.capabilities = {{"tools", json::object{}}, {"resources", json::object{}}};
  context.tools = {{"echo", json::object{{"type", "object"}}}};
  context.session_assigned = session && transport == kHttp && EraOf(revision) == Era::kHandshake;
  return context;
}

std::vector<GeneratedCase> Sample(const GenContext& context, std::string_view family, int count) {
  const FamilyInfo* info = FindFamily(family);
  std::vector<GeneratedCase> cases;
  if (info == nullptr || !info->applies(context)) return cases;
  for (int k = 0; k < count; ++k) {
    cases.push_back(
        info->generator(context)(rc::Random(static_cast<std::uint64_t>(k) + 1), k % 101).value());
  }
  return cases;
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The request's headers other than `name`, names lowercased.
std::vector<std::pair<std::string, std::string>> OtherHeaders(const Request& request,
                                                              std::string_view name) {
  std::vector<std::pair<std::string, std::string>> headers;
  for (const Header& header : request.headers) {
    if (Lower(header.name) != Lower(std::string(name))) {
      headers.emplace_back(Lower(header.name), header.value);
    }
  }
  return headers;
}

bool IsLoopbackOrigin(std::string_view origin) {
  for (std::string_view host : {"://127.0.0.1", "://localhost", "://[::1]"}) {
    const auto at = origin.find(host);
    if (at == std::string_view::npos) continue;
    const auto end = at + host.size();
    if (end == origin.size() || origin[end] == ':' || origin[end] == '/') return true;
  }
  return false;
}

TEST(ForeignOrigins, AddOnlyAForeignOriginToAHarmlessRequest) {
  for (Revision revision : {Revision::k2026_07_28, Revision::k2025_11_25, Revision::k2025_03_26}) {
    const GenContext context = Context(revision, kHttp);
    const std::vector<GeneratedCase> cases = Sample(context, "origin", 300);
    ASSERT_EQ(cases.size(), 300U) << ToString(revision);
    std::set<std::string> origins;
    for (const GeneratedCase& generated : cases) {
      EXPECT_EQ(generated.check_id, check::kOriginInvalid);
      ASSERT_TRUE(generated.well_formed);
      const Request& well_formed = *generated.well_formed;
      EXPECT_FALSE(FindHeader(well_formed.headers, "Origin"));
      const auto origin = FindHeader(generated.request.headers, "Origin");
      ASSERT_TRUE(origin);
      EXPECT_TRUE(origin->starts_with("http://") || origin->starts_with("https://")) << *origin;
      EXPECT_FALSE(IsLoopbackOrigin(*origin)) << *origin;
      origins.emplace(*origin);
      EXPECT_EQ(generated.request.body, well_formed.body);
      EXPECT_EQ(generated.request.session, well_formed.session);
      EXPECT_EQ(OtherHeaders(generated.request, "Origin"), OtherHeaders(well_formed, "Origin"));
    }
    EXPECT_GT(origins.size(), 100U) << "the origins vary";
  }
}

TEST(InitializeVersions, ChangeOnlyTheRequestedVersionOfASessionlessInitialize) {
  for (bool session : {true, false}) {
    const GenContext context = Context(Revision::k2025_11_25, kHttp, session);
    const std::vector<GeneratedCase> cases = Sample(context, "initialize", 300);
    ASSERT_EQ(cases.size(), 300U);
    for (const GeneratedCase& generated : cases) {
      EXPECT_EQ(generated.check_id, check::kInitializeUnsupportedVersion);
      ASSERT_TRUE(generated.well_formed);
      const Request& well_formed = *generated.well_formed;
      EXPECT_EQ(well_formed.RpcMethod(), "initialize");
      EXPECT_EQ(generated.request.session, SessionBinding::kOmit);
      EXPECT_EQ(well_formed.session, SessionBinding::kOmit);
      EXPECT_EQ(generated.request.headers, well_formed.headers);
      json::object body = generated.request.BodyJson()->as_object();
      json::object expected = well_formed.BodyJson()->as_object();
      const json::value asked = body["params"].as_object()["protocolVersion"];
      EXPECT_EQ(expected["params"].as_object()["protocolVersion"], "2025-11-25");
      ASSERT_TRUE(asked.is_string());
      EXPECT_FALSE(ParseRevision(asked.as_string())) << asked;
      body["params"].as_object()["protocolVersion"] = "2025-11-25";
      EXPECT_EQ(body, expected) << "only protocolVersion differs";
    }
  }
}

TEST(HttpFamilies, ApplyOnlyWhereTheirRuleExists) {
  auto applies = [](std::string_view family, const GenContext& context) {
    return FindFamily(family)->applies(context);
  };
  for (Revision revision : kAllRevisions) {
    const bool streamable = HasStreamableHttp(revision);
    EXPECT_EQ(applies("origin", Context(revision, kHttp)), streamable) << ToString(revision);
    EXPECT_FALSE(applies("origin", Context(revision, kStdio)));
    EXPECT_EQ(applies("initialize", Context(revision, kHttp)),
              streamable && EraOf(revision) == Era::kHandshake)
        << ToString(revision);
    EXPECT_FALSE(applies("initialize", Context(revision, kStdio)));
  }
  // A handshake-era server without sessions still answers initialize.
  EXPECT_TRUE(applies("initialize", Context(Revision::k2025_11_25, kHttp, /*session=*/false)));
}

}  // namespace
}  // namespace mcpfuzz::gen
