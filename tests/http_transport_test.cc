#include "transport/http_transport.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <boost/json.hpp>
#include <cctype>
#include <chrono>
#include <csignal>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "transport/http_exchange.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

const std::string kNotification =
    R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}})";
const std::string kResponse = R"({"jsonrpc":"2.0","id":1,"result":{}})";

Limits FastLimits() {
  Limits limits;
  limits.timeout = 1500ms;
  limits.quiet_window = 150ms;
  return limits;
}

Request Post(std::string_view json_text) {
  Request request;
  request.headers = {{"Content-Type", "application/json"},
                     {"Accept", "application/json, text/event-stream"}};
  request.body = json::parse(json_text);
  return request;
}

Request Ping(int id = 1) {
  return Post(R"({"jsonrpc":"2.0","method":"ping","id":)" + std::to_string(id) + "}");
}

std::unique_ptr<Transport> Open(const std::string& url, Limits limits = FastLimits(),
                                Headers extra_headers = {}) {
  HttpTarget target;
  target.url = url;
  target.limits = limits;
  target.extra_headers = std::move(extra_headers);
  auto transport = OpenHttp(std::move(target));
  if (!transport.ok()) {
    ADD_FAILURE() << transport.error().message;
    return nullptr;
  }
  return std::move(*transport);
}

/// What the in-process server saw of one request.
struct Seen {
  std::string method;
  std::string path;
  httplib::Headers headers;
  std::string body;
  int remote_port = -1;
};

std::string HeaderValue(const httplib::Headers& headers, const std::string& name) {
  const auto found = headers.find(name);
  return found == headers.end() ? std::string() : found->second;
}

/// A cpp-httplib server on 127.0.0.1, any port, configured before it starts listening.
class TestServer {
 public:
  explicit TestServer(const std::function<void(TestServer&, httplib::Server&)>& setup) {
    std::signal(SIGPIPE, SIG_IGN);  // a client that hangs up must not end the test binary
    server_.set_keep_alive_timeout(1);
    setup(*this, server_);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 400 && !server_.is_running(); ++i) std::this_thread::sleep_for(5ms);
  }
  ~TestServer() {
    stopping_ = true;
    server_.stop();
    thread_.join();
  }

  std::string Url(const std::string& path = "/mcp") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  bool stopping() const { return stopping_; }
  void Record(const httplib::Request& request) {
    std::lock_guard lock(mutex_);
    seen_.push_back(
        {request.method, request.path, request.headers, request.body, request.remote_port});
  }
  std::vector<Seen> seen() const {
    std::lock_guard lock(mutex_);
    return seen_;
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  mutable std::mutex mutex_;
  std::vector<Seen> seen_;
};

/// An SSE body: `pieces` written one by one 20 ms apart, then the stream stays open, silent,
/// until the server stops (bounded at 3 s), as MCP servers may do.
httplib::ContentProviderWithoutLength StreamThenStayOpen(TestServer& server,
                                                         std::vector<std::string> pieces) {
  auto next = std::make_shared<std::size_t>(0);
  const auto deadline = Clock::now() + 3s;
  return
      [&server, pieces = std::move(pieces), next, deadline](std::size_t, httplib::DataSink& sink) {
        if (*next < pieces.size()) {
          if (*next > 0) std::this_thread::sleep_for(20ms);
          const std::string& piece = pieces[(*next)++];
          return sink.write(piece.data(), piece.size());
        }
        if (server.stopping() || Clock::now() > deadline) {
          sink.done();
        } else {
          std::this_thread::sleep_for(10ms);
        }
        return true;
      };
}

/// A bare TCP server for what cpp-httplib hides: the raw request bytes and odd replies.
/// Serves `connections` connections one after another, reading one request on each and
/// answering `reply` verbatim (an empty reply closes the connection without answering).
class RawServer {
 public:
  explicit RawServer(std::string reply, int connections = 1) : reply_(std::move(reply)) {
    std::signal(SIGPIPE, SIG_IGN);
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    socklen_t length = sizeof address;
    bind(listener_, reinterpret_cast<sockaddr*>(&address), length);
    listen(listener_, 8);
    getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this, connections] {
      for (int i = 0; i < connections; ++i) ServeOne();
    });
  }
  ~RawServer() {
    thread_.join();
    close(listener_);
  }

  int port() const { return port_; }
  std::string Url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/mcp"; }
  std::vector<std::string> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  static bool WaitReadable(int fd) {
    pollfd poll_fd{fd, POLLIN, 0};
    return poll(&poll_fd, 1, 2000) == 1;
  }

  void ServeOne() {
    if (!WaitReadable(listener_)) return;
    const int connection = accept(listener_, nullptr, nullptr);
    if (connection < 0) return;
    std::string received;
    std::size_t wanted = std::string::npos;
    while (received.size() < wanted && WaitReadable(connection)) {
      char buffer[4096];
      const ssize_t count = recv(connection, buffer, sizeof buffer, 0);
      if (count <= 0) break;
      received.append(buffer, static_cast<std::size_t>(count));
      const std::size_t end = received.find("\r\n\r\n");
      if (wanted == std::string::npos && end != std::string::npos) {
        wanted = end + 4 + ContentLength(received.substr(0, end));
      }
    }
    {
      std::lock_guard lock(mutex_);
      requests_.push_back(received);
    }
    if (!reply_.empty()) send(connection, reply_.data(), reply_.size(), MSG_NOSIGNAL);
    close(connection);
  }

  static std::size_t ContentLength(const std::string& head) {
    std::string lower = head;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::size_t at = lower.find("\r\ncontent-length:");
    if (at == std::string::npos) return 0;
    return std::stoul(lower.substr(at + 17));
  }

  std::string reply_;
  int listener_ = -1;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<std::string> requests_;
};

std::vector<std::string> HeaderLines(const std::string& raw_request) {
  std::vector<std::string> lines;
  std::size_t start = raw_request.find("\r\n") + 2;
  while (true) {
    const std::size_t end = raw_request.find("\r\n", start);
    if (end == std::string::npos || end == start) break;
    lines.push_back(raw_request.substr(start, end - start));
    start = end + 2;
  }
  return lines;
}

const char kJsonReplyClose[] =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
    "Connection: close\r\n\r\n{}";

TEST(HttpTransport, JsonReplyIsParsedIntoMessages) {
  TestServer server([](TestServer&, httplib::Server& http) {
    http.Post("/mcp", [](const httplib::Request&, httplib::Response& response) {
      response.set_content(kResponse, "application/json");
    });
  });
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Ping());
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_EQ(observation.http_status, 200);
  EXPECT_EQ(observation.content_type, "application/json");
  EXPECT_EQ(FindHeader(observation.http_headers, "content-type"), "application/json");
  EXPECT_EQ(observation.body, kResponse);
  ASSERT_EQ(observation.messages.size(), 1U);
  EXPECT_EQ(observation.messages[0], json::parse(kResponse));
  EXPECT_TRUE(observation.non_json.empty());
  EXPECT_GT(observation.elapsed.count(), 0);
  EXPECT_EQ(transport->kind(), TransportKind::kHttp);
  EXPECT_EQ(transport->Describe(), server.Url());
  // The reproducer's target comes from the transport as data, not from Describe().
  const ReproducerTarget at = transport->ReproduceAt();
  EXPECT_EQ(at.kind, TransportKind::kHttp);
  EXPECT_EQ(at.url, server.Url());
  EXPECT_TRUE(at.argv.empty());
}

TEST(HttpTransport, SseReplyEndsAtTheResponseThoughTheStreamStaysOpen) {
  TestServer server([](TestServer& self, httplib::Server& http) {
    http.Post("/mcp", [&self](const httplib::Request&, httplib::Response& response) {
      response.set_chunked_content_provider(
          "text/event-stream",
          StreamThenStayOpen(self, {"id: 0\ndata:\n\n",  // priming event: no data, not garbage
                                    "data: " + kNotification + "\n\n", "data: not json\n\n",
                                    "data: " + kResponse.substr(0, 10),  // split mid-event
                                    kResponse.substr(10) + "\r\n\r\n"}));
    });
  });
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Ping());
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_LT(observation.elapsed, 1000ms);
  EXPECT_TRUE(IsEventStream(observation.content_type)) << observation.content_type;
  ASSERT_EQ(observation.sse_events.size(), 4U);
  EXPECT_EQ(observation.sse_events[3].data, kResponse);
  ASSERT_EQ(observation.messages.size(), 2U);
  EXPECT_EQ(observation.messages[0], json::parse(kNotification));
  EXPECT_EQ(observation.messages[1], json::parse(kResponse));
  EXPECT_EQ(observation.non_json, std::vector<std::string>{"not json"});
}

TEST(HttpTransport, SseBatchEndsOnceEveryRequestIsAnswered) {
  TestServer server([](TestServer& self, httplib::Server& http) {
    http.Post("/mcp", [&self](const httplib::Request&, httplib::Response& response) {
      response.set_chunked_content_provider(
          "text/event-stream",
          StreamThenStayOpen(self, {R"(data: {"jsonrpc":"2.0","id":2,"result":{}})"
                                    "\n\n",
                                    "data: " + kResponse + "\n\n"}));
    });
  });
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Post(
      R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"},
          {"jsonrpc":"2.0","method":"notifications/initialized"}])"));
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_LT(observation.elapsed, 1000ms);
  EXPECT_EQ(observation.messages.size(), 2U);
}

TEST(HttpTransport, SseStreamWithoutTheResponseTimesOut) {
  TestServer server([](TestServer& self, httplib::Server& http) {
    http.Post("/mcp", [&self](const httplib::Request&, httplib::Response& response) {
      response.set_chunked_content_provider(
          "text/event-stream", StreamThenStayOpen(self, {"data: " + kNotification + "\n\n"}));
    });
  });
  Limits limits = FastLimits();
  limits.timeout = 300ms;
  auto transport = Open(server.Url(), limits);
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Ping());
  EXPECT_EQ(observation.outcome, Outcome::kTimeout) << observation.detail;
  EXPECT_LT(observation.elapsed, 1000ms);
  EXPECT_EQ(observation.messages.size(), 1U);
}

TEST(HttpTransport, GetStreamReturnsAfterTheQuietWindow) {
  TestServer server([](TestServer& self, httplib::Server& http) {
    http.Get("/mcp", [&self](const httplib::Request& request, httplib::Response& response) {
      self.Record(request);
      response.set_chunked_content_provider(
          "text/event-stream", StreamThenStayOpen(self, {"data: " + kNotification + "\n\n"}));
    });
  });
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  Request get;
  get.http_method = "GET";
  get.headers = {{"Accept", "text/event-stream"}};
  const Observation observation = transport->Send(get);
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_GE(observation.elapsed, 150ms);
  EXPECT_LT(observation.elapsed, 1000ms);
  ASSERT_EQ(observation.messages.size(), 1U);
  EXPECT_EQ(observation.messages[0], json::parse(kNotification));
  const auto seen = server.seen();
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_FALSE(seen[0].headers.count("Content-Length"));
  EXPECT_FALSE(seen[0].headers.count("Content-Type"));
}

TEST(HttpTransport, BusyGetStreamIsObservedUntilTheTimeLimit) {
  TestServer server([](TestServer& self, httplib::Server& http) {
    http.Get("/mcp", [&self](const httplib::Request&, httplib::Response& response) {
      std::vector<std::string> pieces = {"data: " + kNotification + "\n\n"};
      pieces.resize(40, ": keep-alive\n\n");  // 800 ms of chatter, never quiet for long
      response.set_chunked_content_provider("text/event-stream",
                                            StreamThenStayOpen(self, std::move(pieces)));
    });
  });
  Limits limits = FastLimits();
  limits.timeout = 400ms;
  auto transport = Open(server.Url(), limits);
  ASSERT_TRUE(transport);
  Request get;
  get.http_method = "GET";
  const Observation observation = transport->Send(get);
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_NE(observation.detail.find("time limit"), std::string::npos) << observation.detail;
  EXPECT_GE(observation.elapsed, 390ms);
  EXPECT_LT(observation.elapsed, 1000ms);
  EXPECT_EQ(observation.messages.size(), 1U);
}

// A server may hold a GET stream's headers until it has an event to send (Node's SDK v2
// does): the wait for them is Limits::stream_open, not the whole time limit.
TEST(HttpTransport, AGetStreamWithoutHeadersEndsAtTheStreamOpenWait) {
  TestServer server([](TestServer& self, httplib::Server& http) {
    http.Get("/mcp", [&self](const httplib::Request&, httplib::Response& response) {
      const auto until = Clock::now() + 3s;
      while (!self.stopping() && Clock::now() < until) std::this_thread::sleep_for(10ms);
      response.status = 405;
    });
  });
  Limits limits = FastLimits();
  limits.timeout = 5000ms;
  limits.stream_open = 200ms;
  auto transport = Open(server.Url(), limits);
  ASSERT_TRUE(transport);
  Request get;
  get.http_method = "GET";
  get.headers = {{"Accept", "text/event-stream"}};
  const Observation observation = transport->Send(get);
  EXPECT_EQ(observation.outcome, Outcome::kTimeout) << observation.detail;
  EXPECT_EQ(observation.time_limit, TimeLimit::kStreamOpen);
  EXPECT_EQ(observation.limit, 200ms);
  EXPECT_EQ(observation.http_status, 0);
  EXPECT_NE(observation.detail.find("GET stream's headers"), std::string::npos)
      << observation.detail;
  EXPECT_LT(observation.elapsed, 3s) << "waited for the server, not for the stream-open wait";
  // A GET that asks for no stream waits for its reply as any request does.
  get.headers.clear();
  const Observation plain = transport->Send(get);
  EXPECT_EQ(plain.http_status, 405) << plain.detail;
}

TEST(HttpTransport, HtmlErrorPageIsNonJson) {
  const std::string page = "<html><body>Internal Server Error</body></html>";
  TestServer server([&page](TestServer&, httplib::Server& http) {
    http.Post("/mcp", [&page](const httplib::Request&, httplib::Response& response) {
      response.status = 500;
      response.set_content(page, "text/html");
    });
  });
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Ping());
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_EQ(observation.http_status, 500);
  EXPECT_EQ(observation.content_type, "text/html");
  EXPECT_TRUE(observation.messages.empty());
  EXPECT_EQ(observation.non_json, std::vector<std::string>{page});
}

TEST(HttpTransport, AcceptedWithoutBodyHasNoMessages) {
  TestServer server([](TestServer&, httplib::Server& http) {
    http.Post("/mcp",
              [](const httplib::Request&, httplib::Response& response) { response.status = 202; });
  });
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  const Observation observation =
      transport->Send(Post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_EQ(observation.http_status, 202);
  EXPECT_TRUE(observation.body.empty());
  EXPECT_TRUE(observation.messages.empty());
  EXPECT_TRUE(observation.non_json.empty());
  EXPECT_LT(observation.elapsed, 1000ms);
}

TEST(HttpTransport, RedirectIsObservedNotFollowed) {
  std::atomic<int> redirected_requests{0};
  TestServer server([&redirected_requests](TestServer& self, httplib::Server& http) {
    http.Post("/mcp", [&self](const httplib::Request&, httplib::Response& response) {
      response.status = 307;
      response.set_header("Location", self.Url("/elsewhere"));
    });
    http.Post("/elsewhere", [&redirected_requests](const httplib::Request&, httplib::Response&) {
      ++redirected_requests;
    });
  });
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Ping());
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_EQ(observation.http_status, 307);
  EXPECT_EQ(FindHeader(observation.http_headers, "Location"), server.Url("/elsewhere"));
  EXPECT_EQ(redirected_requests, 0);
}

TEST(HttpTransport, SlowReplyTimesOutWithinTheLimit) {
  TestServer server([](TestServer& self, httplib::Server& http) {
    http.Post("/mcp", [&self](const httplib::Request&, httplib::Response& response) {
      const auto until = Clock::now() + 1s;
      while (!self.stopping() && Clock::now() < until) std::this_thread::sleep_for(10ms);
      response.set_content(kResponse, "application/json");
    });
  });
  Limits limits = FastLimits();
  limits.timeout = 200ms;
  auto transport = Open(server.Url(), limits);
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Ping());
  EXPECT_EQ(observation.outcome, Outcome::kTimeout) << observation.detail;
  EXPECT_FALSE(observation.detail.empty());
  EXPECT_GE(observation.elapsed, 190ms);
  EXPECT_LT(observation.elapsed, 600ms);
}

// `text` as an over-cap detail quotes it, for text whose only unprintable bytes are '\n'.
std::string WithEscapedNewlines(const std::string& text) {
  std::string escaped;
  for (const char c : text) escaped += c == '\n' ? std::string("\\x0a") : std::string(1, c);
  return escaped;
}

// The bytes received before reading stopped, as an over-cap detail states them.
std::size_t ReceivedBytes(const std::string& detail) {
  const std::size_t open = detail.find(" (");
  if (open == std::string::npos) return 0;
  return std::stoul(detail.substr(open + 2));
}

TEST(HttpTransport, OversizedReplyKeepsAnExcerptAndItsSize) {
  // Starts with bytes a terminal must not see raw, then runs far past the cap.
  const std::string reply = std::string("{\"a\":\"\x01\xff\\") + std::string(100000, 'x');
  TestServer server([&reply](TestServer&, httplib::Server& http) {
    http.Post("/mcp", [&reply](const httplib::Request&, httplib::Response& response) {
      response.set_content(reply, "application/json");
    });
  });
  Limits limits = FastLimits();
  limits.max_response_bytes = 1000;
  auto transport = Open(server.Url(), limits);
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Ping());
  EXPECT_EQ(observation.outcome, Outcome::kTooLarge) << observation.detail;
  EXPECT_EQ(observation.body, reply.substr(0, 256));
  EXPECT_TRUE(observation.messages.empty());
  EXPECT_TRUE(observation.non_json.empty()) << "a cut body is no piece of the reply";
  const std::string prefix = "reply exceeded 1000 bytes (";
  ASSERT_EQ(observation.detail.substr(0, prefix.size()), prefix) << observation.detail;
  const std::size_t received = ReceivedBytes(observation.detail);
  EXPECT_GT(received, 1000U) << observation.detail;
  EXPECT_LE(received, reply.size()) << observation.detail;
  const std::string excerpt = "{\"a\":\"\\x01\\xff\\x5c" + std::string(256 - 9, 'x');
  EXPECT_EQ(observation.detail,
            prefix + std::to_string(received) + " bytes received); it began \"" + excerpt + "\"");
}

TEST(HttpTransport, EndlessSseStreamEndsAtTheEventCap) {
  TestServer server([](TestServer& self, httplib::Server& http) {
    http.Post("/mcp", [&self](const httplib::Request&, httplib::Response& response) {
      const auto deadline = Clock::now() + 3s;
      response.set_chunked_content_provider(
          "text/event-stream", [&self, deadline](std::size_t, httplib::DataSink& sink) {
            if (self.stopping() || Clock::now() > deadline) {
              sink.done();
              return true;
            }
            const std::string event = "data: " + kNotification + "\n\n";
            return sink.write(event.data(), event.size());
          });
    });
  });
  Limits limits = FastLimits();
  limits.max_reply_lines = 50;
  limits.timeout = 5000ms;  // the cap, not the clock, must end it
  auto transport = Open(server.Url(), limits);
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Ping());
  EXPECT_EQ(observation.outcome, Outcome::kTooLarge) << observation.detail;
  EXPECT_EQ(observation.sse_events.size(), 50U);
  EXPECT_EQ(observation.messages.size(), 50U);
  EXPECT_EQ(observation.messages.back(), json::parse(kNotification));
  std::string events;
  while (events.size() < 256) events += "data: " + kNotification + "\n\n";
  EXPECT_EQ(observation.body, events.substr(0, 256));
  EXPECT_EQ(observation.detail.rfind("reply exceeded 50 SSE events (", 0), 0U)
      << observation.detail;
  EXPECT_GT(ReceivedBytes(observation.detail), 50 * (kNotification.size() + 8))
      << observation.detail;
}

TEST(HttpTransport, SendsExactlyTheRequestHeadersAndBodyBytes) {
  RawServer server(kJsonReplyClose);
  auto transport = Open(server.Url(), FastLimits(), {{"Authorization", "Bearer t0ken"}});
  ASSERT_TRUE(transport);
  transport->set_session_id("session-1");
  Request request;
  request.headers = {{"Content-Type", "application/json"},
                     {"accept", "application/json, text/event-stream"},
                     {"X-Dup", "1"},
                     {"x-dup", "2"},
                     {"X-Empty", ""}};
  // A BOM, a NUL, an invalid UTF-8 byte and an overlong encoding, unterminated JSON.
  const char malformed[] = "\xEF\xBB\xBF{\"jsonrpc\":\0\xFF\xC0\x80\n\"id\":1";
  const std::string bytes(malformed, sizeof malformed - 1);
  request.body = RawBody{bytes};
  const Observation observation = transport->Send(request);
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;

  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1U);
  const std::string& raw = requests[0];
  EXPECT_TRUE(raw.starts_with("POST /mcp HTTP/1.1\r\n")) << raw;
  const std::vector<std::string> expected = {"Host: 127.0.0.1:" + std::to_string(server.port()),
                                             "Content-Type: application/json",
                                             "accept: application/json, text/event-stream",
                                             "X-Dup: 1",
                                             "x-dup: 2",
                                             "X-Empty:",
                                             "Authorization: Bearer t0ken",
                                             "Mcp-Session-Id: session-1",
                                             "Content-Length: " + std::to_string(bytes.size())};
  EXPECT_EQ(HeaderLines(raw), expected);
  ASSERT_GE(raw.size(), bytes.size());
  EXPECT_EQ(raw.substr(raw.size() - bytes.size()), bytes);
  EXPECT_EQ(raw.find("\r\n\r\n") + 4 + bytes.size(), raw.size());
}

TEST(HttpTransport, EachMethodSendsOnlyWhatTheRequestHolds) {
  RawServer server(kJsonReplyClose, 4);
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  Request remove;
  remove.http_method = "DELETE";
  remove.headers = {{"Mcp-Session-Id", "s"}};
  Request get;
  get.http_method = "GET";
  Request put = Ping();
  put.http_method = "PUT";
  Request bare_post = Ping();
  bare_post.headers.clear();  // curl must not make up Accept or Content-Type
  for (const Request& request : {remove, get, put, bare_post}) {
    EXPECT_EQ(transport->Send(request).outcome, Outcome::kOk);
  }
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 4U);
  const std::string host = "Host: 127.0.0.1:" + std::to_string(server.port());
  EXPECT_TRUE(requests[0].starts_with("DELETE /mcp HTTP/1.1\r\n")) << requests[0];
  EXPECT_EQ(HeaderLines(requests[0]), (std::vector<std::string>{host, "Mcp-Session-Id: s"}));
  EXPECT_TRUE(requests[0].ends_with("\r\n\r\n")) << requests[0];
  EXPECT_TRUE(requests[1].starts_with("GET /mcp HTTP/1.1\r\n")) << requests[1];
  EXPECT_EQ(HeaderLines(requests[1]), std::vector<std::string>{host});
  EXPECT_TRUE(requests[2].starts_with("PUT /mcp HTTP/1.1\r\n")) << requests[2];
  EXPECT_TRUE(requests[2].ends_with("\r\n\r\n" + put.WireBody())) << requests[2];
  EXPECT_TRUE(requests[3].starts_with("POST /mcp HTTP/1.1\r\n")) << requests[3];
  EXPECT_EQ(HeaderLines(requests[3]),
            (std::vector<std::string>{
                host, "Content-Length: " + std::to_string(bare_post.WireBody().size())}));
}

// The handle keeps its options across exchanges; what one exchange set must not reach the next.
TEST(HttpTransport, NothingOfOneExchangeCarriesIntoTheNext) {
  RawServer server(kJsonReplyClose, 5);
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  Request first = Ping(1);
  first.headers.push_back({"X-Only-First", "1"});
  Request head;
  head.http_method = "HEAD";
  Request remove_with_body = Ping(2);
  remove_with_body.http_method = "DELETE";
  remove_with_body.headers = {{"X-Only-Third", "3"}};
  Request get;
  get.http_method = "GET";
  const Request last = Ping(4);
  for (const Request& request : {first, head, remove_with_body, get, last}) {
    const Observation observation = transport->Send(request);
    EXPECT_EQ(observation.outcome, Outcome::kOk) << request.http_method << observation.detail;
  }
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 5U);
  const std::string host = "Host: 127.0.0.1:" + std::to_string(server.port());
  const auto length = [](const Request& request) {
    return "Content-Length: " + std::to_string(request.WireBody().size());
  };
  EXPECT_TRUE(requests[0].ends_with("\r\n\r\n" + first.WireBody())) << requests[0];
  EXPECT_TRUE(requests[1].starts_with("HEAD /mcp HTTP/1.1\r\n")) << requests[1];
  EXPECT_EQ(HeaderLines(requests[1]), std::vector<std::string>{host});
  EXPECT_TRUE(requests[1].ends_with("\r\n\r\n")) << requests[1];
  EXPECT_TRUE(requests[2].starts_with("DELETE /mcp HTTP/1.1\r\n")) << requests[2];
  EXPECT_EQ(HeaderLines(requests[2]),
            (std::vector<std::string>{host, "X-Only-Third: 3", length(remove_with_body)}));
  EXPECT_TRUE(requests[2].ends_with("\r\n\r\n" + remove_with_body.WireBody())) << requests[2];
  EXPECT_TRUE(requests[3].starts_with("GET /mcp HTTP/1.1\r\n")) << requests[3];
  EXPECT_EQ(HeaderLines(requests[3]), std::vector<std::string>{host});
  EXPECT_TRUE(requests[3].ends_with("\r\n\r\n")) << requests[3];
  EXPECT_TRUE(requests[4].starts_with("POST /mcp HTTP/1.1\r\n")) << requests[4];
  EXPECT_EQ(
      HeaderLines(requests[4]),
      (std::vector<std::string>{host, "Content-Type: application/json",
                                "Accept: application/json, text/event-stream", length(last)}));
  EXPECT_TRUE(requests[4].ends_with("\r\n\r\n" + last.WireBody())) << requests[4];
}

// A SSE stream left early (its connection closed) and a timeout leave the handle usable: the
// next exchange on it is answered, with its own time limit.
TEST(HttpTransport, ExchangesAfterAnEarlyStopAndATimeoutAreAnswered) {
  TestServer server([](TestServer& self, httplib::Server& http) {
    http.Post("/mcp", [&self](const httplib::Request& request, httplib::Response& response) {
      if (request.body.find("\"slow\"") != std::string::npos) {
        std::this_thread::sleep_for(2500ms);
        response.set_content(kResponse, "application/json");
      } else if (request.body.find("\"stream\"") != std::string::npos) {
        response.set_chunked_content_provider(
            "text/event-stream",
            StreamThenStayOpen(self, {"event: message\ndata: " + kResponse + "\n\n"}));
      } else {
        response.set_content(kResponse, "application/json");
      }
    });
  });
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  const Request stream = Post(R"({"jsonrpc":"2.0","method":"stream","id":1})");
  const Request slow = Post(R"({"jsonrpc":"2.0","method":"slow","id":1})");
  EXPECT_EQ(transport->Send(stream).outcome, Outcome::kOk);
  EXPECT_EQ(transport->Send(slow).outcome, Outcome::kTimeout);
  const Observation after = transport->Send(Ping());
  EXPECT_EQ(after.outcome, Outcome::kOk) << after.detail;
  ASSERT_EQ(after.messages.size(), 1U);
  EXPECT_EQ(after.messages[0], json::parse(kResponse));
}

TEST(HttpTransport, InterimResponseHeadersAreDropped) {
  RawServer server(
      "HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\n"
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
      "X-Final:   padded  \r\nConnection: close\r\n\r\n{}");
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Ping());
  EXPECT_EQ(observation.outcome, Outcome::kOk) << observation.detail;
  EXPECT_EQ(observation.http_status, 200);
  const Headers expected = {{"Content-Type", "application/json"},
                            {"Content-Length", "2"},
                            {"X-Final", "padded"},
                            {"Connection", "close"}};
  EXPECT_EQ(observation.http_headers, expected);
  EXPECT_EQ(observation.messages, std::vector<json::value>{json::object{}});
}

TEST(HttpTransport, ConnectionClosedWithoutReplyIsAReset) {
  RawServer server("");
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Ping());
  EXPECT_EQ(observation.outcome, Outcome::kConnectionReset) << observation.detail;
  EXPECT_EQ(observation.http_status, 0);
}

TEST(HttpTransport, SessionIdIsAttachedOnlyWhenAskedAndNotAlreadyThere) {
  TestServer server([](TestServer& self, httplib::Server& http) {
    http.Post("/mcp", [&self](const httplib::Request& request, httplib::Response& response) {
      self.Record(request);
      response.set_content(kResponse, "application/json");
    });
  });
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  Request attach = Ping();
  Request omit = Ping();
  omit.session = SessionBinding::kOmit;
  Request own = Ping();
  own.headers.push_back({"mcp-session-id", "wrong"});
  transport->Send(attach);  // no session yet
  transport->set_session_id("abc");
  for (const Request& request : {attach, omit, own}) transport->Send(request);

  const auto seen = server.seen();
  ASSERT_EQ(seen.size(), 4U);
  EXPECT_EQ(seen[0].headers.count("Mcp-Session-Id"), 0U);
  EXPECT_EQ(seen[1].headers.count("Mcp-Session-Id"), 1U);
  EXPECT_EQ(HeaderValue(seen[1].headers, "Mcp-Session-Id"), "abc");
  EXPECT_EQ(seen[2].headers.count("Mcp-Session-Id"), 0U);
  EXPECT_EQ(seen[3].headers.count("Mcp-Session-Id"), 1U);
  EXPECT_EQ(HeaderValue(seen[3].headers, "Mcp-Session-Id"), "wrong");
}

// A decorator keeps no session id of its own: McpClient sets it through the decorator on the
// HTTP transport, which attaches it, and reading it back through either gives the same id.
TEST(HttpTransport, SessionIdSetThroughADecoratorIsTheWrappedTransports) {
  TestServer server([](TestServer& self, httplib::Server& http) {
    http.Post("/mcp", [&self](const httplib::Request& request, httplib::Response& response) {
      self.Record(request);
      response.set_content(kResponse, "application/json");
    });
  });
  std::unique_ptr<Transport> opened = Open(server.Url());
  ASSERT_TRUE(opened);
  Transport* inner = opened.get();
  class Passing final : public TransportDecorator {
   public:
    using TransportDecorator::TransportDecorator;
    Observation Send(const Request& request) override { return inner().Send(request); }
  };
  Passing decorator(std::move(opened));
  decorator.set_session_id("through-the-decorator");
  EXPECT_EQ(inner->session_id(), "through-the-decorator");
  EXPECT_EQ(decorator.ReproduceAt().url, server.Url());
  decorator.Send(Ping());
  inner->set_session_id("");
  EXPECT_EQ(decorator.session_id(), "");

  const auto seen = server.seen();
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(HeaderValue(seen[0].headers, "Mcp-Session-Id"), "through-the-decorator");
}

TEST(HttpTransport, ConsecutiveRequestsReuseOneConnection) {
  TestServer server([](TestServer& self, httplib::Server& http) {
    http.Post("/mcp", [&self](const httplib::Request& request, httplib::Response& response) {
      self.Record(request);
      response.set_content(kResponse, "application/json");
    });
  });
  auto transport = Open(server.Url());
  ASSERT_TRUE(transport);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(transport->Send(Ping()).outcome, Outcome::kOk);
  const auto seen = server.seen();
  ASSERT_EQ(seen.size(), 3U);
  EXPECT_GT(seen[0].remote_port, 0);
  EXPECT_EQ(seen[1].remote_port, seen[0].remote_port);
  EXPECT_EQ(seen[2].remote_port, seen[0].remote_port);
}

TEST(HttpTransport, ClosedPortIsConnectionRefused) {
  // A bound socket that does not listen: connecting to it is refused, and the port stays ours.
  const int bound = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  socklen_t length = sizeof address;
  ASSERT_EQ(bind(bound, reinterpret_cast<sockaddr*>(&address), length), 0);
  getsockname(bound, reinterpret_cast<sockaddr*>(&address), &length);
  auto transport = Open("http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/mcp");
  ASSERT_TRUE(transport);
  const Observation observation = transport->Send(Ping());
  close(bound);
  EXPECT_EQ(observation.outcome, Outcome::kConnectionRefused) << observation.detail;
  EXPECT_FALSE(observation.detail.empty());
  EXPECT_EQ(observation.http_status, 0);
}

TEST(HttpTransport, OnlyLoopbackHttpTargetsOpenWithoutAllowRemote) {
  for (const char* url :
       {"http://localhost:1/mcp", "http://LOCALHOST:1/", "http://127.0.0.1/",
        "http://127.1.2.3:8080/mcp", "http://[::1]:1/mcp", "https://127.0.0.1:1/mcp"}) {
    HttpTarget target;
    target.url = url;
    EXPECT_TRUE(OpenHttp(target).ok()) << url;
  }
  const std::pair<const char*, const char*> refused[] = {
      {"http://example.com/mcp", "is not loopback"},
      {"http://10.0.0.1:1/", "is not loopback"},
      {"http://127.0.0.1.nip.io/", "is not loopback"},
      {"http://[::2]:1/", "is not loopback"},
      {"http://128.0.0.1/", "is not loopback"},
      {"ftp://127.0.0.1/", "scheme"},
      {"file:///etc/passwd", "scheme"},
      {"gopher://localhost/", "scheme"},
      {"not a url", "invalid URL"},
      {"", "invalid URL"}};
  for (const auto& [url, reason] : refused) {
    HttpTarget target;
    target.url = url;
    auto transport = OpenHttp(target);
    ASSERT_FALSE(transport.ok()) << url;
    EXPECT_NE(transport.error().message.find(reason), std::string::npos)
        << url << ": " << transport.error().message;
  }
  HttpTarget remote;
  remote.url = "http://example.com/mcp";
  remote.allow_remote = true;
  EXPECT_TRUE(OpenHttp(remote).ok());  // opening connects nowhere; only Send would
}

TEST(HttpExchange, AwaitsTheIdsOfRequestsOnly) {
  EXPECT_EQ(AwaitedIds(Ping(7)), std::vector<json::value>{7});
  EXPECT_EQ(AwaitedIds(Post(R"({"jsonrpc":"2.0","id":null,"method":"ping"})")),
            std::vector<json::value>{nullptr});
  EXPECT_EQ(AwaitedIds(Post(R"({"jsonrpc":"2.0","id":"x"})")),  // broken, but it has an id
            std::vector<json::value>{"x"});
  EXPECT_TRUE(AwaitedIds(Post(R"({"jsonrpc":"2.0","method":"notifications/x"})")).empty());
  EXPECT_TRUE(AwaitedIds(Post(R"({"jsonrpc":"2.0","id":1,"result":{}})")).empty());
  EXPECT_EQ(AwaitedIds(Post(R"([{"id":1,"method":"a"},{"method":"b"},{"id":2,"result":{}},3])")),
            std::vector<json::value>{1});
  Request raw;
  raw.body = RawBody{"{\"id\":1,"};
  EXPECT_TRUE(AwaitedIds(raw).empty());
  EXPECT_TRUE(AwaitedIds(Request{}).empty());
}

// A body above 64 KiB is read for its envelope alone, not parsed whole: the ids are the same,
// down to a body nested past the parser's depth, which a whole parse gives none.
TEST(HttpExchange, AwaitsTheSameIdsOfALargeBody) {
  const std::string pad(70000, 'a');
  const auto Raw = [](std::string text) {
    Request request = Post("{}");
    request.body = RawBody{std::move(text)};
    return request;
  };
  const auto nested = [&](std::size_t depth) {
    return R"({"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":)" + std::string(depth, '[') +
           "\"" + pad + "\"" + std::string(depth, ']') + "}}";
  };
  EXPECT_EQ(AwaitedIds(Raw(R"({"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"p":")" +
                           pad + "\"}}}")),
            std::vector<json::value>{7});
  EXPECT_EQ(
      AwaitedIds(Raw(R"({"jsonrpc":"2.0","id":null,"method":"a","params":{"p":")" + pad + "\"}}")),
      std::vector<json::value>{nullptr});
  EXPECT_TRUE(AwaitedIds(Raw(R"({"jsonrpc":"2.0","id":1,"result":{"p":")" + pad + "\"}}")).empty());
  EXPECT_TRUE(
      AwaitedIds(Raw(R"({"jsonrpc":"2.0","method":"n","params":{"p":")" + pad + "\"}}")).empty());
  EXPECT_EQ(AwaitedIds(Raw(R"([{"id":1,"method":"a","params":{"p":")" + pad +
                           R"("}},{"method":"b"},{"id":2,"result":{}}])")),
            std::vector<json::value>{1});
  // The body's own object and params are two levels: 30 more make 32, the parser's limit.
  EXPECT_EQ(AwaitedIds(Raw(nested(30))), std::vector<json::value>{5});
  EXPECT_TRUE(AwaitedIds(Raw(nested(31))).empty());
  EXPECT_TRUE(AwaitedIds(Raw("{\"id\":1,\"p\":\"" + pad)).empty());
}

TEST(HttpExchange, KeepsTheLastResponseHeadersAndUnfoldsContinuations) {
  Observation observation;
  HttpExchange exchange(observation, Ping(), 100);
  for (const char* line : {"HTTP/1.1 103 Early Hints\r\n", "Link: </a>\r\n", "\r\n",
                           "HTTP/1.1 200 OK\r\n", "Content-Type:text/event-stream\r\n",
                           "X-Long: a\r\n", "\t b \r\n", "NoColon\r\n", "\r\n"}) {
    exchange.OnHeaderLine(line);
  }
  const Headers expected = {
      {"Content-Type", "text/event-stream"}, {"X-Long", "a b"}, {"NoColon", ""}};
  EXPECT_EQ(observation.http_headers, expected);
  EXPECT_TRUE(exchange.is_sse());
  EXPECT_FALSE(exchange.Finish());
  EXPECT_EQ(observation.content_type, "text/event-stream");
}

TEST(HttpExchange, StopsAtTheCapOrOnceAnswered) {
  Observation capped;
  HttpExchange cap(capped, Ping(), 5);
  EXPECT_TRUE(cap.OnBody("abc"));
  EXPECT_TRUE(cap.OnBody("de"));  // exactly at the cap is still complete
  EXPECT_FALSE(cap.too_large());
  EXPECT_FALSE(cap.OnBody("f"));
  EXPECT_TRUE(cap.too_large());
  EXPECT_EQ(capped.body, "abcde");

  Observation streamed;
  HttpExchange sse(streamed, Ping(1), 1000);
  sse.OnHeaderLine("HTTP/1.1 200 OK");
  sse.OnHeaderLine("Content-Type: text/event-stream");
  sse.OnHeaderLine("");
  EXPECT_TRUE(sse.OnBody(R"(data: {"jsonrpc":"2.0","id":2,"result":{}})"
                         "\n\n"));  // another id
  EXPECT_TRUE(sse.OnBody(R"(data: {"jsonrpc":"2.0","id":1,"method":"x"})"
                         "\n\n"));  // a request reusing the id is no answer
  EXPECT_TRUE(sse.OnBody("data: " + kResponse.substr(0, 5)));
  EXPECT_FALSE(sse.OnBody(kResponse.substr(5) + "\n\n"));
  EXPECT_TRUE(sse.answered());
  EXPECT_EQ(streamed.messages.size(), 3U);
  EXPECT_TRUE(streamed.non_json.empty());
}

TEST(HttpExchange, SseStreamEndingInsideAnEventIsReported) {
  Observation observation;
  HttpExchange exchange(observation, Ping(), 1000);
  exchange.OnHeaderLine("HTTP/1.1 200 OK");
  exchange.OnHeaderLine("content-type: TEXT/EVENT-STREAM; charset=utf-8");
  exchange.OnHeaderLine("");
  EXPECT_TRUE(exchange.OnBody("data: {}\n\ndata: {\"cut\":"));
  EXPECT_TRUE(exchange.Finish());
  EXPECT_EQ(observation.messages, std::vector<json::value>{json::object{}});
  EXPECT_TRUE(observation.non_json.empty());
}

TEST(HttpExchange, AnOverCapBodyBecomesAnExcerptAndItsSize) {
  Observation observation;
  HttpExchange exchange(observation, Ping(), 300);
  EXPECT_EQ(exchange.DescribeTooLarge(), "");
  EXPECT_TRUE(exchange.OnBody(std::string(299, 'a')));
  EXPECT_FALSE(exchange.OnBody("bcd"));
  EXPECT_TRUE(exchange.too_large());
  EXPECT_EQ(observation.body, std::string(256, 'a'));
  EXPECT_FALSE(exchange.OnBody("more that curl had buffered"));
  EXPECT_FALSE(exchange.Finish());
  EXPECT_TRUE(observation.messages.empty());
  EXPECT_TRUE(observation.non_json.empty());
  EXPECT_EQ(
      exchange.DescribeTooLarge(),
      "reply exceeded 300 bytes (329 bytes received); it began \"" + std::string(256, 'a') + "\"");
}

std::string NotificationEvent(int id) {
  return R"(data: {"jsonrpc":"2.0","method":"notifications/message","params":{"n":)" +
         std::to_string(id) + "}}\n\n";
}

TEST(HttpExchange, AnSseStreamPastTheEventCapIsTooLarge) {
  Observation observation;
  HttpExchange exchange(observation, Ping(), 1 << 20, 3);
  exchange.OnHeaderLine("HTTP/1.1 200 OK");
  exchange.OnHeaderLine("Content-Type: text/event-stream");
  exchange.OnHeaderLine("");
  EXPECT_TRUE(exchange.OnBody(NotificationEvent(0) + NotificationEvent(1)));
  EXPECT_FALSE(exchange.too_large());
  const std::string body = NotificationEvent(0) + NotificationEvent(1) + NotificationEvent(2) +
                           NotificationEvent(3) + NotificationEvent(4);
  EXPECT_FALSE(exchange.OnBody(body.substr(2 * NotificationEvent(0).size())));
  EXPECT_TRUE(exchange.too_large());
  EXPECT_FALSE(exchange.answered());
  ASSERT_EQ(observation.sse_events.size(), 3U);
  EXPECT_EQ(observation.messages.size(), 3U);
  EXPECT_EQ(observation.sse_events[2].data + "\n\n", NotificationEvent(2).substr(6));
  EXPECT_EQ(observation.body, body.substr(0, 256));
  EXPECT_EQ(exchange.DescribeTooLarge(),
            "reply exceeded 3 SSE events (" + std::to_string(body.size()) +
                " bytes received); it began \"" + WithEscapedNewlines(body.substr(0, 256)) + "\"");

  // The awaited response inside the cap ends the reply whole, whatever follows it.
  Observation answered;
  HttpExchange reply(answered, Ping(1), 1 << 20, 2);
  reply.OnHeaderLine("HTTP/1.1 200 OK");
  reply.OnHeaderLine("Content-Type: text/event-stream");
  reply.OnHeaderLine("");
  const std::string stream =
      NotificationEvent(0) + "data: " + kResponse + "\n\n" + NotificationEvent(1);
  EXPECT_FALSE(reply.OnBody(stream));
  EXPECT_TRUE(reply.answered());
  EXPECT_FALSE(reply.too_large());
  EXPECT_EQ(answered.body, stream);
  EXPECT_EQ(answered.messages.size(), 2U);
}

TEST(HttpTransport, LoopbackHostAndEventStreamHelpers) {
  EXPECT_TRUE(IsLoopbackHost("127.255.0.9"));
  EXPECT_FALSE(IsLoopbackHost("127.0.0"));
  EXPECT_FALSE(IsLoopbackHost("127.0.0.256"));
  EXPECT_FALSE(IsLoopbackHost("127.0.0.1."));
  EXPECT_FALSE(IsLoopbackHost("localhost.example"));
  EXPECT_FALSE(IsLoopbackHost("[::]"));
  EXPECT_TRUE(IsEventStream("Text/Event-Stream; charset=utf-8"));
  EXPECT_TRUE(IsEventStream(" text/event-stream "));
  EXPECT_FALSE(IsEventStream("text/event-streams"));
  EXPECT_FALSE(IsEventStream("application/json"));
}

}  // namespace
}  // namespace mcpfuzz
