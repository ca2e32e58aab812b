#pragma once
// What a server's coverage agent reported, merged over a run: the server's code blocks seen
// running, by script. Pure: the agent's reply lines come in as text (the transport reads them,
// StdioTransport::TakeCoverage), and nothing here does I/O.

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "model/result.h"

namespace mcpfuzz::coverage {

/// A block of a script: its URL and offsets, hashed. 64 bits keep collisions out of reach for
/// the few hundred thousand blocks of a large server, and the hash is the same in every run.
using BlockKey = std::uint64_t;

/// Blocks that ran for the first time, as one reply added them.
struct CoverageGain {
  std::size_t blocks = 0;
  /// Of `blocks`, those in installed packages: under node_modules, or a Python server's
  /// site-packages (the SDK, for most servers).
  std::size_t in_node_modules = 0;
  /// The new blocks themselves.
  std::vector<BlockKey> keys;
};

struct ScriptCoverage {
  std::string url;
  std::size_t blocks = 0;
  bool in_node_modules = false;
  /// The blocks' start and end offsets in the script, in order.
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;
  /// Blocks an agent knew never ran in its process and no process was seen run (for line
  /// reports: a line of none of these nor `ranges` is not known to hold code).
  std::vector<std::pair<std::int64_t, std::int64_t>> unrun;
};

class CoverageMap {
 public:
  /// Merges one reply of agent `agent`'s ({"scripts":[[id,url],...],"blocks":[[id,start,end],
  /// ...],"unrun":[...]}, coverage/agent/mcpfuzz-coverage-agent.cjs): what is new to this map. Each
  /// agent (one server process) numbers its scripts itself, so `agent` says whose numbering a reply
  /// uses; a block is the same block whichever process ran it. A reply that is not the agent's
  /// shape changes nothing and is an error.
  Result<CoverageGain> Merge(std::string_view reply, std::size_t agent = 0);
  /// Merges a reply to `take all`, which names every block that ran since the last take, new
  /// or not, and returns them all.
  Result<std::vector<BlockKey>> MergeAll(std::string_view reply, std::size_t agent = 0);

  /// Blocks whose running did not follow the input: they ran for a case and not when it was
  /// sent again (once-only set-up, a timer). They stay counted; steering ignores them.
  void MarkUnstable(const std::vector<BlockKey>& keys);
  bool unstable(BlockKey key) const { return unstable_.contains(key); }
  std::size_t unstable_blocks() const { return unstable_.size(); }

  std::size_t blocks() const { return blocks_.size(); }
  std::size_t blocks_in_node_modules() const { return in_node_modules_; }
  /// Every script with a block seen, in URL order.
  std::vector<ScriptCoverage> Scripts() const;

 private:
  struct Script {
    bool in_node_modules = false;
    std::set<std::pair<std::int64_t, std::int64_t>> ranges;
    std::set<std::pair<std::int64_t, std::int64_t>> unrun;
  };
  struct ReadBlock {
    const std::string* url;
    std::int64_t start;
    std::int64_t end;
    bool ran = true;  // false: named in `unrun`
  };
  // Reads a reply whole, so that a malformed one changes nothing; names its new scripts in
  // `named` (the agent's numbering, a copy until the reply is accepted).
  static Result<std::vector<ReadBlock>> Parse(std::string_view reply,
                                              std::map<std::int64_t, std::string>& named);
  // Adds the blocks read: the new ones into `gain`, every one's key into `all` when given.
  void Add(const std::vector<ReadBlock>& read, CoverageGain& gain, std::vector<BlockKey>* all);

  // Per agent, its script ids to the URLs it named them with.
  std::map<std::size_t, std::map<std::int64_t, std::string>> script_ids_;
  std::map<std::string, Script> scripts_;
  std::unordered_set<BlockKey> blocks_;
  std::unordered_set<BlockKey> unstable_;
  std::size_t in_node_modules_ = 0;
};

}  // namespace mcpfuzz::coverage
