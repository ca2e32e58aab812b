#pragma once
// What every generator family produces: one request of the one request model, the check
// (check id) whose rule it breaks, and what the judge needs to know about the target. And what
// every generator family is given: the target as seen from one session.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/request.h"
#include "model/request_builder.h"
#include "model/sequence.h"
#include "oracles/judgement.h"
#include "oracles/oracle.h"

namespace mcpfuzz {

/// 16 MiB: at and above the common limits of MCP stacks (1, 4 and 10 MiB).
inline constexpr std::size_t kDefaultMaxRequestBytes = std::size_t{16} << 20;

/// A tool the target listed: its name and its inputSchema.
struct ToolInfo {
  std::string name;
  boost::json::object input_schema;
};

/// Builds a well-formed message of one revision over one transport: a request when `id` holds
/// a value, a notification otherwise. It must be pure (same arguments, same request), because
/// generators replay it while shrinking.
using MessageTemplate = std::function<Request(std::string_view method, boost::json::object params,
                                              std::optional<boost::json::value> id)>;

/// The target as one session sees it. Generators read it and nothing else, so the same context
/// and the same random seed always give the same case.
struct GenContext {
  Revision revision = kLatestRevision;
  TransportKind transport = TransportKind::kHttp;
  /// The well-formed template; empty means MakeRequest / MakeNotification for `revision` over
  /// `transport` with the default ClientInfo (what McpClient::Make sends).
  MessageTemplate make;
  /// What tools/list, prompts/list and resources/list named (first page only).
  std::vector<ToolInfo> tools;
  std::vector<std::string> prompts;
  std::vector<std::string> resource_uris;
  /// The capabilities the target declared (initialize result or server/discover).
  boost::json::object capabilities;
  /// Handshake era over HTTP: the target assigned an Mcp-Session-Id.
  bool session_assigned = false;
  /// The era probe saw the target answer both server/discover and initialize: a stdio sequence
  /// may then send an enveloped request after initialize (tables §4b V16b). Unknown (false)
  /// when the revision was forced and no probe ran.
  bool speaks_both_eras = false;
  /// Generators may run real tools: the tool-arguments family, and unknown tool names derived
  /// from real ones (a case variant, a suffix), which a lenient server could resolve to the
  /// real tool. Off unless the user asked for it.
  bool call_real_tools = false;
  /// The largest request body the limits family sends (`--max-request-bytes`).
  std::size_t max_request_bytes = kDefaultMaxRequestBytes;
  /// Leave the bytes of a megabyte body unwritten (GeneratedCase::unwritten_bytes): a campaign
  /// holds most such bodies back once their size class has been sent, and writing megabytes
  /// only to drop them cost a fifth of its own CPU over HTTP. Every draw is otherwise the one
  /// made without it, so the case sent is the same case drawn again without it.
  bool big_bodies_unwritten = false;
  /// What the target answered to a random name of tools/call, prompts/get and resources/read
  /// (the ones it declared): names.unknown-consistent compares impossible names with them.
  std::vector<NameAnswer> random_name_answers;

  /// A well-formed request with `id`.
  Request Make(std::string_view method, boost::json::object params, boost::json::value id) const;
  /// A well-formed notification.
  Request MakeNotification(std::string_view method, boost::json::object params = {}) const;

  bool Declares(std::string_view capability) const { return capabilities.contains(capability); }
  /// The capability declares `member` true ("resources", "subscribe").
  bool DeclaresFlag(std::string_view capability, std::string_view member) const;
  bool stateless() const { return EraOf(revision) == Era::kStateless; }
  bool http() const { return transport == TransportKind::kHttp; }
  bool stdio() const { return transport == TransportKind::kStdio; }
};

/// One generated case: the request, the check whose rule it breaks and the judge's context
/// (Case), and where it came from.
struct GeneratedCase : Case {
  /// The generator family that made it ("malformed-json").
  std::string family;
  /// What was broken, for people: "id true", "truncated to 17 bytes".
  std::string variant;
  /// The well-formed request the case breaks one rule of, when there is one: tests compare the
  /// two, and it is what the request would look like done right.
  std::optional<Request> well_formed;
  /// Drawn under GenContext::big_bodies_unwritten: the body of this many bytes was left
  /// unwritten (the request holds none); 0 for a case complete as drawn. Not for sending.
  std::size_t unwritten_bytes = 0;
  /// The size of the body as sent, written yet or not.
  std::size_t BodyBytes() const {
    return unwritten_bytes > 0 ? unwritten_bytes : request.WireSize();
  }
  /// The sequences family: requests sent in order on one fresh connection, each judged by the
  /// rule of the state it meets (oracles/sequence.h); `request` and `check_id` are then the
  /// last step's. Empty for every other family: one request on a live session.
  Sequence steps;
};

/// RapidCheck's printer for counterexamples: family, check id, variant and the wire body.
void showValue(const GeneratedCase& generated, std::ostream& out);

}  // namespace mcpfuzz
