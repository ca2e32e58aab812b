// LLVMFuzzerCustomMutator and LLVMFuzzerCustomCrossOver for the request targets
// (refserver_handler, live_target): linked into their libFuzzer binaries only, since the replay
// builds have no LLVMFuzzerMutate.

#include <cstddef>
#include <cstdint>

#include "fuzz-targets/mutator.h"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned int seed) {
  return mcpfuzz::fuzzing::MutateCase(data, size, max_size, seed, LLVMFuzzerMutate);
}

extern "C" std::size_t LLVMFuzzerCustomCrossOver(const std::uint8_t* first, std::size_t first_size,
                                                 const std::uint8_t* second,
                                                 std::size_t second_size, std::uint8_t* out,
                                                 std::size_t max_size, unsigned int seed) {
  return mcpfuzz::fuzzing::CrossOverCases(first, first_size, second, second_size, out, max_size,
                                          seed);
}
