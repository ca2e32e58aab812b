#pragma once
// Fault switches of the reference server. Each switch makes the server deviate from the oracle
// tables in exactly one documented way, so every oracle can be shown to fail on a server that
// breaks its rule and to pass on one that keeps it.

#include <optional>
#include <set>
#include <span>
#include <string_view>

namespace mcpfuzz::refserver {

enum class Fault {
  kUnknownToolIsError,
  kUnknownToolPlainSuccess,
  kUnknownToolHtml,
  kUnknownToolWrongCode,
  kHangOnUnknownTool,
  kInputValidationAsProtocolError,
  kParseErrorWrongId,
  kInvalidRequestAccepted,
  kNotificationAnswered,
  kErrorLeaksInternals,
  kCrashOnDeepNesting,
  kExitAfterInitialize,
  kLogsOnStdout,
  kUnsupportedVersionEchoed,
  kPingMethodNotFound,
  kSessionNotEnforced,
  kStaleSessionServed,
  kBatchRejectedIn2025_03_26,
  kOriginNotChecked,
  kMissingMetaServed,
  kHeaderMismatchServed,
  kMethodHeaderCaseInsensitive,
  kUnsupportedVersionNoData,
  kUnknownMethod200,
  kMissingResultType,
  kResourceNotFoundLegacyCode,
  kEraLockIgnored,
  kValidatorDumpInErrors,
  kRemovedMethodsServed,
  kPrettyPrintedStdio,
  kPrototypeNameLookup,
  kDeafAfterBigLine,
  k500OnDeepNesting,
  kDeletedSessionServed,
  kCursorAcrossLists,
  kCancelledRequestAnswered,
  kListenUnacknowledged,
  kLogLevelIgnored,
  kProgressUnrequested,
  kInitializeRelocksEra,
  kEraSwitchAfterInitialize,
  kDeleteEndsAllSessions,
  kSetLevelIgnored,
  kUnsubscribeIgnored,
  kCursorSingleUse,
  kProgressAfterResponse,
  kErrorAnsweredTwice,
  kCrashOnLongId,
};

/// The switches a server runs with; empty means conformant.
using FaultSet = std::set<Fault>;

/// One row of the fault table: the stable kebab-case name used by `--fault` and reports, and
/// the one deviation it makes, in one line.
struct FaultInfo {
  Fault fault;
  std::string_view name;
  std::string_view description;
};

/// Every fault, in declaration order.
std::span<const FaultInfo> AllFaults();
/// The fault named `name` (exact, kebab-case), or nothing.
std::optional<Fault> FaultFromName(std::string_view name);
/// The kebab-case name of `fault`.
std::string_view ToString(Fault fault);

}  // namespace mcpfuzz::refserver
