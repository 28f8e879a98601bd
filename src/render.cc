#include "rollcall/render.h"

#include <algorithm>

#include "parallel.h"
#include "rollcall/allocator.h"
#include "rollcall/analysis.h"
#include "rollcall/annotate.h"
#include "rollcall/document.h"
#include "rollcall/facts.h"
#include "rollcall/hashing.h"
#include "rollcall/jobs.h"
#include "rollcall/lint.h"
#include "rollcall/model.h"
#include "rollcall/previous/rollout.h"

namespace rollcall {
namespace {

void Append(std::vector<Edit>& to, std::vector<Edit> edits) {
  for (Edit& edit : edits) to.push_back(std::move(edit));
}

// Names a plain Job after its pod template (and the config hash it carries), so a
// changed template makes a new Job instead of an immutable-field error, and
// records the name it had so that rendering again gives the same name.
std::vector<Edit> RenameJob(const Consumer& job, const std::string& config_hash, Name& renamed) {
  const Document& doc = *job.document;
  // A plain Job keeps its tree (facts.h's KeepsTree): its name and annotations are
  // edited as a pod template's annotations are.
  CapturedShape object = CaptureForEdit(doc.root());
  const NodeShape* metadata = FindValue(object, "metadata");
  std::string base = RecordedJobName(doc, job.name());
  std::string name = RenamedJobName(base, JobTemplateDigest(job.pod_template(), config_hash));
  renamed = name;
  static const NodeShape kNone;
  std::vector<Edit> edits = SetScalarValue(doc, metadata ? *metadata : kNone, "name", name);
  AnnotationChange record;
  record.set = {{kJobNameAnnotation, base}};
  Append(edits, EditAnnotations(doc, object, record));
  return edits;
}

// What render does to one consumer, and how it reports it.
struct PlannedConsumer {
  RenderedConsumer item;
  std::vector<Edit> edits;
  bool edits_wait = false;  // not planned yet: see Planning::kFirst
};

enum class Planning {
  // Before any output: every error found. A consumer whose capture its facts let go
  // (facts.cc), its edits checked then, gets its edits only in the next planning,
  // which parses its document again.
  kFirst,
  kOutput,  // as the output is written
};

PlannedConsumer PlanConsumer(const Consumer& consumer, const Analysis& analysis,
                             const RenderOptions& options, Planning planning) {
  PlannedConsumer out;
  RenderedConsumer& item = out.item;
  item.consumer = &consumer;
  item.name = consumer.name();
  if (const Document* ran =
          analysis.AlreadyRan(consumer) ? analysis.PreviousOf(*consumer.document) : nullptr) {
    // It ran. Rendered anew it would be refused as immutable; left out, Helm would
    // delete it and the next upgrade would create it again, to run with a consumed
    // token. So the previous release's document goes out as it was: no change.
    const DocumentSpan& span = consumer.document->span();
    std::string previous(ran->span().Text(ran->stream().bytes()));
    if (!previous.empty() && previous.back() != '\n') previous += '\n';
    out.edits.push_back(Edit::Replace(span.begin, span.end, std::move(previous)));
    item.dropped = true;
    return out;
  }
  // A bare Pod cannot roll, and a plain Job kept or run once must not change:
  // they stay byte-identical (the rules say so), with the hash they carry.
  // Only the comparison with a previous release reads the hash it carries: a large
  // first install holds none.
  bool compared = options.previous != nullptr;
  if (LeftAsWritten(consumer)) {
    if (compared) item.config_hash = WrittenConfigHash(consumer);
    return out;
  }
  // Its capture let go, its edits checked then (facts.cc): nothing to plan yet, not
  // even its hash, which only its edits and a compared release read (and a
  // compared release keeps every capture).
  if (consumer.template_shape.empty() && planning == Planning::kFirst) {
    out.edits_wait = true;
    return out;
  }
  AnnotationChange change =
      ConfigHashChange(ComputeTemplateHash(consumer, analysis.model(), options.hmac_key));
  std::string config_hash = change.set.empty() ? "" : change.set[0].second;
  CapturedShape taken_again;
  if (consumer.template_shape.empty()) {
    taken_again = CaptureTemplateAgain(consumer, options.limits, options.config.consumer_kinds);
  }
  const CapturedShape& shape = taken_again.empty() ? consumer.template_shape : taken_again;
  out.edits = EditAnnotations(*consumer.document, shape, change);
  if (consumer.job_action == JobAction::kRename) {
    Append(out.edits, RenameJob(consumer, config_hash, item.name));
  }
  if (compared) item.config_hash = std::move(config_hash);
  return out;
}

// Plans every consumer's edits on every usable CPU (usable_cpus.h), a chunk of
// consumers at a time, so that the plans of a large stream are never all held at
// once, and hands each chunk to `take` in stream order until it returns false. The
// first error in stream order wins as in a serial loop: no later chunk is planned
// before an earlier one.
template <typename Take>
void PlanInChunks(const Analysis& analysis, const RenderOptions& options, Planning planning,
                  const Take& take) {
  const OwnedList<Consumer>& consumers = analysis.model().consumers;
  constexpr std::size_t kChunk = std::size_t{1} << 12;
  for (std::size_t begin = 0; begin < consumers.size(); begin += kChunk) {
    std::vector<PlannedConsumer> planned = ParallelMap<PlannedConsumer>(
        std::min(kChunk, consumers.size() - begin), [&](std::size_t i) {
          return PlanConsumer(consumers[begin + i], analysis, options, planning);
        });
    if (!take(planned)) return;
  }
}

// Reads and analyses the stream: documents the analysis does not read are never
// parsed, and the others' trees go as soon as their facts are read; values-like
// documents past the first few are only counted, and those that only define a
// Secret or ConfigMap keep no record, their sources taken as they are read
// (docs/performance.md).
std::unique_ptr<Analysis> Analyse(const Stream& stream, const RenderOptions& options) {
  AnalysisOptions analysis_options;
  analysis_options.default_namespace = options.default_namespace;
  analysis_options.config = options.config;
  analysis_options.jobs = options.jobs;
  analysis_options.previous = options.previous;
  analysis_options.state = options.state;
  analysis_options.state_hook_words = options.state_hook_words;
  analysis_options.lookup = options.lookup;
  std::vector<CountedNotObjects> counted(1);
  SourceDefinitions definitions;
  FactOptions fact_options = FactOptionsFor(analysis_options);
  fact_options.plans_edits = true;
  std::vector<Document> documents = ParseStream(
      stream, options.limits,
      [&](const TypeHeader& type, std::string_view text) {
        return AnalysisReads(analysis_options, type, text);
      },
      FactReader(fact_options), &counted.front(), SourceTaker(&definitions, fact_options));
  RefuseHalfObjects(documents);
  return std::make_unique<Analysis>(std::move(documents), std::move(analysis_options),
                                    std::move(counted), std::move(definitions));
}

}  // namespace

RenderPlan::RenderPlan(const Stream& stream, const RenderOptions& options)
    : options_(options), analysis_(Analyse(stream, options)) {
  result_.findings = RunRules(*analysis_, {}, RulesFor::kRender);
  result_.summary = analysis_->Summary();
  analysis_->ReleaseCoverage();
  // The first planning: every consumer can be edited, and what it becomes goes
  // into the rollout. Its edits are kept while they are small beside the input, as
  // in most streams, where planning again would cost a tenth of the run; past that,
  // they are dropped chunk by chunk, and planned again as the output is written.
  // They are dropped as soon as the chunks planned so far show that all of them
  // would pass a quarter of the input: a stream whose edits are larger than its
  // documents never holds that quarter beside its model (docs/performance.md); and
  // as soon as one consumer's edits wait for the output (Planning::kFirst), as in a
  // stream of small workloads, where they would pass it.
  const double budget = static_cast<double>(stream.bytes().size()) / 4;
  const auto consumers = static_cast<double>(analysis_->model().consumers.size());
  double kept = 0;
  double planned_so_far = 0;
  keeps_every_run_ = true;
  RolloutComparison rollout(*analysis_, options_.previous);
  PlanInChunks(*analysis_, options_, Planning::kFirst, [&](std::vector<PlannedConsumer>& planned) {
    std::vector<Edit> run;
    for (PlannedConsumer& plan : planned) {
      rollout.Add(plan.item);
      if (plan.edits_wait) keeps_every_run_ = false;
      if (!keeps_every_run_) continue;
      for (const Edit& edit : plan.edits) {
        kept += static_cast<double>(sizeof(Edit) + edit.text.capacity());
      }
      Append(run, std::move(plan.edits));
    }
    planned_so_far += static_cast<double>(planned.size());
    if (kept * consumers > budget * planned_so_far) keeps_every_run_ = false;
    if (keeps_every_run_) {
      kept_runs_.push_back(std::move(run));
    } else if (!kept_runs_.empty()) {
      kept_runs_ = std::vector<std::vector<Edit>>();
    }
    return true;
  });
  result_.rollout = std::move(rollout).Finish();
}

RenderPlan::~RenderPlan() = default;

void RenderPlan::ForEachEditRun(const std::function<bool(std::vector<Edit>&)>& take) {
  if (keeps_every_run_) {
    for (std::vector<Edit>& run : kept_runs_) {
      if (!take(run)) break;
    }
    kept_runs_ = std::vector<std::vector<Edit>>();
    return;
  }
  std::vector<Edit> run;
  PlanInChunks(*analysis_, options_, Planning::kOutput, [&](std::vector<PlannedConsumer>& planned) {
    run.clear();
    for (PlannedConsumer& plan : planned) Append(run, std::move(plan.edits));
    return take(run);
  });
}

RenderResult Render(const Stream& stream, const RenderOptions& options) {
  std::vector<Edit> edits;
  RenderResult result;
  {
    RenderPlan plan(stream, options);
    plan.ForEachEditRun([&](std::vector<Edit>& run) {
      Append(edits, std::move(run));
      return true;
    });
    plan.result().rollout.Keep();
    result = std::move(plan.result());
  }
  // The analysis's freed memory goes back to the system before the output string is
  // built: the peak RSS is the larger of the two, not their sum. RenderPlan's users
  // write the output piece by piece and need no such room.
  ReturnFreedMemory();
  result.output = Splice(stream.bytes(), std::move(edits));
  return result;
}

}  // namespace rollcall
