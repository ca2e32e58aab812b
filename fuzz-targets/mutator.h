#pragma once
// The structure-aware mutator of the request targets (LLVMFuzzerCustomMutator and
// LLVMFuzzerCustomCrossOver): it mutates a CaseSpec, not raw bytes, so a mutant changes one
// thing — the rule broken, the revision, the transport, the id, or the one free value — and
// still decodes to a request that breaks exactly one rule.

#include <cstddef>
#include <cstdint>
#include <functional>

namespace mcpfuzz::fuzzing {

/// libFuzzer's own byte mutator (LLVMFuzzerMutate), passed in so that the library does not
/// need libFuzzer to link: mutates `size` bytes in place within `max_size`, returns the size.
using ByteMutator =
    std::function<std::size_t(std::uint8_t* data, std::size_t size, std::size_t max_size)>;

/// Decodes `data`, changes one field, writes the result back (at most `max_size` bytes) and
/// returns its size. The same `seed` gives the same mutant.
std::size_t MutateCase(std::uint8_t* data, std::size_t size, std::size_t max_size,
                       unsigned int seed, const ByteMutator& mutate_bytes);

/// One child of two inputs: the choices of one with the payload of the other, or the two
/// payloads spliced at random points. Returns the child's size (at most `max_size`).
std::size_t CrossOverCases(const std::uint8_t* first, std::size_t first_size,
                           const std::uint8_t* second, std::size_t second_size, std::uint8_t* out,
                           std::size_t max_size, unsigned int seed);

}  // namespace mcpfuzz::fuzzing
