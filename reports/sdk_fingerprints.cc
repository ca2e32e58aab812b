#include "reports/sdk_fingerprints.h"

#include <algorithm>
#include <boost/json/parse.hpp>
#include <cctype>
#include <optional>
#include <utility>

#include "reports/detail/json_read.h"

namespace mcpfuzz::reports {

// The text of reports/data/sdk_fingerprints.json, written into a source file by CMake.
extern const char* const kSdkFingerprintsJson;

namespace {

namespace json = boost::json;

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// A word that differs from run to run or server to server while saying the same thing: a hex
// run with a digit (ids, session ids, hashes) or a long number (ports, sizes, times). A
// negative number is an error code and stays.
bool Volatile(std::string_view word, bool after_minus) {
  const bool digits = std::all_of(
      word.begin(), word.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  if (digits) return word.size() >= 4 && !after_minus;
  const bool hex = std::all_of(word.begin(), word.end(),
                               [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
  const bool some_digit = std::any_of(
      word.begin(), word.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  return hex && some_digit && word.size() >= 6;
}

std::string NormalisedWords(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && out.size() < 120;) {
    const char c = text[i];
    if (IsWordChar(c)) {
      std::size_t end = i;
      while (end < text.size() && IsWordChar(text[end])) ++end;
      const std::string_view word = text.substr(i, end - i);
      if (Volatile(word, i > 0 && text[i - 1] == '-')) {
        out += '#';
      } else {
        for (char w : word) out += static_cast<char>(std::tolower(static_cast<unsigned char>(w)));
      }
      i = end;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
      ++i;
    } else {
      out += c;
      ++i;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out.substr(0, 120);
}

}  // namespace

const KnownSdk* FingerprintTable::Find(std::string_view id) const {
  for (const KnownSdk& sdk : sdks) {
    if (sdk.id == id) return &sdk;
  }
  return nullptr;
}

std::string Fingerprint(const ReportItem& item) {
  const Verdict& verdict = item.verdict;
  if (verdict.kind != VerdictKind::kFail && verdict.kind != VerdictKind::kWarn) return "";
  const Channel channel = verdict.observed.channel;
  // Only an error carries the layer's words: a success excerpt is the server's own result (its
  // tools, its data), and a silence or transport failure's words are mcpfuzz's.
  const bool worded = channel == Channel::kProtocolError || channel == Channel::kExecutionError ||
                      channel == Channel::kNotJsonRpc;
  const std::string words = worded ? NormalisedWords(verdict.observed.excerpt) : "";
  if (words.empty() && !verdict.observed.code) return "";
  return item.id + "|" + std::string(ToString(verdict.kind)) + "|" +
         std::string(ToString(verdict.observed.channel)) + "|" +
         (verdict.observed.code ? std::to_string(*verdict.observed.code) : "") + "|" + words;
}

Result<FingerprintTable> ParseFingerprintTable(std::string_view json_text) {
  boost::system::error_code failed;
  const json::value value = json::parse(json_text, failed);
  if (failed || !value.is_object()) return Error{"the fingerprint table is not a JSON object"};
  const json::object& in = value.as_object();
  FingerprintTable table;
  for (const json::value& entry : detail::Array(in, "sdks")) {
    if (!entry.is_object()) return Error{"an SDK of the fingerprint table is not an object"};
    const json::object& sdk = entry.as_object();
    table.sdks.push_back(
        {detail::Text(sdk, "id"), detail::Text(sdk, "name"), detail::Text(sdk, "package")});
  }
  for (const json::value& entry : detail::Array(in, "fingerprints")) {
    if (!entry.is_object()) return Error{"a fingerprint is not an object"};
    const json::object& print = entry.as_object();
    std::vector<std::string>& sdks = table.fingerprints[detail::Text(print, "fingerprint")];
    for (const json::value& id : detail::Array(print, "sdks")) {
      if (!id.is_string() || table.Find(id.as_string()) == nullptr) {
        return Error{"a fingerprint names an SDK the table does not list"};
      }
      sdks.emplace_back(id.as_string());
    }
  }
  return table;
}

const FingerprintTable& KnownSdkFingerprints() {
  // The file is checked by a test; a table that does not read is an empty one, never a crash.
  static const FingerprintTable table = [] {
    auto parsed = ParseFingerprintTable(kSdkFingerprintsJson);
    return parsed.ok() ? std::move(*parsed) : FingerprintTable{};
  }();
  return table;
}

std::vector<InheritedCheck> LikelyInherited(const TargetSection& target,
                                            const FingerprintTable& table) {
  // Per check: the SDKs that showed every deviation of it seen so far, or nothing once one
  // deviation matched no SDK.
  std::vector<std::string> order;
  std::map<std::string, std::optional<std::vector<std::string>>> common;
  for (const ReportItem& item : target.items) {
    if (item.verdict.kind != VerdictKind::kFail && item.verdict.kind != VerdictKind::kWarn) {
      continue;
    }
    auto [entry, first] = common.try_emplace(item.id);
    if (first) order.push_back(item.id);
    const auto found = table.fingerprints.find(Fingerprint(item));
    std::vector<std::string> sdks;
    if (found != table.fingerprints.end()) sdks = found->second;
    if (first) {
      entry->second = std::move(sdks);
    } else if (entry->second) {
      std::erase_if(*entry->second, [&sdks](const std::string& id) {
        return std::find(sdks.begin(), sdks.end(), id) == sdks.end();
      });
    }
  }
  std::vector<InheritedCheck> inherited;
  for (const std::string& check : order) {
    const auto& sdks = common[check];
    if (sdks && !sdks->empty()) inherited.push_back({check, *sdks});
  }
  return inherited;
}

}  // namespace mcpfuzz::reports
