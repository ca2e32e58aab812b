#pragma once
// Internal: value generators and request surgery shared by the families.

#include <rapidcheck/Gen.h>
#include <rapidcheck/GenerationFailure.h>
#include <rapidcheck/Random.h>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "generators/generated_case.h"
#include "model/request_edit.h"

namespace mcpfuzz::gen::detail {

// --- picking ------------------------------------------------------------------------------------

/// A weighted choice among generators that never shrinks to another choice: the variant (and
/// so the check id) of a case stays fixed while its contents shrink. Choices of weight 0 are
/// skipped; when every weight is 0, generation fails.
template <class T>
rc::Gen<T> Pick(std::vector<std::pair<int, rc::Gen<T>>> choices) {
  return rc::Gen<T>([choices = std::move(choices)](const rc::Random& random, int size) {
    long total = 0;
    for (const auto& choice : choices) total += choice.first > 0 ? choice.first : 0;
    if (total == 0) throw rc::GenerationFailure("no variant applies to this context");
    rc::Random rest(random);
    auto ticket = static_cast<long>(rest.split().next() % static_cast<std::uint64_t>(total));
    for (const auto& choice : choices) {
      if (choice.first <= 0) continue;
      if (ticket < choice.first) return choice.second(rest, size);
      ticket -= choice.first;
    }
    return choices.back().second(rest, size);
  });
}

// --- text --------------------------------------------------------------------------------------

/// The UTF-8 encoding of one Unicode scalar value.
std::string EncodeUtf8(char32_t code_point);

/// Lowercase letters, digits and '_', between `min` and `max` characters (scaled by size);
/// shrinks toward shorter strings of 'a'.
rc::Gen<std::string> Token(int min, int max);
/// Visible ASCII (0x21–0x7E): what a header value may carry without encoding.
rc::Gen<std::string> VisibleAscii(int min, int max);
/// Valid UTF-8 of between `min` and `max` code points, mostly ASCII, with Latin, CJK, emoji,
/// right-to-left and combining characters; control characters only when `controls` is set.
/// Never a surrogate. Shrinks toward ASCII.
rc::Gen<std::string> Utf8Text(int min, int max, bool controls);
/// `text` with the case of at least one ASCII letter flipped; `text` must hold a letter.
rc::Gen<std::string> CaseVariantOf(std::string text);
/// `unit` repeated to between `min` and `max` bytes; shrinks toward `min`.
rc::Gen<std::string> LongText(std::string unit, int min, int max);

// --- JSON --------------------------------------------------------------------------------------

/// A well-formed JSON-RPC id: mostly small integers, also strings (ASCII and unicode) and
/// integers up to 2^64-1 (valid RequestIds, which a server must echo exactly).
rc::Gen<boost::json::value> RequestIdValue();
/// null, booleans, integers, short strings.
rc::Gen<boost::json::value> ScalarJson();
/// A small object of scalars and shallow containers, for params that do not matter.
rc::Gen<boost::json::object> SmallObject();

// --- methods -----------------------------------------------------------------------------------

/// Methods that read nothing and change nothing in `context`'s revision: ping (handshake era)
/// or server/discover (2026-07-28), and the */list methods of declared capabilities.
std::vector<std::string> HarmlessMethods(const GenContext& context);
/// A well-formed request for one of HarmlessMethods with a generated id.
rc::Gen<Request> HarmlessRequest(const GenContext& context);

// --- request surgery ---------------------------------------------------------------------------

// BodyObject, Params and Meta come from model/request_edit.h.
/// Removes params when it is an empty object.
void DropEmptyParams(Request& request);

/// The wire bytes of `request`'s body with `raw_members` (one or more members, written as
/// raw JSON text) added to params._meta, which every revision leaves open to extra keys.
std::string WithMetaMembers(const Request& request, std::string_view raw_members);
/// WithMetaMembers with the one member "mcpfuzz/rider": `raw_value`.
std::string WithMetaValue(const Request& request, std::string_view raw_value);
/// WithMetaValue with a string of `length` letters, written once, in the body: a megabyte
/// padding made apart and then copied in would be held twice.
std::string WithMetaPadding(const Request& request, std::size_t length);
/// The size of WithMetaPadding's body, without writing it.
std::size_t WithMetaPaddingSize(const Request& request, std::size_t length);

/// A case of `family` breaking `check_id`, derived from `well_formed`.
GeneratedCase MakeCase(std::string_view family, std::string_view check_id, Request request,
                       std::string variant, const Request& well_formed, JudgeContext context = {});

/// `text` in double quotes with JSON escapes, for variant labels; cut after 40 bytes.
std::string Quote(std::string_view text);

}  // namespace mcpfuzz::gen::detail
