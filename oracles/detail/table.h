#pragma once
// Shorthands for writing the expectation table, and the per-topic parts of it.

#include <vector>

#include "oracles/check_ids.h"
#include "oracles/error_codes.h"
#include "oracles/expectations.h"

namespace mcpfuzz::oracles_detail {

inline constexpr Revision kR1 = Revision::k2024_11_05;
inline constexpr Revision kR2 = Revision::k2025_03_26;
inline constexpr Revision kR3 = Revision::k2025_06_18;
inline constexpr Revision kR4 = Revision::k2025_11_25;
inline constexpr Revision kR5 = Revision::k2026_07_28;

inline constexpr RevisionRange kEveryRevision{kR1, kR5};
inline constexpr RevisionRange kHandshakeEra{kR1, kR4};
inline constexpr RevisionRange kStatelessEra{kR5, kR5};

inline constexpr Channel kProtocolError = Channel::kProtocolError;
inline constexpr Channel kExecutionError = Channel::kExecutionError;
inline constexpr Channel kSuccess = Channel::kSuccess;
inline constexpr Channel kNoReply = Channel::kNoReply;

inline constexpr StatusRange kHttp200{200, 200};
inline constexpr StatusRange kHttp202{202, 202};
inline constexpr StatusRange kHttp2xx{200, 299};
inline constexpr StatusRange kHttp400{400, 400};
inline constexpr StatusRange kHttp403{403, 403};
inline constexpr StatusRange kHttp404{404, 404};
inline constexpr StatusRange kHttp405{405, 405};
inline constexpr StatusRange kHttp4xx{400, 499};

/// tables §4b V16a: a handshake-era `initialize` on a stdio connection the era lock pinned to
/// 2026-07-28 is refused, with -32601 (V6), -32602 (V1), or -32600 or -32022 (V16, as the
/// dual-era SDKs refuse a conflicting era claim); another code still refuses it (V7: warns).
/// One rule for era.initialize-after-lock and for methods.removed's initialize over stdio.
inline ChannelRule RefusedAfterEraLock() {
  return {.conformant = {kProtocolError}, .strength = Strength::kMust};
}
inline CodeRule RefusedAfterEraLockCode() {
  return {.conformant = {kMethodNotFoundCode, kInvalidParamsCode, kInvalidRequestCode,
                         kUnsupportedProtocolVersionCode},
          .strength = Strength::kShould};
}

/// DescribeExpected of a row of AllExpectations(), described once; nullptr for any other row.
const ExpectedAnswer* TableRowExpected(const Expectation& row, TransportKind transport);

void AddJsonRpcRows(std::vector<Expectation>& rows);
void AddLifecycleRows(std::vector<Expectation>& rows);
void AddFeatureRows(std::vector<Expectation>& rows);
void AddHttpRows(std::vector<Expectation>& rows);
void AddStdioRows(std::vector<Expectation>& rows);
void AddLimitRows(std::vector<Expectation>& rows);

}  // namespace mcpfuzz::oracles_detail
