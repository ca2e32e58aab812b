// The Streamable HTTP transport: libcurl's multi interface driving one easy handle, so the
// connection pool outlives each exchange (keep-alive) and SSE streams can be left early.
//
// Thread safety: a transport is used by one thread at a time. Different transports may run on
// different threads concurrently.

#include "transport/http_transport.h"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "model/text.h"
#include "transport/children.h"
#include "transport/detail/reply_rule.h"
#include "transport/http_exchange.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

using Clock = std::chrono::steady_clock;

struct EasyDeleter {
  void operator()(CURL* handle) const { curl_easy_cleanup(handle); }
};
struct MultiDeleter {
  void operator()(CURLM* handle) const { curl_multi_cleanup(handle); }
};
struct UrlDeleter {
  void operator()(CURLU* handle) const { curl_url_cleanup(handle); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
struct CurlStringDeleter {
  void operator()(char* text) const { curl_free(text); }
};
using EasyHandle = std::unique_ptr<CURL, EasyDeleter>;
using MultiHandle = std::unique_ptr<CURLM, MultiDeleter>;
using UrlHandle = std::unique_ptr<CURLU, UrlDeleter>;
using HeaderList = std::unique_ptr<curl_slist, SlistDeleter>;

CURLcode GlobalInit() {
  static const CURLcode code = curl_global_init(CURL_GLOBAL_DEFAULT);
  return code;
}

Result<UrlHandle> ParseTargetUrl(const std::string& url, bool allow_remote) {
  UrlHandle handle(curl_url());
  if (!handle) return Error{"out of memory parsing URL"};
  // Unsupported schemes parse too, so that they get the same clear message as ftp:// does.
  if (CURLUcode code =
          curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), CURLU_NON_SUPPORT_SCHEME);
      code != CURLUE_OK) {
    return Error{"invalid URL '" + url + "': " + curl_url_strerror(code)};
  }
  const auto part = [&](CURLUPart which) {
    char* raw = nullptr;
    if (curl_url_get(handle.get(), which, &raw, 0) != CURLUE_OK) return std::string();
    std::unique_ptr<char, CurlStringDeleter> owned(raw);
    return std::string(raw);
  };
  const std::string scheme = AsciiLowercase(part(CURLUPART_SCHEME));
  if (scheme != "http" && scheme != "https") {
    return Error{"unsupported scheme '" + scheme + "' in URL '" + url +
                 "': only http and https are allowed"};
  }
  const std::string host = part(CURLUPART_HOST);
  if (host.empty()) return Error{"URL '" + url + "' names no host"};
  if (!allow_remote && !IsLoopbackHost(host)) {
    return Error{"host '" + host + "' in URL '" + url +
                 "' is not loopback (127.0.0.1, localhost or [::1]); remote targets must be "
                 "allowed (mcpfuzz --allow-remote)"};
  }
  return handle;
}

/// One header as a curl list entry. curl reads "Name:" as "remove the header", so an empty
/// value is written "Name;", which curl sends as "Name:".
std::string HeaderEntry(const Header& header) {
  if (TrimWhitespace(header.value).empty() && header.name.find(':') == std::string::npos) {
    return header.name + ";";
  }
  return header.name + ": " + header.value;
}

/// Where curl's callbacks deliver, set once per handle: only the exchange it points to changes.
struct Sink {
  HttpExchange* exchange = nullptr;
};

// curl calls these through C frames, which no exception may cross.
std::size_t OnHeader(char* buffer, std::size_t size, std::size_t count, void* user) noexcept {
  try {
    static_cast<Sink*>(user)->exchange->OnHeaderLine(std::string_view(buffer, size * count));
    return size * count;
  } catch (...) {
    return 0;  // aborts the transfer
  }
}

std::size_t OnBody(char* buffer, std::size_t size, std::size_t count, void* user) noexcept {
  try {
    const bool go_on =
        static_cast<Sink*>(user)->exchange->OnBody(std::string_view(buffer, size * count));
    return go_on ? size * count : 0;  // less than offered aborts the transfer
  } catch (...) {
    return 0;
  }
}

// Called each time curl is about to send the request on a connection. curl re-sends a request
// on a new connection when a reused one closed without a reply; the count tells that apart.
int OnPrereq(void* user, char* /*primary_ip*/, char* /*local_ip*/, int /*primary_port*/,
             int /*local_port*/) {
  ++*static_cast<int*>(user);
  return CURL_PREREQFUNC_OK;
}

Outcome OutcomeOf(CURLcode code) {
  switch (code) {
    case CURLE_OK:
      return Outcome::kOk;
    case CURLE_OPERATION_TIMEDOUT:
      return Outcome::kTimeout;
    case CURLE_COULDNT_CONNECT:
      return Outcome::kConnectionRefused;
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
      return Outcome::kConnectionReset;
    default:
      return Outcome::kTransportError;
  }
}

class HttpTransport final : public Transport {
 public:
  HttpTransport(HttpTarget target, UrlHandle url, MultiHandle multi, EasyHandle easy)
      : target_(std::move(target)),
        url_(std::move(url)),
        multi_(std::move(multi)),
        easy_(std::move(easy)) {}

  Observation Send(const Request& request) override;
  TransportKind kind() const override { return TransportKind::kHttp; }
  std::string Describe() const override { return target_.url; }
  ReproducerTarget ReproduceAt() const override {
    return {TransportKind::kHttp, target_.url, {}, {}};
  }
  void set_session_id(std::string id) override { session_id_ = std::move(id); }
  std::string session_id() const override { return session_id_; }

 private:
  /// Sets the options no exchange changes, once per handle; returns the name of the first one
  /// curl refused.
  std::optional<std::string> ConfigureHandle();
  /// Sets what differs from one exchange to the next: headers, method and body. Every one of
  /// them is set each time, so nothing of the last exchange carries over.
  std::optional<std::string> Configure(const Request& request, std::string_view body,
                                       HttpExchange& exchange);
  HeaderList BuildHeaders(const Request& request) const;
  /// Drives the transfer. Returns curl's result, or nullopt when mcpfuzz stopped listening to
  /// a quiet stream, or when curl's multi interface failed (then `failure` says why).
  std::optional<CURLcode> Run(const HttpExchange& exchange, std::string& failure);

  HttpTarget target_;
  std::string session_id_;
  // Declared in this order so the easy handle, which refers to the URL, is destroyed first.
  UrlHandle url_;
  MultiHandle multi_;
  EasyHandle easy_;
  HeaderList header_list_;
  Sink sink_;
  bool configured_ = false;
  std::array<char, CURL_ERROR_SIZE> error_buffer_{};
  /// How often curl sent the current request (see OnPrereq).
  int sends_ = 0;
};

namespace {
constexpr std::size_t kExpectContinueBytes = std::size_t{1} << 20;
}  // namespace

HeaderList HttpTransport::BuildHeaders(const Request& request) const {
  std::vector<std::string> entries;
  for (const Header& header : request.headers) entries.push_back(HeaderEntry(header));
  for (const Header& header : target_.extra_headers) entries.push_back(HeaderEntry(header));
  if (request.session == SessionBinding::kAttach && !session_id_.empty() &&
      !FindHeader(request.headers, "Mcp-Session-Id")) {
    entries.push_back(HeaderEntry({"Mcp-Session-Id", session_id_}));
  }
  // Headers curl would add on its own; a request that carries them still sends its own.
  for (const char* suppressed : {"Accept:", "Content-Type:"}) entries.emplace_back(suppressed);
  // A server that refuses a body of megabytes (413) answers before reading it and closes the
  // connection: sent without waiting, the body meets a reset or not depending on the
  // scheduler, and a refusal would look like a dead connection. Asking first (RFC 9110
  // §10.1.1) lets the refusal arrive before the body; small bodies are sent at once.
  const auto* raw = std::get_if<RawBody>(&request.body);
  const bool large = raw != nullptr && raw->bytes.size() > kExpectContinueBytes;
  if (!FindHeader(request.headers, "Expect")) {
    entries.emplace_back(large ? "Expect: 100-continue" : "Expect:");
  }
  HeaderList list;
  for (const std::string& entry : entries) {
    curl_slist* appended = curl_slist_append(list.get(), entry.c_str());
    if (appended == nullptr) return nullptr;
    static_cast<void>(list.release());
    list.reset(appended);
  }
  return list;
}

/// Sets options one by one and keeps the name of the first one curl refused.
class OptionSetter {
 public:
  explicit OptionSetter(CURL* easy) : easy_(easy) {}
  template <typename Value>
  void operator()(const char* name, CURLoption option, Value value) {
    if (!failed_ && curl_easy_setopt(easy_, option, value) != CURLE_OK) failed_ = name;
  }
  std::optional<std::string> failed() const { return failed_; }

 private:
  CURL* easy_;
  std::optional<std::string> failed_;
};

std::optional<std::string> HttpTransport::ConfigureHandle() {
  // curl reads 0 as "no limit"; every exchange must end.
  const long timeout_ms = std::max(1L, static_cast<long>(target_.limits.timeout.count()));
  OptionSetter set(easy_.get());
  set("CURLOPT_CURLU", CURLOPT_CURLU, url_.get());
  set("CURLOPT_PROTOCOLS_STR", CURLOPT_PROTOCOLS_STR, "http,https");
  set("CURLOPT_REDIR_PROTOCOLS_STR", CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  set("CURLOPT_FOLLOWLOCATION", CURLOPT_FOLLOWLOCATION, 0L);
  set("CURLOPT_PROXY", CURLOPT_PROXY, "");
  set("CURLOPT_NOSIGNAL", CURLOPT_NOSIGNAL, 1L);
  // HTTP/2 would lowercase header names; servers must see the casing the request holds.
  set("CURLOPT_HTTP_VERSION", CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
  set("CURLOPT_CONNECTTIMEOUT_MS", CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  set("CURLOPT_ERRORBUFFER", CURLOPT_ERRORBUFFER, error_buffer_.data());
  set("CURLOPT_HEADERFUNCTION", CURLOPT_HEADERFUNCTION, &OnHeader);
  set("CURLOPT_HEADERDATA", CURLOPT_HEADERDATA, static_cast<void*>(&sink_));
  set("CURLOPT_WRITEFUNCTION", CURLOPT_WRITEFUNCTION, &OnBody);
  set("CURLOPT_WRITEDATA", CURLOPT_WRITEDATA, static_cast<void*>(&sink_));
  set("CURLOPT_PREREQFUNCTION", CURLOPT_PREREQFUNCTION, &OnPrereq);
  set("CURLOPT_PREREQDATA", CURLOPT_PREREQDATA, static_cast<void*>(&sends_));
  return set.failed();
}

std::optional<std::string> HttpTransport::Configure(const Request& request, std::string_view body,
                                                    HttpExchange& exchange) {
  if (!configured_) {
    if (auto failed = ConfigureHandle()) return failed;
    configured_ = true;
  }
  HeaderList headers = BuildHeaders(request);
  if (!headers) return "CURLOPT_HTTPHEADER (out of memory)";
  error_buffer_.fill('\0');
  sink_.exchange = &exchange;
  sends_ = 0;

  OptionSetter set(easy_.get());
  // Per request: a large body buys its read allowance (Limits::TimeoutFor).
  set("CURLOPT_TIMEOUT_MS", CURLOPT_TIMEOUT_MS,
      std::max(1L, static_cast<long>(target_.limits.TimeoutFor(body.size()).count())));
  set("CURLOPT_HTTPHEADER", CURLOPT_HTTPHEADER, headers.get());
  header_list_ = std::move(headers);  // the last exchange's list is freed once curl forgot it
  // The method and body. curl keeps POSTFIELDS, NOBODY and CUSTOMREQUEST across transfers,
  // so each is set every time. POSTFIELDS makes the transfer a POST; HTTPGET makes it a GET
  // without NOBODY; CUSTOMREQUEST only renames the method on the request line (nullptr:
  // curl's own name).
  const std::string& method = request.http_method;
  const bool has_body = !std::holds_alternative<NoBody>(request.body);
  if (has_body) {
    set("CURLOPT_HTTPGET", CURLOPT_HTTPGET, 1L);
    set("CURLOPT_POSTFIELDSIZE_LARGE", CURLOPT_POSTFIELDSIZE_LARGE,
        static_cast<curl_off_t>(body.size()));
    set("CURLOPT_POSTFIELDS", CURLOPT_POSTFIELDS, body.data());
  } else {
    set("CURLOPT_POSTFIELDSIZE_LARGE", CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(-1));
    set("CURLOPT_POSTFIELDS", CURLOPT_POSTFIELDS, static_cast<const char*>(nullptr));
    set("CURLOPT_HTTPGET", CURLOPT_HTTPGET, 1L);
    // Else curl would wait for the body a HEAD reply announces but never sends.
    if (method == "HEAD") set("CURLOPT_NOBODY", CURLOPT_NOBODY, 1L);
  }
  const bool curls_own = has_body ? method == "POST" : method == "GET" || method == "HEAD";
  set("CURLOPT_CUSTOMREQUEST", CURLOPT_CUSTOMREQUEST,
      curls_own ? static_cast<const char*>(nullptr) : method.c_str());
  return set.failed();
}

std::optional<CURLcode> HttpTransport::Run(const HttpExchange& exchange, std::string& failure) {
  CURLM* multi = multi_.get();
  if (CURLMcode code = curl_multi_add_handle(multi, easy_.get()); code != CURLM_OK) {
    failure = std::string("curl: ") + curl_multi_strerror(code);
    return std::nullopt;
  }
  const auto quiet_window = target_.limits.quiet_window;
  const auto started = Clock::now();
  std::optional<CURLcode> result;
  while (true) {
    int running = 0;
    if (CURLMcode code = curl_multi_perform(multi, &running); code != CURLM_OK) {
      failure = std::string("curl: ") + curl_multi_strerror(code);
      break;
    }
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
      if (message->msg == CURLMSG_DONE) result = message->data.result;
    }
    if (result || running == 0) break;
    if (ExchangesStopped()) {
      failure = kStoppedDetail;
      break;
    }
    auto wait = std::chrono::milliseconds(50);
    if (exchange.awaits_stream_headers()) {
      const auto waited = Clock::now() - started;
      if (waited >= target_.limits.stream_open) break;  // Send says why
      wait = std::min(
          wait, std::chrono::ceil<std::chrono::milliseconds>(target_.limits.stream_open - waited));
    }
    if ((!exchange.expects_reply() || exchange.acknowledged()) && exchange.is_sse()) {
      const auto quiet_for = Clock::now() - exchange.last_activity();
      if (quiet_for >= quiet_window) break;  // heard all there was to hear
      wait = std::min(wait, std::chrono::ceil<std::chrono::milliseconds>(quiet_window - quiet_for));
    }
    curl_multi_poll(multi, nullptr, 0, static_cast<int>(wait.count()), nullptr);
  }
  // Removing a handle mid-transfer closes its connection; a finished one goes back to the pool.
  curl_multi_remove_handle(multi, easy_.get());
  return result;
}

Observation HttpTransport::Send(const Request& request) {
  Observation observation;
  if (ExchangesStopped()) {
    observation.outcome = Outcome::kTransportError;
    observation.detail = kStoppedDetail;
    return observation;
  }
  const auto start = Clock::now();
  std::string scratch;
  const std::string_view body = request.WireView(scratch);
  HttpExchange exchange(observation, request, target_.limits.max_response_bytes,
                        target_.limits.max_reply_lines);
  if (auto failed = Configure(request, body, exchange)) {
    observation.outcome = Outcome::kTransportError;
    observation.detail = "curl refused option " + *failed;
    return observation;
  }
  std::string failure;
  const std::optional<CURLcode> result = Run(exchange, failure);

  long status = 0;
  curl_easy_getinfo(easy_.get(), CURLINFO_RESPONSE_CODE, &status);
  observation.http_status = static_cast<int>(status);
  const bool ended_inside_event = exchange.Finish();

  if (exchange.answered()) {
    observation.detail = "stopped reading the SSE stream after the response";
  } else if (exchange.too_large()) {
    observation.outcome = Outcome::kTooLarge;
    observation.detail = exchange.DescribeTooLarge();
  } else if (!result && failure.empty() && exchange.awaits_stream_headers()) {
    observation.outcome = Outcome::kTimeout;
    observation.time_limit = TimeLimit::kStreamOpen;
    observation.limit = target_.limits.stream_open;
    observation.detail = "no response headers within the " +
                         std::to_string(target_.limits.stream_open.count()) +
                         " ms a GET stream's headers are awaited: a server may hold them until "
                         "it has an event to send";
  } else if (!result && failure.empty() && exchange.acknowledged()) {
    observation.detail = std::string(transport_detail::kAcknowledgedQuiet);
  } else if (!result && failure.empty()) {
    observation.detail = "SSE stream quiet for " +
                         std::to_string(target_.limits.quiet_window.count()) +
                         " ms; stopped listening";
  } else if (!result) {
    observation.outcome = Outcome::kTransportError;
    observation.detail = failure;
  } else if (*result == CURLE_OPERATION_TIMEDOUT &&
             (!exchange.expects_reply() || exchange.acknowledged()) && exchange.is_sse()) {
    // A stream that expects no reply may never end (GET streams never do by design).
    observation.detail = "SSE stream still open at the time limit; stopped listening";
  } else if (*result != CURLE_OK) {
    observation.outcome = OutcomeOf(*result);
    observation.detail =
        "curl: " +
        std::string(error_buffer_[0] != '\0' ? error_buffer_.data() : curl_easy_strerror(*result));
  } else if (ended_inside_event) {
    observation.detail = "SSE stream ended inside an event, which was discarded";
  }
  if (sends_ > 0 && observation.outcome == Outcome::kConnectionRefused) {
    // The request went out on a reused connection that closed without a reply; curl then
    // tried a fresh connection and found nothing listening. The server went away with our
    // request: that is a reset, not "nothing listens".
    observation.outcome = Outcome::kConnectionReset;
    observation.detail = "the connection closed without a reply, and a new connection was refused";
  } else if (sends_ > 1) {
    observation.detail =
        "the connection closed without a reply and curl sent the request again"
        " on a new connection, so the server may have received it twice" +
        (observation.detail.empty() ? "" : "; " + observation.detail);
  }
  observation.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
  return observation;
}

}  // namespace

bool IsLoopbackHost(std::string_view host) {
  const std::string lower = AsciiLowercase(host);
  if (lower == "localhost" || lower == "[::1]") return true;
  // A dotted quad whose first octet is 127.
  int octets = 0;
  std::size_t position = 0;
  while (position <= lower.size()) {
    std::size_t end = lower.find('.', position);
    if (end == std::string::npos) end = lower.size();
    const std::string_view octet = std::string_view(lower).substr(position, end - position);
    if (octet.empty() || octet.size() > 3 ||
        !std::all_of(octet.begin(), octet.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return false;
    }
    if (std::stoi(std::string(octet)) > 255) return false;
    if (octets == 0 && octet != "127") return false;
    ++octets;
    position = end + 1;
  }
  return octets == 4;
}

Result<std::unique_ptr<Transport>> OpenHttp(HttpTarget target) {
  if (CURLcode code = GlobalInit(); code != CURLE_OK) {
    return Error{std::string("curl_global_init failed: ") + curl_easy_strerror(code)};
  }
  auto url = ParseTargetUrl(target.url, target.allow_remote);
  if (!url) return url.error();
  MultiHandle multi(curl_multi_init());
  EasyHandle easy(curl_easy_init());
  if (!multi || !easy) return Error{"curl could not create a handle"};
  return std::unique_ptr<Transport>(std::make_unique<HttpTransport>(
      std::move(target), std::move(*url), std::move(multi), std::move(easy)));
}

}  // namespace mcpfuzz
