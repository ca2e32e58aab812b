#pragma once
// When a newline-delimited exchange is over: which message is the reply a request waits for.

#include <boost/json/value.hpp>
#include <string_view>
#include <vector>

#include "model/channel.h"
#include "model/request.h"

namespace mcpfuzz::transport_detail {

/// What ends the wait for a reply on a stream that also carries logs, notifications and
/// server-to-client requests.
struct ReplyRule {
  enum class Kind {
    /// The request has a string or integer id: the response carrying that id ends the wait.
    /// So does an error response with a null or missing id, the JSON-RPC answer to a request
    /// whose id the server could not read.
    kMatchingId,
    /// No id that can be echoed (raw bytes, invalid JSON, an object without id or method, an id
    /// that is null, fractional, boolean or structured, a batch):
    /// the server owes a parse or invalid-request error, so the first response of any id ends
    /// the wait; without one, the exchange ends after the quiet window.
    kFirstResponse,
    /// A notification: nothing is owed, so the whole quiet window is observed.
    kSilence,
  };
  Kind kind = Kind::kSilence;
  /// The id to match; kMatchingId only.
  boost::json::value id;
  /// subscriptions/listen: its response comes only when the server ends the subscription, so
  /// once the stream is acknowledged (model/subscription.h) the quiet window ends the wait.
  bool long_lived = false;
};

ReplyRule ReplyRuleFor(const Request& request);

/// An observation's detail when a long-lived request's stream was heard out.
inline constexpr std::string_view kAcknowledgedQuiet =
    "acknowledged, then quiet: stopped listening (a subscription is answered only when it ends)";

/// True when `message` acknowledges the long-lived request `rule` waits on.
bool Acknowledges(const ReplyRule& rule, const boost::json::value& message);

/// True when `message` is a response carrying `id`.
bool EchoesId(const boost::json::value& message, const boost::json::value& id);

/// Which of `ids` the message `bytes`, as written, spells out as a member ("id":33, "id": "x"),
/// as a server would read it: a request whose id cannot be echoed (a raw body, a batch) may be
/// answered by a response carrying one, which would otherwise look like another request's late
/// or repeated reply. One pass over `bytes` (a megabyte body) however many ids.
std::vector<bool> SpelledIds(std::string_view bytes, const std::vector<boost::json::value>& ids);

/// True when `message` is the reply that `rule` waits for.
bool EndsExchange(const ReplyRule& rule, const boost::json::value& message);

}  // namespace mcpfuzz::transport_detail
