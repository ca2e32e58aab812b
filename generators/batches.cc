// JSON-RPC batches of harmless requests and notifications. 2025-03-26 must process them; every
// other revision defines no batch at all.

#include <rapidcheck.h>

#include <string>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/values.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

using detail::MakeCase;

constexpr std::string_view kFamily = "batches";

}  // namespace

rc::Gen<GeneratedCase> Batches(const GenContext& context) {
  const std::vector<std::string> methods = detail::HarmlessMethods(context);
  const bool accepted = context.revision == Revision::k2025_03_26;
  const std::string_view check_id = accepted ? check::kBatchAccepted : check::kBatchRejected;
  // Each element: a request (method index ≥ 0) or a notification (-1).
  auto element_kind = rc::gen::inRange(-1, static_cast<int>(methods.size()));
  // An empty batch owes a single -32600 in 2025-03-26 (tables §3 F12), which the batch
  // expectation there does not describe: only other revisions get one.
  const int min_elements = accepted ? 1 : 0;
  return rc::gen::apply(
      [context, methods, check_id](const std::vector<int>& elements, std::int64_t first_id) {
        boost::json::array batch;
        std::optional<Request> first;
        std::int64_t id = first_id;
        for (int element : elements) {
          Request message =
              element < 0 ? context.MakeNotification("notifications/roots/list_changed")
                          : context.Make(methods[static_cast<std::size_t>(element)], {}, id++);
          if (!first) first = message;
          batch.push_back(*message.BodyJson());
        }
        // The HTTP headers are those of the first message (a batch has no method of its own).
        Request request = first ? *first : context.Make(methods.front(), {}, first_id);
        const Request well_formed = request;
        request.body = boost::json::value(std::move(batch));
        return MakeCase(kFamily, check_id, std::move(request),
                        "a batch of " + std::to_string(elements.size()), well_formed);
      },
      rc::gen::mapcat(rc::gen::inRange(min_elements, 5),
                      [element_kind](int count) {
                        return rc::gen::container<std::vector<int>>(static_cast<std::size_t>(count),
                                                                    element_kind);
                      }),
      rc::gen::inRange<std::int64_t>(1, 1000));
}

}  // namespace mcpfuzz::gen
