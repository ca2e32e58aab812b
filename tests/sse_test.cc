#include "model/sse.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "support/deterministic_property.h"

namespace mcpfuzz {
namespace {

template <typename Property>
void CheckDeterministically(Property property) {
  mcpfuzz::test_support::CheckDeterministically(std::move(property), 0x5EED5E5, 500);
}

SseEvent Message(std::string data) {
  SseEvent event;
  event.data = std::move(data);
  return event;
}

std::vector<SseEvent> FeedInChunks(const std::vector<std::string>& chunks, bool* discarded) {
  SseParser parser;
  std::vector<SseEvent> events;
  for (const std::string& chunk : chunks) parser.Feed(chunk, events);
  const bool was_discarded = parser.Finish(events);
  if (discarded != nullptr) *discarded = was_discarded;
  return events;
}

TEST(Sse, LfCrAndCrLfAllEndLines) {
  const std::vector<SseEvent> expected = {Message("a"), Message("b")};
  EXPECT_EQ(ParseSse("data: a\n\ndata: b\n\n"), expected);
  EXPECT_EQ(ParseSse("data: a\r\rdata: b\r\r"), expected);
  EXPECT_EQ(ParseSse("data: a\r\n\r\ndata: b\r\n\r\n"), expected);
  EXPECT_EQ(ParseSse("data: a\r\n\ndata: b\r\r\n"), expected);
}

TEST(Sse, CrLfSplitAcrossChunksIsOneLineEnd) {
  // Were the LF read as a second line end, the first event would dispatch with only "a" and
  // "b" would form an event of its own.
  bool discarded = true;
  EXPECT_EQ(FeedInChunks({"data: a\r", "\ndata: b\r", "\n\r", "\n"}, &discarded),
            std::vector<SseEvent>{Message("a\nb")});
  EXPECT_FALSE(discarded);
}

TEST(Sse, CrEndedEventDispatchesBeforeTheNextChunk) {
  SseParser parser;
  std::vector<SseEvent> events;
  parser.Feed("data: now\r\r", events);
  EXPECT_EQ(events, std::vector<SseEvent>{Message("now")});
}

TEST(Sse, LeadingBomIsStrippedOnceEvenWhenSplit) {
  EXPECT_EQ(ParseSse("\xEF\xBB\xBF"
                     "data: x\n\n"),
            std::vector<SseEvent>{Message("x")});
  EXPECT_EQ(FeedInChunks({"\xEF", "", "\xBB",
                          "\xBF"
                          "da",
                          "ta: x\n\n"},
                         nullptr),
            std::vector<SseEvent>{Message("x")});
  // A second BOM is part of the first line, which then names an unknown field.
  EXPECT_TRUE(ParseSse("\xEF\xBB\xBF\xEF\xBB\xBF"
                       "data: x\n\n")
                  .empty());
  // A BOM later in the stream is ordinary data.
  EXPECT_EQ(ParseSse("data: \xEF\xBB\xBF\n\n"), std::vector<SseEvent>{Message("\xEF\xBB\xBF")});
  // Bytes that only start like a BOM are kept.
  EXPECT_EQ(FeedInChunks({"\xEF",
                          "\n"
                          "data: y\n\n"},
                         nullptr),
            std::vector<SseEvent>{Message("y")});
}

TEST(Sse, CommentLinesAreIgnored) {
  EXPECT_EQ(ParseSse(": keep-alive\ndata: a\n:another\n\n"), std::vector<SseEvent>{Message("a")});
  EXPECT_TRUE(ParseSse(": only a comment\n\n").empty());
}

TEST(Sse, OnlyOneSpaceAfterTheColonIsRemoved) {
  EXPECT_EQ(ParseSse("data:a\n\n"), std::vector<SseEvent>{Message("a")});
  EXPECT_EQ(ParseSse("data:  a \n\n"), std::vector<SseEvent>{Message(" a ")});
  EXPECT_EQ(ParseSse("data:\ta\n\n"), std::vector<SseEvent>{Message("\ta")});
  EXPECT_EQ(ParseSse("data: a:b\n\n"), std::vector<SseEvent>{Message("a:b")});
}

TEST(Sse, LineWithoutColonIsFieldWithEmptyValue) {
  EXPECT_EQ(ParseSse("data\n\n"), std::vector<SseEvent>{Message("")});
  EXPECT_EQ(ParseSse("data\ndata\n\n"), std::vector<SseEvent>{Message("\n")});
  // "data " is not the field name "data".
  EXPECT_TRUE(ParseSse("data \n\n").empty());
}

TEST(Sse, DataLinesJoinWithNewline) {
  EXPECT_EQ(ParseSse("data: {\"a\":\ndata: 1}\n\n"), std::vector<SseEvent>{Message("{\"a\":\n1}")});
  EXPECT_EQ(ParseSse("data:\ndata:\n\n"), std::vector<SseEvent>{Message("\n")});
}

TEST(Sse, EventSetsTypeForOneEventOnly) {
  const auto events = ParseSse("event: endpoint\ndata: /post\n\ndata: plain\n\n");
  ASSERT_EQ(events.size(), 2U);
  EXPECT_EQ(events[0].event, "endpoint");
  EXPECT_EQ(events[0].data, "/post");
  EXPECT_EQ(events[1].event, "message");
  // An empty event field means the default type.
  EXPECT_EQ(ParseSse("event:\ndata: x\n\n")[0].event, "message");
}

TEST(Sse, IdPersistsAcrossEventsAndIgnoresNul) {
  using namespace std::string_literals;
  const std::string stream =
      "id: 1\ndata: a\n\n"
      "data: b\n\n"
      "id: 2\0x\ndata: c\n\n"
      "id\ndata: d\n\n"
      "id: 3\n\n"
      "data: e\n\n"s;
  ASSERT_NE(stream.find('\0'), std::string::npos);
  const auto events = ParseSse(stream);
  ASSERT_EQ(events.size(), 5U);
  EXPECT_EQ(events[0].id, "1");
  EXPECT_EQ(events[1].id, "1");
  EXPECT_EQ(events[2].id, "1");  // the id with a NUL was ignored
  EXPECT_EQ(events[3].id, "");   // an empty id resets it
  EXPECT_EQ(events[4].id, "3");  // set by an id-only block that dispatched nothing
}

TEST(Sse, RetryNeedsOnlyAsciiDigits) {
  EXPECT_EQ(ParseSse("retry: 1500\ndata: a\n\n")[0].retry_ms, 1500);
  for (const char* bad : {"retry: 15x\n", "retry: -1\n", "retry: 1.5\n", "retry:\n", "retry: \n",
                          "retry:  15\n", "retry: 99999999999999999999999\n"}) {
    const auto events = ParseSse(std::string(bad) + "data: a\n\n");
    ASSERT_EQ(events.size(), 1U) << bad;
    EXPECT_EQ(events[0].retry_ms, std::nullopt) << bad;
  }
  const auto events = ParseSse("retry: 10\ndata: a\n\nretry: x\ndata: b\n\n");
  ASSERT_EQ(events.size(), 2U);
  EXPECT_EQ(events[1].retry_ms, 10);  // the stream keeps the last valid retry
}

TEST(Sse, UnknownFieldsAreIgnored) {
  EXPECT_EQ(ParseSse("foo: bar\nData: x\nDATA\ndata: y\n\n"), std::vector<SseEvent>{Message("y")});
}

TEST(Sse, BlankLineWithoutDataDispatchesNothingAndResetsType) {
  const auto events = ParseSse("event: ping\n\ndata: x\n\n");
  EXPECT_EQ(events, std::vector<SseEvent>{Message("x")});
  EXPECT_TRUE(ParseSse("\n\n\r\n").empty());
}

TEST(Sse, FinishDiscardsAnUnterminatedEvent) {
  bool discarded = false;
  EXPECT_TRUE(FeedInChunks({"data: a\n\ndata: b\n"}, &discarded) ==
              std::vector<SseEvent>{Message("a")});
  EXPECT_TRUE(discarded);
  EXPECT_TRUE(FeedInChunks({"data: a\n\ndata: b"}, &discarded) ==
              std::vector<SseEvent>{Message("a")});
  EXPECT_TRUE(discarded);
  FeedInChunks({"data: a\n\n"}, &discarded);
  EXPECT_FALSE(discarded);
  FeedInChunks({"data: a\n\n: trailing comment"}, &discarded);
  EXPECT_FALSE(discarded);
  FeedInChunks({}, &discarded);
  EXPECT_FALSE(discarded);
}

TEST(Sse, FinishResetsForANewStream) {
  SseParser parser;
  std::vector<SseEvent> events;
  parser.Feed("id: 7\nevent: x\ndata: a", events);
  EXPECT_TRUE(parser.Finish(events));
  parser.Feed(
      "\xEF\xBB\xBF"
      "data: b\n\n",
      events);
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0], Message("b"));
}

TEST(SseProperty, ChunkingNeverChangesTheEvents) {
  CheckDeterministically([] {
    // Streams built from the pieces where chunking matters: line ends, BOM bytes, colons.
    const auto pieces = *rc::gen::container<std::vector<std::string>>(rc::gen::element<std::string>(
        "data", "data:", "data: ", "event: e", "id: 9", "retry: 5", ":c", "x", " ", "\r", "\n",
        "\r\n", "\xEF", "\xBB", "\xBF", std::string(1, '\0')));
    const bool with_bom = *rc::gen::arbitrary<bool>();
    std::string stream = with_bom ? "\xEF\xBB\xBF" : "";
    for (const std::string& piece : pieces) stream += piece;

    bool whole_discarded = false;
    const auto whole = FeedInChunks({stream}, &whole_discarded);

    auto cuts = *rc::gen::container<std::vector<std::size_t>>(
        rc::gen::inRange<std::size_t>(0, stream.size() + 1));
    std::sort(cuts.begin(), cuts.end());
    std::vector<std::string> chunks;
    std::size_t start = 0;
    for (std::size_t cut : cuts) {
      chunks.push_back(stream.substr(start, cut - start));
      start = cut;
    }
    chunks.push_back(stream.substr(start));

    bool chunked_discarded = false;
    RC_ASSERT(FeedInChunks(chunks, &chunked_discarded) == whole);
    RC_ASSERT(chunked_discarded == whole_discarded);
  });
}

TEST(SseProperty, ByteAtATimeMatchesWholeOnAMixedStream) {
  const std::string stream =
      "\xEF\xBB\xBF: hi\r\nevent: a\rdata: 1\r\ndata:2\n\rid: q\r\n\r\nretry: 30\ndata\n\n";
  std::vector<std::string> bytes;
  for (char c : stream) bytes.emplace_back(1, c);
  const auto events = FeedInChunks(bytes, nullptr);
  ASSERT_EQ(events.size(), 2U);
  EXPECT_EQ(events, ParseSse(stream));
  EXPECT_EQ(events[0].event, "a");
  EXPECT_EQ(events[0].data, "1\n2");
  EXPECT_EQ(events[1].id, "q");
  EXPECT_EQ(events[1].retry_ms, 30);
}

}  // namespace
}  // namespace mcpfuzz
