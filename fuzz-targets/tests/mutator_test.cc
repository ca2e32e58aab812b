#include "fuzz-targets/mutator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz-targets/case_spec.h"

namespace mcpfuzz::fuzzing {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> SeedInputs() {
  std::vector<std::string> inputs;
  for (const auto& entry : fs::directory_iterator(fs::path(MCPFUZZ_SOURCE_DIR) /
                                                  "fuzz-targets/corpus/refserver_handler")) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    inputs.push_back(text.str());
  }
  return inputs;
}

// Stands in for LLVMFuzzerMutate: flips one byte and sometimes appends one.
std::size_t FakeByteMutator(std::uint8_t* data, std::size_t size, std::size_t max_size) {
  if (size > 0) data[size / 2] = static_cast<std::uint8_t>(data[size / 2] ^ 0x5AU);
  if (size < max_size) data[size++] = '~';
  return size;
}

int ChangedFields(const CaseSpec& before, const CaseSpec& after) {
  return (before.rule != after.rule) + (before.revision != after.revision) +
         (before.transport != after.transport) + (before.variant != after.variant) +
         (before.payload != after.payload);
}

TEST(Mutator, AMutantChangesAtMostOneFieldAndFitsTheSizeLimit) {
  constexpr std::size_t kMaxSize = 128;
  int changed = 0;
  int total = 0;
  for (const std::string& seed_input : SeedInputs()) {
    for (unsigned int seed = 0; seed < 200; ++seed) {
      std::string buffer = seed_input.substr(0, kMaxSize);
      const CaseSpec before =
          DecodeSpec({reinterpret_cast<const std::uint8_t*>(buffer.data()), buffer.size()});
      buffer.resize(kMaxSize);
      auto* data = reinterpret_cast<std::uint8_t*>(buffer.data());
      const std::size_t size =
          MutateCase(data, std::min(seed_input.size(), kMaxSize), kMaxSize, seed, FakeByteMutator);
      ASSERT_LE(size, kMaxSize);
      const CaseSpec after = DecodeSpec({data, size});
      ASSERT_LE(ChangedFields(before, after), 1) << "seed " << seed;
      changed += ChangedFields(before, after);
      ++total;
    }
  }
  // Picking the value a field already has leaves the input as it was, but rarely.
  EXPECT_GT(changed, total * 8 / 10);
}

TEST(Mutator, MostMutantsStillBuildACase) {
  int built = 0;
  int total = 0;
  for (const std::string& seed_input : SeedInputs()) {
    for (unsigned int seed = 0; seed < 100; ++seed) {
      std::string buffer = seed_input;
      buffer.resize(256);
      auto* data = reinterpret_cast<std::uint8_t*>(buffer.data());
      const std::size_t size = MutateCase(data, seed_input.size(), 256, seed, FakeByteMutator);
      const CaseSpec spec = DecodeSpec({data, size});
      built += BuildCase(spec, SpecRevision(spec), SpecTransport(spec), {}).has_value();
      ++total;
    }
  }
  EXPECT_GT(built, total * 8 / 10) << built << " of " << total;
}

TEST(Mutator, TheSameSeedGivesTheSameMutant) {
  const std::string input = SeedInputs().front();
  std::string first = input;
  std::string second = input;
  first.resize(64);
  second.resize(64);
  const std::size_t a = MutateCase(reinterpret_cast<std::uint8_t*>(first.data()), input.size(), 64,
                                   7, FakeByteMutator);
  const std::size_t b = MutateCase(reinterpret_cast<std::uint8_t*>(second.data()), input.size(), 64,
                                   7, FakeByteMutator);
  EXPECT_EQ(first.substr(0, a), second.substr(0, b));
}

TEST(Mutator, ACrossOverKeepsTheFirstParentsChoices) {
  CaseSpec first{BrokenRule::kUnknownTool, 3, 0, 9, "abc"};
  CaseSpec second{BrokenRule::kIdNull, 1, 1, 2, "xyz"};
  const std::string a = EncodeSpec(first);
  const std::string b = EncodeSpec(second);
  for (unsigned int seed = 0; seed < 50; ++seed) {
    std::string out(64, '\0');
    const std::size_t size =
        CrossOverCases(reinterpret_cast<const std::uint8_t*>(a.data()), a.size(),
                       reinterpret_cast<const std::uint8_t*>(b.data()), b.size(),
                       reinterpret_cast<std::uint8_t*>(out.data()), out.size(), seed);
    const CaseSpec child = DecodeSpec({reinterpret_cast<const std::uint8_t*>(out.data()), size});
    EXPECT_EQ(child.rule, first.rule);
    EXPECT_EQ(child.revision, first.revision);
    EXPECT_EQ(child.variant, first.variant);
    EXPECT_LE(child.payload.size(), first.payload.size() + second.payload.size());
  }
}

}  // namespace
}  // namespace mcpfuzz::fuzzing
