#include "app/desktop/export/plot_export.hpp"

#include "app/desktop/plots/plot_panel.hpp"
#include "app/desktop/plots/plot_png.hpp"
#include "app/desktop/plots/plot_svg.hpp"
#include "app/desktop/run/run_source.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ricochet::app {

namespace {
QString extensionOf(PlotFormat f) { return f == PlotFormat::Png ? QStringLiteral("png") : QStringLiteral("svg"); }
}  // namespace

QString exportPlots(const PlotPanel& panel, const PlotExportRequest& r) {
  const QString path = QDir::toNativeSeparators(r.output);
  if (r.output.isEmpty()) return QObject::tr("no output file chosen");
  if (const QString e = figureSizeError(r.size, QObject::tr("plot")); !e.isEmpty()) return e;
  // Which charts: every panel as on screen, one default panel (a system without momenta has no
  // momentum chart), or one panel by its index.
  PlotFigure figure = panel.figure();
  if (r.charts != PlotSelection::All) {
    const int index = int(r.charts) >= int(PlotSelection::FirstPanel)
                          ? int(r.charts) - int(PlotSelection::FirstPanel)
                          : panel.panelIndex(PlotPanel::Chart(int(r.charts)));
    const PlotChart chart = panel.panelChart(index);
    figure.charts.clear();
    if (index >= 0 && index < panel.panelCount()) figure.charts.push_back(chart);
  }
  if (figure.charts.empty()) {
    return QObject::tr("nothing to export to '%1': the chosen plot is not shown for this system").arg(path);
  }
  if (panel.plottedTimes(PlotPanel::Energy).size() < 2) {
    return QObject::tr("nothing to export to '%1' yet: the run has no plotted data").arg(path);
  }
  QByteArray bytes;
  if (r.format == PlotFormat::Png) {
    if (const QString e = renderPlotsPng(figure, r.size, &bytes); !e.isEmpty()) {
      return QObject::tr("cannot export '%1': %2").arg(path, e);
    }
  } else {
    bytes = plotSvg(figure, r.size, QFileInfo(r.output).completeBaseName());
  }
  return writeFileAtomically(r.output, bytes);
}

// ---------------------------------------------------------------------------------------------

PlotExportDialog::PlotExportDialog(const QString& directory, const QString& baseName, QWidget* parent,
                                   const PlotPanel* panel)
    : QDialog(parent) {
  setObjectName(QStringLiteral("plotExportDialog"));
  setWindowTitle(tr("Export Plots"));

  format_ = new QComboBox;
  format_->addItem(tr("PNG image"), int(PlotFormat::Png));
  format_->addItem(tr("SVG drawing (vector)"), int(PlotFormat::Svg));

  path_ = new QLineEdit(QDir(directory).filePath(baseName + QStringLiteral("-plots.png")));
  path_->setMinimumWidth(360);
  auto* browse = new QPushButton(tr("Browse..."));
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString ext = extensionOf(format());
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Plot file"), path_->text(), tr("%1 files (*.%2)").arg(ext.toUpper(), ext));
    if (!chosen.isEmpty()) path_->setText(chosen);
  });
  auto* pathRow = new QHBoxLayout;
  pathRow->addWidget(path_, 1);
  pathRow->addWidget(browse);

  size_ = new SizePicker(kFigureSizes, 0, kMinFigureSide, kMaxFigureSide);  // 1600 x 1000

  charts_ = new QComboBox;
  charts_->addItem(tr("All plots (stacked)"), int(PlotSelection::All));
  charts_->addItem(tr("Energy"), int(PlotSelection::Energy));
  charts_->addItem(tr("Energy error"), int(PlotSelection::Error));
  charts_->addItem(tr("Momenta"), int(PlotSelection::Momentum));
  if (panel) {
    // The panels the user added, by their axis titles.
    for (int i = 0; i < panel->panelCount(); ++i) {
      if (panel->panel(i).role >= 0) continue;
      const PlotChart c = panel->panelChart(i);
      const QString what = c.timeAxis() ? c.yTitle : tr("%1 against %2").arg(c.yTitle, c.xTitle);
      charts_->addItem(tr("Plot %1: %2").arg(i + 1).arg(what.isEmpty() ? tr("time plot") : what),
                       int(PlotSelection::FirstPanel) + i);
    }
  }

  auto* note = new QLabel(tr("Text and lines grow with the size, so a large figure reads like the "
                             "view on screen. SVG keeps the curves as vector paths."));
  note->setWordWrap(true);
  error_ = new QLabel;
  error_->setObjectName(QStringLiteral("plotExportError"));
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #b3261e;"));

  auto* form = new QFormLayout;
  form->addRow(tr("Format:"), format_);
  form->addRow(tr("File:"), pathRow);
  form->addRow(tr("Size:"), size_);
  form->addRow(tr("Plots:"), charts_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(note);
  layout->addWidget(error_);
  layout->addWidget(buttons);
  connect(format_, &QComboBox::currentIndexChanged, this, &PlotExportDialog::onFormatChanged);
}

PlotFormat PlotExportDialog::format() const { return PlotFormat(format_->currentData().toInt()); }

void PlotExportDialog::setFormat(PlotFormat f) { format_->setCurrentIndex(format_->findData(int(f))); }

void PlotExportDialog::onFormatChanged() {
  // Keep the file name, follow the extension.
  const QFileInfo fi(path_->text());
  const QString ext = extensionOf(format());
  if (fi.suffix().compare(ext, Qt::CaseInsensitive) != 0) {
    path_->setText(QDir(fi.path()).filePath(fi.completeBaseName() + QLatin1Char('.') + ext));
  }
}

PlotExportRequest PlotExportDialog::request(QString* error) const {
  PlotExportRequest r;
  r.format = format();
  r.output = path_->text().trimmed();
  r.size = size_->value();
  r.charts = PlotSelection(charts_->currentData().toInt());
  if (error) {
    error->clear();
    const QFileInfo fi(r.output);
    if (r.output.isEmpty()) {
      *error = tr("Choose a file.");
    } else if (fi.isDir()) {
      *error = tr("'%1' is a folder: choose a file name.").arg(r.output);
    } else if (!fi.absoluteDir().exists()) {
      *error = tr("The folder '%1' does not exist.").arg(fi.absolutePath());
    }
  }
  return r;
}

void PlotExportDialog::accept() {
  QString e;
  const PlotExportRequest r = request(&e);
  if (!e.isEmpty()) {
    error_->setText(e);
    return;
  }
  if (!confirmTargets(this, {{r.output}, -1})) return;
  QDialog::accept();
}

// ---------------------------------------------------------------------------------------------

PlotExportTask::PlotExportTask(const PlotPanel& panel, QObject* parent)
    : ExportJob(parent), panel_(panel) {}

QString PlotExportTask::start(const PlotExportRequest& request) {
  request_ = request;
  error_ = exportPlots(panel_, request);
  emit finished();
  return {};
}

ExportReport PlotExportTask::report() const {
  if (error_.isEmpty()) {
    return {ExportReport::Outcome::Completed,
            tr("Plots exported to %1").arg(QDir::toNativeSeparators(request_.output)), {}, {}};
  }
  return {ExportReport::Outcome::Failed, tr("Plot export failed: %1").arg(error_),
          tr("Export plots"), error_};
}

// ---------------------------------------------------------------------------------------------

PlotExporter::PlotExporter(QMainWindow* window, const RunSource* source, PlotPanel* plots)
    : QObject(window), window_(window), source_(source), plots_(plots) {
  task_ = new PlotExportTask(*plots, this);
  controller_ = new ExportController(
      window, task_,
      {tr("Plot export"), tr("Export Plots"), QString(), QStringLiteral("export/plotDirectory"),
       QStringLiteral("plotProgress")});
}

PlotExportDialog* PlotExporter::dialog() const {
  return qobject_cast<PlotExportDialog*>(controller_->dialog());
}

void PlotExporter::showDialog() {
  const RunInfoPtr run = source_->currentRun();
  const QString base = run ? QString::fromStdString(run->scenario.system) : QStringLiteral("ricochet");
  auto* dialog = new PlotExportDialog(controller_->directory(), base, window_, plots_);
  controller_->openDialog(dialog, [this, dialog] {
    const PlotExportRequest r = dialog->request();
    controller_->rememberDirectory(r.output);
    start(r);
  });
}

QString PlotExporter::start(const PlotExportRequest& request) {
  // The figure is painted on this thread (a few hundred ms for a 3200 x 2000 PNG).
  controller_->runOnGuiThread([&] { return task_->start(request); });
  emit finished(task_->error());
  return task_->error();
}

}  // namespace ricochet::app
