#pragma once
// Internal: what the reference server offers, the same in both eras.
//
// Tools:    echo (required string `message`, returns it as text), add (required numbers `a`,
//           `b`, returns the sum as text), fail_upstream (always an execution error).
// Prompt:   greeting (required argument `name`).
// Resource: mcpfuzz://readme (text/plain). No resource templates.
// Lists are not paginated but resources/templates/list: an empty first page whose nextCursor
// leads to an empty last page. Any other cursor is invalid (-32602), a cursor of another list
// included (cursor-across-lists serves that one).

#include <boost/json/object.hpp>
#include <string_view>

#include "model/revision.h"
#include "refserver/detail/jsonrpc.h"
#include "refserver/faults.h"

namespace mcpfuzz::refserver::detail {

inline constexpr std::string_view kReadmeUri = "mcpfuzz://readme";
inline constexpr std::string_view kUpstreamFailureText =
    "upstream API timed out, retry in 30 seconds";

/// The capabilities advertised: tools, prompts, resources, and in the handshake era only logging
/// and resources.subscribe (2026-07-28 removed logging/setLevel and resources/subscribe).
boost::json::object ServerCapabilities(Era era);
/// The natural-language instructions of initialize and server/discover.
std::string_view ServerInstructions();

/// True for tools/list, tools/call, prompts/list, prompts/get, resources/list,
/// resources/read and resources/templates/list.
bool IsCatalogMethod(std::string_view method);

/// Answers a catalog method. Handler errors are in-band: unknown tool or prompt, bad params,
/// a cursor not handed out by the same list → -32602; unknown resource → -32002 before 2026-07-28,
/// -32602 from it (data.uri). Tool arguments that fail the input schema give an isError:true result
/// naming the argument.
MethodReply CallCatalog(const FaultSet& faults, Revision revision, std::string_view method,
                        const boost::json::object& params);

}  // namespace mcpfuzz::refserver::detail
