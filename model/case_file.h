#pragma once
// Requests as readable JSON, the form corpus files and reports use.
//
// {"transport":"http","revision":"2025-11-25","http_method":"POST",
//  "headers":[["Content-Type","application/json"]],
//  "body": {...}            a JSON body, or
//  "body_text": "{\"jsonr"  raw bytes that are valid UTF-8, or
//  "body_base64": "/w=="    raw bytes that are not; no body member means no body,
//  "session":"attach"}       or "omit", or "second" (model/request.h)
//
// A JSON body and a raw body that happens to be JSON stay distinct, so the round trip is exact.

#include <boost/json/value.hpp>

#include "model/observation.h"
#include "model/request.h"
#include "model/result.h"

namespace mcpfuzz {

boost::json::value RequestToJson(const Request& request);
Result<Request> RequestFromJson(const boost::json::value& json);

}  // namespace mcpfuzz

namespace mcpfuzz {

/// An observation as JSON for reports and `mcpfuzz send`. Bytes that are not valid UTF-8
/// (a body, a stdout line) are written as `<name>_base64` instead of `<name>`. A kept
/// observation's excerpts (KeepExcerpts) are written as `excerpts` ({of, bytes, text}) and
/// `left_out` ({pieces, bytes}); a body cut to an excerpt has no `body` member.
boost::json::value ObservationToJson(const Observation& observation);

}  // namespace mcpfuzz
