#include "campaign/detail/random_names.h"

#include <string_view>
#include <utility>

namespace mcpfuzz::campaign_detail {

std::vector<NameAnswer> AskRandomNames(McpClient& client) {
  std::vector<NameAnswer> answers;
  const std::pair<std::string_view, std::string_view> kMethods[] = {
      {"tools", "tools/call"}, {"prompts", "prompts/get"}, {"resources", "resources/read"}};
  for (const auto& [capability, method] : kMethods) {
    if (!client.Declares(capability)) continue;
    const Request request = client.Make(method, NameParams(method, RandomNameFor(method)));
    const Observation observation = client.Send(request);
    // A timeout or a broken exchange is no answer to compare with.
    if (observation.outcome != Outcome::kOk) continue;
    answers.push_back(ReadNameAnswer(request, observation));
  }
  return answers;
}

}  // namespace mcpfuzz::campaign_detail
