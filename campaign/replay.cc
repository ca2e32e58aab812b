// Replay: case files sent again, each in a session of its own revision.

#include <algorithm>
#include <map>
#include <memory>
#include <system_error>

#include "campaign/campaign.h"
#include "campaign/detail/judging.h"
#include "campaign/detail/sequence_run.h"
#include "oracles/check_ids.h"
#include "reports/finding_file.h"

namespace mcpfuzz {
namespace {

std::vector<std::filesystem::path> CaseFiles(const std::filesystem::path& path,
                                             std::string& error) {
  std::vector<std::filesystem::path> files;
  std::error_code code;
  if (!std::filesystem::is_directory(path, code)) {
    if (!std::filesystem::exists(path, code))
      error = path.string() + ": no such file";
    else
      files.push_back(path);
    return files;
  }
  for (std::filesystem::directory_iterator it(path, code), end; !code && it != end;
       it.increment(code)) {
    if (it->path().extension() == ".json" && !it->path().filename().string().starts_with(".")) {
      files.push_back(it->path());
    }
  }
  if (code) error = path.string() + ": " + code.message();
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

ReplayResult Replay(const TransportFactory& connect, const std::filesystem::path& path,
                    const std::atomic<bool>* stop) {
  ReplayResult result;
  std::string listing_error;
  const std::vector<std::filesystem::path> files = CaseFiles(path, listing_error);
  if (!listing_error.empty()) {
    ReplayedCase failed;
    failed.file = path;
    failed.error = listing_error;
    result.cases.push_back(std::move(failed));
    return result;
  }
  TargetLink link(connect);
  // One session per revision, opened when a case of that revision first needs it.
  std::map<Revision, std::unique_ptr<TargetSession>> sessions;
  for (const std::filesystem::path& file : files) {
    if (stop != nullptr && stop->load()) {
      result.stopped_early = true;
      break;
    }
    ReplayedCase replayed;
    replayed.file = file;
    try {
      auto stored = ReadCaseFile(file);
      if (!stored.ok()) {
        replayed.error = stored.error().message;
        result.cases.push_back(std::move(replayed));
        continue;
      }
      replayed.check_id = stored->check_id;
      replayed.revision = stored->request.revision;
      if (!stored->steps.empty()) {
        // A sequence: all of it, on a connection of its own.
        const campaign_detail::SequenceRun run = campaign_detail::RunSequence(link, stored->steps);
        if (!run.error.empty()) {
          replayed.error = "no connection for the sequence: " + run.error;
        } else if (const campaign_detail::Judged* found = run.finding()) {
          replayed.still_fails = true;
          replayed.signature = found->signature;
          replayed.same_signature =
              !stored->signature.empty() && found->signature == stored->signature;
          replayed.verdict = found->verdict;
        } else if (!run.steps.empty()) {
          replayed.verdict = run.steps.back().verdict;
        }
        if (replayed.still_fails) ++result.still_failing;
        result.cases.push_back(std::move(replayed));
        continue;
      }
      const Revision revision = stored->request.revision;
      auto& session = sessions[revision];
      if (!session) {
        session = std::make_unique<TargetSession>(link, revision);
        if (auto opened = session->Open(); !opened.ok()) {
          replayed.error =
              "no session in " + std::string(ToString(revision)) + ": " + opened.error().message;
          session.reset();
          sessions.erase(revision);
          result.cases.push_back(std::move(replayed));
          continue;
        }
      }
      // A death right after the reply shows in what the request behind it gets.
      const bool settle = stored->check_id == check::kNoEarlyExit;
      const campaign_detail::Judged judged =
          campaign_detail::SendAndJudge(*session, *stored, settle);
      replayed.still_fails = judged.finding;
      replayed.same_signature = replayed.still_fails && !stored->signature.empty() &&
                                judged.signature == stored->signature;
      if (replayed.still_fails) replayed.signature = judged.signature;
      replayed.verdict = judged.verdict;
    } catch (const std::exception& error) {
      replayed.error = std::string("replay failed: ") + error.what();
    } catch (...) {
      replayed.error = "replay failed";
    }
    if (replayed.still_fails) ++result.still_failing;
    result.cases.push_back(std::move(replayed));
  }
  return result;
}

}  // namespace mcpfuzz
