// The disagreement matrix for people: the terminal and Markdown renderings of a diff report.
// Markdown is the form of the census tables: one row per disagreement, one column per target,
// conformant cells marked ✓, then one reproducer per target under each row.

#include <cstdio>

#include "reports/detail/stopped_early.h"
#include "reports/diff.h"
#include "reports/escape.h"
#include "reports/report.h"
#include "reports/terminal.h"

namespace mcpfuzz::reports {
namespace {

const DiffSection& SectionOf(const Report& report) {
  static const DiffSection kEmpty;
  return report.diff ? *report.diff : kEmpty;
}

std::string Cell(const DiffCellReport& cell) {
  return cell.answer + (cell.accepted ? " ✓" : "") + " [" + cell.verdict + "]" +
         (cell.provenance.empty() ? "" : " " + cell.provenance);
}

}  // namespace

void WriteDiffTerminal(const Report& report, std::ostream& out) {
  const DiffSection& diff = SectionOf(report);
  out << "mcpfuzz diff: seed " << diff.seed << ", revision "
      << (diff.revision.empty() ? "none shared" : diff.revision) << ", " << diff.cases << " cases";
  if (diff.incomparable > 0) out << " (" << diff.incomparable << " not comparable)";
  if (!diff.shard.empty()) out << ", shard " << diff.shard;
  out << "\n";
  for (std::size_t t = 0; t < diff.targets.size(); ++t) {
    out << "  [" << t + 1 << "] " << EscapeForTerminal(diff.targets[t].name, 100)
        << (diff.baseline && t + 1 == diff.targets.size() ? " (baseline)" : "") << "\n";
    if (const auto& info = diff.targets[t].server_info) {
      out << "      announces: " << EscapeForTerminal(AnnouncedText(*info), 300) << "\n";
    }
    if (!diff.targets[t].error.empty()) {
      out << "      not judged: " << EscapeForTerminal(diff.targets[t].error, 300) << "\n";
    }
  }
  for (const auto& row : diff.rows) {
    out << "\n"
        << row.check_id << "  " << row.label << "  (" << row.family << ": "
        << EscapeForTerminal(row.variant, 60) << "; case " << row.case_index << ", " << row.repeats
        << " repeat(s), " << row.original_bytes << " → " << row.minimal_bytes << " bytes)\n";
    for (std::size_t t = 0; t < row.cells.size(); ++t) {
      out << "  [" << t + 1 << "] " << EscapeForTerminal(Cell(row.cells[t]), 100) << "\n";
    }
  }
  for (const auto& note : diff.notes) out << "\nnote: " << EscapeForTerminal(note, 200) << "\n";
  out << "\n"
      << diff.rows.size() << " disagreement(s), " << diff.WrongSideCount()
      << " with a wrong side\n";
}

void WriteDiffMarkdown(const Report& report, std::ostream& out) {
  const DiffSection& diff = SectionOf(report);
  out << "## mcpfuzz diff\n\n"
      << detail::MarkdownStoppedBanner(report) << "Seed " << diff.seed << ", revision "
      << EscapeMarkdownInline(diff.revision.empty() ? "none shared" : diff.revision) << ", "
      << diff.cases << " cases";
  if (diff.incomparable > 0) out << " (" << diff.incomparable << " not comparable)";
  if (!diff.shard.empty()) out << ", shard " << diff.shard;
  out << "; **" << diff.rows.size() << " disagreement(s), " << diff.WrongSideCount()
      << " with a wrong side**. A cell is the target's answer (channel, JSON-RPC code, HTTP "
         "status), ✓ where the oracle accepts it, and the oracle's verdict.\n\n";
  out << "| # | target | announces |\n|---|---|---|\n";
  for (std::size_t t = 0; t < diff.targets.size(); ++t) {
    const auto& info = diff.targets[t].server_info;
    out << "| " << t + 1 << " | " << EscapeMarkdownInline(diff.targets[t].name) << " ("
        << diff.targets[t].transport
        << (diff.baseline && t + 1 == diff.targets.size() ? ", baseline" : "") << ") | "
        << (info ? EscapeMarkdownInline(AnnouncedText(*info)) : "—");
    if (!diff.targets[t].error.empty()) {
      out << "<br>**not judged:** " << EscapeMarkdownInline(diff.targets[t].error);
    }
    out << " |\n";
  }
  if (diff.rows.empty()) {
    out << "\nNo disagreements.\n";
  } else {
    out << "\n| check | label |";
    for (std::size_t t = 0; t < diff.targets.size(); ++t) out << " " << t + 1 << " |";
    out << "\n|---|---|";
    for (std::size_t t = 0; t < diff.targets.size(); ++t) out << "---|";
    out << "\n";
    for (const auto& row : diff.rows) {
      out << "| `" << EscapeMarkdownInline(row.check_id) << "` | " << row.label << " |";
      for (const auto& cell : row.cells) out << " " << EscapeMarkdownInline(Cell(cell)) << " |";
      out << "\n";
    }
    out << "\n### Reproducers\n";
    for (const auto& row : diff.rows) {
      out << "\n#### `" << EscapeMarkdownInline(row.check_id) << "` — " << row.label << " ("
          << EscapeMarkdownInline(row.family + ": " + row.variant) << "; " << row.repeats
          << " repeat(s), " << row.original_bytes << " → " << row.minimal_bytes << " bytes)\n";
      for (std::size_t t = 0; t < row.cells.size(); ++t) {
        out << "\n"
            << t + 1 << ". " << EscapeMarkdownInline(row.cells[t].answer) << "\n\n"
            << MarkdownCodeBlock(row.cells[t].reproducer, "sh");
      }
    }
  }
  if (!diff.checks.empty()) {
    out << "\n### Cases per check\n\n| check | cases | disagreeing |\n|---|---|---|\n";
    for (const auto& check : diff.checks) {
      out << "| `" << EscapeMarkdownInline(check.check_id) << "` | " << check.cases << " | "
          << check.disagreeing << " |\n";
    }
  }
  for (const auto& note : diff.notes) out << "\n> note: " << EscapeMarkdownInline(note) << "\n";
}

}  // namespace mcpfuzz::reports
