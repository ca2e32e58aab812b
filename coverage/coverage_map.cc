#include "coverage/coverage_map.h"

#include <boost/json.hpp>
#include <utility>

namespace mcpfuzz::coverage {
namespace {

// FNV-1a over the URL and both offsets: stable across runs and machines, so a block keeps its
// key in a corpus written by one run and read by another.
BlockKey KeyOf(std::string_view url, std::int64_t start, std::int64_t end) {
  BlockKey hash = 14695981039346656037ULL;
  auto mix = [&hash](std::string_view bytes) {
    for (const char byte : bytes) {
      hash ^= static_cast<unsigned char>(byte);
      hash *= 1099511628211ULL;
    }
  };
  mix(url);
  mix(std::string_view("\0", 1));
  mix(std::to_string(start));
  mix(std::string_view("\0", 1));
  mix(std::to_string(end));
  return hash;
}

// Installed packages: a Node server's node_modules, a Python server's site-packages (Debian's
// dist-packages). The report counts them apart from the server's own code.
bool InNodeModules(std::string_view url) {
  return url.find("/node_modules/") != url.npos || url.find("/site-packages/") != url.npos ||
         url.find("/dist-packages/") != url.npos;
}

Error NotTheAgents(std::string_view why) {
  return Error{"not a coverage agent's reply: " + std::string(why)};
}

}  // namespace

Result<std::vector<CoverageMap::ReadBlock>> CoverageMap::Parse(
    std::string_view reply, std::map<std::int64_t, std::string>& named) {
  boost::system::error_code error;
  const boost::json::value parsed = boost::json::parse(reply, error);
  if (error || !parsed.is_object()) return NotTheAgents("not a JSON object");
  const boost::json::object& object = parsed.as_object();
  if (const auto* agent_error = object.if_contains("error")) {
    return Error{"the coverage agent failed: " + boost::json::serialize(*agent_error)};
  }
  const auto* scripts = object.if_contains("scripts");
  const auto* blocks = object.if_contains("blocks");
  if (scripts == nullptr || !scripts->is_array() || blocks == nullptr || !blocks->is_array()) {
    return NotTheAgents("no scripts and blocks arrays");
  }
  for (const auto& script : scripts->as_array()) {
    const auto* pair = script.if_array();
    if (pair == nullptr || pair->size() != 2 || !(*pair)[0].is_int64() || !(*pair)[1].is_string()) {
      return NotTheAgents("a script is not [id, url]");
    }
    named[(*pair)[0].as_int64()] = std::string((*pair)[1].as_string());
  }
  std::vector<ReadBlock> read;
  read.reserve(blocks->as_array().size());
  const auto* unrun = object.if_contains("unrun");
  if (unrun != nullptr && !unrun->is_array()) return NotTheAgents("unrun is not an array");
  for (const auto* list : {blocks, unrun}) {
    if (list == nullptr) continue;
    for (const auto& block : list->as_array()) {
      const auto* triple = block.if_array();
      if (triple == nullptr || triple->size() != 3 || !(*triple)[0].is_int64() ||
          !(*triple)[1].is_int64() || !(*triple)[2].is_int64()) {
        return NotTheAgents("a block is not [script id, start, end]");
      }
      const auto url = named.find((*triple)[0].as_int64());
      if (url == named.end()) return NotTheAgents("a block names a script never named");
      read.push_back(
          {&url->second, (*triple)[1].as_int64(), (*triple)[2].as_int64(), list == blocks});
    }
  }
  return read;
}

void CoverageMap::Add(const std::vector<ReadBlock>& read, CoverageGain& gain,
                      std::vector<BlockKey>* all) {
  for (const ReadBlock& block : read) {
    if (!block.ran) {
      scripts_[*block.url].unrun.emplace(block.start, block.end);
      continue;
    }
    const BlockKey key = KeyOf(*block.url, block.start, block.end);
    if (all != nullptr) all->push_back(key);
    if (!blocks_.insert(key).second) continue;
    Script& script = scripts_[*block.url];
    script.in_node_modules = InNodeModules(*block.url);
    script.ranges.emplace(block.start, block.end);
    ++gain.blocks;
    gain.keys.push_back(key);
    if (script.in_node_modules) ++gain.in_node_modules;
  }
  in_node_modules_ += gain.in_node_modules;
}

Result<CoverageGain> CoverageMap::Merge(std::string_view reply, std::size_t agent) {
  std::map<std::int64_t, std::string> named = script_ids_[agent];
  auto read = Parse(reply, named);
  if (!read.ok()) return read.error();
  CoverageGain gain;
  Add(*read, gain, nullptr);  // before `named` moves: the blocks point at its URLs
  script_ids_[agent] = std::move(named);
  return gain;
}

Result<std::vector<BlockKey>> CoverageMap::MergeAll(std::string_view reply, std::size_t agent) {
  std::map<std::int64_t, std::string> named = script_ids_[agent];
  auto read = Parse(reply, named);
  if (!read.ok()) return read.error();
  CoverageGain gain;
  std::vector<BlockKey> all;
  Add(*read, gain, &all);
  script_ids_[agent] = std::move(named);
  return all;
}

void CoverageMap::MarkUnstable(const std::vector<BlockKey>& keys) {
  for (const BlockKey key : keys) {
    if (blocks_.contains(key)) unstable_.insert(key);
  }
}

std::vector<ScriptCoverage> CoverageMap::Scripts() const {
  std::vector<ScriptCoverage> listed;
  listed.reserve(scripts_.size());
  for (const auto& [url, script] : scripts_) {
    if (script.ranges.empty()) continue;
    ScriptCoverage& listing = listed.emplace_back();
    listing.url = url;
    listing.blocks = script.ranges.size();
    listing.in_node_modules = script.in_node_modules;
    listing.ranges.assign(script.ranges.begin(), script.ranges.end());
    for (const auto& range : script.unrun) {
      if (!script.ranges.contains(range)) listing.unrun.push_back(range);
    }
  }
  return listed;
}

}  // namespace mcpfuzz::coverage
