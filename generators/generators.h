#pragma once
// mcpfuzz generators: RapidCheck generators of valid-except-one-rule requests, one family per
// file, all producing the one request model with the check id whose rule each case breaks.
// Pure: a context and a random seed determine the case.

#include "generators/detail/families.h"  // IWYU pragma: export
#include "generators/generated_case.h"   // IWYU pragma: export
#include "generators/registry.h"         // IWYU pragma: export
