#include "reports/finding_file.h"

#include <boost/json/parse.hpp>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

#include "model/case_file.h"
#include "model/pretty_json.h"
#include "oracles/verdict_json.h"

namespace mcpfuzz {
namespace {

// Bodies above this size are left out of case files when they are not the minimal case.
constexpr std::size_t kOriginalRequestLimit = 64 * 1024;

Error Invalid(const std::filesystem::path& path, std::string what) {
  return Error{path.string() + ": not an mcpfuzz case file: " + std::move(what)};
}

// names.unknown-consistent judges against the random name's answer the campaign saw, so replay
// compares with the same answer.
boost::json::object NameAnswerToJson(const NameAnswer& answer) {
  boost::json::object out{{"method", answer.method},
                          {"name", answer.name},
                          {"channel", ToString(answer.channel)},
                          {"message", answer.message}};
  if (answer.code) out["code"] = *answer.code;
  return out;
}

std::optional<NameAnswer> NameAnswerFromJson(const boost::json::value& json) {
  const auto* object = json.if_object();
  if (object == nullptr) return std::nullopt;
  auto text = [object](std::string_view key) -> const boost::json::string* {
    const auto* member = object->if_contains(key);
    return member != nullptr && member->is_string() ? &member->as_string() : nullptr;
  };
  const auto* method = text("method");
  const auto* name = text("name");
  const auto* channel = text("channel");
  const auto* message = text("message");
  if (method == nullptr || name == nullptr || channel == nullptr || message == nullptr) {
    return std::nullopt;
  }
  NameAnswer answer{std::string(*method), std::string(*name), Channel::kNoReply, std::nullopt,
                    std::string(*message)};
  bool known = false;
  for (Channel candidate : {Channel::kProtocolError, Channel::kExecutionError, Channel::kSuccess,
                            Channel::kNoReply, Channel::kNotJsonRpc, Channel::kTransportFailure}) {
    if (ToString(candidate) == *channel) {
      answer.channel = candidate;
      known = true;
    }
  }
  if (!known) return std::nullopt;
  if (const auto* code = object->if_contains("code"); code != nullptr && code->is_int64()) {
    answer.code = code->as_int64();
  }
  return answer;
}

}  // namespace

std::string FindingFileName(const std::string& check_id, const std::string& signature_hash) {
  return "fuzz-" + check_id + "-" + signature_hash + ".json";
}

boost::json::value FindingToJson(const FindingRecord& record) {
  const CampaignFacts* facts = record.campaign ? &*record.campaign : nullptr;
  boost::json::object out;
  out["format"] = kCaseFileFormat;
  out["version"] = kCaseFileVersion;
  out["origin"] = record.origin;
  if (facts != nullptr) out["family"] = facts->family;
  out["check_id"] = record.check_id;
  if (facts != nullptr && !facts->case_check_id.empty() &&
      facts->case_check_id != record.check_id) {
    out["case_check_id"] = facts->case_check_id;
  }
  if (facts != nullptr) out["variant"] = facts->variant;
  out["context"] = {{"capability_declared", record.context.capability_declared},
                    {"argument_name", record.context.argument_name}};
  if (record.context.random_name_answer) {
    out["context"].as_object()["random_name_answer"] =
        NameAnswerToJson(*record.context.random_name_answer);
  }
  out["request"] = RequestToJson(record.request);
  if (!record.steps.empty()) out["steps"] = SequenceToJson(record.steps);
  if (facts != nullptr && facts->original) {
    // The case before shrinking, unless it is too big to read (megabyte strings, deep nesting).
    std::string scratch;
    const std::size_t bytes = facts->original->WireView(scratch).size();
    if (bytes <= kOriginalRequestLimit) {
      out["original_request"] = RequestToJson(*facts->original);
    } else {
      out["original_request_bytes"] = bytes;
    }
  }
  AddVerdictJson(record.verdict, out);
  out["summary"] = Summarize(record.verdict);
  if (facts == nullptr) return out;
  out["signature"] = facts->signature;
  out["stable"] = facts->stable;
  out["reproduced"] = facts->reproduced;
  out["resends"] = facts->resends;
  out["shrink_steps"] = facts->shrink_steps;
  out["seed"] = facts->seed;
  out["case"] = facts->case_index;
  out["reproducer"] = facts->reproducer;
  return out;
}

Result<std::filesystem::path> WriteCaseFile(const std::filesystem::path& directory,
                                            const std::string& name,
                                            const boost::json::value& json) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) return Error{"cannot create " + directory.string() + ": " + error.message()};
  const std::filesystem::path path = directory / name;
  if (std::filesystem::exists(path, error)) return path;
  const std::filesystem::path temporary = directory / ("." + name + ".tmp");
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << PrettyJson(json);
    out.flush();
    if (!out) return Error{"cannot write " + temporary.string()};
  }
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    return Error{"cannot rename " + temporary.string() + " to " + path.string()};
  }
  return path;
}

Result<StoredCase> ReadCaseFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot read " + path.string()};
  // Read through rdbuf(): g++ 12 at -O2 warns (-Wnull-dereference) inside istreambuf_iterator.
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  boost::system::error_code parse_error;
  boost::json::parse_options options;
  options.max_depth = 100000;
  const boost::json::value json = boost::json::parse(text, parse_error, {}, options);
  if (parse_error) return Invalid(path, "not JSON (" + parse_error.message() + ")");
  const auto* object = json.if_object();
  if (object == nullptr) return Invalid(path, "not a JSON object");
  const auto* format = object->if_contains("format");
  if (format == nullptr && object->contains("transport") && object->contains("revision")) {
    return Invalid(path,
                   "a request case file, not a fuzz finding: it names no check to judge it by; "
                   "send it with `mcpfuzz send " +
                       path.string() + " TARGET`");
  }
  if (format == nullptr || !format->is_string() || format->as_string() != kCaseFileFormat) {
    return Invalid(path, "\"format\" is not \"mcpfuzz-case\"");
  }
  StoredCase stored;
  const auto* check_id = object->if_contains("check_id");
  if (check_id == nullptr || !check_id->is_string()) return Invalid(path, "no \"check_id\"");
  stored.check_id = std::string(check_id->as_string());
  const auto* request = object->if_contains("request");
  if (request == nullptr) return Invalid(path, "no \"request\"");
  auto parsed = RequestFromJson(*request);
  if (!parsed.ok()) return Error{path.string() + ": " + parsed.error().message};
  stored.request = std::move(*parsed);
  if (const auto* steps = object->if_contains("steps")) {
    auto sequence = SequenceFromJson(*steps);
    if (!sequence.ok()) return Error{path.string() + ": " + sequence.error().message};
    stored.steps = std::move(*sequence);
  }
  const auto* context_value = object->if_contains("context");
  if (const auto* context = context_value != nullptr ? context_value->if_object() : nullptr) {
    if (const auto* declared = context->if_contains("capability_declared");
        declared != nullptr && declared->is_bool()) {
      stored.context.capability_declared = declared->as_bool();
    }
    if (const auto* argument = context->if_contains("argument_name");
        argument != nullptr && argument->is_string()) {
      stored.context.argument_name = std::string(argument->as_string());
    }
    if (const auto* random = context->if_contains("random_name_answer")) {
      stored.context.random_name_answer = NameAnswerFromJson(*random);
    }
  }
  if (const auto* signature = object->if_contains("signature");
      signature != nullptr && signature->is_string()) {
    stored.signature = std::string(signature->as_string());
  }
  return stored;
}

}  // namespace mcpfuzz
