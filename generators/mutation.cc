#include "generators/mutation.h"

#include <algorithm>
#include <array>
#include <boost/json.hpp>
#include <cstddef>
#include <string_view>
#include <utility>

#include "model/request_edit.h"
#include "oracles/check_ids.h"

namespace mcpfuzz::gen {
namespace {

// A mutant grown past this is not sent: the limits family owns big inputs, and they cost
// their size on every send.
constexpr std::size_t kMaxMutantBytes = std::size_t{64} << 10;
constexpr std::size_t kMaxEdits = 4;

// Methods a mutant may switch to: each reads, none calls a tool.
constexpr std::array kReadMethods = {
    std::string_view("ping"),
    std::string_view("tools/list"),
    std::string_view("prompts/list"),
    std::string_view("prompts/get"),
    std::string_view("resources/list"),
    std::string_view("resources/templates/list"),
    std::string_view("resources/read"),
    std::string_view("completion/complete"),
    std::string_view("logging/setLevel"),
};

// Keys MCP messages use, for members added where the server wrote none.
constexpr std::array kKeys = {
    std::string_view("_meta"),     std::string_view("cursor"),        std::string_view("name"),
    std::string_view("uri"),       std::string_view("arguments"),     std::string_view("level"),
    std::string_view("ref"),       std::string_view("argument"),      std::string_view("value"),
    std::string_view("type"),      std::string_view("progressToken"), std::string_view("context"),
    std::string_view("__proto__"), std::string_view("constructor"),
};

constexpr std::array<std::int64_t, 9> kNumbers = {
    0, -1, 1, 2, 255, 65536, 2147483647, -2147483648, 9007199254740993};

// SplitMix64: the same stream on every compiler, which std's distributions do not promise.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t value = (state_ += 0x9e3779b97f4a7c15ULL);
    value = (value ^ (value >> 30U)) * 0xbf58476d1ce4e5b9ULL;
    value = (value ^ (value >> 27U)) * 0x94d049bb133111ebULL;
    return value ^ (value >> 31U);
  }
  std::size_t Below(std::size_t bound) { return bound == 0 ? 0 : Next() % bound; }
  bool OneIn(std::size_t n) { return Below(n) == 0; }

 private:
  std::uint64_t state_;
};

// Every value of a body a mutant may change, and every object it may add to. A message's
// `jsonrpc` and `id` stay: the sentinel and the pipeline tell replies apart by id.
struct Places {
  std::vector<boost::json::value*> values;
  std::vector<boost::json::object*> objects;
};

void Collect(boost::json::value& value, bool message, Places& places) {
  if (auto* object = value.if_object()) {
    places.objects.push_back(object);
    for (auto& member : *object) {
      if (message && (member.key() == "jsonrpc" || member.key() == "id")) continue;
      places.values.push_back(&member.value());
      Collect(member.value(), false, places);
    }
  } else if (auto* array = value.if_array()) {
    for (auto& element : *array) {
      places.values.push_back(&element);
      Collect(element, message, places);  // a batch's elements are messages
    }
  }
}

// A value as a variant names it: its JSON, cut to 40 bytes.
std::string Short(const boost::json::value& value) {
  std::string text = boost::json::serialize(value);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

class Mutator {
 public:
  Mutator(const MutationContext& context, const GeneratedCase* donor, std::uint64_t seed)
      : context_(context), donor_(donor), random_(seed) {}

  // One edit of `body`, said in a few words; empty when it changed nothing.
  std::string Edit(boost::json::value& body, Request& request) {
    Places places;
    Collect(body, true, places);
    // Strings most: what a server branches on is mostly the strings it is sent.
    switch (random_.Below(8)) {
      case 0:
        return Replace(places);
      case 1:
        return AddMember(places, request);
      case 2:
        return RemoveMember(places);
      case 3:
      case 4:
      case 5:
        return EditString(places);
      case 6:
        return SwitchMethod(body);
      default:
        return Splice(request);
    }
  }

  std::string Token() {
    if (!context_.near.empty() && random_.OneIn(2)) {
      return context_.near[random_.Below(context_.near.size())];
    }
    if (!context_.tokens.empty() && !random_.OneIn(4)) {
      return context_.tokens[random_.Below(context_.tokens.size())];
    }
    return std::string(kKeys[random_.Below(kKeys.size())]);
  }

  boost::json::value NewValue() {
    switch (random_.Below(8)) {
      case 0:
      case 1:
      case 2:
        return boost::json::value(Token());
      case 3:
        return boost::json::value(std::string(random_.Below(41), Letter()));
      case 4:
        return boost::json::value(kNumbers[random_.Below(kNumbers.size())]);
      case 5:
        return boost::json::value(random_.OneIn(2));
      case 6:
        return boost::json::object{{Token(), Token()}};
      default:
        return random_.OneIn(2) ? boost::json::value(nullptr)
                                : boost::json::value(boost::json::array{});
    }
  }

  // A byte-level edit of a raw body (malformed JSON stays malformed, or becomes JSON).
  std::string EditRaw(std::string& bytes) {
    const std::size_t at = random_.Below(bytes.size() + 1);
    switch (random_.Below(3)) {
      case 0: {
        const std::string token = Token();
        bytes.insert(at, token);
        return "raw: \"" + token + "\" inserted at " + std::to_string(at);
      }
      case 1: {
        if (at >= bytes.size()) return {};
        const std::size_t count = 1 + random_.Below(std::min<std::size_t>(8, bytes.size() - at));
        bytes.erase(at, count);
        return "raw: " + std::to_string(count) + " bytes cut at " + std::to_string(at);
      }
      default:
        bytes.insert(at, 1, Letter());
        return "raw: a byte inserted at " + std::to_string(at);
    }
  }

 private:
  char Letter() {
    constexpr std::string_view kLetters = "aZ0_-/.:\"\\ {}[],";
    return kLetters[random_.Below(kLetters.size())];
  }

  std::string Replace(const Places& places) {
    if (places.values.empty()) return {};
    boost::json::value& chosen = *places.values[random_.Below(places.values.size())];
    chosen = NewValue();
    return "a value set to " + Short(chosen);
  }

  std::string AddMember(const Places& places, Request& request) {
    // One time in three into params._meta, where every request may carry anything.
    boost::json::object* object = nullptr;
    std::string where;
    if (random_.OneIn(3) && request.body.index() == 1 &&
        std::get<boost::json::value>(request.body).is_object()) {
      object = &Meta(request);
      where = "params._meta.";
    } else if (!places.objects.empty()) {
      object = places.objects[random_.Below(places.objects.size())];
    }
    if (object == nullptr) return {};
    const std::string key = Token();
    boost::json::value value = NewValue();
    const std::string said = where + key + " = " + Short(value);
    (*object)[key] = std::move(value);
    return said;
  }

  std::string RemoveMember(const Places& places) {
    std::vector<std::pair<boost::json::object*, std::string>> members;
    for (boost::json::object* object : places.objects) {
      for (const auto& member : *object) {
        if (member.key() != "jsonrpc" && member.key() != "id" && member.key() != "method") {
          members.emplace_back(object, std::string(member.key()));
        }
      }
    }
    if (members.empty()) return {};
    auto& [object, key] = members[random_.Below(members.size())];
    object->erase(key);
    return key + " removed";
  }

  std::string EditString(const Places& places) {
    std::vector<boost::json::string*> strings;
    for (boost::json::value* value : places.values) {
      if (auto* text = value->if_string()) strings.push_back(text);
    }
    if (strings.empty()) return {};
    boost::json::string& text = *strings[random_.Below(strings.size())];
    std::string edited(text);
    switch (random_.Below(6)) {
      case 0:
        edited.insert(random_.Below(edited.size() + 1), 1, Letter());
        break;
      case 1:
        if (edited.empty()) return {};
        edited.erase(random_.Below(edited.size()), 1);
        break;
      case 2:
        edited.resize(random_.Below(edited.size() + 1));
        break;
      case 3:
        edited +=
            edited.empty() ? std::string(1, Letter()) : edited.substr(0, random_.Below(16) + 1);
        break;
      case 4: {
        // The lengths where buffers and limits end.
        constexpr std::array<std::size_t, 9> kLengths = {0, 1, 8, 16, 32, 64, 128, 255, 256};
        const std::size_t length = kLengths[random_.Below(kLengths.size())];
        const std::string fill = edited.empty() ? std::string(1, Letter()) : edited;
        edited.clear();
        while (edited.size() < length) edited += fill;
        edited.resize(length);
        break;
      }
      default:
        edited += Token();
        break;
    }
    text = edited;
    return "a string edited to " + Short(boost::json::value(edited));
  }

  std::string SwitchMethod(boost::json::value& body) {
    auto* object = body.if_object();
    if (object == nullptr || !object->contains("method")) return {};
    const std::size_t choices = kReadMethods.size() + (context_.stateless ? 1 : 0);
    const std::size_t chosen = random_.Below(choices);
    const std::string_view method =
        chosen < kReadMethods.size() ? kReadMethods[chosen] : std::string_view("server/discover");
    (*object)["method"] = method;
    return "method " + std::string(method);
  }

  std::string Splice(Request& request) {
    if (donor_ == nullptr) return {};
    const auto donor_body = donor_->request.BodyJson();
    const boost::json::object* donor_object = donor_body ? donor_body->if_object() : nullptr;
    const boost::json::object* donor_params =
        donor_object != nullptr ? ObjectMember(*donor_object, "params") : nullptr;
    if (donor_params == nullptr || donor_params->empty() || request.body.index() != 1 ||
        !std::get<boost::json::value>(request.body).is_object()) {
      return {};
    }
    auto member = donor_params->begin();
    std::advance(member, static_cast<std::ptrdiff_t>(random_.Below(donor_params->size())));
    Params(request)[member->key()] = member->value();
    return "params." + std::string(member->key()) + " taken from another case";
  }

  const MutationContext& context_;
  const GeneratedCase* donor_;
  Random random_;
};

// The name of every tools/call in `body` (a message or a batch); "" for a call without one.
std::vector<std::string> ToolCalls(const boost::json::value& body) {
  std::vector<std::string> names;
  auto visit = [&names](const boost::json::value& message) {
    const auto* object = message.if_object();
    if (object == nullptr) return;
    const auto* method = object->if_contains("method");
    if (method == nullptr || !method->is_string() || method->as_string() != "tools/call") return;
    const boost::json::object* params = ObjectMember(*object, "params");
    const boost::json::value* name = params != nullptr ? params->if_contains("name") : nullptr;
    names.push_back(name != nullptr ? boost::json::serialize(*name) : "");
  };
  if (const auto* batch = body.if_array()) {
    for (const auto& message : *batch) visit(message);
  } else {
    visit(body);
  }
  return names;
}

// Read-only: every tools/call the mutant makes, its parent made by the same name.
bool CallsOnlyWhatItsParentCalled(const Request& mutant, const Request& parent) {
  const auto body = mutant.BodyJson();
  if (!body) return true;
  const std::vector<std::string> calls = ToolCalls(*body);
  if (calls.empty()) return true;
  const auto parent_body = parent.BodyJson();
  const std::vector<std::string> allowed =
      parent_body ? ToolCalls(*parent_body) : std::vector<std::string>{};
  for (const std::string& call : calls) {
    if (std::find(allowed.begin(), allowed.end(), call) == allowed.end()) return false;
  }
  return true;
}

void CollectTokens(const boost::json::value& value, std::size_t limit,
                   std::vector<std::string>& tokens) {
  auto keep = [&tokens, limit](std::string_view text) {
    if (tokens.size() < limit && !text.empty() && text.size() <= 64) tokens.emplace_back(text);
  };
  if (const auto* object = value.if_object()) {
    for (const auto& member : *object) {
      keep(member.key());
      CollectTokens(member.value(), limit, tokens);
    }
  } else if (const auto* array = value.if_array()) {
    for (const auto& element : *array) CollectTokens(element, limit, tokens);
  } else if (const auto* text = value.if_string()) {
    keep(*text);
  }
}

// A mutant before its edits: its parent's request, counted and judged as a mutant.
GeneratedCase Blank(const GeneratedCase& parent) {
  GeneratedCase mutant;
  mutant.request = parent.request;
  mutant.family = std::string(kMutantFamily);
  mutant.check_id = std::string(check::kNoEarlyExit);
  return mutant;
}

// Whether `mutant` may be sent: it differs from its parent, stays small, calls no real tool.
bool Sendable(const GeneratedCase& mutant, const GeneratedCase& parent,
              const MutationContext& context) {
  return mutant.request != parent.request && mutant.request.WireSize() <= kMaxMutantBytes &&
         (context.call_real_tools || CallsOnlyWhatItsParentCalled(mutant.request, parent.request));
}

void CollectHandedOut(const boost::json::value& value, std::size_t limit,
                      std::vector<HandedOut>& handed) {
  if (const auto* object = value.if_object()) {
    for (const auto& member : *object) {
      if (handed.size() >= limit) return;
      if (const auto* text = member.value().if_string()) {
        if (!text->empty() && text->size() <= 256) {
          handed.push_back({std::string(member.key()), std::string(*text)});
        }
      } else {
        CollectHandedOut(member.value(), limit, handed);
      }
    }
  } else if (const auto* array = value.if_array()) {
    for (const auto& element : *array) CollectHandedOut(element, limit, handed);
  }
}

// Whether step `at` of `steps` may be edited without changing what the model judges the other
// steps by (MutateSequence).
bool Editable(const Sequence& steps, std::size_t at) {
  // A notification (the cancellation of a pipelined step among them) has no id to keep.
  const SequenceStep& step = steps[at];
  return !step.pipelined && !step.cursor_from && step.request.RpcId() &&
         step.request.RpcMethod() != "initialize";
}

}  // namespace

std::vector<HandedOut> HandedOutIn(const boost::json::value& reply, std::size_t limit) {
  std::vector<HandedOut> handed;
  const auto* object = reply.if_object();
  if (const auto* result = object != nullptr ? object->if_contains("result") : nullptr) {
    CollectHandedOut(*result, limit, handed);
  }
  return handed;
}

std::optional<GeneratedCase> WriteBack(const GeneratedCase& parent, const HandedOut& handed,
                                       const MutationContext& context, const std::string& label) {
  if (!parent.steps.empty() || parent.request.body.index() != 1 ||
      !std::get<boost::json::value>(parent.request.body).is_object()) {
    return std::nullopt;
  }
  GeneratedCase mutant = Blank(parent);
  std::string where;
  if (handed.key == "nextCursor") {
    Params(mutant.request)["cursor"] = handed.value;
    where = "params.cursor";
  } else if (handed.key == "uri" || handed.key == "name") {
    Params(mutant.request)[handed.key] = handed.value;
    where = "params." + handed.key;
  } else {
    Meta(mutant.request)[handed.key] = handed.value;
    where = "params._meta." + handed.key;
  }
  if (!Sendable(mutant, parent, context)) return std::nullopt;
  mutant.variant = "mutant of " + label + ": the server's " + handed.key + " sent back as " + where;
  return mutant;
}

std::vector<GeneratedCase> BoundaryMutants(const GeneratedCase& parent,
                                           const MutationContext& context,
                                           const std::string& label) {
  constexpr std::array<std::size_t, 5> kLengths = {0, 1, 64, 256, 4096};
  constexpr std::size_t kMaxStrings = 8;
  std::vector<GeneratedCase> mutants;
  if (!parent.steps.empty() || parent.request.body.index() != 1) return mutants;
  const auto* body = std::get<boost::json::value>(parent.request.body).if_object();
  const boost::json::object* params = body != nullptr ? ObjectMember(*body, "params") : nullptr;
  if (params == nullptr) return mutants;
  // The strings' places in params, as the order of a walk finds them.
  boost::json::value copy = *params;
  Places places;
  Collect(copy, false, places);
  std::size_t strings = 0;
  for (std::size_t place = 0; place < places.values.size() && strings < kMaxStrings; ++place) {
    if (!places.values[place]->is_string()) continue;
    ++strings;
    const std::string original(places.values[place]->as_string());
    for (const std::size_t length : kLengths) {
      if (length == original.size()) continue;
      GeneratedCase mutant = Blank(parent);
      boost::json::value edited_params = *params;
      Places edited;
      Collect(edited_params, false, edited);
      std::string text;
      const std::string fill = original.empty() ? std::string("x") : original;
      while (text.size() < length) text += fill;
      text.resize(length);
      *edited.values[place] = boost::json::string(text);
      Params(mutant.request) = std::move(edited_params.as_object());
      if (!Sendable(mutant, parent, context)) continue;
      mutant.variant = "mutant of " + label + ": a string of " + std::to_string(length) +
                       " bytes in place of " + Short(boost::json::value(original));
      mutants.push_back(std::move(mutant));
    }
  }
  return mutants;
}

std::optional<GeneratedCase> Mutate(const GeneratedCase& parent, const GeneratedCase* donor,
                                    const MutationContext& context, std::uint64_t seed,
                                    const std::string& label) {
  if (!parent.steps.empty()) return std::nullopt;
  Mutator mutator(context, donor, seed);
  Random random(seed ^ 0x6d75'7461'6e74ULL);
  GeneratedCase mutant = Blank(parent);
  std::vector<std::string> edits;
  // Mostly one edit: each further one may undo what made the parent reach its code.
  const std::size_t count = random.OneIn(4) ? 2 + random.Below(kMaxEdits - 1) : 1;
  for (std::size_t i = 0; i < count; ++i) {
    std::string said;
    if (auto* raw = std::get_if<RawBody>(&mutant.request.body)) {
      said = mutator.EditRaw(raw->bytes);
    } else if (auto* json = std::get_if<boost::json::value>(&mutant.request.body)) {
      said = mutator.Edit(*json, mutant.request);
    }
    if (!said.empty()) edits.push_back(std::move(said));
  }
  if (edits.empty() || !Sendable(mutant, parent, context)) return std::nullopt;
  mutant.variant = "mutant of " + label + ":";
  for (std::size_t i = 0; i < edits.size(); ++i) {
    mutant.variant += (i == 0 ? " " : "; ") + edits[i];
  }
  return mutant;
}

std::optional<GeneratedCase> MutateSequence(const GeneratedCase& parent, const GeneratedCase* donor,
                                            const MutationContext& context, std::uint64_t seed,
                                            const std::string& label) {
  std::vector<std::size_t> editable;
  for (std::size_t at = 0; at < parent.steps.size(); ++at) {
    if (Editable(parent.steps, at)) editable.push_back(at);
  }
  if (editable.empty()) return std::nullopt;
  Random random(seed ^ 0x7365'7175'656eULL);
  const std::size_t at = editable[random.Below(editable.size())];
  GeneratedCase step;
  step.request = parent.steps[at].request;
  step.check_id = parent.steps[at].check_id;
  const std::string where = label + " step " + std::to_string(at + 1);
  std::optional<GeneratedCase> edited = Mutate(step, donor, context, random.Next(), where);
  // The steps' replies are told apart by id, and a reused id is a rule of its own.
  if (!edited || edited->request.RpcId() != step.request.RpcId()) return std::nullopt;
  GeneratedCase mutant = parent;
  mutant.family = std::string(kMutantFamily);
  mutant.variant = std::move(edited->variant);
  mutant.well_formed.reset();
  SequenceStep& changed = mutant.steps[at];
  changed.request = std::move(edited->request);
  changed.check_id = edited->check_id;
  changed.row.clear();
  changed.mutated = true;
  mutant.request = mutant.steps.back().request;
  mutant.check_id = mutant.steps.back().check_id;
  return mutant;
}

std::vector<std::string> TokensOf(const boost::json::value& reply, std::size_t limit) {
  std::vector<std::string> tokens;
  CollectTokens(reply, limit, tokens);
  return tokens;
}

}  // namespace mcpfuzz::gen
