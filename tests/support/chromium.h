#pragma once
// Headless Chromium for the tests that assert what a page shows: it loads a file:// URL with
// networking disabled and dumps the DOM it built, or takes a screenshot. Chromium comes from
// scripts/bootstrap.sh (Debian packages chromium, chromium-driver); a test skips, saying so,
// only when no chromium is installed.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "model/reproducer.h"

namespace mcpfuzz::test_support {

/// The installed chromium, or "" when there is none.
inline std::string FindChromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    for (const char* dir : {"/usr/bin/", "/usr/local/bin/", "/snap/bin/"}) {
      const std::string path = std::string(dir) + name;
      if (::access(path.c_str(), X_OK) == 0) return path;
    }
  }
  return "";
}

struct Rendered {
  int exit_code = -1;
  std::string output;
};

/// Runs chromium with the flags that keep it offline and unprivileged; `what` is --dump-dom or
/// --screenshot=FILE.
inline Rendered RunChromium(const std::string& chromium, const std::filesystem::path& profile,
                            const std::string& what, const std::string& url,
                            const std::string& window = "1280,1600") {
  const std::string command =
      "timeout 90 " + ShellQuote(chromium) +
      " --headless --no-sandbox --disable-gpu --disable-background-networking"
      " --no-first-run --disable-extensions --disable-sync --hide-scrollbars"
      " --host-resolver-rules='MAP * ~NOTFOUND' --user-data-dir=" +
      ShellQuote(profile.string()) + " --window-size=" + window + " " + what + " " +
      ShellQuote(url) + " 2>/dev/null";
  Rendered rendered;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return rendered;
  char buffer[8192];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) {
    rendered.output.append(buffer, n);
  }
  const int status = ::pclose(pipe);
  rendered.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return rendered;
}

}  // namespace mcpfuzz::test_support
