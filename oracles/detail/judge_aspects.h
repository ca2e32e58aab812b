#pragma once
// The aspects of one judgement (channel, code, data, status, shape, batch), each adding the
// problems it finds. Judge (oracle.cc) runs them in order; only oracles/ includes this.

#include <string>
#include <vector>

#include "model/channel.h"
#include "model/observation.h"
#include "model/request.h"
#include "oracles/detail/batch.h"
#include "oracles/expectations.h"
#include "oracles/oracle.h"
#include "oracles/verdict.h"

namespace mcpfuzz::oracles_detail {

// Everything one judgement looks at.
struct Judging {
  const Expectation& row;
  const Request& request;
  const Observation& observation;
  const Reply& reply;
  const JudgeContext& context;

  bool OverHttp() const { return request.transport == TransportKind::kHttp; }
  bool Http4xx() const {
    return OverHttp() && observation.http_status >= 400 && observation.http_status <= 499;
  }
};

/// The strength a PASS carries: the row's channel rule, else its status rule, else its shape.
Strength PrimaryStrength(const Expectation& row);

/// Judges the channel. Returns true when the reply is a protocol error the row accepts as its
/// answer, so that the code and data rules apply to it.
bool JudgeChannel(const Judging& c, std::vector<Finding>& findings,
                  std::vector<std::string>& notes);
void JudgeCode(const Judging& c, std::vector<Finding>& findings);
void JudgeData(const Judging& c, std::vector<Finding>& findings);
void JudgeStatus(const Judging& c, std::vector<Finding>& findings);
void JudgeShape(const Judging& c, std::vector<Finding>& findings, std::vector<std::string>& notes);
/// The batch checks judge the whole set of responses instead of one reply. Returns true when
/// that judgement replaces the channel rule.
bool JudgeBatch(const Judging& c, const BatchAnswer& batch, std::vector<Finding>& findings);

}  // namespace mcpfuzz::oracles_detail
