#pragma once
// The input format of the request fuzz targets (the reference-server handler and the live
// harness): a few choice bytes and a payload, decoded into one request that is well-formed
// except for exactly one rule, and the check whose rule it breaks. Every byte string decodes
// to a spec, and most specs build a case, so libFuzzer's byte mutations and its minimiser
// (-minimize_crash) stay inside MCP-shaped requests.
//
// Layout: [check] [revision] [transport] [variant] payload...
// Each choice byte is taken modulo the number of choices, so seeds can be written with
// readable letters (fuzz-targets/corpus/README.md). The payload is the one free value of the
// check: the unknown name, the broken body, the wrong header value. Names and header
// values keep visible ASCII bytes and map every other byte onto one.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/request.h"
#include "oracles/judgement.h"

namespace mcpfuzz::fuzzing {

/// The rule a request breaks, one per oracle check the fuzzer exercises.
enum class BrokenRule : std::uint8_t {
  kParseError,            ///< The body is the payload, which is not JSON.
  kNotAnObject,           ///< The body is a JSON string or number.
  kMissingJsonrpc,        ///< No `jsonrpc` member.
  kWrongJsonrpc,          ///< `jsonrpc` is the payload, not "2.0".
  kMissingMethod,         ///< No `method` member.
  kIdNull,                ///< `id` is null.
  kIdFloat,               ///< `id` is a fractional number.
  kIdBool,                ///< `id` is true or false.
  kIdObject,              ///< `id` is an object.
  kUnknownMethod,         ///< `method` is the payload, which no revision defines.
  kUnknownTool,           ///< tools/call names the payload, which is no tool of the target.
  kUnknownPrompt,         ///< prompts/get names the payload.
  kUnknownResource,       ///< resources/read of a URI no server has.
  kNotification,          ///< A notification (method from the payload) expects no reply.
  kMetaMissing,           ///< 2026-07-28: params without `_meta`.
  kMethodHeaderMismatch,  ///< 2026-07-28 HTTP: Mcp-Method is the payload, not the method.
  kSessionUnknown,        ///< Handshake era HTTP: Mcp-Session-Id is the payload.
  kCount,
};
std::string_view ToString(BrokenRule rule);

/// The decoded choice bytes and payload, before they are fitted to a target.
struct CaseSpec {
  BrokenRule rule = BrokenRule::kParseError;
  std::uint8_t revision = 0;   ///< Index into kAllRevisions, modulo its size.
  std::uint8_t transport = 0;  ///< Even: HTTP, odd: stdio.
  std::uint8_t variant = 0;    ///< The id, and small choices of the check.
  std::string payload;
  bool operator==(const CaseSpec&) const = default;
};

/// Any bytes → a spec. Missing choice bytes read as 0.
CaseSpec DecodeSpec(std::span<const std::uint8_t> bytes);
/// The bytes DecodeSpec reads back as `spec` (with the choice bytes reduced modulo their counts).
std::string EncodeSpec(const CaseSpec& spec);

/// The revision and transport the spec asks for, adjusted to the check: header cases are
/// 2026-07-28 over HTTP, session cases handshake-era HTTP, and so on.
Revision SpecRevision(const CaseSpec& spec);
TransportKind SpecTransport(const CaseSpec& spec);

/// What the target has, which no "unknown" name may equal (compared ignoring ASCII case).
struct KnownNames {
  std::vector<std::string> tools;
  std::vector<std::string> prompts;
  std::vector<std::string> resource_uris;
};

/// One request and the check that judges it (Case), and what the target must have for it.
struct FuzzCase : Case {
  /// The server capability the check needs ("tools"), or "" for none.
  std::string capability;
};

/// The case `spec` describes in `revision` over `transport` (the session's negotiated ones).
/// Nothing when the payload does not fit the check (a parse-error payload that is valid
/// JSON, an "unknown" name the target has, a payload empty where a name is needed): libFuzzer
/// then simply finds no new coverage in that input.
std::optional<FuzzCase> BuildCase(const CaseSpec& spec, Revision revision, TransportKind transport,
                                  const KnownNames& known);

}  // namespace mcpfuzz::fuzzing
