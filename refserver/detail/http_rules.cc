#include "refserver/detail/http_rules.h"

#include <string>

#include "model/text.h"

namespace mcpfuzz::refserver::detail {
namespace {

// "host", "host:port", "[::1]", "[::1]:port" → the host part, lowercased.
std::string HostPart(std::string_view authority) {
  if (authority.starts_with('[')) {
    auto close = authority.find(']');
    return AsciiLowercase(close == std::string_view::npos ? authority
                                                          : authority.substr(0, close + 1));
  }
  return AsciiLowercase(authority.substr(0, authority.find(':')));
}

bool IsLoopbackHost(std::string_view host) {
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]";
}

// Splits a comma-separated header value and hands each trimmed media type (parameters
// removed) to `visit`, lowercased.
template <class Visit>
bool AnyMediaType(std::string_view value, Visit visit) {
  while (!value.empty()) {
    auto comma = value.find(',');
    std::string_view item = value.substr(0, comma);
    item = TrimOws(item.substr(0, item.find(';')));
    if (visit(AsciiLowercase(item))) return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

std::string_view TrimOws(std::string_view text) {
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> HeaderValues(const Headers& headers, std::string_view name) {
  std::vector<std::string_view> values;
  for (const Header& header : headers) {
    if (AsciiLowercase(header.name) == AsciiLowercase(name))
      values.push_back(TrimOws(header.value));
  }
  return values;
}

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// %XX escapes decoded, as the front's library decodes header values.
std::string PercentDecoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && HexDigit(text[i + 1]) >= 0 &&
        HexDigit(text[i + 2]) >= 0) {
      out += static_cast<char>(HexDigit(text[i + 1]) * 16 + HexDigit(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

bool HeaderCarries(std::string_view received, std::string_view sent) {
  if (received == sent) return true;
  return sent.find('%') != std::string_view::npos && received == PercentDecoded(sent);
}

bool OriginAndHostAllowed(const Headers& headers) {
  if (auto origin = FindHeader(headers, "Origin")) {
    std::string_view value = TrimOws(*origin);
    auto scheme_end = value.find("://");
    if (scheme_end == std::string_view::npos) return false;
    std::string scheme = AsciiLowercase(value.substr(0, scheme_end));
    if (scheme != "http" && scheme != "https") return false;
    std::string_view authority = value.substr(scheme_end + 3);
    authority = authority.substr(0, authority.find('/'));
    if (!IsLoopbackHost(HostPart(authority))) return false;
  }
  if (auto host = FindHeader(headers, "Host")) {
    if (!IsLoopbackHost(HostPart(TrimOws(*host)))) return false;
  }
  return true;
}

bool AcceptsJson(const Headers& headers) {
  auto accept = FindHeader(headers, "Accept");
  if (!accept) return false;
  return AnyMediaType(*accept, [](const std::string& type) {
    return type == "application/json" || type == "application/*" || type == "*/*";
  });
}

bool IsJsonContentType(const Headers& headers) {
  auto content_type = FindHeader(headers, "Content-Type");
  if (!content_type) return false;
  std::string_view media = TrimOws(content_type->substr(0, content_type->find(';')));
  return AsciiLowercase(media) == "application/json";
}

}  // namespace mcpfuzz::refserver::detail
