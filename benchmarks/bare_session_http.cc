// The bare HTTP session client: libcurl's easy interface with one handle per thread kept for
// every request (keep-alive), a session opened once per thread (in the handshake era), then
// the same small request over and over. Each reply is checked (200, a JSON-RPC result with the
// request's id, as JSON or as an SSE event) so a server that answers errors fast cannot pass for a
// fast server.

#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
#include <cctype>
#include <chrono>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "benchmarks/bench_util.h"
#include "benchmarks/real.h"

namespace mcpfuzz::bench {
namespace {

struct Reply {
  long status = 0;
  std::string body;
  std::string session_id;
};

std::size_t KeepBody(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<Reply*>(user)->body.append(data, size * count);
  return size * count;
}

std::size_t KeepSessionId(char* data, std::size_t size, std::size_t count, void* user) {
  if (auto id = SessionIdOfHeaderLine(std::string_view(data, size * count))) {
    static_cast<Reply*>(user)->session_id = std::move(*id);
  }
  return size * count;
}

bool AnswersWithResult(const boost::json::value& message, long id) {
  const auto* object = message.if_object();
  if (object == nullptr || !object->contains("result")) return false;
  const auto* reply_id = object->if_contains("id");
  return reply_id != nullptr && reply_id->is_int64() && reply_id->as_int64() == id;
}

// The body is one JSON message, or SSE whose `data:` lines carry messages (priming events
// have empty data).
bool HasResult(const std::string& body, long id) {
  boost::system::error_code error;
  const boost::json::value whole = boost::json::parse(body, error);
  if (!error) return AnswersWithResult(whole, id);
  for (std::size_t start = 0; start < body.size();) {
    const std::size_t end = std::min(body.find('\n', start), body.size());
    std::string_view line(body.data() + start, end - start);
    start = end + 1;
    if (!line.starts_with("data:")) continue;
    line.remove_prefix(5);
    const boost::json::value message = boost::json::parse(line, error);
    if (!error && AnswersWithResult(message, id)) return true;
  }
  return false;
}

class SessionClient {
 public:
  SessionClient(const std::string& url, std::string revision, std::string method)
      : easy_(curl_easy_init()), revision_(std::move(revision)), method_(std::move(method)) {
    if (easy_ == nullptr) throw std::runtime_error("curl_easy_init failed");
    curl_easy_setopt(easy_, CURLOPT_URL, url.c_str());
    curl_easy_setopt(easy_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy_, CURLOPT_PROXY, "");
    curl_easy_setopt(easy_, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
    curl_easy_setopt(easy_, CURLOPT_TIMEOUT_MS, 5000L);
    curl_easy_setopt(easy_, CURLOPT_WRITEFUNCTION, &KeepBody);
    curl_easy_setopt(easy_, CURLOPT_WRITEDATA, static_cast<void*>(&reply_));
    curl_easy_setopt(easy_, CURLOPT_HEADERFUNCTION, &KeepSessionId);
    curl_easy_setopt(easy_, CURLOPT_HEADERDATA, static_cast<void*>(&reply_));
  }
  ~SessionClient() {
    if (!session_id_.empty()) {
      // Ends the session so the server does not keep it for the next run; its answer is moot.
      curl_easy_setopt(easy_, CURLOPT_HTTPGET, 1L);
      curl_easy_setopt(easy_, CURLOPT_CUSTOMREQUEST, "DELETE");
      Perform();
    }
    curl_slist_free_all(headers_);
    curl_easy_cleanup(easy_);
  }
  SessionClient(const SessionClient&) = delete;
  SessionClient& operator=(const SessionClient&) = delete;

  /// Returns an error message, empty when the session is open.
  std::string Open() {
    SetHeaders();
    if (revision_ == kEnvelopeRevision) return "";
    Post(R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":")" +
         revision_ +
         R"(","capabilities":{},"clientInfo":{"name":"mcpfuzz-bench-real","version":"1"}}})");
    if (reply_.status != 200 || !HasResult(reply_.body, 0)) {
      return "initialize: HTTP " + std::to_string(reply_.status) + " " + reply_.body.substr(0, 200);
    }
    session_id_ = reply_.session_id;
    SetHeaders();
    Post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    if (reply_.status / 100 != 2) {
      return "notifications/initialized: HTTP " + std::to_string(reply_.status);
    }
    return "";
  }

  /// Returns an error message, empty when the server answered with a result.
  std::string Call(long id) {
    std::string body =
        R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":")" + method_;
    if (revision_ == kEnvelopeRevision) {
      body += R"(","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":")" + revision_ +
              R"(","io.modelcontextprotocol/clientCapabilities":{}}}})";
    } else {
      body += "\"}";
    }
    Post(body);
    if (reply_.status == 200 && HasResult(reply_.body, id)) return "";
    return method_ + ": HTTP " + std::to_string(reply_.status) + " " + reply_.body.substr(0, 200);
  }

 private:
  // Set once per session, not per request: the bare client pays for nothing it need not.
  void SetHeaders() {
    curl_slist_free_all(headers_);
    headers_ = nullptr;
    for (std::string header :
         {std::string("Content-Type: application/json"),
          std::string("Accept: application/json, text/event-stream"),
          std::string("MCP-Protocol-Version: ") + revision_, std::string("Expect:")}) {
      headers_ = curl_slist_append(headers_, header.c_str());
    }
    if (revision_ == kEnvelopeRevision) {
      headers_ = curl_slist_append(headers_, ("Mcp-Method: " + method_).c_str());
    }
    if (!session_id_.empty()) {
      headers_ = curl_slist_append(headers_, ("Mcp-Session-Id: " + session_id_).c_str());
    }
    curl_easy_setopt(easy_, CURLOPT_HTTPHEADER, headers_);
  }
  void Post(const std::string& body) {
    curl_easy_setopt(easy_, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(easy_, CURLOPT_COPYPOSTFIELDS, body.c_str());
    Perform();
  }
  void Perform() {
    reply_ = Reply{};
    if (curl_easy_perform(easy_) == CURLE_OK) {
      curl_easy_getinfo(easy_, CURLINFO_RESPONSE_CODE, &reply_.status);
    }
  }

  CURL* easy_;
  std::string revision_;
  std::string method_;
  curl_slist* headers_ = nullptr;
  std::string session_id_;
  Reply reply_;
};

}  // namespace

BareSessionRun BareSessionHttp(const std::string& url, const std::string& revision,
                               const std::string& method, std::size_t requests,
                               std::size_t concurrency) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  std::vector<std::unique_ptr<SessionClient>> clients;
  BareSessionRun run;
  for (std::size_t i = 0; i < concurrency; ++i) {
    clients.push_back(std::make_unique<SessionClient>(url, revision, method));
    const std::string error = clients.back()->Open();
    if (!error.empty()) throw std::runtime_error("bare client: " + error);
  }
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> errors{0};
  std::mutex first_error_mutex;
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  for (auto& client : clients) {
    threads.emplace_back([&, session = client.get()] {
      for (std::size_t i = next++; i < requests; i = next++) {
        const std::string error = session->Call(static_cast<long>(i) + 1);
        if (error.empty()) continue;
        if (errors++ == 0) {
          const std::lock_guard lock(first_error_mutex);
          run.first_error = error;
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.requests = requests;
  run.errors = errors.load();
  return run;
}

}  // namespace mcpfuzz::bench
