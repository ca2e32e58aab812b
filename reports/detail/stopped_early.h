#pragma once
// How a report that a signal stopped before it was done (Report::stopped_by) is marked, in the
// formats whose writers share it: the JSON members (written and read back here, so every kind of
// report and every merge agree on them), JUnit's testsuite properties, SARIF's invocation and
// run properties, and the banner at the top of Markdown and HTML. A report that ended by itself has
// none of them.

#include <boost/json.hpp>
#include <string>

#include "reports/escape.h"
#include "reports/report.h"

namespace mcpfuzz::reports::detail {

/// `"stopped_early": true, "stopped_by": "SIGTERM"` into a JSON report, when it was stopped.
inline void AddStoppedEarlyJson(const Report& report, boost::json::object& out) {
  if (!report.StoppedEarly()) return;
  out["stopped_early"] = true;
  out["stopped_by"] = report.stopped_by;
}

/// What stopped the run whose JSON report is `in`; empty when nothing did. A report that says
/// it was stopped without saying by what still was.
inline std::string StoppedByFromJson(const boost::json::object& in) {
  const boost::json::value* stopped = in.if_contains("stopped_early");
  if (stopped == nullptr || !stopped->is_bool() || !stopped->as_bool()) return {};
  const boost::json::value* by = in.if_contains("stopped_by");
  return by != nullptr && by->is_string() && !by->as_string().empty() ? std::string(by->as_string())
                                                                      : std::string("a signal");
}

/// `<property>` lines with the JSON members' names and values, for each JUnit testsuite; ""
/// when not stopped.
inline std::string JunitStoppedEarlyProperties(const Report& report) {
  if (!report.StoppedEarly()) return {};
  return "      <property name=\"stopped_early\" value=\"true\"/>\n"
         "      <property name=\"stopped_by\" value=\"" +
         EscapeMarkup(report.stopped_by) + "\"/>\n";
}

/// The SARIF run's one invocation: successful unless a signal stopped it, and then the signal
/// and a notification that says what the results lack.
inline boost::json::object SarifInvocation(const Report& report) {
  boost::json::object invocation{{"executionSuccessful", !report.StoppedEarly()}};
  if (!report.started_at.empty()) invocation["startTimeUtc"] = report.started_at;
  boost::json::array notifications;
  if (report.StoppedEarly()) {
    invocation["exitSignalName"] = report.stopped_by;
    notifications.push_back(
        {{"level", "warning"}, {"message", {{"text", StoppedEarlyText(report)}}}});
  }
  // A target left unjudged has no result to carry it: without a notification, code scanning
  // would show a survey or diff that skipped a server as clean.
  auto not_judged = [&](const std::string& name, const std::string& why) {
    if (why.empty()) return;
    notifications.push_back(
        {{"level", "error"}, {"message", {{"text", name + ": not judged: " + why}}}});
  };
  for (const TargetSection& target : report.targets) not_judged(target.description, target.error);
  if (report.diff) {
    for (const DiffTargetReport& target : report.diff->targets) {
      not_judged(target.name, target.error);
    }
  }
  if (!notifications.empty()) invocation["toolExecutionNotifications"] = std::move(notifications);
  return invocation;
}

/// `"stoppedEarly": true, "stoppedBy": "SIGTERM"` among the SARIF run's properties, when it was
/// stopped.
inline void AddStoppedEarlySarif(const Report& report, boost::json::object& run) {
  if (!report.StoppedEarly()) return;
  boost::json::value& properties = run["properties"];
  if (!properties.is_object()) properties = boost::json::object{};
  properties.as_object()["stoppedEarly"] = true;
  properties.as_object()["stoppedBy"] = report.stopped_by;
}

/// The HTML banner under the page's heading, styled in place (each HTML writer has a style
/// sheet of its own); "" for a report that was not stopped.
inline std::string HtmlStoppedBanner(const Report& report) {
  if (!report.StoppedEarly()) return {};
  return "<p class=\"stopped\" role=\"alert\" data-figure=\"stopped-early\" "
         "style=\"background:#fff8c5;border:1px solid #bf8700;border-radius:6px;"
         "padding:8px 12px;font-weight:600\">" +
         EscapeMarkup(StoppedEarlyText(report)) + ".</p>";
}

/// The Markdown banner under the heading, a paragraph of its own; "" when not stopped.
inline std::string MarkdownStoppedBanner(const Report& report) {
  if (!report.StoppedEarly()) return {};
  return "> **" + EscapeMarkdownInline(StoppedEarlyText(report)) + ".**\n\n";
}

}  // namespace mcpfuzz::reports::detail
