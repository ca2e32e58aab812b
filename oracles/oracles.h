#pragma once
// The mcpfuzz oracles: the expectation table, verdicts, and pure judging functions.
// Nothing here performs I/O.

#include "oracles/check_ids.h"     // IWYU pragma: export
#include "oracles/error_codes.h"   // IWYU pragma: export
#include "oracles/expectations.h"  // IWYU pragma: export
#include "oracles/judgement.h"     // IWYU pragma: export
#include "oracles/oracle.h"        // IWYU pragma: export
#include "oracles/pre_init.h"      // IWYU pragma: export
#include "oracles/stdio_checks.h"  // IWYU pragma: export
#include "oracles/verdict.h"       // IWYU pragma: export
