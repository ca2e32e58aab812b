#include "fuzz-targets/mutator.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <string>
#include <string_view>

#include "fuzz-targets/case_spec.h"
#include "model/revision.h"

namespace mcpfuzz::fuzzing {
namespace {

// Words servers compare names and bodies against; a payload made of them reaches the code
// paths that an arbitrary byte string would only hit by luck.
constexpr std::array<std::string_view, 28> kWords = {"tools/call",
                                                     "tools/list",
                                                     "prompts/get",
                                                     "resources/read",
                                                     "initialize",
                                                     "ping",
                                                     "server/discover",
                                                     "notifications/initialized",
                                                     "notifications/cancelled",
                                                     "echo",
                                                     "add",
                                                     "greeting",
                                                     "__proto__",
                                                     "constructor",
                                                     "toString",
                                                     "2.0",
                                                     "2025-11-25",
                                                     "2026-07-28",
                                                     "_meta",
                                                     "params",
                                                     "\"jsonrpc\"",
                                                     "\"id\"",
                                                     "\"method\"",
                                                     "{",
                                                     "}",
                                                     "[",
                                                     "\\u0000",
                                                     "\xEF\xBB\xBF"};

// Well-formed bodies that a parse-error payload breaks one byte or one token of.
constexpr std::array<std::string_view, 3> kBodies = {
    R"({"jsonrpc":"2.0","id":1,"method":"ping"})",
    R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{}}})",
    R"([{"jsonrpc":"2.0","id":3,"method":"tools/list"}])"};

constexpr std::size_t kHeaderBytes = 4;

std::size_t Write(const CaseSpec& spec, std::uint8_t* out, std::size_t max_size) {
  const std::string bytes = EncodeSpec(spec);
  const std::size_t size = std::min(bytes.size(), max_size);
  std::memcpy(out, bytes.data(), size);
  return size;
}

template <class Container>
auto PickFrom(const Container& items, std::minstd_rand& random) {
  return items[std::uniform_int_distribution<std::size_t>(0, items.size() - 1)(random)];
}

void MutatePayload(CaseSpec& spec, std::size_t max_payload, std::minstd_rand& random,
                   const ByteMutator& mutate_bytes) {
  std::string& payload = spec.payload;
  switch (std::uniform_int_distribution<int>(0, 5)(random)) {
    case 0:  // replace by a word
      payload = std::string(PickFrom(kWords, random));
      break;
    case 1: {  // insert a word
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, payload.size())(random);
      payload.insert(at, PickFrom(kWords, random));
      break;
    }
    case 2:
      if (spec.rule == BrokenRule::kParseError) {  // a well-formed body, cut short
        const std::string_view body = PickFrom(kBodies, random);
        payload =
            body.substr(0, std::uniform_int_distribution<std::size_t>(0, body.size() - 1)(random));
        break;
      }
      [[fallthrough]];
    default: {  // libFuzzer's byte-level mutations, on the payload only
      payload.resize(std::max(payload.size(), std::size_t{1}));
      std::string buffer = payload;
      buffer.resize(std::max(max_payload, payload.size()));
      const std::size_t size = mutate_bytes(reinterpret_cast<std::uint8_t*>(buffer.data()),
                                            payload.size(), buffer.size());
      buffer.resize(std::min(size, buffer.size()));
      payload = std::move(buffer);
      break;
    }
  }
  if (payload.size() > max_payload) payload.resize(max_payload);
}

}  // namespace

std::size_t MutateCase(std::uint8_t* data, std::size_t size, std::size_t max_size,
                       unsigned int seed, const ByteMutator& mutate_bytes) {
  std::minstd_rand random(seed);
  CaseSpec spec = DecodeSpec({data, size});
  const std::size_t max_payload = max_size > kHeaderBytes ? max_size - kHeaderBytes : 0;
  switch (std::uniform_int_distribution<int>(0, 9)(random)) {
    case 0:
      spec.rule = static_cast<BrokenRule>(
          std::uniform_int_distribution<int>(0, static_cast<int>(BrokenRule::kCount) - 1)(random));
      break;
    case 1:
      spec.revision = static_cast<std::uint8_t>(
          std::uniform_int_distribution<std::size_t>(0, kAllRevisions.size() - 1)(random));
      break;
    case 2:
      spec.transport = static_cast<std::uint8_t>(spec.transport ^ 1U);
      break;
    case 3:
      spec.variant = static_cast<std::uint8_t>(random());
      break;
    default:
      MutatePayload(spec, max_payload, random, mutate_bytes);
      break;
  }
  return Write(spec, data, max_size);
}

std::size_t CrossOverCases(const std::uint8_t* first, std::size_t first_size,
                           const std::uint8_t* second, std::size_t second_size, std::uint8_t* out,
                           std::size_t max_size, unsigned int seed) {
  std::minstd_rand random(seed);
  CaseSpec child = DecodeSpec({first, first_size});
  const CaseSpec other = DecodeSpec({second, second_size});
  if (std::uniform_int_distribution<int>(0, 1)(random) == 0) {
    child.payload = other.payload;
  } else {
    const std::size_t cut =
        std::uniform_int_distribution<std::size_t>(0, child.payload.size())(random);
    const std::size_t from =
        std::uniform_int_distribution<std::size_t>(0, other.payload.size())(random);
    child.payload = child.payload.substr(0, cut) + other.payload.substr(from);
  }
  return Write(child, out, max_size);
}

}  // namespace mcpfuzz::fuzzing
