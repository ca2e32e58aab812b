#pragma once
// "Blame the layer": a server built on an SDK inherits the SDK's deviations, with the SDK's
// error codes and words. A survey compares each server's deviations with those of the SDK
// servers mcpfuzz knows (tests/servers, measured by scripts/sdk-fingerprints.sh into
// reports/data/sdk_fingerprints.json) and calls a match "likely inherited". It goes by what
// the server answered, never by the serverInfo it announces: a server may name itself anything,
// and most name themselves, not their SDK. A match is evidence, not proof: two independent
// servers can word one error alike.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.h"
#include "reports/report.h"

namespace mcpfuzz::reports {

/// One SDK server the table was measured on.
struct KnownSdk {
  /// "sdk-v1": what a fingerprint names.
  std::string id;
  /// "TypeScript SDK v1": for people.
  std::string name;
  /// "@modelcontextprotocol/sdk@1.32.2": what was measured.
  std::string package;
};

struct FingerprintTable {
  /// In layer order: the bare SDKs before the frameworks built on them, so the first SDK a
  /// fingerprint names is the lowest layer that shows it.
  std::vector<KnownSdk> sdks;
  /// Fingerprint → the ids of the SDKs that showed it, in layer order.
  std::map<std::string, std::vector<std::string>> fingerprints;

  const KnownSdk* Find(std::string_view id) const;
};

/// The fingerprint of a FAIL or WARN: "check|VERDICT|channel|code|words", the words being
/// the observed excerpt of an error (a JSON-RPC error, an isError result, a reply that is not
/// JSON-RPC) lowercased, its long numbers and hex runs (ids, ports, session ids) replaced by
/// '#', its spaces collapsed, cut at 120 bytes. Empty for any other verdict, and for a
/// deviation with neither an error code nor error words: a silence, or a success whose result
/// is the server's own, would match servers that share nothing but the mistake.
std::string Fingerprint(const ReportItem& item);

/// The table kept in the repository (reports/data/sdk_fingerprints.json), built into the binary.
const FingerprintTable& KnownSdkFingerprints();

/// Reads a table in that file's form.
Result<FingerprintTable> ParseFingerprintTable(std::string_view json_text);

/// One check a server deviates on the way known SDKs do.
struct InheritedCheck {
  std::string check;
  /// The SDKs whose fingerprints every FAIL and WARN of the check matches, in layer order.
  std::vector<std::string> sdks;
};

/// What a target likely inherited: per check it FAILs or WARNs on, when every deviating answer
/// of that check (in any revision) matches a fingerprint some one SDK showed; in check order.
std::vector<InheritedCheck> LikelyInherited(const TargetSection& target,
                                            const FingerprintTable& table);

}  // namespace mcpfuzz::reports
