#pragma once
// How a server answered a JSON-RPC batch (a JSON array body): element by element, or not at all.

#include <boost/json/value.hpp>
#include <cstddef>
#include <vector>

#include "model/observation.h"
#include "model/request.h"

namespace mcpfuzz::oracles_detail {

/// What came back for a batch, matched element by element.
struct BatchAnswer {
  /// False when the request body is not a JSON array.
  bool is_batch = false;
  /// The ids of the batch's requests (elements with a method and an id), in order.
  std::vector<boost::json::value> request_ids;
  /// request_ids that got a response, whether inside an array reply or as separate messages.
  std::vector<boost::json::value> answered_ids;
  /// Elements of array replies that are not JSON-RPC responses.
  std::size_t malformed_elements = 0;
  /// At least one array of responses came back.
  bool array_reply = false;

  /// The server handled the batch element by element.
  bool Processed() const { return array_reply || !answered_ids.empty(); }
};

/// Matches the responses in `observation` to the requests of the batch `request` carries.
BatchAnswer AnalyzeBatch(const Request& request, const Observation& observation);

}  // namespace mcpfuzz::oracles_detail
