#include "app/desktop/study/study_export.hpp"

#include "app/desktop/study/study_painter.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ricochet::app {

namespace {

QString extensionOf(FigureFormat f) { return f == FigureFormat::Png ? QStringLiteral("png") : QStringLiteral("svg"); }

}  // namespace

QString exportStudyFigure(const StudyFigure& figure, const FigureExportRequest& r) {
  const QString path = QDir::toNativeSeparators(r.output);
  if (r.output.isEmpty()) return QObject::tr("no output file chosen");
  if (const QString e = figureSizeError(r.size, QObject::tr("figure")); !e.isEmpty()) return e;
  if (figure.pointCount() == 0) return QObject::tr("nothing to export to '%1': the study has no plotted results").arg(path);
  const QByteArray bytes = r.format == FigureFormat::Png
                               ? studyFigurePng(figure, r.size)
                               : studyFigureSvg(figure, r.size, QFileInfo(r.output).completeBaseName());
  if (bytes.isEmpty()) return QObject::tr("cannot export '%1': the figure could not be encoded").arg(path);
  return writeFileAtomically(r.output, bytes);
}

// ---------------------------------------------------------------------------------------------

StudyFigureDialog::StudyFigureDialog(const QString& directory, const QString& baseName, QWidget* parent)
    : QDialog(parent) {
  setObjectName(QStringLiteral("studyFigureDialog"));
  setWindowTitle(tr("Export Figure"));
  format_ = new QComboBox;
  format_->addItem(tr("PNG image"), int(FigureFormat::Png));
  format_->addItem(tr("SVG drawing (vector)"), int(FigureFormat::Svg));
  path_ = new QLineEdit(QDir(directory).filePath(baseName + QStringLiteral(".png")));
  path_->setMinimumWidth(360);
  auto* browse = new QPushButton(tr("Browse..."));
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString ext = extensionOf(FigureFormat(format_->currentData().toInt()));
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Figure file"), path_->text(),
                                                        tr("%1 files (*.%2)").arg(ext.toUpper(), ext));
    if (!chosen.isEmpty()) path_->setText(chosen);
  });
  auto* pathRow = new QHBoxLayout;
  pathRow->addWidget(path_, 1);
  pathRow->addWidget(browse);
  size_ = new SizePicker(kFigureSizes, 0, kMinFigureSide, kMaxFigureSide);
  auto* note = new QLabel(tr("The figure as the window draws it. Text and lines grow with the size, so a "
                             "large figure reads like the screen; SVG keeps points and lines as vectors."));
  note->setWordWrap(true);
  error_ = new QLabel;
  error_->setObjectName(QStringLiteral("figureExportError"));
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #b3261e;"));
  auto* f = new QFormLayout;
  f->addRow(tr("Format:"), format_);
  f->addRow(tr("File:"), pathRow);
  f->addRow(tr("Size:"), size_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(f);
  layout->addWidget(note);
  layout->addWidget(error_);
  layout->addWidget(buttons);
  connect(format_, &QComboBox::currentIndexChanged, this, [this] {
    const QFileInfo fi(path_->text());
    const QString ext = extensionOf(FigureFormat(format_->currentData().toInt()));
    if (fi.suffix().compare(ext, Qt::CaseInsensitive) != 0) {
      path_->setText(QDir(fi.path()).filePath(fi.completeBaseName() + QLatin1Char('.') + ext));
    }
  });
}

FigureExportRequest StudyFigureDialog::request(QString* error) const {
  FigureExportRequest r;
  r.format = FigureFormat(format_->currentData().toInt());
  r.output = path_->text().trimmed();
  r.size = size_->value();
  if (error) {
    error->clear();
    const QFileInfo fi(r.output);
    if (r.output.isEmpty()) *error = tr("Choose a file.");
    else if (fi.isDir()) *error = tr("'%1' is a folder: choose a file name.").arg(r.output);
    else if (!fi.absoluteDir().exists()) *error = tr("The folder '%1' does not exist.").arg(fi.absolutePath());
  }
  return r;
}

void StudyFigureDialog::accept() {
  QString e;
  request(&e);
  if (!e.isEmpty()) {
    error_->setText(e);
    return;
  }
  QDialog::accept();
}

// ---------------------------------------------------------------------------------------------

QString StudyExportTask::start(const std::function<QString()>& write, const QString& done, const QString& title) {
  done_ = done;
  title_ = title;
  error_ = write();
  emit finished();
  return {};
}

ExportReport StudyExportTask::report() const {
  if (error_.isEmpty()) return {ExportReport::Outcome::Completed, done_, {}, {}};
  return {ExportReport::Outcome::Failed, tr("%1 failed: %2").arg(title_, error_), title_, error_};
}

}  // namespace ricochet::app
