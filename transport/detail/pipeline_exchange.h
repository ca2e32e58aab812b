#pragma once
// One SendPipelined of the stdio transport: requests and a sentinel written back to back,
// each reply attributed to its request by id, silence learnt from the sentinel's reply.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "transport/detail/dropped_ids.h"
#include "transport/detail/process_activity.h"
#include "transport/detail/reply_rule.h"
#include "transport/detail/server_pipes.h"
#include "transport/detail/stdio_record.h"
#include "transport/transport.h"

namespace mcpfuzz::transport_detail {

/// Why `pipeline` cannot be attributed reply by reply whatever the server says, or nothing:
/// two messages share an id, or a request of a pipeline of several has no echoable id. Such a
/// pipeline is not sent.
std::optional<std::string> AmbiguousByConstruction(const Pipeline& pipeline);

class PipelineExchange {
 public:
  /// `pipeline` must have a sentinel with a string or integer id and must not be ambiguous by
  /// construction, and must outlive the exchange. `hints` has one entry per request (a missing
  /// one is not in order): when every request open at the sentinel's reply is one the server is
  /// known to answer in order (ReplyOrders), they are concluded at once, without the grace.
  PipelineExchange(const Pipeline& pipeline, const Limits& limits, ServerPipes& pipes,
                   DroppedIds& dropped, std::vector<ReplyOrderHint> hints = {});
  // What it writes points into itself (a short body serialised into scratch_).
  PipelineExchange(const PipelineExchange&) = delete;
  PipelineExchange& operator=(const PipelineExchange&) = delete;
  PipelineResult Run();

 private:
  using Clock = std::chrono::steady_clock;
  // One message written: a request, or the sentinel (the last slot).
  struct Slot {
    ReplyRule rule;
    Observation observation;
    bool concluded = false;
    /// The offset in what is written (wire_) just past this message's bytes.
    std::size_t wire_end = 0;
    /// What the caller knew of its order (the constructor's `hints`).
    ReplyOrderHint hint;
    /// It was open when the sentinel's reply came.
    bool open_at_sentinel = false;
    bool written = false;
    /// Its reply was taken after the sentinel's.
    bool after_sentinel = false;
    /// When a line was last attributed to it (or its bytes were written): the quiet window of a
    /// message that owes no reply counts from here once the sentinel is not trusted.
    Clock::time_point quiet_since;
    /// A long-lived request (subscriptions/listen) whose stream was acknowledged: once the
    /// sentinel is answered it is heard out, not dropped.
    bool acknowledged = false;
  };

  void TakeLine(LinePiece piece);
  // Attributes one framed piece (a line, or a message pretty-printed across lines).
  void TakeFramed(StdoutFramer::Framed framed);
  // The slot that output no id attributes goes to; `certain` is false when that may not be
  // the message Send, one message at a time, would have given it to.
  Slot& CurrentSlot(bool& certain);
  // Notes output given to `slot` once the sentinel was answered.
  void TakenAfterSentinel(const Slot& slot);
  Slot* SlotAnsweredBy(const boost::json::value& message);
  // The subscriptions/listen request a notification is stamped as part of (tables §10 X22).
  Slot* SlotSubscribedBy(const boost::json::value& message);
  void Conclude(Slot& slot, Outcome outcome, std::string detail);
  // Once the grace after the sentinel's reply is over; returns when to call again (a message
  // still listening out its quiet window), or time_point::max().
  Clock::time_point ConcludeAfterSentinel(Clock::time_point now);
  void ConcludeAtDeadline();
  void ConcludeAtEnd(bool leader_exited);
  // The window cap is reached: every open message ends kTooLarge.
  void ConcludeWindowFull();
  std::size_t WindowLeft() const;
  bool WindowFull() const {
    return window_lines_ >= limits_.max_reply_lines ||
           window_kept_bytes_ >= limits_.max_response_bytes || WindowLeft() == 0;
  }
  bool all_concluded() const;
  Slot& sentinel() { return slots_.back(); }
  Clock::duration Grace() const;
  void WriteSome();
  // The timeout from the last message concluded; under the patience, no later than the
  // patience after the pipeline was written whole (Limits::patience_once_written).
  Clock::time_point Deadline() const;
  std::string TimeoutDetail(bool sentinel) const;

  const Limits limits_;
  // Every request open when the sentinel's reply came was in order: no grace is waited.
  bool grace_spared_ = false;
  // A late reply came to a request an earlier exchange concluded without its grace: the order
  // learnt was wrong, so this pipeline waits its grace whatever it was told.
  bool order_disproved_ = false;
  // Output was given to a request after the sentinel's reply.
  bool taken_after_sentinel_ = false;
  std::vector<PipelineResult::LateAfterSparedGrace> late_after_spared_grace_;
  ServerPipes& pipes_;
  DroppedIds& dropped_;
  std::vector<Slot> slots_;
  // What is written, in order: each message's bytes where they are (a raw body of megabytes is
  // not copied; a JSON body serialised into scratch_) and the newline after it.
  std::vector<std::string> scratch_;
  std::vector<std::string_view> wire_;
  std::size_t wire_size_ = 0;
  // The piece of wire_ written next, and how much of it is written already.
  std::size_t piece_ = 0;
  std::size_t piece_written_ = 0;
  const Clock::time_point start_ = Clock::now();
  // The timeout counts from the last message concluded, so a server answering a long pipeline
  // in order, slowly, gets as much time per request as Send gives it.
  Clock::time_point last_progress_ = start_;
  std::optional<Clock::time_point> sentinel_answered_;
  std::size_t written_ = 0;
  std::optional<Clock::time_point> written_whole_;
  std::optional<int> write_errno_;
  // The reply window, like the timeout, restarts at each message concluded: a pipeline may
  // read a cap of stdout per message, and a flood ends it at the first cap.
  std::size_t window_start_bytes_ = 0;
  std::size_t window_lines_ = 0;
  std::size_t window_kept_bytes_ = 0;
  bool ambiguous_ = false;
  std::vector<boost::json::value> late_replies_;
  StdoutFramer framer_;
  AllowanceWatch allowance_;
  // How long after the last progress the allowance was found unneeded (AllowanceWatch).
  std::optional<Clock::duration> allowance_cut_after_;
};

}  // namespace mcpfuzz::transport_detail
