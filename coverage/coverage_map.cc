#include "coverage/coverage_map.h"

#include <boost/json.hpp>
#include <utility>

namespace mcpfuzz::coverage {
namespace {

// FNV-1a over the URL and both offsets: stable across runs and machines, so a block keeps its
// key in a corpus written by one run and read by another.
std::uint64_t BlockKey(std::string_view url, std::int64_t start, std::int64_t end) {
  std::uint64_t hash = 14695981039346656037ULL;
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

bool InNodeModules(std::string_view url) { return url.find("/node_modules/") != url.npos; }

Error NotTheAgents(std::string_view why) {
  return Error{"not a coverage agent's reply: " + std::string(why)};
}

}  // namespace

Result<CoverageGain> CoverageMap::Merge(std::string_view reply, std::size_t agent) {
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
  // Read whole before anything is merged, so a malformed reply changes nothing.
  std::map<std::int64_t, std::string> named = script_ids_[agent];
  for (const auto& script : scripts->as_array()) {
    const auto* pair = script.if_array();
    if (pair == nullptr || pair->size() != 2 || !(*pair)[0].is_int64() || !(*pair)[1].is_string()) {
      return NotTheAgents("a script is not [id, url]");
    }
    named[(*pair)[0].as_int64()] = std::string((*pair)[1].as_string());
  }
  struct Block {
    const std::string* url;
    std::int64_t start;
    std::int64_t end;
  };
  std::vector<Block> read;
  read.reserve(blocks->as_array().size());
  for (const auto& block : blocks->as_array()) {
    const auto* triple = block.if_array();
    if (triple == nullptr || triple->size() != 3 || !(*triple)[0].is_int64() ||
        !(*triple)[1].is_int64() || !(*triple)[2].is_int64()) {
      return NotTheAgents("a block is not [script id, start, end]");
    }
    const auto url = named.find((*triple)[0].as_int64());
    if (url == named.end()) return NotTheAgents("a block names a script never named");
    read.push_back({&url->second, (*triple)[1].as_int64(), (*triple)[2].as_int64()});
  }
  CoverageGain gain;
  for (const Block& block : read) {
    if (!blocks_.insert(BlockKey(*block.url, block.start, block.end)).second) continue;
    Script& script = scripts_[*block.url];
    script.in_node_modules = InNodeModules(*block.url);
    ++script.blocks;
    ++gain.blocks;
    if (script.in_node_modules) ++gain.in_node_modules;
  }
  in_node_modules_ += gain.in_node_modules;
  script_ids_[agent] = std::move(named);
  return gain;
}

std::vector<ScriptCoverage> CoverageMap::Scripts() const {
  std::vector<ScriptCoverage> listed;
  listed.reserve(scripts_.size());
  for (const auto& [url, script] : scripts_) {
    listed.push_back({url, script.blocks, script.in_node_modules});
  }
  return listed;
}

}  // namespace mcpfuzz::coverage
