#include "transport/detail/pipeline_exchange.h"

#include <algorithm>
#include <array>
#include <boost/json/serialize.hpp>
#include <cerrno>
#include <utility>

#include "model/channel.h"
#include "model/subscription.h"
#include "transport/children.h"
#include "transport/detail/pipe_io.h"
#include "transport/detail/stdio_record.h"

namespace mcpfuzz::transport_detail {
namespace {

// When is a request whose reply is missing dropped? The sentinel's reply decides, not a clock:
// a pipe keeps the order of what the server wrote, and lines are taken in that order, so by
// the time the sentinel's reply is taken every reply an ordered server wrote before it has
// already been taken. For a server that answers in order a request still unanswered then is
// unanswered for good, whatever the load and however the bytes were split into reads: its
// verdict is the one Send would reach after its timeout, and the grace below changes nothing:
// requests a target is learnt to answer in order (ReplyOrders) are spared it.
//
// The grace is for servers that handle requests concurrently (an async handler still running
// when the cheap sentinel is answered). No wait makes them scheduling independent; this one
// scales with the round trip just measured, which grows with the machine's load as the
// handler's own delay does: twice the pipeline's round trip (a handler up to about as slow
// again as everything before it), at least 10 ms (a few scheduler time slices on a busy
// machine), at most a tenth of the timeout (a pipeline must stay much cheaper than one
// timeout). A reply that comes later still is caught by DroppedIds in a later exchange: the
// verdict is exposed as a late reply, and the transport stops concluding kDropped from then on.
constexpr std::chrono::milliseconds kGraceFloor{10};
constexpr int kGraceRttFactor = 2;
constexpr int kGraceTimeoutDivisor = 10;

std::string Ms(std::chrono::steady_clock::duration duration) {
  return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(duration).count()) +
         " ms";
}

}  // namespace

std::optional<std::string> AmbiguousByConstruction(const Pipeline& pipeline) {
  std::vector<boost::json::value> ids;
  auto check = [&ids](const Request& request, bool several) -> std::optional<std::string> {
    ReplyRule rule = ReplyRuleFor(request);
    // A notification owes nothing, so it takes no response away from another message; output
    // without an id while it and another are open is ambiguous when it comes (CurrentSlot).
    if (rule.kind == ReplyRule::Kind::kSilence) return std::nullopt;
    if (rule.kind != ReplyRule::Kind::kMatchingId) {
      if (!several) return std::nullopt;
      return std::string("a request without an echoable id in a pipeline of several");
    }
    if (std::find(ids.begin(), ids.end(), rule.id) != ids.end()) {
      return "two messages share the id " + boost::json::serialize(rule.id);
    }
    ids.push_back(std::move(rule.id));
    return std::nullopt;
  };
  const bool several = pipeline.requests.size() > 1;
  for (const Request& request : pipeline.requests) {
    if (auto why = check(request, several)) return why;
  }
  if (pipeline.sentinel) return check(*pipeline.sentinel, false);
  return std::nullopt;
}

namespace {
// A pipeline written to a server still starting waits, like Send, up to the start-up limit.
Limits PipelineLimits(Limits limits) {
  if (limits.time_limit == TimeLimit::kStartup) {
    limits.timeout = std::max(limits.timeout, limits.startup_timeout);
  }
  return limits;
}
}  // namespace

PipelineExchange::PipelineExchange(const Pipeline& pipeline, const Limits& limits,
                                   ServerPipes& pipes, DroppedIds& dropped,
                                   std::vector<ReplyOrderHint> hints)
    : limits_(PipelineLimits(limits)),
      pipes_(pipes),
      dropped_(dropped),
      // A server still starting keeps its whole allowance: a start-up is not a reply.
      allowance_(pipes.process().pid(), limits.time_limit == TimeLimit::kStartup
                                            ? std::chrono::milliseconds{0}
                                            : limits.read_allowance) {
  // Sized first: the views of wire_ point into these strings.
  scratch_.resize(pipeline.requests.size() + 1);
  auto add = [this](const Request& request, ReplyOrderHint hint) {
    Slot slot;
    slot.rule = ReplyRuleFor(request);
    slot.hint = std::move(hint);
    const std::string_view body = request.WireView(scratch_[slots_.size()]);
    dropped_.ForgetFor(slot.rule, body);
    wire_.push_back(body);
    wire_.emplace_back("\n");
    wire_size_ += body.size() + 1;
    slot.wire_end = wire_size_;
    slot.quiet_since = start_;
    slots_.push_back(std::move(slot));
  };
  for (std::size_t i = 0; i < pipeline.requests.size(); ++i) {
    add(pipeline.requests[i], i < hints.size() ? std::move(hints[i]) : ReplyOrderHint{});
  }
  add(*pipeline.sentinel, {});
  pipes_.ClearExchangeStderr();
  window_start_bytes_ = pipes_.stdout_bytes_read();
}

PipelineResult PipelineExchange::Run() {
  ChildProcess& process = pipes_.process();
  bool leader_exited = false;
  PipelineResult result;
  for (;;) {
    while (!all_concluded() && !WindowFull()) {
      auto piece = pipes_.stdout_lines().Next();
      if (!piece) break;
      TakeLine(std::move(*piece));
    }
    // As in Send, an over-long line is read to its end, so the next exchange starts in sync,
    // unless the window cap ends it first.
    if (all_concluded() && !pipes_.stdout_lines().discarding()) break;
    if (WindowFull()) {
      ConcludeWindowFull();
      break;
    }
    if (pipes_.stdout_eof() || leader_exited) {
      ConcludeAtEnd(leader_exited);
      break;
    }
    if (process.PollExit()) {
      // What the server wrote before exiting may still hold replies.
      leader_exited = true;
      pipes_.Drain(WindowLeft());
      continue;
    }

    if (ExchangesStopped()) {
      for (Slot& slot : slots_) {
        if (!slot.concluded) Conclude(slot, Outcome::kTransportError, kStoppedDetail);
      }
      break;
    }
    Clock::time_point now = Clock::now();
    Clock::time_point wake = now + ServerPipes::kExitCheckInterval;
    if (sentinel_answered_) {
      const Clock::time_point grace_end = *sentinel_answered_ + Grace();
      if (now >= grace_end) {
        wake = std::min(wake, ConcludeAfterSentinel(now));
        // Done: the loop's top ends the exchange instead of pumping once more.
        if (all_concluded()) continue;
      } else {
        wake = std::min(wake, grace_end);
      }
    }
    const Clock::time_point deadline = Deadline();
    if (now < deadline && allowance_.Spent(now, deadline, written_whole_.has_value())) {
      allowance_cut_after_ = now - last_progress_;
    }
    if (now >= deadline || allowance_cut_after_) {
      ConcludeAtDeadline();
      break;
    }
    wake = std::min(wake, deadline);
    const bool want_write = written_ < wire_size_ && process.stdin_fd() >= 0;
    if (pipes_.Pump(wake - now, want_write).stdin_ready) WriteSome();
  }

  // A text still open at the end never became a message: its lines go where output without
  // an id goes.
  if (auto open = framer_.Flush()) TakeFramed(std::move(*open));
  // A response that comes for them later is a repeat, not a later message's answer.
  for (const Slot& slot : slots_) {
    if (slot.rule.kind != ReplyRule::Kind::kMatchingId) continue;
    const std::vector<boost::json::value>& messages = slot.observation.messages;
    if (std::any_of(messages.begin(), messages.end(), [&slot](const boost::json::value& message) {
          return EchoesId(message, slot.rule.id);
        })) {
      dropped_.RememberAnswered(slot.rule.id);
    }
  }
  result.observations.reserve(slots_.size() - 1);
  for (std::size_t i = 0; i + 1 < slots_.size(); ++i) {
    result.observations.push_back(std::move(slots_[i].observation));
    result.answered_after_sentinel.push_back(slots_[i].after_sentinel);
    result.open_at_sentinel.push_back(slots_[i].open_at_sentinel);
  }
  result.sentinel = std::move(sentinel().observation);
  result.sentinel.late_replies = std::move(late_replies_);
  result.ambiguous = ambiguous_;
  result.grace_spared = grace_spared_;
  result.late_after_spared_grace = std::move(late_after_spared_grace_);
  result.taken_after_sentinel = taken_after_sentinel_;
  return result;
}

void PipelineExchange::TakeLine(LinePiece piece) {
  if (piece.kind == LinePiece::Kind::kTooLong) {
    bool certain = true;
    Slot& slot = CurrentSlot(certain);
    ambiguous_ = ambiguous_ || !certain;
    if (!slot.concluded)
      Conclude(slot, Outcome::kTooLarge, DescribeTooLong(piece, limits_.max_response_bytes));
    return;
  }
  ++window_lines_;
  window_kept_bytes_ += piece.line.size();
  for (StdoutFramer::Framed& framed : framer_.Feed(std::move(piece.line))) {
    TakeFramed(std::move(framed));
  }
}

void PipelineExchange::TakeFramed(StdoutFramer::Framed framed) {
  if (framed.value) {
    if (Slot* slot = SlotAnsweredBy(*framed.value)) {
      const bool was_pending = !slot->concluded;
      TakenAfterSentinel(*slot);
      RecordFramed(slot->observation, std::move(framed));
      if (was_pending) Conclude(*slot, Outcome::kOk, "");
      return;
    }
    if (Slot* slot = SlotSubscribedBy(*framed.value)) {
      // Not a reply: the stream goes on, and the request stays open.
      slot->quiet_since = Clock::now();
      slot->acknowledged = slot->acknowledged || Acknowledges(slot->rule, *framed.value);
      RecordFramed(slot->observation, std::move(framed));
      return;
    }
    if (dropped_.TakeRepeatedReply(*framed.value)) {
      sentinel().observation.repeated_replies.push_back(std::move(*framed.value));
      return;
    }
    std::string spared_kind;
    if (const DroppedIds::Late late = dropped_.TakeLateReply(*framed.value, &spared_kind);
        late != DroppedIds::Late::kNo) {
      if (late == DroppedIds::Late::kGraceSpared) {
        order_disproved_ = true;
        late_after_spared_grace_.push_back(
            {framed.value->as_object().at("id"), std::move(spared_kind)});
      }
      late_replies_.push_back(std::move(*framed.value));
      return;
    }
  }
  bool certain = true;
  Slot& slot = CurrentSlot(certain);
  ambiguous_ = ambiguous_ || !certain;
  TakenAfterSentinel(slot);
  slot.quiet_since = Clock::now();
  const boost::json::value* message = RecordFramed(slot.observation, std::move(framed));
  if (certain && message != nullptr && EndsExchange(slot.rule, *message)) {
    Conclude(slot, Outcome::kOk, "");
  }
}

void PipelineExchange::TakenAfterSentinel(const Slot& slot) {
  taken_after_sentinel_ = taken_after_sentinel_ || (sentinel_answered_ && &slot != &sentinel());
}

PipelineExchange::Slot& PipelineExchange::CurrentSlot(bool& certain) {
  const std::size_t requests = slots_.size() - 1;
  std::size_t first_pending = requests;
  std::size_t pending = 0;
  for (std::size_t i = 0; i < requests; ++i) {
    if (slots_[i].concluded) continue;
    if (pending++ == 0) first_pending = i;
  }
  // Send, one message at a time, gives output without an id to the message whose exchange is
  // open. In a pipeline that is certain only when no request is open (the sentinel's) or the
  // last one alone is: no other request could still be waiting for it. Server notifications
  // and requests (log messages are common) are no exception: the oracles judge what precedes
  // a reply as part of it, so guessing the wrong request could change a verdict, while a
  // flag costs only the resend one at a time.
  if (pending == 0) return sentinel();
  certain = pending == 1 && first_pending == requests - 1;
  return slots_[first_pending];
}

PipelineExchange::Slot* PipelineExchange::SlotAnsweredBy(const boost::json::value& message) {
  if (!IsResponseShaped(message)) return nullptr;
  const auto* id = message.as_object().if_contains("id");
  if (id == nullptr || id->is_null()) return nullptr;
  Slot* repeated = nullptr;
  for (Slot& slot : slots_) {
    if (slot.rule.kind != ReplyRule::Kind::kMatchingId || slot.rule.id != *id) continue;
    if (!slot.concluded) return &slot;
    // A second reply to the same request is still that request's, for the oracles to judge.
    repeated = &slot;
  }
  return repeated;
}

PipelineExchange::Slot* PipelineExchange::SlotSubscribedBy(const boost::json::value& message) {
  if (IsResponseShaped(message)) return nullptr;
  const boost::json::value* id = SubscriptionIdOf(message);
  if (id == nullptr) return nullptr;
  for (Slot& slot : slots_) {
    if (slot.rule.long_lived && slot.rule.id == *id) return &slot;
  }
  return nullptr;
}

void PipelineExchange::Conclude(Slot& slot, Outcome outcome, std::string detail) {
  const Clock::time_point now = Clock::now();
  slot.concluded = true;
  Observation& observation = slot.observation;
  observation.outcome = outcome;
  observation.detail = std::move(detail);
  observation.time_limit = limits_.time_limit;
  observation.limit = limits_.timeout;
  // Stderr goes to the message concluded after it was written, as Send gives it to its
  // exchange.
  observation.stderr_tail = pipes_.exchange_stderr_tail();
  pipes_.ClearExchangeStderr();
  // As in Send, only a message the exit ended carries it, however the scheduler ordered the
  // server's last write and its exit.
  if (outcome == Outcome::kExited) {
    if (auto exit = pipes_.process().PollExit()) {
      observation.exit_code = exit->code;
      observation.exit_signal = exit->signal;
    }
  }
  observation.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(now - start_);
  slot.after_sentinel = outcome == Outcome::kOk && sentinel_answered_.has_value() &&
                        &slot != &sentinel() && slot.rule.kind == ReplyRule::Kind::kMatchingId;
  last_progress_ = now;
  window_start_bytes_ = pipes_.stdout_bytes_read();
  window_lines_ = 0;
  window_kept_bytes_ = 0;
  if (&slot == &sentinel() && !sentinel_answered_ && outcome == Outcome::kOk) {
    sentinel_answered_ = now;
    bool any_open = false;
    bool all_in_order = !order_disproved_;
    for (Slot& open : slots_) {
      if (open.concluded) continue;
      open.open_at_sentinel = true;
      any_open = true;
      all_in_order = all_in_order && open.hint.in_order;
    }
    grace_spared_ = any_open && all_in_order;
  }
}

PipelineExchange::Clock::time_point PipelineExchange::ConcludeAfterSentinel(Clock::time_point now) {
  Clock::time_point next = Clock::time_point::max();
  const std::string answered =
      "the sentinel written after it was answered after " + Ms(*sentinel_answered_ - start_) +
      (grace_spared_ ? std::string(" (the server answers these in order: no grace)")
                     : " and a grace of " + Ms(Grace()) + " passed");
  for (std::size_t i = 0; i + 1 < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (slot.concluded) continue;
    if (dropped_.out_of_order()) {
      // This server has answered a sentinel before a request's reply: the sentinel proves
      // nothing, so each message waits as Send waits for it.
      if (slot.rule.kind == ReplyRule::Kind::kMatchingId && !slot.acknowledged) continue;
      const Clock::time_point quiet_end = slot.quiet_since + limits_.quiet_window;
      if (now >= quiet_end) {
        Conclude(slot, Outcome::kOk, slot.acknowledged ? std::string(kAcknowledgedQuiet) : "");
      } else {
        next = std::min(next, quiet_end);
      }
      continue;
    }
    if (slot.rule.kind == ReplyRule::Kind::kSilence) {
      Conclude(slot, Outcome::kOk, "nothing owed; " + answered);
      continue;
    }
    if (slot.acknowledged) {
      Conclude(slot, Outcome::kOk, std::string(kAcknowledgedQuiet) + "; " + answered);
      continue;
    }
    if (slot.rule.kind == ReplyRule::Kind::kMatchingId) {
      dropped_.Remember(slot.rule.id,
                        grace_spared_ ? std::optional<std::string>(slot.hint.kind) : std::nullopt);
    }
    Conclude(slot, Outcome::kDropped, "no reply: " + answered);
  }
  return next;
}

void PipelineExchange::ConcludeAtDeadline() {
  const bool exited = pipes_.process().PollExit().has_value();
  for (Slot& slot : slots_) {
    if (slot.concluded) continue;
    // As Send: a message that owes no echoed reply was heard out once it was written.
    if (written_ >= slot.wire_end && slot.rule.kind != ReplyRule::Kind::kMatchingId) {
      Conclude(slot, Outcome::kOk, sentinel_answered_ ? "" : "the sentinel got no reply either");
      continue;
    }
    // A reply that comes after all is this request's, not the next message's.
    if (!exited && slot.rule.kind == ReplyRule::Kind::kMatchingId) {
      dropped_.RememberUnanswered(slot.rule.id);
    }
    Conclude(slot, exited ? Outcome::kExited : Outcome::kAliveButDeaf,
             TimeoutDetail(&slot == &sentinel()));
  }
}

void PipelineExchange::ConcludeAtEnd(bool leader_exited) {
  if (pipes_.stdout_eof()) {
    if (auto rest = pipes_.stdout_lines().TakeRemainder(); rest && !all_concluded()) {
      TakeLine(LinePiece{LinePiece::Kind::kLine, std::move(*rest)});
    }
  }
  if (all_concluded()) return;
  // Which request ended the server is known only if one alone could have.
  bool certain = true;
  CurrentSlot(certain);
  ambiguous_ = ambiguous_ || !certain;
  if (!leader_exited && !pipes_.WaitForExit(last_progress_ + limits_.timeout - Clock::now())) {
    for (Slot& slot : slots_) {
      if (!slot.concluded) {
        Conclude(slot, Outcome::kAliveButDeaf, "the server closed stdout but keeps running");
      }
    }
    return;
  }
  const std::string detail = DescribeExit(*pipes_.process().PollExit());
  for (Slot& slot : slots_) {
    if (!slot.concluded) Conclude(slot, Outcome::kExited, detail);
  }
}

void PipelineExchange::ConcludeWindowFull() {
  bool certain = true;
  CurrentSlot(certain);
  ambiguous_ = ambiguous_ || !certain;
  const std::string detail = "the server wrote " +
                             DescribeWindowCap(window_lines_, window_kept_bytes_, limits_) +
                             " to stdout in one reply window; the pipeline ended there";
  for (Slot& slot : slots_) {
    if (!slot.concluded) Conclude(slot, Outcome::kTooLarge, detail);
  }
}

std::size_t PipelineExchange::WindowLeft() const {
  const std::size_t read = pipes_.stdout_bytes_read() - window_start_bytes_;
  const std::size_t budget = WindowReadBudget(limits_.max_response_bytes);
  return read >= budget ? 0 : budget - read;
}

bool PipelineExchange::all_concluded() const {
  return std::all_of(slots_.begin(), slots_.end(), [](const Slot& slot) { return slot.concluded; });
}

PipelineExchange::Clock::duration PipelineExchange::Grace() const {
  if (grace_spared_) return Clock::duration::zero();
  const Clock::duration round_trip = *sentinel_answered_ - start_;
  const Clock::duration cap = limits_.timeout / kGraceTimeoutDivisor;
  return std::min<Clock::duration>(
      std::max<Clock::duration>(kGraceRttFactor * round_trip, kGraceFloor), cap);
}

void PipelineExchange::WriteSome() {
  ChildProcess& process = pipes_.process();
  // As many pieces as one writev takes: a window of small requests is one call, as before.
  constexpr std::size_t kPiecesPerWrite = 64;
  std::array<iovec, kPiecesPerWrite> buffers{};
  std::size_t pieces = 0;
  for (std::size_t p = piece_; p < wire_.size() && pieces < buffers.size(); ++p) {
    const std::size_t skip = p == piece_ ? piece_written_ : 0;
    // writev does not write through it.
    buffers[pieces].iov_base = const_cast<char*>(wire_[p].data() + skip);
    buffers[pieces].iov_len = wire_[p].size() - skip;
    ++pieces;
  }
  const ssize_t count =
      WritevWithoutSigpipe(process.stdin_fd(), buffers.data(), static_cast<int>(pieces));
  const int error = errno;
  if (count > 0) {
    written_ += static_cast<std::size_t>(count);
    for (auto left = static_cast<std::size_t>(count); left > 0 && piece_ < wire_.size();) {
      const std::size_t rest = wire_[piece_].size() - piece_written_;
      if (left < rest) {
        piece_written_ += left;
        break;
      }
      left -= rest;
      ++piece_;
      piece_written_ = 0;
    }
    const Clock::time_point now = Clock::now();
    if (written_ == wire_size_) written_whole_ = now;
    for (Slot& slot : slots_) {
      if (slot.wire_end <= written_ && !slot.written) {
        slot.written = true;
        slot.quiet_since = now;
      }
    }
  } else if (count < 0 && error != EAGAIN && error != EWOULDBLOCK) {
    write_errno_ = error;
    process.CloseStdin();
  }
}

PipelineExchange::Clock::time_point PipelineExchange::Deadline() const {
  const Clock::time_point deadline = last_progress_ + limits_.timeout;
  if (!limits_.patience_once_written || !written_whole_) return deadline;
  return std::min(deadline,
                  std::max(last_progress_, *written_whole_) + *limits_.patience_once_written);
}

std::string PipelineExchange::TimeoutDetail(bool sentinel) const {
  const bool once_written = Deadline() < last_progress_ + limits_.timeout;
  const std::string cut_at = allowance_cut_after_ ? Ms(*allowance_cut_after_)
                                                  : std::to_string(limits_.timeout.count()) + " ms";
  const std::string waited = once_written ? std::to_string(limits_.patience_once_written->count()) +
                                                " ms of the pipeline's last byte"
                                          : cut_at;
  std::string detail = "no reply within " + waited + " (" +
                       std::string(Describe(limits_.time_limit)) + ")" +
                       (sentinel ? "" : ", nor to the sentinel written after it") +
                       DescribeWriteFailure(write_errno_, written_, wire_size_);
  if (written_ < wire_size_ && !write_errno_) {
    detail += "; only " + std::to_string(written_) + " of " + std::to_string(wire_size_) +
              " pipeline bytes were written";
  }
  if (const std::size_t pending = pipes_.stdout_lines().pending_bytes(); pending > 0) {
    detail += "; " + std::to_string(pending) + " bytes of an unterminated stdout line are pending";
  }
  return detail + allowance_.Detail();
}

}  // namespace mcpfuzz::transport_detail
