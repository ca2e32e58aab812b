#include "campaign/finding_file.h"

#include <boost/json/parse.hpp>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

#include "model/case_file.h"

namespace mcpfuzz {
namespace {

// Bodies above this size are left out of case files when they are not the minimal case.
constexpr std::size_t kOriginalRequestLimit = 64 * 1024;

boost::json::array Channels(const std::vector<Channel>& channels) {
  boost::json::array out;
  for (Channel channel : channels) out.emplace_back(ToString(channel));
  return out;
}

boost::json::value ExpectedJson(const ExpectedAnswer& expected) {
  boost::json::object out;
  out["text"] = expected.text;
  out["channels"] = Channels(expected.channels);
  if (!expected.tolerated.empty()) out["tolerated"] = Channels(expected.tolerated);
  out["codes"] = boost::json::array(expected.codes.begin(), expected.codes.end());
  boost::json::array statuses;
  for (const StatusRange& range : expected.http_statuses) statuses.emplace_back(ToString(range));
  out["http_statuses"] = std::move(statuses);
  if (!expected.data_members.empty()) {
    boost::json::array members;
    for (const std::string& member : expected.data_members) members.emplace_back(member);
    out["data_members"] = std::move(members);
  }
  return out;
}

boost::json::value ObservedJson(const Verdict& verdict) {
  boost::json::object out;
  out["verdict"] = ToString(verdict.kind);
  if (verdict.kind == VerdictKind::kUnverified) {
    out["unverified_reason"] = ToString(verdict.unverified_reason);
  }
  out["outcome"] = ToString(verdict.observed.outcome);
  out["channel"] = ToString(verdict.observed.channel);
  out["code"] = verdict.observed.code ? boost::json::value(*verdict.observed.code) : nullptr;
  out["http_status"] = verdict.observed.http_status;
  out["excerpt"] = verdict.observed.excerpt;
  boost::json::array findings;
  for (const Finding& finding : verdict.findings) {
    findings.push_back({{"aspect", ToString(finding.aspect)},
                        {"strength", ToString(finding.strength)},
                        {"text", finding.text}});
  }
  out["findings"] = std::move(findings);
  boost::json::array notes;
  for (const std::string& note : verdict.notes) notes.emplace_back(note);
  if (!notes.empty()) out["notes"] = std::move(notes);
  return out;
}

Error Invalid(const std::filesystem::path& path, std::string what) {
  return Error{path.string() + ": not an mcpfuzz case file: " + std::move(what)};
}

}  // namespace

std::string FindingFileName(const CampaignFinding& finding) {
  return "fuzz-" + finding.check_id + "-" + finding.signature_hash + ".json";
}

boost::json::value FindingToJson(const CampaignFinding& finding, std::uint64_t seed,
                                 const ReproducerTarget& reproducer) {
  boost::json::object out;
  out["format"] = kCaseFileFormat;
  out["version"] = kCaseFileVersion;
  out["origin"] =
      "fuzz seed=" + std::to_string(seed) + " case=" + std::to_string(finding.case_index);
  out["family"] = finding.family;
  out["check_id"] = finding.check_id;
  if (finding.case_check_id != finding.check_id) out["case_check_id"] = finding.case_check_id;
  out["variant"] = finding.variant;
  out["context"] = {{"capability_declared", finding.context.capability_declared},
                    {"argument_name", finding.context.argument_name}};
  out["request"] = RequestToJson(finding.minimal);
  if (!(finding.original == finding.minimal)) {
    // The case before shrinking, unless it is too big to read (megabyte strings, deep nesting).
    const std::size_t bytes = finding.original.WireBody().size();
    if (bytes <= kOriginalRequestLimit) {
      out["original_request"] = RequestToJson(finding.original);
    } else {
      out["original_request_bytes"] = bytes;
    }
  }
  out["expected"] = ExpectedJson(finding.verdict.expected);
  out["observed"] = ObservedJson(finding.verdict);
  out["summary"] = Summarize(finding.verdict);
  out["spec_reference"] = finding.verdict.spec_reference;
  out["signature"] = finding.signature;
  out["stable"] = finding.stable;
  out["reproduced"] = finding.reproduced;
  out["resends"] = finding.resends;
  out["shrink_steps"] = finding.shrink_steps;
  out["seed"] = seed;
  out["case"] = finding.case_index;
  out["reproducer"] = Reproducer(finding.minimal, reproducer);
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
  }
  if (const auto* signature = object->if_contains("signature");
      signature != nullptr && signature->is_string()) {
    stored.signature = std::string(signature->as_string());
  }
  return stored;
}

}  // namespace mcpfuzz
