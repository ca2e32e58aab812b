#include "reports/writers.h"

namespace mcpfuzz::reports {

std::optional<Format> ParseFormat(std::string_view name) {
  if (name == "json") return Format::kJson;
  if (name == "junit") return Format::kJunit;
  if (name == "sarif") return Format::kSarif;
  if (name == "markdown" || name == "md") return Format::kMarkdown;
  if (name == "html") return Format::kHtml;
  return std::nullopt;
}

std::string_view ToString(Format format) {
  switch (format) {
    case Format::kJson:
      return "json";
    case Format::kJunit:
      return "junit";
    case Format::kSarif:
      return "sarif";
    case Format::kMarkdown:
      return "markdown";
    case Format::kHtml:
      return "html";
  }
  return "json";
}

void Write(Format format, const Report& report, std::ostream& out, const SarifOptions& sarif) {
  switch (format) {
    case Format::kJson:
      WriteJson(report, out);
      return;
    case Format::kJunit:
      WriteJunit(report, out);
      return;
    case Format::kSarif:
      WriteSarif(report, out, sarif);
      return;
    case Format::kMarkdown:
      WriteMarkdown(report, out);
      return;
    case Format::kHtml:
      WriteHtml(report, out);
      return;
  }
}

}  // namespace mcpfuzz::reports
