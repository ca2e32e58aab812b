#pragma once
// Runs a RapidCheck property with a fixed seed, so every run checks the same cases whatever
// RC_PARAMS says; a failure prints RapidCheck's counterexample and reproduce string.

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdint>
#include <sstream>
#include <utility>

namespace mcpfuzz::test_support {

template <typename Property>
void CheckDeterministically(Property property, std::uint64_t seed, int max_success = 300) {
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = max_success;
  const rc::detail::TestResult result =
      rc::detail::checkTestable(std::move(property), rc::detail::TestMetadata{}, params);
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  EXPECT_TRUE(result.is<rc::detail::SuccessResult>()) << message.str();
}

}  // namespace mcpfuzz::test_support
