#pragma once
// The mcpfuzz model: requests, observations, and the channel a reply used.
// Pure values and pure functions; nothing here performs I/O.

#include "model/case_file.h"        // IWYU pragma: export
#include "model/channel.h"          // IWYU pragma: export
#include "model/logging.h"          // IWYU pragma: export
#include "model/observation.h"      // IWYU pragma: export
#include "model/request.h"          // IWYU pragma: export
#include "model/request_builder.h"  // IWYU pragma: export
#include "model/result.h"           // IWYU pragma: export
#include "model/revision.h"         // IWYU pragma: export
#include "model/sse.h"              // IWYU pragma: export
#include "model/subscription.h"     // IWYU pragma: export
