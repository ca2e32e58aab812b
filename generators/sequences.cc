// Sequences on one fresh connection: each code of a drawn list picks one operation
// (generators/detail/sequence_ops.h) among those that fit the planned state, and its steps are
// added in order. Each step names the check and row it is planned to be judged by, from a small
// model of the state a conformant server would be in (oracles/sequence.h); the campaign judges
// each step by the state actually reached.

#include <rapidcheck.h>

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "generators/detail/families.h"
#include "generators/detail/sequence_ops.h"
#include "oracles/check_ids.h"
#include "oracles/sequence.h"

namespace mcpfuzz::gen {
namespace {

using detail::Draw;
using detail::OpStep;
using detail::Plan;
using detail::SequenceOp;

constexpr std::string_view kFamily = "sequences";

struct Choice {
  const SequenceOp* op = nullptr;
  std::size_t variant = 0;
};

// The operation `code` chooses: of the choices that fit, the code modulo their number, the
// quotient its variant; then one drawn in place of that one at that variant, if one fits.
Choice Choose(std::span<const SequenceOp> ops, const GenContext& context, const Plan& plan,
              int code) {
  std::vector<const SequenceOp*> choices;
  for (const SequenceOp& op : ops) {
    if (op.in_place_of.empty() && op.fits(context, plan)) choices.push_back(&op);
  }
  const auto index = static_cast<std::size_t>(code);
  Choice choice{choices[index % choices.size()], index / choices.size()};
  for (const SequenceOp& op : ops) {
    if (op.in_place_of == choice.op->name && op.at(choice.variant) && op.fits(context, plan)) {
      choice.op = &op;
      break;
    }
  }
  return choice;
}

// A sequence built operation by operation, each step planned in the state it meets.
class Assembly {
 public:
  explicit Assembly(const GenContext& context) : context_(context) {}

  const Plan& plan() const { return plan_; }
  std::string_view last_check() const { return generated_.steps.back().check_id; }

  void Add(Choice choice) {
    Draw draw{choice.variant, plan_.next_id};
    std::vector<OpStep> built = choice.op->build(context_, plan_, draw);
    plan_.next_id = std::max(draw.next_id, plan_.next_id + 1);
    for (OpStep& one : built) {
      SequenceStep& step = one.step;
      if (one.rule) {
        step.check_id = std::string(one.rule->check_id);
        step.row = std::string(one.rule->row);
      } else if (auto rule = RuleForStep(plan_.model, step.request)) {
        step.check_id = std::string(rule->check_id);
        step.row = std::string(rule->row);
      }
      if (one.cancellable) plan_.finished = step.request;
      if (one.lists)
        plan_.listed = Plan::Listed{generated_.steps.size(), *step.request.RpcMethod()};
      plan_.model = PlanSequence(plan_.model, step.request);
      names_.push_back(one.name.empty() ? std::string(choice.op->name) : std::move(one.name));
      generated_.steps.push_back(std::move(step));
    }
  }

  // Each code chooses one operation, until one the sequence ends on.
  void AddChosen(std::span<const SequenceOp> ops, const std::vector<int>& codes) {
    for (int code : codes) {
      const Choice choice = Choose(ops, context_, plan_, code);
      Add(choice);
      if (choice.op->ends) break;
    }
  }

  GeneratedCase Finish() && {
    // A step no rule judges can fail nothing, so trailing ones are left out and the case names
    // the check of its last step (the first step always has one: initialize, ping or L4).
    while (generated_.steps.size() > 1 && generated_.steps.back().check_id.empty()) {
      generated_.steps.pop_back();
      names_.pop_back();
    }
    generated_.family = std::string(kFamily);
    for (const std::string& name : names_) {
      if (!generated_.variant.empty()) generated_.variant += ", ";
      generated_.variant += name;
    }
    const SequenceStep& last = generated_.steps.back();
    generated_.request = last.request;
    generated_.check_id = last.check_id;
    return std::move(generated_);
  }

 private:
  const GenContext& context_;
  Plan plan_;
  GeneratedCase generated_;
  std::vector<std::string> names_;
};

GeneratedCase Assemble(const GenContext& context, const std::vector<int>& codes) {
  Assembly assembly(context);
  if (!context.stateless()) {
    assembly.AddChosen(detail::HandshakeOps(), codes);
    return std::move(assembly).Finish();
  }
  // 2026-07-28 over stdio: the codes choose discovers and locks in between, and the sequence
  // always ends on an initialize after a lock (tables §4b V16a).
  const std::span<const SequenceOp> ops = detail::EraLockOps();
  assembly.AddChosen(ops, codes);
  if (assembly.plan().model.era != SequenceState::EraLock::kStateless) {
    assembly.Add({&detail::OpNamed(ops, "an enveloped list"), 0});
  }
  if (assembly.last_check() != check::kInitializeAfterEraLock) {
    assembly.Add({&detail::OpNamed(ops, "initialize"), static_cast<std::size_t>(codes.front())});
  }
  return std::move(assembly).Finish();
}

}  // namespace

rc::Gen<GeneratedCase> Sequences(const GenContext& context) {
  // Not shrunk here: a shorter list of choices can change what the last step is judged by. The
  // campaign shrinks a failing sequence by removing steps instead (campaign/detail).
  return rc::gen::noShrink(
      rc::gen::map(rc::gen::mapcat(rc::gen::inRange(1, 7),
                                   [](int length) {
                                     return rc::gen::container<std::vector<int>>(
                                         static_cast<std::size_t>(length), rc::gen::inRange(0, 60));
                                   }),
                   [context](const std::vector<int>& codes) { return Assemble(context, codes); }));
}

}  // namespace mcpfuzz::gen
