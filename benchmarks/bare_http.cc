// The bare HTTP client: libcurl's easy interface, one handle per thread kept for every request
// (keep-alive), the recorded requests' exact method, headers and body, replies discarded.
// No judging, no classification, no observation: the fastest a client can send these bytes.

#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "benchmarks/bench_util.h"
#include "benchmarks/e2e.h"
#include "model/request_builder.h"

namespace mcpfuzz::bench {
namespace {

struct SessionIds {
  std::mutex mutex;
  /// By recorded connection: mcpfuzz keeps one session id per transport.
  std::map<std::size_t, std::string> by_connection;
  /// By recorded connection: the session a sequence's second initialize without a session
  /// opened beside the first (SessionBinding::kSecond).
  std::map<std::size_t, std::string> second_by_connection;
};

struct Reply {
  std::string session_id;
};

std::size_t Discard(char* /*data*/, std::size_t size, std::size_t count, void* /*user*/) {
  return size * count;
}

std::size_t KeepSessionId(char* data, std::size_t size, std::size_t count, void* user) {
  if (auto id = SessionIdOfHeaderLine(std::string_view(data, size * count))) {
    static_cast<Reply*>(user)->session_id = std::move(*id);
  }
  return size * count;
}

class Client {
 public:
  Client(const std::string& url, SessionIds& ids) : easy_(curl_easy_init()), ids_(ids) {
    if (easy_ == nullptr) throw std::runtime_error("curl_easy_init failed");
    curl_easy_setopt(easy_, CURLOPT_URL, url.c_str());
    curl_easy_setopt(easy_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy_, CURLOPT_PROXY, "");
    curl_easy_setopt(easy_, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
    curl_easy_setopt(easy_, CURLOPT_TIMEOUT_MS, 5000L);
    curl_easy_setopt(easy_, CURLOPT_WRITEFUNCTION, &Discard);
    curl_easy_setopt(easy_, CURLOPT_HEADERFUNCTION, &KeepSessionId);
    curl_easy_setopt(easy_, CURLOPT_HEADERDATA, static_cast<void*>(&reply_));
  }
  ~Client() { curl_easy_cleanup(easy_); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  /// Returns the HTTP status.
  int Send(const SentRequest& sent) {
    const Request& request = sent.request;
    curl_slist* headers = nullptr;
    auto add = [&headers](const std::string& entry) {
      headers = curl_slist_append(headers, entry.c_str());
    };
    // The recorded second session's id is mcpfuzz's, not this run's: it is replaced.
    const bool second = request.session == SessionBinding::kSecond;
    Headers recorded = request.headers;
    if (second) RemoveHeader(recorded, kHeaderSessionId);
    for (const Header& header : recorded) {
      add(header.value.empty() ? header.name + ";" : header.name + ": " + header.value);
    }
    const bool attach = second || (request.session == SessionBinding::kAttach &&
                                   !FindHeader(request.headers, kHeaderSessionId));
    if (attach) {
      const std::lock_guard lock(ids_.mutex);
      const auto& ids = second ? ids_.second_by_connection : ids_.by_connection;
      auto id = ids.find(sent.connection);
      if (id != ids.end()) add(std::string(kHeaderSessionId) + ": " + id->second);
    }
    // As mcpfuzz does: curl adds none of its own.
    for (const char* suppressed : {"Accept:", "Expect:", "Content-Type:"}) add(suppressed);
    const std::string body = request.WireBody();
    curl_easy_setopt(easy_, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(easy_, CURLOPT_CUSTOMREQUEST, nullptr);
    curl_easy_setopt(easy_, CURLOPT_NOBODY, 0L);
    if (!std::holds_alternative<NoBody>(request.body)) {
      curl_easy_setopt(easy_, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
      curl_easy_setopt(easy_, CURLOPT_POSTFIELDS, body.data());
      if (request.http_method != "POST") {
        curl_easy_setopt(easy_, CURLOPT_CUSTOMREQUEST, request.http_method.c_str());
      }
    } else if (request.http_method == "GET") {
      curl_easy_setopt(easy_, CURLOPT_HTTPGET, 1L);
    } else {
      curl_easy_setopt(easy_, CURLOPT_HTTPGET, 1L);
      curl_easy_setopt(easy_, CURLOPT_CUSTOMREQUEST, request.http_method.c_str());
    }
    reply_.session_id.clear();
    long status = 0;
    if (curl_easy_perform(easy_) == CURLE_OK)
      curl_easy_getinfo(easy_, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    if (!reply_.session_id.empty() && request.RpcMethod() == "initialize") {
      const std::lock_guard lock(ids_.mutex);
      // The first: a second initialize on one connection (a sequence) leaves mcpfuzz's
      // session id as it was, and one sent without a session opens the second.
      if (!ids_.by_connection.emplace(sent.connection, reply_.session_id).second &&
          request.session == SessionBinding::kOmit) {
        ids_.second_by_connection.emplace(sent.connection, reply_.session_id);
      }
    }
    return static_cast<int>(status);
  }

 private:
  CURL* easy_;
  SessionIds& ids_;
  Reply reply_;
};

}  // namespace

BareRun BareHttp(const std::string& url, const Recording& recording, std::size_t concurrency) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  SessionIds ids;
  std::atomic<std::size_t> mismatches{0};
  auto send = [&](Client& client, const SentRequest& sent) {
    if (client.Send(sent) != sent.status) ++mismatches;
  };
  const auto start = std::chrono::steady_clock::now();
  const std::vector<SentRequest>& sent = recording.sent;
  const std::size_t cases_end = recording.first_case + recording.case_count;
  {
    Client setup(url, ids);
    for (std::size_t i = 0; i < recording.first_case; ++i) send(setup, sent[i]);
  }
  // A connection first used while the cases ran is a sequence's: its requests depend on each
  // other (a DELETE, then a request in that session), so one worker sends them all, in order.
  std::set<std::size_t> opened_first;
  for (std::size_t i = 0; i < recording.first_case; ++i) opened_first.insert(sent[i].connection);
  std::mutex taking;
  std::size_t next = recording.first_case;
  auto take = [&]() -> std::pair<std::size_t, std::size_t> {
    const std::lock_guard lock(taking);
    const std::size_t begin = std::min(next, cases_end);
    std::size_t end = std::min(begin + 1, cases_end);
    if (begin < cases_end && !opened_first.contains(sent[begin].connection)) {
      while (end < cases_end && sent[end].connection == sent[begin].connection) ++end;
    }
    next = end;
    return {begin, end};
  };
  std::vector<std::thread> threads;
  for (std::size_t worker = 0; worker < concurrency; ++worker) {
    threads.emplace_back([&] {
      Client client(url, ids);
      for (auto [begin, end] = take(); begin < end; std::tie(begin, end) = take()) {
        for (std::size_t i = begin; i < end; ++i) send(client, sent[i]);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  {
    Client closing(url, ids);
    for (std::size_t i = cases_end; i < sent.size(); ++i) send(closing, sent[i]);
  }
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          mismatches.load()};
}

}  // namespace mcpfuzz::bench
