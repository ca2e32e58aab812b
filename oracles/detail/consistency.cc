#include "oracles/detail/consistency.h"

#include <optional>

#include "model/text.h"

namespace mcpfuzz::oracles_detail {
namespace {

std::string Show(Channel channel, const std::optional<std::int64_t>& code) {
  std::string text(ToString(channel));
  if (code) text += " " + std::to_string(*code);
  return text;
}

// Words by which an answer claims the thing exists: what a lookup that reached Object.prototype
// (a function, not undefined) ends up saying.
bool ClaimsExistence(const std::string& message) {
  const std::string lower = AsciiLowercase(message);
  for (std::string_view word : {"disabled", "already", "exists", "not enabled", "function"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

std::vector<Finding> CompareWithRandomName(const Judging& c) {
  const NameAnswer& reference = *c.context.random_name_answer;
  const NameAnswer answer = ReadNameAnswer(c.request, c.observation);
  const std::string quoted = "\"" + Excerpt(answer.name, 60) + "\"";
  const std::string random = "\"" + Excerpt(reference.name, 60) + "\"";
  std::vector<Finding> findings;
  if (answer.channel != reference.channel || answer.code != reference.code) {
    findings.push_back({Aspect::kChannel, c.row.channel.strength,
                        quoted + " got " + Show(answer.channel, answer.code) +
                            " where the random " + random + " got " +
                            Show(reference.channel, reference.code)});
    return findings;
  }
  const std::string expected = MessageFor(reference, answer.name);
  if (answer.message == expected) return findings;
  std::string text = quoted + " got the message \"" + Excerpt(answer.message, 120) +
                     "\" where a random name's answer reads \"" + Excerpt(expected, 120) + "\"";
  if (ClaimsExistence(answer.message) && !ClaimsExistence(reference.message)) {
    text += ": it says the name exists, as a lookup through a plain object's prototype does";
  }
  findings.push_back({Aspect::kShape, c.row.shape_strength, std::move(text)});
  return findings;
}

}  // namespace mcpfuzz::oracles_detail
