#include "app/desktop/export/export_csv.hpp"

#include "app/desktop/run/run_source.hpp"
#include "core/model/registry.hpp"
#include "io/hdf5/run_file_writer.hpp"
#include "render/paraview/paraview_series.hpp"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <limits>

namespace ricochet::app {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
std::filesystem::path fsPath(const QString& path) { return QFile::encodeName(path).toStdString(); }
}  // namespace

// ---------------------------------------------------------------------------------------------

CsvExportTask::CsvExportTask(QObject* parent) : ExportJob(parent) {
  connect(&watcher_, &QFutureWatcher<io::RunSummary>::finished, this, [this] {
    poll_.stop();
    summary_ = watcher_.result();
    running_ = false;
    emit finished();
  });
  poll_.setInterval(kPollMs);
  connect(&poll_, &QTimer::timeout, this, [this] {
    if (running_) emit progressed(stepsDone(), total_, QString());
  });
}

CsvExportTask::~CsvExportTask() {
  if (running_) {
    cancel();
    watcher_.waitForFinished();  // the driver stops within kProgressInterval steps, files discarded
  }
}

QString CsvExportTask::start(const CsvExportRequest& request) {
  if (running_) return tr("a run export is already running");
  if (request.traceCsv.isEmpty() && request.impactsCsv.isEmpty() && request.hdf5.isEmpty() &&
      request.paraview.isEmpty()) {
    return tr("no file chosen");
  }
  if (request.steps < 0) return tr("steps = %1 is invalid: must be >= 0").arg(request.steps);
  io::RunOptions options;
  options.steps = request.steps;
  options.every = request.every;
  if (!request.traceCsv.isEmpty()) options.traceCsv = fsPath(request.traceCsv);
  if (!request.impactsCsv.isEmpty()) options.impactsCsv = fsPath(request.impactsCsv);
  if (const std::string e = io::checkRunOptions(options); !e.empty()) return qs(e);
  const QStringList outputs = {request.traceCsv, request.impactsCsv, request.hdf5,
                               request.paraview};
  for (qsizetype i = 0; i < outputs.size(); ++i) {
    for (qsizetype j = i + 1; j < outputs.size(); ++j) {
      if (!outputs[i].isEmpty() && QDir::cleanPath(outputs[i]) == QDir::cleanPath(outputs[j])) {
        return tr("two outputs are the same file (%1)").arg(outputs[i]);
      }
    }
  }
  // The scenario is the running one, so it is valid; create() is still checked, as the CLI does.
  CreateResult created = createSimulation(request.scenario);
  if (!created.simulation) return qs(created.error);
  // The HDF5 file and the series are opened here, as `ricochet-cli run` opens them before the run:
  // a path they cannot take is refused at once. They live until the run on the pool thread ends.
  auto h5 = std::make_shared<hdf5::RunFileWriter>();
  if (!request.hdf5.isEmpty()) {
    const std::string e = h5->open(fsPath(request.hdf5), request.scenario,
                                   created.simulation->columns(), request.every);
    if (!e.empty()) return qs(e);
    options.sinks.push_back(h5.get());
  }
  auto series = std::make_shared<render::paraview::SeriesWriter>();
  if (!request.paraview.isEmpty()) {
    const SystemDescription* system = findSystem(request.scenario.system);
    if (!system) return tr("unknown system '%1'").arg(qs(request.scenario.system));
    const std::string e =
        series->open(fsPath(request.paraview), system->scene(request.scenario));
    if (!e.empty()) return qs(e);
    options.sinks.push_back(series.get());
  }

  cancel_.store(false);
  done_.store(0);
  total_ = request.steps;
  options.progressInterval = kProgressInterval;
  options.progress = [this](std::int64_t done, std::int64_t) {
    done_.store(done, std::memory_order_relaxed);
    return !cancel_.load(std::memory_order_relaxed);
  };
  running_ = true;
  request_ = request;
  poll_.start();
  // The simulation moves into the task (shared_ptr: QtConcurrent copies its callable).
  std::shared_ptr<Simulation> sim(std::move(created.simulation));
  const Scenario scenario = request.scenario;
  watcher_.setFuture(QtConcurrent::run(
      [sim, scenario, options, h5, series] { return io::runSimulation(*sim, scenario, options); }));
  return {};
}

ExportReport CsvExportTask::report() const {
  QStringList files;
  if (!request_.traceCsv.isEmpty()) files << QFileInfo(request_.traceCsv).fileName();
  if (!request_.impactsCsv.isEmpty()) files << QFileInfo(request_.impactsCsv).fileName();
  if (!request_.hdf5.isEmpty()) files << QFileInfo(request_.hdf5).fileName();
  if (!request_.paraview.isEmpty()) {
    files << QFileInfo(QDir::cleanPath(request_.paraview)).fileName() + QLatin1Char('/');
  }
  const io::RunSummary& s = summary_;
  using Outcome = ExportReport::Outcome;
  switch (s.outcome) {
    case io::RunOutcome::Completed:
      return {Outcome::Completed,
              tr("Exported %1 (%2 trace rows, %3 impacts)")
                  .arg(files.join(QStringLiteral(", ")))
                  .arg(s.traceRows)
                  .arg(s.impactRows),
              {}, {}};
    case io::RunOutcome::IntegratorFailed:
      return {Outcome::StoppedAtFailure, tr("Exported up to the failure: %1").arg(qs(s.message)),
              tr("Run export"),
              tr("The run failed, as the live run did; %1 hold everything up to the last good "
                 "state (as ricochet-cli writes them).\n\n%2")
                  .arg(files.join(QStringLiteral(" and ")), qs(s.message))};
    case io::RunOutcome::Cancelled:
      return {Outcome::Cancelled, tr("Run export cancelled; no file written"), {}, {}};
    case io::RunOutcome::OutputError:
    case io::RunOutcome::InvalidOptions:
      break;
  }
  return {Outcome::Failed, tr("Run export failed: %1").arg(qs(s.message)), tr("Run export failed"),
          tr("No file was written.\n\n%1").arg(qs(s.message))};
}

// ---------------------------------------------------------------------------------------------

CsvExportDialog::CsvExportDialog(const Scenario& scenario, std::int64_t currentSteps, bool failed,
                                 const QString& directory, QWidget* parent)
    : QDialog(parent), scenario_(scenario) {
  setObjectName(QStringLiteral("csvExportDialog"));
  setWindowTitle(tr("Export Run Data"));
  // step,t,energy,kinetic,potential,energy_rel_error,impacts, then the system's own columns.
  if (const CreateResult created = createSimulation(scenario); created.simulation) {
    traceColumns_ = 7 + int(created.simulation->columns().size());
  }
  const QString system = qs(scenario.system);
  const QDir dir(directory);

  // A row starts unticked, its path and Browse disabled. `filter` empty: the path is a folder.
  const QString csvFilter = tr("CSV files (*.csv);;All files (*)");
  auto fileRow = [this](QCheckBox*& box, QLineEdit*& edit, const QString& label,
                        const QString& path, const QString& what, const QString& filter) {
    box = new QCheckBox(label);
    edit = new QLineEdit(QDir::toNativeSeparators(path));
    edit->setMinimumWidth(360);
    auto* browse = new QPushButton(tr("Browse..."));
    connect(browse, &QPushButton::clicked, this, [this, edit, what, filter] {
      const QString chosen = filter.isEmpty()
                                 ? QFileDialog::getExistingDirectory(this, what, edit->text())
                                 : QFileDialog::getSaveFileName(this, what, edit->text(), filter);
      if (!chosen.isEmpty()) edit->setText(QDir::toNativeSeparators(chosen));
    });
    edit->setEnabled(false);
    browse->setEnabled(false);
    connect(box, &QCheckBox::toggled, edit, &QWidget::setEnabled);
    connect(box, &QCheckBox::toggled, browse, &QWidget::setEnabled);
    auto* row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(browse);
    return row;
  };
  // Each file: its checkbox as the row label, then the path and a Browse button.
  auto* form = new QFormLayout;
  QHBoxLayout* traceRow =
      fileRow(traceBox_, tracePath_, tr("Trace"),
              dir.filePath(system + QStringLiteral("-trace.csv")), tr("Trace CSV file"), csvFilter);
  form->addRow(traceBox_, traceRow);
  QHBoxLayout* impactsRow = fileRow(impactsBox_, impactsPath_, tr("Impacts"),
                                    dir.filePath(system + QStringLiteral("-impacts.csv")),
                                    tr("Impacts CSV file"), csvFilter);
  form->addRow(impactsBox_, impactsRow);
  QHBoxLayout* hdf5Row =
      fileRow(hdf5Box_, hdf5Path_, tr("HDF5 run"), dir.filePath(system + QStringLiteral("-run.h5")),
              tr("HDF5 run file"), tr("HDF5 files (*.h5 *.hdf5);;All files (*)"));
  hdf5Box_->setToolTip(
      tr("The trace, the impacts and the scenario in one HDF5 file (ricochet-cli run --h5)"));
  form->addRow(hdf5Box_, hdf5Row);
  QHBoxLayout* paraviewRow = fileRow(paraviewBox_, paraviewPath_, tr("ParaView series"),
                                     dir.filePath(system + QStringLiteral("-paraview")),
                                     tr("Folder of the ParaView series"), QString());
  paraviewBox_->setToolTip(
      tr("A folder with run.pvd and one .vtp per recorded step, to play in "
         "ParaView (ricochet-cli run --pvd); a previous series in it is replaced"));
  form->addRow(paraviewBox_, paraviewRow);
  traceBox_->setChecked(true);
  impactsBox_->setChecked(true);

  steps_ = new QLineEdit(QString::number(currentSteps + (failed ? 1 : 0)));
  steps_->setObjectName(QStringLiteral("csvSteps"));
  steps_->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,13}")), steps_));
  auto* current = new QPushButton(failed ? tr("To the failure") : tr("Current step"));
  const std::int64_t currentDefault = currentSteps + (failed ? 1 : 0);
  connect(current, &QPushButton::clicked, this, [this, currentDefault] {
    steps_->setText(QString::number(currentDefault));
  });
  auto* toEnd = new QPushButton(tr("To t_end"));
  const std::int64_t endSteps = io::stepCount(scenario.tEnd, scenario.integrator.h);
  toEnd->setEnabled(endSteps >= 0);
  connect(toEnd, &QPushButton::clicked, this,
          [this, endSteps] { steps_->setText(QString::number(endSteps)); });
  auto* stepsRow = new QHBoxLayout;
  stepsRow->addWidget(steps_, 1);
  stepsRow->addWidget(current);
  stepsRow->addWidget(toEnd);
  form->addRow(tr("Steps:"), stepsRow);

  every_ = new QSpinBox;
  every_->setObjectName(QStringLiteral("csvEvery"));
  every_->setRange(1, std::numeric_limits<int>::max());
  every_->setValue(1);
  every_->setToolTip(tr("Record every K-th step in the trace; the final state is always recorded "
                        "(ricochet-cli run --every K)"));
  form->addRow(tr("Record every:"), every_);

  info_ = new QLabel;
  info_->setObjectName(QStringLiteral("csvInfo"));
  info_->setWordWrap(true);
  error_ = new QLabel;
  error_->setObjectName(QStringLiteral("csvError"));
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #b3261e;"));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  auto* head = new QLabel(
      tr("The full-resolution trace of the current run: the scenario is run again from its initial "
         "state by the same code as <tt>ricochet-cli run</tt>, so the files are identical to the "
         "command line's (<tt>--csv</tt>, <tt>--impacts-csv</tt>, <tt>--h5</tt>, <tt>--pvd</tt>). "
         "The live run goes on meanwhile."));
  head->setWordWrap(true);
  layout->addWidget(head);
  layout->addLayout(form);
  layout->addWidget(info_);
  layout->addWidget(error_);
  layout->addWidget(buttons);
  if (failed) {
    auto* note = new QLabel(tr("The current run failed on step %1: the export stops there too, "
                               "with everything up to the last good state (as ricochet-cli does).")
                                .arg(currentSteps + 1));
    note->setWordWrap(true);
    layout->insertWidget(layout->indexOf(info_) + 1, note);
  }
  connect(steps_, &QLineEdit::textChanged, this, &CsvExportDialog::updateInfo);
  connect(every_, &QSpinBox::valueChanged, this, &CsvExportDialog::updateInfo);
  for (QCheckBox* box : {traceBox_, hdf5Box_, paraviewBox_}) {
    connect(box, &QCheckBox::toggled, this, &CsvExportDialog::updateInfo);
  }
  updateInfo();
}

CsvExportRequest CsvExportDialog::request(QString* error) const {
  CsvExportRequest r;
  r.scenario = scenario_;
  bool ok = false;
  r.steps = steps_->text().toLongLong(&ok);
  r.every = every_->value();
  if (traceBox_->isChecked()) r.traceCsv = QDir::fromNativeSeparators(tracePath_->text().trimmed());
  if (impactsBox_->isChecked()) r.impactsCsv = QDir::fromNativeSeparators(impactsPath_->text().trimmed());
  if (hdf5Box_->isChecked()) r.hdf5 = QDir::fromNativeSeparators(hdf5Path_->text().trimmed());
  if (paraviewBox_->isChecked()) {
    r.paraview = QDir::fromNativeSeparators(paraviewPath_->text().trimmed());
  }
  const QList<QPair<QCheckBox*, QString>> outputs = {{traceBox_, r.traceCsv},
                                                     {impactsBox_, r.impactsCsv},
                                                     {hdf5Box_, r.hdf5},
                                                     {paraviewBox_, r.paraview}};
  QString e;
  if (!ok || r.steps < 0) {
    e = tr("steps '%1' is not a whole number >= 0").arg(steps_->text());
  } else if (r.steps > io::kMaxRunSteps) {
    e = tr("steps = %1 is too large: at most %2").arg(r.steps).arg(io::kMaxRunSteps);
  } else if (std::none_of(outputs.begin(), outputs.end(),
                          [](const auto& o) { return o.first->isChecked(); })) {
    e = tr("choose at least one output");
  } else if (std::any_of(outputs.begin(), outputs.end(), [](const auto& o) {
               return o.first->isChecked() && o.second.isEmpty();
             })) {
    e = tr("a file name is empty");
  } else {
    QStringList seen;
    for (const auto& [box, p] : outputs) {
      if (p.isEmpty()) continue;
      if (seen.contains(QDir::cleanPath(p))) {
        e = tr("two outputs name the same file (%1)").arg(p);
        break;
      }
      seen << QDir::cleanPath(p);
      const QFileInfo dir(QFileInfo(QDir::cleanPath(p)).absolutePath());
      if (!dir.isDir()) {
        e = tr("%1: the folder %2 does not exist").arg(p, dir.filePath());
        break;
      }
      if (box == paraviewBox_ ? QFileInfo(p).exists() && !QFileInfo(p).isDir()
                              : QFileInfo(p).isDir()) {
        e = box == paraviewBox_ ? tr("%1 is a file, not a folder").arg(p)
                                : tr("%1 is a folder").arg(p);
        break;
      }
    }
  }
  if (error) *error = e;
  return r;
}

void CsvExportDialog::updateInfo() {
  bool ok = false;
  const std::int64_t steps = steps_->text().toLongLong(&ok);
  if (!ok) {
    info_->setText(QString());
    return;
  }
  const double h = scenario_.integrator.h;
  const std::int64_t every = every_->value();
  // Rows: the initial state, every K-th step, and the final state when not a multiple of K.
  const std::int64_t rows = 1 + steps / every + (steps % every != 0 ? 1 : 0);
  QString text = tr("%1 steps of h = %2 s, up to t = %3 s").arg(steps).arg(h).arg(double(steps) * h);
  if (traceBox_->isChecked() || hdf5Box_->isChecked()) text += tr("; %1 trace rows").arg(rows);
  if (traceBox_->isChecked() && traceColumns_ > 0) {
    text += tr(", CSV about %1").arg(formatBytes(estimatedBytes()));
  }
  if (paraviewBox_->isChecked()) text += tr("; %1 ParaView frames").arg(rows);
  info_->setText(text + QLatin1Char('.'));
}

qint64 CsvExportDialog::estimatedBytes() const {
  bool ok = false;
  const std::int64_t steps = steps_->text().toLongLong(&ok);
  if (!ok || !traceBox_->isChecked() || traceColumns_ <= 0) return -1;
  const std::int64_t every = std::max(1, every_->value());
  const std::int64_t rows = 1 + steps / every + (steps % every != 0 ? 1 : 0);
  // Values are written with up to 17 significant digits: 15 characters on average with the
  // comma, measured on particle-floor (209 bytes a row of 14 columns); 18 errs on the large side.
  return qint64(rows) * qint64(traceColumns_) * 18;
}

void CsvExportDialog::accept() {
  QString e;
  const CsvExportRequest r = request(&e);
  if (!e.isEmpty()) {
    error_->setText(e);
    return;
  }
  if (!confirmTargets(this, {{r.traceCsv, r.impactsCsv}, estimatedBytes()})) return;
  QDialog::accept();
}

// ---------------------------------------------------------------------------------------------

CsvExporter::CsvExporter(QMainWindow* window, const RunSource* source)
    : QObject(window), window_(window), source_(source) {
  task_ = new CsvExportTask(this);
  controller_ = new ExportController(
      window, task_,
      {tr("Run export"), tr("Export Run Data"), tr("A run export is already running"),
       QStringLiteral("export/csvDirectory"), QStringLiteral("csvProgress")});
  connect(controller_, &ExportController::finished, this,
          [this] { emit finished(task_->summary()); });
}

CsvExportDialog* CsvExporter::dialog() const {
  return qobject_cast<CsvExportDialog*>(controller_->dialog());
}

void CsvExporter::showDialog(bool trace, bool impacts, bool hdf5, bool paraview) {
  const RunInfoPtr run = source_->currentRun();
  const SnapshotPtr snap = source_->lastSnapshot();
  if (!run || !controller_->ready()) return;
  std::int64_t step = 0;
  bool failed = false;
  if (snap && snap->generation == run->generation) {
    step = snap->step;
    failed = !snap->failure.isEmpty();
  }
  auto* dialog = new CsvExportDialog(run->scenario, step, failed, controller_->directory(), window_);
  dialog->traceBox()->setChecked(trace);
  dialog->impactsBox()->setChecked(impacts);
  dialog->hdf5Box()->setChecked(hdf5);
  dialog->paraviewBox()->setChecked(paraview);
  controller_->openDialog(dialog, [this, dialog] {
    const CsvExportRequest r = dialog->request();
    for (const QString& p : {r.traceCsv, r.impactsCsv, r.hdf5, QDir::cleanPath(r.paraview)}) {
      if (p.isEmpty() || p == QStringLiteral(".")) continue;
      controller_->rememberDirectory(p);
      break;
    }
    start(r);
  });
}

QString CsvExporter::start(const CsvExportRequest& request) {
  return controller_->start(
      [&] { return task_->start(request); },
      tr("Integrating %1 steps of %2...").arg(request.steps).arg(qs(request.scenario.system)),
      request.steps, 400);  // short exports finish without flashing a progress window
}

void CsvExporter::cancel() { controller_->cancel(); }

}  // namespace ricochet::app
