#include "generators/generated_case.h"

#include <ostream>

#include "model/request_edit.h"

namespace mcpfuzz {

Request GenContext::Make(std::string_view method, boost::json::object params,
                         boost::json::value id) const {
  if (make) return make(method, std::move(params), std::move(id));
  return MakeRequest(revision, transport, method, std::move(params), std::move(id));
}

bool GenContext::DeclaresFlag(std::string_view capability, std::string_view member) const {
  return mcpfuzz::DeclaresFlag(capabilities, capability, member);
}

Request GenContext::MakeNotification(std::string_view method, boost::json::object params) const {
  if (make) return make(method, std::move(params), std::nullopt);
  return mcpfuzz::MakeNotification(revision, transport, method, std::move(params));
}

void showValue(const GeneratedCase& generated, std::ostream& out) {
  out << generated.family << " / " << generated.check_id << " (" << generated.variant << ") "
      << ToString(generated.request.revision) << " " << ToString(generated.request.transport)
      << ": ";
  const std::string body = generated.request.WireBody();
  out << (body.size() > 300 ? body.substr(0, 300) + "…" : body);
}

}  // namespace mcpfuzz
