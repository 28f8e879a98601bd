// lint's --chart-of-file: a file that belongs to a Helm chart stands for the chart.
//
// The pre-commit hook passes the files a commit changed. A chart's template is not
// YAML until helm renders it, so linted as a file it is only scanned for markers
// (template-not-analysed), and a chart that renders a reference nobody accounted
// for gets through. With --chart-of-file, a changed Chart.yaml, values file or
// template makes lint render and analyse the whole chart instead, as
// `rollcall lint CHART_DIR` does, each chart once however many of its files changed.
// Without the flag a file is linted as itself, as before.
#pragma once

#include <string>
#include <vector>

namespace rollcall {

// The chart `file` belongs to, as a path shown to the user (DisplayPath), or ""
// when it belongs to none. It belongs to the chart in the nearest directory above
// it that holds Chart.yaml when it is that Chart.yaml, a values file next to it
// (values*.yaml, values*.yml, values.schema.json) or anything under its templates/;
// other files of a chart (crds/, ci/, a README) are not rendered by helm template
// and stay files. The search goes up from the file's directory to the working
// directory or the root of the git work tree the file is in, never above. A chart
// found in another chart's charts/ directory stands for that parent chart, which
// renders it with the parent's values, as it is deployed. Only names are looked at:
// no file is opened.
std::string ChartOfFile(const std::string& file);

// `paths` with every file that belongs to a chart replaced by its chart, where its
// first file was, and each directory (a chart named, or stood for) listed once.
// "-" and other files are kept as they are.
std::vector<std::string> ChartsOfFiles(const std::vector<std::string>& paths);

}  // namespace rollcall
