#include "campaign/detail/random_names.h"

#include <string>
#include <string_view>
#include <utility>

namespace mcpfuzz::campaign_detail {

std::vector<NameAnswer> AskRandomNames(const GenContext& context,
                                       const std::function<Observation(const Request&)>& send) {
  std::vector<NameAnswer> answers;
  const std::pair<std::string_view, std::string_view> kMethods[] = {
      {"tools", "tools/call"}, {"prompts", "prompts/get"}, {"resources", "resources/read"}};
  for (const auto& [capability, method] : kMethods) {
    if (!context.Declares(capability)) continue;
    const Request request =
        context.Make(method, NameParams(method, RandomNameFor(method)),
                     boost::json::value("mcpfuzz-random-name-" + std::string(capability)));
    const Observation observation = send(request);
    // A drop, a timeout or a broken exchange is no answer to compare with.
    if (observation.outcome != Outcome::kOk) continue;
    answers.push_back(ReadNameAnswer(request, observation));
  }
  return answers;
}

}  // namespace mcpfuzz::campaign_detail
