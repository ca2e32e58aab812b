// The stdio transport: one child process speaking newline-delimited JSON-RPC.
//
// Everything runs on the calling thread. Pipes are only read inside Send and Shutdown, so
// output the server writes between two Sends (and complete lines read past a reply) is
// attributed to the next Send. Spawn failure is an Error from SpawnStdio, never an
// observation.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "model/channel.h"
#include "transport/children.h"
#include "transport/detail/agent_channel.h"
#include "transport/detail/child_process.h"
#include "transport/detail/dropped_ids.h"
#include "transport/detail/pipe_io.h"
#include "transport/detail/pipeline_exchange.h"
#include "transport/detail/process_activity.h"
#include "transport/detail/reply_rule.h"
#include "transport/detail/server_pipes.h"
#include "transport/detail/stdio_record.h"
#include "transport/start_gate.h"
#include "transport/transport.h"

namespace mcpfuzz {
namespace {

using Clock = std::chrono::steady_clock;

class StdioProcessTransport final : public StdioTransport {
 public:
  StdioProcessTransport(StdioTarget target, transport_detail::ChildProcess child, StartSlot start)
      : target_(std::move(target)),
        pipes_(std::move(child), target_.limits.max_response_bytes, target_.stderr_tail_bytes),
        start_(std::move(start)) {}
  ~StdioProcessTransport() override { Shutdown(); }
  StdioProcessTransport(const StdioProcessTransport&) = delete;
  StdioProcessTransport& operator=(const StdioProcessTransport&) = delete;

  Observation Send(const Request& request) override;
  PipelineResult SendPipelined(const Pipeline& pipeline) override;
  TransportKind kind() const override { return TransportKind::kStdio; }
  std::string Describe() const override;
  ReproducerTarget ReproduceAt() const override {
    return {TransportKind::kStdio, {}, target_.argv, {}};
  }
  bool Alive() override { return !shutdown_ && !pipes_.process().PollExit(); }
  ProcessExit Shutdown() override;
  void LimitPatience(std::optional<std::chrono::milliseconds> patience) override {
    patience_ = patience;
  }
  Observation AwaitReply(const Request& request) override;
  void SpareSentinelGrace(std::vector<ReplyOrderHint> hints) override { hints_ = std::move(hints); }
  void WidenQuietWindow(std::chrono::milliseconds quiet) override {
    target_.limits.quiet_window = std::max(target_.limits.quiet_window, quiet);
    answers_late_ = answers_late_ || quiet.count() > 0;
  }
  Result<std::string> TakeCoverage(bool all) override;

 private:
  // TakeCoverage but for waiting for the exit that follows a last take.
  Result<std::string> AskAgent(bool all);
  // The limits of an exchange writing `request_bytes`: the start-up limit until the server
  // said anything, then the timeout (or the patience, when shorter), with a large request's
  // read allowance.
  Limits ExchangeLimits(std::size_t request_bytes) const;
  // Anything the server said shows it has started. The first exchange ends its start either
  // way (answered, exited, or out of its start-up limit): the next server may start.
  void Heard(const Observation& observation) {
    heard_ = heard_ || !observation.messages.empty();
    start_.Release();
  }

  StdioTarget target_;
  transport_detail::ServerPipes pipes_;
  std::optional<ProcessExit> shutdown_;
  transport_detail::DroppedIds dropped_;
  bool heard_ = false;
  bool written_to_ = false;    // anything sent, on stdin or the agent's side channel
  bool answers_late_ = false;  // WidenQuietWindow: its replies may come after the quiet window
  std::optional<std::chrono::milliseconds> patience_;
  std::vector<ReplyOrderHint> hints_;  // for the next pipeline only
  transport_detail::AgentLines agent_;
  StartSlot start_;
};

Limits StdioProcessTransport::ExchangeLimits(std::size_t request_bytes) const {
  Limits limits = target_.limits;
  if (!heard_) {
    limits.time_limit = TimeLimit::kStartup;
  } else if (patience_ && *patience_ < limits.timeout) {
    limits.timeout = *patience_;
    limits.time_limit = TimeLimit::kPatience;
    limits.patience_once_written = *patience_;
  }
  limits.read_allowance = Limits::ReadAllowanceFor(request_bytes);
  limits.timeout += limits.read_allowance;
  return limits;
}

// One Send, from the first byte written to the end of the reply.
class Exchange {
 public:
  Exchange(std::string wire, const transport_detail::ReplyRule& rule, const Limits& limits,
           transport_detail::ServerPipes& pipes, transport_detail::DroppedIds& dropped)
      : limits_(limits),
        pipes_(pipes),
        dropped_(dropped),
        rule_(rule),
        wire_(std::move(wire)),
        window_start_bytes_(pipes.stdout_bytes_read()) {
    pipes_.ClearExchangeStderr();
  }

  Observation Run();

 private:
  Observation Finish(Outcome outcome, std::string detail);
  // Takes the complete lines read so far, up to the window's line cap; true once the awaited
  // reply is among them.
  bool TakeLines();
  bool TakeRemainder();
  // Records what the framer completed; true once the awaited reply is among it.
  bool Record(std::vector<transport_detail::StdoutFramer::Framed> framed);
  void WriteSome();
  std::string TimeoutDetail() const;
  // Stdout bytes this reply window may still read, kept or dropped.
  std::size_t WindowLeft() const {
    const std::size_t read = pipes_.stdout_bytes_read() - window_start_bytes_;
    const std::size_t budget = transport_detail::WindowReadBudget(limits_.max_response_bytes);
    return read >= budget ? 0 : budget - read;
  }
  // The window cap is reached: the server said more in one reply window than any reply needs.
  bool WindowFull() const {
    return lines_ >= limits_.max_reply_lines || kept_bytes_ >= limits_.max_response_bytes ||
           WindowLeft() == 0;
  }
  std::string TooLargeDetail() const;

  // A server still starting (TimeLimit::kStartup) is given the start-up limit until it writes
  // its first line to stdout: from then on it has started, and the reply limit counts.
  void Started(Clock::time_point now);

  Limits limits_;
  transport_detail::ServerPipes& pipes_;
  transport_detail::DroppedIds& dropped_;
  const transport_detail::ReplyRule rule_;
  const std::string wire_;
  const std::size_t window_start_bytes_;
  const Clock::time_point start_ = Clock::now();
  Clock::time_point deadline_ = start_ + (limits_.time_limit == TimeLimit::kStartup
                                              ? std::max(limits_.timeout, limits_.startup_timeout)
                                              : limits_.timeout);
  // The deadline is the patience after the request's last byte (Limits::patience_once_written).
  bool deadline_once_written_ = false;
  // A server still starting keeps its whole allowance: a start-up is not a reply.
  transport_detail::AllowanceWatch allowance_{pipes_.process().pid(),
                                              limits_.time_limit == TimeLimit::kStartup
                                                  ? std::chrono::milliseconds{0}
                                                  : limits_.read_allowance};
  Observation observation_;
  std::size_t written_ = 0;
  std::size_t lines_ = 0;
  std::size_t kept_bytes_ = 0;
  std::optional<int> write_errno_;
  Clock::time_point quiet_since_ = start_;
  // A long-lived request (subscriptions/listen) was acknowledged: its stream is heard out once
  // quiet, as a notification's silence is.
  bool acknowledged_ = false;
  // The first over-long line of the window: its excerpt and size, not its bytes.
  std::optional<transport_detail::LinePiece> too_long_;
  // Pretty-printed replies: the lines of a JSON text spread over several.
  transport_detail::StdoutFramer framer_;
};

Observation Exchange::Run() {
  transport_detail::ChildProcess& process = pipes_.process();
  bool leader_exited = false;
  for (;;) {
    if (TakeLines()) return Finish(Outcome::kOk, "");
    // The exchange ends once the over-long line is over, so the next Send starts in sync;
    // a flood ends it at the window cap whatever it is made of.
    if (too_long_ && !pipes_.stdout_lines().discarding()) {
      return Finish(Outcome::kTooLarge, TooLargeDetail());
    }
    if (WindowFull()) return Finish(Outcome::kTooLarge, TooLargeDetail());
    if (pipes_.stdout_eof() || leader_exited) {
      if (pipes_.stdout_eof() && TakeRemainder()) return Finish(Outcome::kOk, "");
      if (too_long_) return Finish(Outcome::kTooLarge, TooLargeDetail());
      if (!leader_exited && !pipes_.WaitForExit(deadline_ - Clock::now())) {
        return Finish(Outcome::kAliveButDeaf, "the server closed stdout but keeps running");
      }
      return Finish(Outcome::kExited, transport_detail::DescribeExit(*process.PollExit()));
    }
    if (process.PollExit()) {
      // Everything the server wrote before exiting is in the pipe by now and may hold the
      // reply: it is read before the exit is concluded, whichever the scheduler ran first.
      leader_exited = true;
      pipes_.Drain(WindowLeft());
      continue;
    }

    if (ExchangesStopped()) return Finish(Outcome::kTransportError, kStoppedDetail);
    const Clock::time_point now = Clock::now();
    const bool request_sent = written_ == wire_.size();
    const bool listens_for_quiet =
        rule_.kind != transport_detail::ReplyRule::Kind::kMatchingId || acknowledged_;
    if (now < deadline_ && allowance_.Spent(now, deadline_, request_sent)) deadline_ = now;
    if (now >= deadline_) {
      if (too_long_) return Finish(Outcome::kTooLarge, TooLargeDetail());
      if (request_sent && listens_for_quiet) {
        return Finish(Outcome::kOk, "the server kept writing until the time limit");
      }
      return Finish(process.PollExit() ? Outcome::kExited : Outcome::kAliveButDeaf,
                    TimeoutDetail());
    }
    Clock::time_point wake =
        std::min(deadline_, now + transport_detail::ServerPipes::kExitCheckInterval);
    if (request_sent && listens_for_quiet && !too_long_) {
      const Clock::time_point quiet_end = quiet_since_ + limits_.quiet_window;
      if (now >= quiet_end)
        return Finish(Outcome::kOk,
                      acknowledged_ ? std::string(transport_detail::kAcknowledgedQuiet) : "");
      wake = std::min(wake, quiet_end);
    }
    const bool want_write = !request_sent && process.stdin_fd() >= 0;
    if (pipes_.Pump(wake - now, want_write).stdin_ready) WriteSome();
  }
}

bool Exchange::TakeLines() {
  while (lines_ < limits_.max_reply_lines && kept_bytes_ < limits_.max_response_bytes) {
    auto piece = pipes_.stdout_lines().Next();
    if (!piece) break;
    if (piece->kind == transport_detail::LinePiece::Kind::kTooLong) {
      if (!too_long_) too_long_ = std::move(*piece);
      return false;
    }
    ++lines_;
    kept_bytes_ += piece->line.size();
    quiet_since_ = Clock::now();
    Started(quiet_since_);
    if (Record(framer_.Feed(std::move(piece->line)))) return true;
  }
  return false;
}

bool Exchange::Record(std::vector<transport_detail::StdoutFramer::Framed> framed) {
  bool ends = false;
  for (auto& piece : framed) {
    // A second response to a request answered before is a repeat, set aside.
    if (piece.value && dropped_.TakeRepeatedReply(*piece.value)) {
      observation_.repeated_replies.push_back(std::move(*piece.value));
      continue;
    }
    // A reply to an earlier request that went unanswered is that request's, never this one's:
    // it neither ends this exchange nor is judged as its answer.
    if (piece.value &&
        dropped_.TakeLateReply(*piece.value) != transport_detail::DroppedIds::Late::kNo) {
      observation_.late_replies.push_back(std::move(*piece.value));
      continue;
    }
    const boost::json::value* message =
        transport_detail::RecordFramed(observation_, std::move(piece));
    if (message == nullptr) continue;
    ends = ends || transport_detail::EndsExchange(rule_, *message);
    acknowledged_ = acknowledged_ || transport_detail::Acknowledges(rule_, *message);
  }
  return ends;
}

bool Exchange::TakeRemainder() {
  if (lines_ >= limits_.max_reply_lines || kept_bytes_ >= limits_.max_response_bytes) {
    return false;
  }
  auto rest = pipes_.stdout_lines().TakeRemainder();
  if (!rest) return false;
  ++lines_;
  kept_bytes_ += rest->size();
  return Record(framer_.Feed(std::move(*rest)));
}

void Exchange::WriteSome() {
  transport_detail::ChildProcess& process = pipes_.process();
  const ssize_t count = transport_detail::WriteWithoutSigpipe(
      process.stdin_fd(), wire_.data() + written_, wire_.size() - written_);
  const int error = errno;
  if (count > 0) {
    written_ += static_cast<std::size_t>(count);
    if (written_ == wire_.size()) {
      quiet_since_ = Clock::now();
      if (limits_.patience_once_written &&
          quiet_since_ + *limits_.patience_once_written < deadline_) {
        deadline_ = quiet_since_ + *limits_.patience_once_written;
        deadline_once_written_ = true;
      }
    }
  } else if (count < 0 && error != EAGAIN && error != EWOULDBLOCK) {
    write_errno_ = error;
    process.CloseStdin();
  }
}

std::string Exchange::TooLargeDetail() const {
  std::string detail;
  if (too_long_) {
    detail = transport_detail::DescribeTooLong(*too_long_, limits_.max_response_bytes);
    if (pipes_.stdout_lines().discarding()) detail += "; the rest of it is still being dropped";
  } else {
    detail = "the server wrote " +
             transport_detail::DescribeWindowCap(lines_, kept_bytes_, limits_) +
             " to stdout in one reply window; the exchange ended there, keeping " +
             std::to_string(lines_) + " lines (" + std::to_string(kept_bytes_) + " bytes)";
  }
  return detail;
}

std::string Exchange::TimeoutDetail() const {
  const std::string waited =
      deadline_once_written_
          ? std::to_string(limits_.patience_once_written->count()) + " ms of its last byte"
          : std::to_string(
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - start_).count()) +
                " ms";
  std::string detail = "no reply within " + waited + " (" +
                       std::string(Describe(limits_.time_limit)) + ")" +
                       transport_detail::DescribeWriteFailure(write_errno_, written_, wire_.size());
  if (written_ < wire_.size() && !write_errno_) {
    detail += "; only " + std::to_string(written_) + " of " + std::to_string(wire_.size()) +
              " request bytes were written";
  }
  if (const std::size_t pending = pipes_.stdout_lines().pending_bytes(); pending > 0) {
    detail += "; " + std::to_string(pending) + " bytes of an unterminated stdout line are pending";
  }
  return detail + allowance_.Detail();
}

void Exchange::Started(Clock::time_point now) {
  if (limits_.time_limit != TimeLimit::kStartup) return;
  limits_.time_limit = TimeLimit::kReply;
  deadline_ = std::min(deadline_, now + limits_.timeout);
}

Observation Exchange::Finish(Outcome outcome, std::string detail) {
  // A text still open when the exchange ends never became a message: its lines were not JSON.
  if (auto open = framer_.Flush()) transport_detail::RecordFramed(observation_, std::move(*open));
  observation_.outcome = outcome;
  observation_.detail = std::move(detail);
  observation_.time_limit = limits_.time_limit;
  observation_.limit = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - start_);
  observation_.stderr_tail = pipes_.exchange_stderr_tail();
  // Only an exchange the exit ended carries it: whether a process that is about to exit has
  // done so by the time its reply is read is the scheduler's choice, not the server's.
  if (outcome == Outcome::kExited) {
    if (auto exit = pipes_.process().PollExit()) {
      observation_.exit_code = exit->code;
      observation_.exit_signal = exit->signal;
    }
  }
  observation_.elapsed =
      std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start_);
  return std::move(observation_);
}

Observation StdioProcessTransport::Send(const Request& request) {
  if (shutdown_) {
    Observation observation;
    observation.outcome = Outcome::kExited;
    observation.detail = "the server was already shut down";
    observation.exit_code = shutdown_->exit_code;
    observation.exit_signal = shutdown_->signal;
    return observation;
  }
  if (ExchangesStopped()) {
    Observation stopped;
    stopped.outcome = Outcome::kTransportError;
    stopped.detail = kStoppedDetail;
    return stopped;
  }
  written_to_ = true;
  const transport_detail::ReplyRule rule = transport_detail::ReplyRuleFor(request);
  std::string scratch;
  const std::string_view body = request.WireView(scratch);
  dropped_.ForgetFor(rule, body);
  std::string wire;
  wire.reserve(body.size() + 1);
  wire.append(body).push_back('\n');
  const Limits limits = ExchangeLimits(wire.size());
  Observation observation = Exchange(std::move(wire), rule, limits, pipes_, dropped_).Run();
  Heard(observation);
  // Ended without a reply that echoes its id (deaf, or ended by an error whose id is null): a
  // reply that comes later carrying it is this request's, not a later message's. Answered: a
  // response that comes later carrying it is a repeat.
  if (rule.kind == transport_detail::ReplyRule::Kind::kMatchingId) {
    const bool answered = std::any_of(observation.messages.begin(), observation.messages.end(),
                                      [&rule](const boost::json::value& message) {
                                        return transport_detail::EchoesId(message, rule.id);
                                      });
    if (answered) {
      dropped_.RememberAnswered(rule.id);
    } else {
      dropped_.RememberUnanswered(rule.id);
    }
  } else if (rule.kind == transport_detail::ReplyRule::Kind::kFirstResponse && answers_late_ &&
             observation.outcome == Outcome::kOk &&
             std::none_of(observation.messages.begin(), observation.messages.end(),
                          IsResponseShaped)) {
    // Quiet for the whole window at a server that answers late: its error may still come.
    dropped_.RememberUnansweredUnnamed();
  }
  return observation;
}

Observation StdioProcessTransport::AwaitReply(const Request& request) {
  if (shutdown_) return Send(request);  // says it was shut down
  transport_detail::ReplyRule rule = transport_detail::ReplyRuleFor(request);
  // Its reply is awaited now, so it is not a late reply to be set aside.
  std::string scratch;
  dropped_.ForgetFor(rule, request.WireView(scratch));
  Limits limits = target_.limits;
  // Only a reply ends the wait: silence is what is being tested, up to the whole limit.
  limits.quiet_window = limits.timeout;
  Observation observation = Exchange(std::string(), rule, limits, pipes_, dropped_).Run();
  Heard(observation);
  return observation;
}

PipelineResult StdioProcessTransport::SendPipelined(const Pipeline& pipeline) {
  // Without a sentinel that can be matched by id nothing tells silence early: each message
  // waits as Send waits. Once shut down, Send reports that for each message.
  if (shutdown_ || !pipeline.sentinel ||
      transport_detail::ReplyRuleFor(*pipeline.sentinel).kind !=
          transport_detail::ReplyRule::Kind::kMatchingId) {
    return Transport::SendPipelined(pipeline);
  }
  if (auto why = transport_detail::AmbiguousByConstruction(pipeline)) {
    // Whatever came back could not be attributed, so nothing is sent: the caller sends the
    // messages one at a time, and the server sees each of them once.
    PipelineResult result;
    Observation unsent;
    unsent.outcome = Outcome::kTransportError;
    unsent.detail = "not sent: " + *why;
    result.observations.assign(pipeline.requests.size(), unsent);
    result.sentinel = unsent;
    result.ambiguous = true;
    return result;
  }
  written_to_ = true;
  std::size_t bytes = pipeline.sentinel->WireSize();
  for (const Request& request : pipeline.requests) bytes += request.WireSize();
  PipelineResult result =
      transport_detail::PipelineExchange(pipeline, ExchangeLimits(bytes), pipes_, dropped_,
                                         std::exchange(hints_, {}))
          .Run();
  for (const Observation& observation : result.observations) Heard(observation);
  Heard(result.sentinel);
  return result;
}

std::string StdioProcessTransport::Describe() const {
  std::string text = "stdio:";
  for (const std::string& argument : target_.argv) text += " " + argument;
  return text;
}

Result<std::string> StdioProcessTransport::TakeCoverage(bool all) {
  Result<std::string> taken = AskAgent(all);
  // The last take is written as the process exits: its exit follows, and is waited for, so
  // that the next exchange finds the server ended rather than ending under it.
  if (taken.ok() && IsLastTake(*taken)) {
    static_cast<void>(pipes_.WaitForExit(target_.limits.timeout));
  }
  return taken;
}

Result<std::string> StdioProcessTransport::AskAgent(bool all) {
  transport_detail::ChildProcess& process = pipes_.process();
  if (process.side_fd() < 0) return Error{"the server was started without a coverage agent"};
  if (shutdown_) return Error{"the server has ended"};
  transport_detail::LineSplitter& lines = pipes_.side_lines();
  if (process.PollExit()) {
    // A server that ended (a crash included) is asked nothing more, but its agent wrote what
    // ran since the last take as it exited: all it wrote is in the channel by now.
    pipes_.Drain(target_.limits.max_response_bytes);
    if (std::optional<Error> not_greeted = agent_.NotGreeted(lines, heard_)) return *not_greeted;
    if (auto last = transport_detail::AgentLines::Next(lines)) return std::move(*last);
    return Error{"the server has ended, leaving no last take"};
  }
  pipes_.Pump(Clock::duration::zero(), false);
  if (std::optional<Error> not_greeted = agent_.NotGreeted(lines, heard_)) return *not_greeted;
  written_to_ = true;
  if (std::optional<Error> closed = transport_detail::AskForTake(process.side_fd(), all)) {
    return *closed;
  }
  const Clock::time_point deadline = Clock::now() + target_.limits.timeout;
  for (;;) {
    if (auto reply = transport_detail::AgentLines::Next(lines)) return std::move(*reply);
    if (pipes_.side_eof()) return Error{"the coverage channel ended"};
    if (process.PollExit()) {
      // Its last take, written as it exited, answers for what ran since the last one.
      pipes_.Drain(target_.limits.max_response_bytes);
      if (auto last = transport_detail::AgentLines::Next(lines)) return std::move(*last);
      return Error{"the server ended before its agent answered"};
    }
    if (ExchangesStopped()) return Error{kStoppedDetail};
    const Clock::time_point now = Clock::now();
    if (now >= deadline) {
      return Error{"the coverage agent did not answer within " +
                   std::to_string(target_.limits.timeout.count()) + " ms"};
    }
    pipes_.Pump(std::min<Clock::duration>(deadline - now,
                                          transport_detail::ServerPipes::kExitCheckInterval),
                false);
  }
}

ProcessExit StdioProcessTransport::Shutdown() {
  if (shutdown_) return *shutdown_;
  start_.Release();
  transport_detail::ChildProcess& process = pipes_.process();
  pipes_.DiscardStdout();
  process.CloseStdin();
  bool sent_term = false;
  bool sent_kill = false;
  // A server sent nothing (a spare started ahead and not needed) has no work to finish: it is
  // not waited for through the rest of its start-up only to read the end of its input.
  const bool unused = !written_to_ && !process.PollExit();
  if (unused || !pipes_.WaitForExit(target_.shutdown_grace)) {
    sent_term = process.SignalGroup(SIGTERM);
    if (!pipes_.WaitForExit(target_.shutdown_grace)) sent_kill = process.SignalGroup(SIGKILL);
  }
  const transport_detail::ExitStatus status = process.Reap();
  pipes_.Drain(target_.limits.max_response_bytes);
  process.CloseStdout();
  process.CloseStderr();

  ProcessExit exit;
  exit.exit_code = status.code;
  exit.signal = status.signal;
  // A server that handles SIGTERM and exits with a code still ended because we asked; one that
  // died of another signal on the way out crashed by itself.
  const bool died_of_our_signal = status.signal && ((*status.signal == SIGTERM && sent_term) ||
                                                    (*status.signal == SIGKILL && sent_kill));
  exit.killed_by_mcpfuzz = died_of_our_signal || (status.code && sent_term);
  exit.stderr_tail = pipes_.stderr_tail();
  shutdown_ = exit;
  return exit;
}

}  // namespace

Result<std::unique_ptr<StdioTransport>> SpawnStdio(StdioTarget target) {
  transport_detail::Environment env =
      target.coverage_agent
          ? transport_detail::WithAgent(target.env, target.inherit_env, *target.coverage_agent)
          : target.env;
  StartSlot start = AcquireStartSlot(target.limits.startup_timeout);
  auto child = transport_detail::ChildProcess::Spawn(target.argv, env, target.inherit_env,
                                                     target.coverage_agent.has_value());
  if (!child) return child.error();
  return std::unique_ptr<StdioTransport>(std::make_unique<StdioProcessTransport>(
      std::move(target), std::move(*child), std::move(start)));
}

}  // namespace mcpfuzz
