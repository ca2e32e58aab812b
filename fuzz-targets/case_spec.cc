#include "fuzz-targets/case_spec.h"

#include <algorithm>
#include <array>
#include <boost/json/parse.hpp>
#include <boost/json/parse_options.hpp>
#include <utility>

#include "fuzz-targets/fuzz_data.h"
#include "model/methods.h"
#include "model/request_builder.h"
#include "model/request_edit.h"
#include "model/text.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::fuzzing {
namespace {

constexpr auto kRuleCount = static_cast<std::size_t>(BrokenRule::kCount);
// Names stay short: a long name finds nothing a short one would not, and costs every exchange.
constexpr std::size_t kMaxNameBytes = 64;

constexpr std::array<std::string_view, kRuleCount> kRuleNames = {
    "parse-error",      "not-an-object",  "missing-jsonrpc", "wrong-jsonrpc",
    "missing-method",   "id-null",        "id-float",        "id-bool",
    "id-object",        "unknown-method", "unknown-tool",    "unknown-prompt",
    "unknown-resource", "notification",   "meta-missing",    "method-header-mismatch",
    "session-unknown"};

bool Contains(const std::vector<std::string>& names, std::string_view name) {
  const std::string lower = AsciiLowercase(name);
  return std::any_of(names.begin(), names.end(),
                     [&](const std::string& known) { return AsciiLowercase(known) == lower; });
}

// Visible ASCII: what a header can carry verbatim and a terminal shows safely, so names found
// by the fuzzer read well in reports and reproducers. Visible bytes stay as they are, so
// dictionary words and the values libFuzzer sees compared arrive unchanged.
std::string VisibleName(std::string_view payload) {
  std::string name;
  for (char c : payload.substr(0, kMaxNameBytes)) {
    const auto byte = static_cast<unsigned char>(c);
    const bool visible = byte >= 0x21 && byte <= 0x7E;
    name.push_back(visible ? c : static_cast<char>(0x21 + byte % 94));
  }
  return name;
}

bool IsJson(std::string_view text) {
  // RFC 8259 lets a parser accept a BOM; only what is broken without one is a parse error.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  boost::json::parse_options options;
  options.max_depth = 100000;
  boost::system::error_code error;
  boost::json::parse(text, error, {}, options);
  return !error;
}

bool Stateless(Revision revision) { return EraOf(revision) == Era::kStateless; }

// A request every server of the revision answers: the template each check breaks.
Request Harmless(Revision revision, TransportKind transport, std::int64_t id) {
  return MakeHarmless(revision, transport, id);
}

FuzzCase MakeFuzzCase(Request request, std::string_view check_id, std::string capability = "") {
  return FuzzCase{{std::move(request), std::string(check_id), {}}, std::move(capability)};
}

std::optional<FuzzCase> ParseErrorCase(std::string payload, Revision revision,
                                       TransportKind transport, std::int64_t id) {
  if (transport == TransportKind::kStdio) {
    // One message per line: a newline would make two messages of it.
    std::replace(payload.begin(), payload.end(), '\n', ' ');
    std::replace(payload.begin(), payload.end(), '\r', ' ');
    if (payload.find_first_not_of(" \t") == std::string::npos) return std::nullopt;
  }
  if (IsJson(payload)) return std::nullopt;
  Request request = Harmless(revision, transport, id);
  request.body = RawBody{std::move(payload)};
  return MakeFuzzCase(std::move(request), check::kParseError);
}

std::optional<FuzzCase> FramingCase(const CaseSpec& spec, Revision revision,
                                    TransportKind transport, std::int64_t id) {
  Request request = Harmless(revision, transport, id);
  boost::json::object& body = BodyObject(request);
  switch (spec.rule) {
    case BrokenRule::kNotAnObject:
      if (spec.variant % 2 == 0) {
        request.body = boost::json::value(VisibleName(spec.payload));
      } else {
        request.body = boost::json::value(static_cast<std::int64_t>(spec.payload.size()));
      }
      return MakeFuzzCase(std::move(request), check::kNotAnObject);
    case BrokenRule::kMissingJsonrpc:
      body.erase("jsonrpc");
      return MakeFuzzCase(std::move(request), check::kMissingJsonrpc);
    case BrokenRule::kWrongJsonrpc: {
      if (spec.variant % 2 == 1) {
        body["jsonrpc"] = 2.0;
      } else {
        const std::string version = VisibleName(spec.payload);
        if (version == "2.0") return std::nullopt;
        body["jsonrpc"] = version;
      }
      return MakeFuzzCase(std::move(request), check::kWrongJsonrpc);
    }
    case BrokenRule::kMissingMethod:
      body.erase("method");
      return MakeFuzzCase(std::move(request), check::kMissingMethod);
    case BrokenRule::kIdNull:
      body["id"] = nullptr;
      return MakeFuzzCase(std::move(request), check::kIdNull);
    case BrokenRule::kIdFloat:
      body["id"] = static_cast<double>(spec.variant) + 0.5;
      return MakeFuzzCase(std::move(request), check::kIdFloat);
    case BrokenRule::kIdBool:
      body["id"] = spec.variant % 2 == 1;
      return MakeFuzzCase(std::move(request), check::kIdBool);
    case BrokenRule::kIdObject:
      body["id"] = boost::json::object{{"n", spec.variant}};
      return MakeFuzzCase(std::move(request), check::kIdObject);
    default:
      return std::nullopt;
  }
}

std::optional<FuzzCase> NamedCase(const CaseSpec& spec, Revision revision, TransportKind transport,
                                  std::int64_t id, const KnownNames& known) {
  const std::string name = VisibleName(spec.payload);
  switch (spec.rule) {
    case BrokenRule::kUnknownMethod:
      if (name.empty() || ResemblesKnownMethod(name)) return std::nullopt;
      return MakeFuzzCase(MakeRequest(revision, transport, name, {}, id), check::kUnknownMethod);
    case BrokenRule::kUnknownTool:
      if (Contains(known.tools, name)) return std::nullopt;
      return MakeFuzzCase(MakeRequest(revision, transport, "tools/call",
                                      {{"name", name}, {"arguments", boost::json::object{}}}, id),
                          check::kUnknownTool, "tools");
    case BrokenRule::kUnknownPrompt:
      if (Contains(known.prompts, name)) return std::nullopt;
      return MakeFuzzCase(MakeRequest(revision, transport, "prompts/get", {{"name", name}}, id),
                          check::kUnknownPrompt, "prompts");
    case BrokenRule::kUnknownResource: {
      const std::string uri = "mcpfuzz-missing://" + name;
      if (Contains(known.resource_uris, uri)) return std::nullopt;
      return MakeFuzzCase(MakeRequest(revision, transport, "resources/read", {{"uri", uri}}, id),
                          check::kUnknownResource, "resources");
    }
    case BrokenRule::kNotification: {
      const std::string method = spec.variant % 2 == 0 ? "notifications/" + name : name;
      if (method.empty() || method == "initialize") return std::nullopt;
      return MakeFuzzCase(MakeNotification(revision, transport, method),
                          check::kNotificationNoReply);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

std::string_view ToString(BrokenRule rule) {
  const auto index = static_cast<std::size_t>(rule);
  return index < kRuleCount ? kRuleNames[index] : "?";
}

CaseSpec DecodeSpec(std::span<const std::uint8_t> bytes) {
  FuzzData data(bytes);
  CaseSpec spec;
  spec.rule = static_cast<BrokenRule>(data.Below(kRuleCount));
  spec.revision = static_cast<std::uint8_t>(data.Below(kAllRevisions.size()));
  spec.transport = static_cast<std::uint8_t>(data.Below(2));
  spec.variant = data.Byte();
  spec.payload = std::string(data.Rest());
  return spec;
}

std::string EncodeSpec(const CaseSpec& spec) {
  std::string bytes;
  bytes.push_back(static_cast<char>(static_cast<std::size_t>(spec.rule) % kRuleCount));
  bytes.push_back(static_cast<char>(spec.revision % kAllRevisions.size()));
  bytes.push_back(static_cast<char>(spec.transport % 2));
  bytes.push_back(static_cast<char>(spec.variant));
  return bytes + spec.payload;
}

Revision SpecRevision(const CaseSpec& spec) {
  Revision revision = kAllRevisions[spec.revision % kAllRevisions.size()];
  switch (spec.rule) {
    case BrokenRule::kMetaMissing:
    case BrokenRule::kMethodHeaderMismatch:
      return Revision::k2026_07_28;
    case BrokenRule::kSessionUnknown:
      return Stateless(revision) || !HasStreamableHttp(revision) ? kLatestHandshakeRevision
                                                                 : revision;
    default:
      break;
  }
  if (SpecTransport(spec) == TransportKind::kHttp && !HasStreamableHttp(revision)) {
    return Revision::k2025_03_26;
  }
  return revision;
}

TransportKind SpecTransport(const CaseSpec& spec) {
  if (spec.rule == BrokenRule::kMethodHeaderMismatch || spec.rule == BrokenRule::kSessionUnknown) {
    return TransportKind::kHttp;
  }
  return spec.transport % 2 == 0 ? TransportKind::kHttp : TransportKind::kStdio;
}

std::optional<FuzzCase> BuildCase(const CaseSpec& spec, Revision revision, TransportKind transport,
                                  const KnownNames& known) {
  const std::int64_t id = 1 + spec.variant;
  const bool http = transport == TransportKind::kHttp;
  switch (spec.rule) {
    case BrokenRule::kParseError:
      return ParseErrorCase(spec.payload, revision, transport, id);
    case BrokenRule::kMetaMissing: {
      if (!Stateless(revision)) return std::nullopt;
      Request request = MakeRequest(revision, transport, "tools/list", {}, id);
      Params(request).erase("_meta");
      if (Params(request).empty()) BodyObject(request).erase("params");
      return MakeFuzzCase(std::move(request), check::kMetaMissing);
    }
    case BrokenRule::kMethodHeaderMismatch: {
      if (!Stateless(revision) || !http) return std::nullopt;
      const std::string value = VisibleName(spec.payload);
      if (value.empty() || AsciiLowercase(value) == "tools/list") return std::nullopt;
      Request request = MakeRequest(revision, transport, "tools/list", {}, id);
      SetHeader(request.headers, kHeaderMethod, value);
      return MakeFuzzCase(std::move(request), check::kMethodHeaderMismatch);
    }
    case BrokenRule::kSessionUnknown: {
      if (Stateless(revision) || !http) return std::nullopt;
      const std::string value = VisibleName(spec.payload);
      if (value.empty()) return std::nullopt;
      Request request = Harmless(revision, transport, id);
      SetHeader(request.headers, kHeaderSessionId, value);
      return MakeFuzzCase(std::move(request), check::kSessionUnknown, "session");
    }
    case BrokenRule::kUnknownMethod:
    case BrokenRule::kUnknownTool:
    case BrokenRule::kUnknownPrompt:
    case BrokenRule::kUnknownResource:
    case BrokenRule::kNotification:
      return NamedCase(spec, revision, transport, id, known);
    default:
      return FramingCase(spec, revision, transport, id);
  }
}

}  // namespace mcpfuzz::fuzzing
