// The Streamable HTTP front: cpp-httplib on a background thread, loopback only.

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "refserver/refserver.h"

namespace mcpfuzz::refserver {
namespace {

// A hanging request is released after this long, or at Stop(), so it never blocks shutdown.
constexpr auto kMaxHang = std::chrono::seconds(30);
constexpr auto kStartTimeout = std::chrono::seconds(5);
// Bounds how long Stop() waits for an idle keep-alive connection to close.
constexpr time_t kKeepAliveSeconds = 1;
// Above the largest body mcpfuzz sends by default (16 MiB and one byte, the limits family), so
// the reference server serves every case instead of refusing one mid-upload.
constexpr std::size_t kMaxPayloadBytes = std::size_t{32} << 20U;
// Generous, so a few hanging requests (hang-on-unknown-tool) do not starve the others.
constexpr std::size_t kWorkerThreads = 32;

bool IsLoopbackBindHost(std::string_view host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1";
}

// Whether this worker's current request reached Handle. httplib answers a request it could not
// read (a header line or a request line past its 8 KiB) with 400 or 414 itself, and then reads
// the next request on the connection from where it stopped, inside the unread body: the
// limits family's long header values made the requests after them fail. A refusal that leaves
// the body unread has to end the connection; those refusals carry "Connection: close" (RFC 9112
// §9.6), on which the client closes it, since httplib keeps it open.
thread_local bool handled = false;

bool IsSynthesizedHeader(std::string_view name) {
  // cpp-httplib adds the peer's addresses to the request headers; they were never sent.
  return name == "REMOTE_ADDR" || name == "REMOTE_PORT" || name == "LOCAL_ADDR" ||
         name == "LOCAL_PORT";
}

}  // namespace

struct HttpServerHandle::Impl {
  Impl(ReferenceServer& reference, std::string bind_host)
      : server(reference), host(std::move(bind_host)) {}

  void Handle(const httplib::Request& request, httplib::Response& response) {
    handled = true;
    HttpRequest received;
    received.method = request.method;
    received.path = request.path;
    for (const auto& [name, value] : request.headers) {
      if (!IsSynthesizedHeader(name)) received.headers.push_back({name, value});
    }
    received.body = request.body;
    HttpReply reply = server.HandleHttp(received);

    if (reply.action == Action::kCrash) std::abort();
    if (reply.action == Action::kHang) {
      std::unique_lock lock(hang_mutex);
      hang_released.wait_for(lock, kMaxHang, [this] { return stopping.load(); });
      response.status = 503;
      return;
    }
    response.status = reply.status;
    std::string content_type;
    for (const Header& header : reply.headers) {
      if (header.name == "Content-Type") {
        content_type = header.value;
      } else {
        response.set_header(header.name.c_str(), header.value);
      }
    }
    if (!reply.body.empty()) response.set_content(reply.body, content_type.c_str());
    if (reply.action == Action::kExit) http.stop();
  }

  void Stop() {
    {
      std::lock_guard lock(hang_mutex);
      stopping = true;
    }
    hang_released.notify_all();
    http.stop();
    if (thread.joinable()) thread.join();
  }

  ReferenceServer& server;
  std::string host;
  int port = 0;
  httplib::Server http;
  std::thread thread;
  std::atomic<bool> serving{true};
  std::atomic<bool> stopping{false};
  std::mutex hang_mutex;
  std::condition_variable hang_released;
};

HttpServerHandle::HttpServerHandle(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HttpServerHandle::HttpServerHandle(HttpServerHandle&&) noexcept = default;
HttpServerHandle& HttpServerHandle::operator=(HttpServerHandle&& other) noexcept {
  if (this != &other) {
    Stop();
    impl_ = std::move(other.impl_);
  }
  return *this;
}
HttpServerHandle::~HttpServerHandle() { Stop(); }

int HttpServerHandle::port() const { return impl_ ? impl_->port : 0; }

std::string HttpServerHandle::url() const {
  if (!impl_) return {};
  std::string host = impl_->host == "::1" ? "[::1]" : impl_->host;
  return "http://" + host + ":" + std::to_string(impl_->port) + std::string(kEndpointPath);
}

bool HttpServerHandle::serving() const { return impl_ && impl_->serving.load(); }

void HttpServerHandle::Stop() {
  if (impl_) impl_->Stop();
}

Result<HttpServerHandle> ServeHttp(ReferenceServer& server, std::string host, int port) {
  if (!IsLoopbackBindHost(host)) {
    return Error{"refusing to serve on " + host + ": only 127.0.0.1, localhost and ::1"};
  }
  if (port < 0 || port > 65535) return Error{"port out of range: " + std::to_string(port)};
  auto impl = std::make_unique<HttpServerHandle::Impl>(server, host);
  HttpServerHandle::Impl* raw = impl.get();
  auto handler = [raw](const httplib::Request& request, httplib::Response& response) {
    raw->Handle(request, response);
  };
  // cpp-httplib answers a bare 400 itself to methods it has no route for (CONNECT, TRACE) and
  // to bodiless PUT or POST. Requests without a body are therefore handled before routing;
  // those with one go through the routes below, which read the body first.
  raw->http.set_pre_routing_handler(
      [raw](const httplib::Request& request, httplib::Response& response) {
        if (request.has_header("Content-Length") || request.has_header("Transfer-Encoding")) {
          return httplib::Server::HandlerResponse::Unhandled;
        }
        raw->Handle(request, response);
        return httplib::Server::HandlerResponse::Handled;
      });
  raw->http.Get(".*", handler);
  raw->http.Post(".*", handler);
  raw->http.Put(".*", handler);
  raw->http.Patch(".*", handler);
  raw->http.Delete(".*", handler);
  raw->http.Options(".*", handler);
  raw->http.set_error_handler(httplib::Server::HandlerWithResponse(
      [](const httplib::Request&, httplib::Response& response) {
        if (!handled) response.set_header("Connection", "close");
        return httplib::Server::HandlerResponse::Unhandled;
      }));
  // httplib logs every response once written: the next request starts unhandled.
  raw->http.set_logger([](const httplib::Request&, const httplib::Response&) { handled = false; });
  raw->http.new_task_queue = [] { return new httplib::ThreadPool(kWorkerThreads); };
  raw->http.set_keep_alive_timeout(kKeepAliveSeconds);
  // httplib writes headers and body in separate sends; without TCP_NODELAY, Nagle plus the
  // client's delayed ACK adds ~40 ms to every reply on a reused connection.
  raw->http.set_tcp_nodelay(true);
  raw->http.set_payload_max_length(kMaxPayloadBytes);
  // httplib's default adds SO_REUSEPORT, which lets a second server bind a port that one is
  // already listening on, and the kernel then splits connections between them: verdicts go
  // flaky. SO_REUSEADDR alone still allows a restart over TIME_WAIT sockets.
  raw->http.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });

  if (port == 0) {
    raw->port = raw->http.bind_to_any_port(host);
  } else if (raw->http.bind_to_port(host, port)) {
    raw->port = port;
  } else {
    raw->port = -1;
  }
  if (raw->port <= 0) {
    return Error{"cannot bind " + host + ":" + std::to_string(port) +
                 (port != 0 ? " (is another server listening on that port?)" : "")};
  }

  raw->thread = std::thread([raw] {
    raw->http.listen_after_bind();
    raw->serving = false;
  });
  auto deadline = std::chrono::steady_clock::now() + kStartTimeout;
  while (!raw->http.is_running() && raw->serving && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!raw->http.is_running()) {
    raw->Stop();
    return Error{"the HTTP server on " + host + ":" + std::to_string(raw->port) + " did not start"};
  }
  return HttpServerHandle(std::move(impl));
}

}  // namespace mcpfuzz::refserver
