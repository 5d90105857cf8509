#include "app/desktop/bodies/body_editor.hpp"

#include "app/desktop/bodies/walls_editor.hpp"
#include "app/desktop/widgets/number_field.hpp"
#include "app/desktop/widgets/wheel_guard.hpp"
#include "core/io/body_io.hpp"
#include "core/model/registry.hpp"

#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>
#include <limits>

namespace ricochet::app {

struct BodyEditor::MeshRead {
  QString path;
  BodyScenario candidate;  // the body with the mesh in place of the current one
  std::string error;       // the reader's message; empty when read
  int ticket = 0;
  /// J_new J_old^-1 (the same mass rule for both): maps the initial angular momentum so that the
  /// initial angular velocity stays what it was. Unset when either body cannot be built.
  std::optional<Eigen::Matrix3d> angularMomentumMap;
};

namespace {

constexpr const char* kMeshDirKey = "body/meshDirectory";
constexpr double kInf = std::numeric_limits<double>::infinity();

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

// Sizes, epsilon and density are range-checked by the worker (se3::buildBody, the parameter
// `epsilon`'s spec), so the refusal reads exactly as ricochet-cli's; the field itself only
// refuses what is not a finite number.
ParameterSpec sizeSpec(const char* axis) {
  return {axis,  "m",
          1.0,   -kInf,
          kInf,  false,
          false, "Ellipsoid: semi-axis along the body's own axis; box: edge length. Must be > 0."};
}

// Six significant digits, as the section shows every computed number.
QString six(double v) {
  return QString::number(v, 'g', 6);
}
QString full(double v) {
  return qs(formatNumber(v));
}

QLabel* figure(const char* name) {
  auto* l = new QLabel(QStringLiteral("\u2014"));
  l->setObjectName(QStringLiteral("bodyFigure_") + QLatin1String(name));
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  l->setWordWrap(true);
  return l;
}

bool isPrimitive(BodyNode::Shape s) {
  return s == BodyNode::Shape::Ellipsoid || s == BodyNode::Shape::Box;
}

// The body's own rounding (a box, polyhedron or mesh that gives one); otherwise epsilon is the
// parameter's.
bool ownEpsilon(const BodyNode& n) {
  return n.epsilon.has_value() && n.shape != BodyNode::Shape::Ellipsoid &&
         n.shape != BodyNode::Shape::Union;
}

// The initial x0, y0 and z0 of `scenario` (0 when its system has none): where the body starts.
Eigen::Vector3d startOf(const Scenario& scenario) {
  Eigen::Vector3d out = Eigen::Vector3d::Zero();
  const SystemDescription* system = findSystem(scenario.system);
  if (!system) return out;
  const std::vector<ParameterSpec>& specs = system->info().initial;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].name == "x0") out.x() = scenario.initial[i];
    if (specs[i].name == "y0") out.y() = scenario.initial[i];
    if (specs[i].name == "z0") out.z() = scenario.initial[i];
  }
  return out;
}

// The parameter `epsilon` of `scenario` (0 when its system has none).
double parameterEpsilon(const Scenario& scenario) {
  const SystemDescription* system = findSystem(scenario.system);
  if (!system) return 0.0;
  const std::vector<ParameterSpec>& specs = system->info().parameters;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].name == "epsilon") return scenario.parameters[i];
  }
  return 0.0;
}

QString summaryOf(const BodyNode& n) {
  switch (n.shape) {
    case BodyNode::Shape::Mesh: {
      const QString name = QFileInfo(qs(n.file)).fileName();
      const int count = n.mesh ? int(n.mesh->points.size()) : 0;
      QString text = BodyEditor::tr("mesh '%1', %2 vertices").arg(name).arg(count);
      // What the reader accepted but noticed (open, not manifold, no faces): the body is the
      // hull either way.
      for (const std::string& note : n.mesh ? n.mesh->notes : std::vector<std::string>()) {
        text += QStringLiteral("; ") + qs(note);
      }
      return text;
    }
    case BodyNode::Shape::Polyhedron:
      return BodyEditor::tr("polyhedron, %1 vertices").arg(n.vertices.size());
    case BodyNode::Shape::Union:
      return BodyEditor::tr("union of %1 parts").arg(n.parts.size());
    default:
      return {};
  }
}
}  // namespace

BodyEditor::BodyEditor(QWidget* parent) : QGroupBox(tr("Body"), parent) {
  setObjectName(QStringLiteral("bodyEditor"));
  setAcceptDrops(true);
  setToolTip(tr("Drop an STL, OBJ or PLY file here to make it the body"));
  auto* form = new QFormLayout(this);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setVerticalSpacing(2);

  shapeCombo_ = new QComboBox;
  shapeCombo_->setObjectName(QStringLiteral("bodyShapeCombo"));
  takeWheelOnlyWithFocus(shapeCombo_);
  shapeCombo_->addItem(tr("Ellipsoid"), QStringLiteral("ellipsoid"));
  shapeCombo_->addItem(tr("Box"), QStringLiteral("box"));
  shapeCombo_->setToolTip(
      tr("The body's shape. A mesh, polyhedron or union read from a scenario "
         "file is kept until a primitive replaces it."));
  form->addRow(tr("shape"), shapeCombo_);
  connect(shapeCombo_, &QComboBox::activated, this, &BodyEditor::onShapeChosen);

  summary_ = new QLabel;
  summary_->setObjectName(QStringLiteral("bodySummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  form->addRow(summary_);

  static const char* const kAxes[3] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    auto* field = new NumberField(sizeSpec(kAxes[k]), QStringLiteral("body size"));
    field->setObjectName(QStringLiteral("bodySize_") + QLatin1String(kAxes[k]));
    sizeLabels_[std::size_t(k)] = new QLabel;
    sizeLabels_[std::size_t(k)]->setBuddy(field);
    sizeFields_[std::size_t(k)] = field;
    form->addRow(sizeLabels_[std::size_t(k)], field);
    connect(field, &NumberField::committed, this, [this, k](double v) { onSizeCommitted(k, v); });
  }

  epsilonField_ = new NumberField(
      ParameterSpec{"epsilon", "m", 0.0, -kInf, kInf, false, false,
                    "Rounding radius of the box, polyhedron or mesh hull (Minkowski sum with a "
                    "ball). The body's own epsilon when it gives one, else the parameter epsilon."},
      QStringLiteral("body rounding"));
  epsilonField_->setObjectName(QStringLiteral("bodyEpsilon"));
  epsilonLabel_ = new QLabel(tr("epsilon"));
  epsilonLabel_->setBuddy(epsilonField_);
  form->addRow(epsilonLabel_, epsilonField_);
  connect(epsilonField_, &NumberField::committed, this, &BodyEditor::onEpsilonCommitted);

  massCombo_ = new QComboBox;
  massCombo_->setObjectName(QStringLiteral("bodyMassCombo"));
  takeWheelOnlyWithFocus(massCombo_);
  massCombo_->addItem(tr("parameter m"), QStringLiteral("mass"));
  massCombo_->addItem(tr("density"), QStringLiteral("density"));
  massCombo_->setToolTip(
      tr("The mass is the parameter m (in Parameters), or a density times the "
         "body's volume"));
  form->addRow(tr("mass from"), massCombo_);
  connect(massCombo_, &QComboBox::activated, this, &BodyEditor::onMassSourceChosen);

  densityField_ = new NumberField(
      ParameterSpec{"density", "kg/m^3", 1000.0, -kInf, kInf, false, false,
                    "Uniform density: the mass is density x volume (rounding included)."},
      QStringLiteral("body density"));
  densityField_->setObjectName(QStringLiteral("bodyDensity"));
  densityLabel_ = new QLabel(tr("density"));
  densityLabel_->setBuddy(densityField_);
  form->addRow(densityLabel_, densityField_);
  connect(densityField_, &NumberField::committed, this, &BodyEditor::onDensityCommitted);

  importButton_ = new QPushButton(tr("Import Mesh..."));
  importButton_->setObjectName(QStringLiteral("importMeshButton"));
  importButton_->setToolTip(
      tr("Make the body the rounded convex hull of an STL, OBJ or PLY file "
         "(an OBJ's groups become a union of hulls); or drop the file here"));
  form->addRow(importButton_);
  connect(importButton_, &QPushButton::clicked, this, &BodyEditor::importDialog);

  walls_ = new WallsEditor;
  form->addRow(walls_);
  connect(walls_, &WallsEditor::worldRequested, this,
          [this](const WorldSpec& world, QWidget* source) {
            if (!desired_) return;
            BodyScenario candidate = *desired_;
            candidate.world = world;
            request(std::move(candidate), source);
          });
  connect(walls_, &WallsEditor::refusedLocally, this,
          [this](QWidget* source, const QString& reason) {
            setMessage(source, reason);
            emit refusedLocally(reason);
          });

  message_ = new QLabel;
  message_->setObjectName(QStringLiteral("bodyMessage"));
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // The colours of a refused NumberField, so a refusal reads the same in every form.
  message_->setStyleSheet(
      QStringLiteral("color: #8e1b10; background: #fde2e0; padding: 3px; border-radius: 3px;"));
  message_->hide();
  form->addRow(message_);

  auto* computed = new QLabel(tr("<b>As it runs</b>"));
  computed->setToolTip(
      tr("Computed from the geometry for uniform density, for the body that runs"));
  form->addRow(computed);
  mass_ = figure("mass");
  centre_ = figure("centre");
  inertia_ = figure("inertia");
  hull_ = figure("hull");
  form->addRow(tr("mass"), mass_);
  form->addRow(tr("centre of mass"), centre_);
  form->addRow(tr("principal inertia"), inertia_);
  form->addRow(tr("hull"), hull_);
  centre_->setToolTip(
      tr("Where the centre of mass was in the frame the body is described in; "
         "the body is re-centred on it"));
}

void BodyEditor::setScenario(const Scenario& scenario) {
  if (!scenario.body) {
    // Another system: nothing to edit, and a mesh still being read is dropped when it arrives.
    applied_ = desired_ = nullptr;
    ++readTicket_;
    setMessage(nullptr, QString());
    showFigures(std::nullopt);
    return;
  }
  applied_ = desired_ = scenario.body;
  for (NumberField* f :
       {sizeFields_[0], sizeFields_[1], sizeFields_[2], epsilonField_, densityField_}) {
    f->setError(QString());
  }
  for (int i = 0; i < walls_->planeCount(); ++i) {
    for (const char* name : {"nx", "ny", "nz", "offset"})
      walls_->planeField(i, QLatin1String(name))->setError(QString());
  }
  for (const char* name : {"Lx", "Ly", "cx", "cy", "height"})
    walls_->boxField(QLatin1String(name))->setError(QString());
  setMessage(nullptr, QString());
  parameterEpsilon_ = parameterEpsilon(scenario);
  start_ = startOf(scenario);
  showBody(*applied_, parameterEpsilon_);
}

void BodyEditor::accepted(const Scenario& scenario, QWidget* source) {
  if (!scenario.body) return;
  if (owns(source)) {
    setScenario(scenario);  // clears the marks: the body that runs is the one asked for
    return;
  }
  // Another field's edit or a reset: keep a refused value's text so the user can correct it.
  applied_ = desired_ = scenario.body;
  parameterEpsilon_ = parameterEpsilon(scenario);
  start_ = startOf(scenario);
  showBody(*applied_, parameterEpsilon_);
}

void BodyEditor::refused(QWidget* source, const QString& reason) {
  desired_ = applied_;
  if (auto* field = qobject_cast<NumberField*>(source)) field->setError(reason);
  if (walls_->owns(source)) walls_->refused(source, reason);
  if (source == shapeCombo_ || source == massCombo_) showBody(*applied_, parameterEpsilon_);
  setMessage(source, reason);
}

void BodyEditor::showFigures(const std::optional<BodyFigures>& figures) {
  figures_ = figures;
  if (!figures) {
    for (QLabel* l : {mass_, centre_, inertia_, hull_}) {
      l->setText(QStringLiteral("\u2014"));
      l->setToolTip(QString());
    }
    return;
  }
  const BodyFigures& f = *figures;
  mass_->setText(tr("%1 kg").arg(six(f.mass)));
  mass_->setToolTip(tr("m = %1 kg, volume %2 m^3").arg(full(f.mass), full(f.volume)));
  const Eigen::Vector3d& c = f.centreOfMass;
  centre_->setText(tr("(%1, %2, %3) m").arg(six(c.x()), six(c.y()), six(c.z())));
  centre_->setToolTip(tr("(%1, %2, %3) m, where the centre of mass was in the frame the body is "
                         "described in; the body is re-centred on it")
                          .arg(full(c.x()), full(c.y()), full(c.z())));
  const Eigen::Vector3d& I = f.principalMoments;
  inertia_->setText(tr("%1, %2, %3 kg m\u00b2").arg(six(I.x()), six(I.y()), six(I.z())));
  inertia_->setToolTip(tr("(%1, %2, %3) kg m^2: the principal moments about the centre of mass, "
                          "ascending")
                           .arg(full(I.x()), full(I.y()), full(I.z())));
  if (f.inputVertices == 0) {
    hull_->setText(tr("none (ellipsoids only)"));
  } else {
    hull_->setText(tr("%1 vertices (of %2 given)").arg(f.hullVertices).arg(f.inputVertices));
  }
  hull_->setToolTip(tr("Extreme points of the convex parts, of the points given"));
}

QLabel* BodyEditor::figureLabel(const QString& name) const {
  if (name == QLatin1String("mass")) return mass_;
  if (name == QLatin1String("centre")) return centre_;
  if (name == QLatin1String("inertia")) return inertia_;
  if (name == QLatin1String("hull")) return hull_;
  return nullptr;
}

bool BodyEditor::owns(const QWidget* widget) const {
  if (!widget) return false;
  return widget == shapeCombo_ || widget == sizeFields_[0] || widget == sizeFields_[1] ||
         widget == sizeFields_[2] || widget == epsilonField_ || widget == massCombo_ ||
         widget == densityField_ || widget == importButton_ || walls_->owns(widget);
}

QString BodyEditor::messageFor(const QWidget* widget) const {
  return widget && widget == errorSource_ && !message_->isHidden() ? message_->text() : QString();
}

bool BodyEditor::hasError() const {
  return errorSource_ != nullptr && !message_->isHidden();
}

void BodyEditor::showBody(const BodyScenario& body, double parameterEpsilon) {
  updating_ = true;
  const BodyNode& n = body.body;
  const bool primitive = isPrimitive(n.shape);
  while (shapeCombo_->count() > 2) shapeCombo_->removeItem(2);
  if (primitive) {
    shapeCombo_->setCurrentIndex(n.shape == BodyNode::Shape::Ellipsoid ? 0 : 1);
  } else {
    const QString title = n.shape == BodyNode::Shape::Mesh         ? tr("Mesh")
                          : n.shape == BodyNode::Shape::Polyhedron ? tr("Polyhedron")
                                                                   : tr("Union");
    shapeCombo_->addItem(title, QStringLiteral("current"));
    shapeCombo_->setCurrentIndex(2);
  }
  summary_->setText(summaryOf(n));
  summary_->setToolTip(n.shape == BodyNode::Shape::Mesh ? qs(n.file) : QString());
  summary_->setVisible(!primitive);

  auto* form = static_cast<QFormLayout*>(layout());
  const bool ellipsoid = n.shape == BodyNode::Shape::Ellipsoid;
  static const char* const kAxes[3] = {"x", "y", "z"};
  for (int k = 0; k < 3; ++k) {
    NumberField* f = sizeFields_[std::size_t(k)];
    form->setRowVisible(f, primitive);
    sizeLabels_[std::size_t(k)]->setText(ellipsoid ? tr("semi-axis %1").arg(QLatin1String(kAxes[k]))
                                                   : tr("edge %1").arg(QLatin1String(kAxes[k])));
    if (primitive && !f->hasError()) f->setValue(n.size[k]);
  }

  form->setRowVisible(epsilonField_, !ellipsoid);
  const bool own = ownEpsilon(n);
  epsilonLabel_->setText(own ? tr("epsilon") : tr("epsilon (param.)"));
  epsilonLabel_->setToolTip(own ? tr("The body's own rounding radius")
                                : tr("The parameter epsilon: the rounding of every part that "
                                     "gives none of its own"));
  if (!epsilonField_->hasError()) epsilonField_->setValue(own ? *n.epsilon : parameterEpsilon);

  massCombo_->setCurrentIndex(body.density ? 1 : 0);
  form->setRowVisible(densityField_, body.density.has_value());
  if (body.density && !densityField_->hasError()) densityField_->setValue(*body.density);
  walls_->showWorld(body.world, start_);
  updating_ = false;
}

void BodyEditor::request(BodyScenario candidate, QWidget* source,
                         std::optional<Eigen::Matrix3d> angularMomentumMap) {
  setMessage(nullptr, QString());
  desired_ = std::make_shared<const BodyScenario>(std::move(candidate));
  emit bodyRequested(desired_, source, angularMomentumMap);
}

void BodyEditor::onShapeChosen(int index) {
  if (updating_ || !desired_) return;
  const QString chosen = shapeCombo_->itemData(index).toString();
  const BodyNode& old = desired_->body;
  BodyNode n;
  if (chosen == QStringLiteral("ellipsoid")) {
    n.shape = BodyNode::Shape::Ellipsoid;
  } else if (chosen == QStringLiteral("box")) {
    n.shape = BodyNode::Shape::Box;
  } else {
    return;  // the mesh, polyhedron or union that is already there
  }
  if (n.shape == old.shape) return;
  // The new primitive fills the old one's extent: the ellipsoid inscribed in the box, the box
  // around the ellipsoid; after another shape, the default body's size (cube-plane's cube).
  const double cubeSide = 2.0 * std::sqrt(3.0);
  if (old.shape == BodyNode::Shape::Box) {
    n.size = 0.5 * old.size;
  } else if (old.shape == BodyNode::Shape::Ellipsoid) {
    n.size = 2.0 * old.size;
  } else {
    n.size = Eigen::Vector3d::Constant(n.shape == BodyNode::Shape::Box ? cubeSide : 0.5 * cubeSide);
  }
  if (n.shape == BodyNode::Shape::Box && ownEpsilon(old)) n.epsilon = old.epsilon;
  BodyScenario candidate = *desired_;
  candidate.body = std::move(n);
  request(std::move(candidate), shapeCombo_);
}

void BodyEditor::onSizeCommitted(int axis, double value) {
  if (updating_ || !desired_ || !isPrimitive(desired_->body.shape)) return;
  NumberField* field = sizeFields_[std::size_t(axis)];
  if (value == applied_->body.size[axis] && value == desired_->body.size[axis]) {
    setMessage(nullptr, QString());  // back to what runs, after a refusal
    return;
  }
  BodyScenario candidate = *desired_;
  candidate.body.size[axis] = value;
  request(std::move(candidate), field);
}

void BodyEditor::onEpsilonCommitted(double value) {
  if (updating_ || !desired_) return;
  if (ownEpsilon(desired_->body)) {
    BodyScenario candidate = *desired_;
    candidate.body.epsilon = value;
    request(std::move(candidate), epsilonField_);
  } else {
    setMessage(nullptr, QString());
    emit epsilonRequested(value, epsilonField_);
  }
}

void BodyEditor::onMassSourceChosen(int index) {
  if (updating_ || !desired_) return;
  const bool density = massCombo_->itemData(index).toString() == QStringLiteral("density");
  if (density == desired_->density.has_value()) return;
  BodyScenario candidate = *desired_;
  if (density) {
    // Start from the density that keeps the running mass (six digits), so the switch alone
    // hardly changes the motion; without figures, water's.
    double rho = 1000.0;
    if (figures_ && figures_->volume > 0.0)
      rho = QString::number(figures_->mass / figures_->volume, 'g', 6).toDouble();
    candidate.density = rho;
  } else {
    candidate.density.reset();
  }
  request(std::move(candidate), massCombo_);
}

void BodyEditor::onDensityCommitted(double value) {
  if (updating_ || !desired_ || !desired_->density) return;
  BodyScenario candidate = *desired_;
  candidate.density = value;
  request(std::move(candidate), densityField_);
}

void BodyEditor::importDialog() {
  auto* dialog =
      new QFileDialog(window(), tr("Import Mesh"),
                      QSettings().value(QLatin1String(kMeshDirKey), QDir::homePath()).toString(),
                      tr("Meshes (*.stl *.obj *.ply)"));
  dialog->setObjectName(QStringLiteral("importMeshDialog"));
  dialog->setAcceptMode(QFileDialog::AcceptOpen);
  dialog->setFileMode(QFileDialog::ExistingFile);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &QFileDialog::fileSelected, this, [this](const QString& path) {
    QSettings().setValue(QLatin1String(kMeshDirKey), QFileInfo(path).absolutePath());
    importMesh(path);
  });
  dialog->open();  // window-modal: the run and the view go on while it is up
}

void BodyEditor::importMesh(const QString& path) {
  const int ticket = ++readTicket_;
  ++pendingReads_;
  setMessage(nullptr, QString());
  importButton_->setText(tr("Reading %1...").arg(QFileInfo(path).fileName()));
  auto* watcher = new QFutureWatcher<MeshRead>(this);
  connect(watcher, &QFutureWatcher<MeshRead>::finished, this, [this, watcher] {
    const MeshRead read = watcher->result();
    watcher->deleteLater();
    if (--pendingReads_ == 0) importButton_->setText(tr("Import Mesh..."));
    onMeshRead(read);
  });
  // Up to 64 MiB of STL: read off the GUI thread, with the hulls of the old and the new body
  // (their inertia keeps the initial angular velocity; a small mesh given the default cube's
  // angular momentum would spin far too fast to start).
  watcher->setFuture(QtConcurrent::run([path, ticket, old = desired_, epsilon = parameterEpsilon_] {
    MeshRead read;
    read.path = path;
    read.ticket = ticket;
    BodyNode node;
    read.error = io::meshBody(QFile::encodeName(path).toStdString(), node);
    if (!read.error.empty() || !old) return read;
    read.candidate = *old;
    if (ownEpsilon(old->body)) node.epsilon = old->body.epsilon;
    read.candidate.body = std::move(node);
    read.angularMomentumMap = io::angularMomentumMap(*old, read.candidate, epsilon);
    return read;
  }));
}

void BodyEditor::onMeshRead(const MeshRead& read) {
  if (read.ticket != readTicket_ || !desired_) return;  // a newer import was asked for since
  if (!read.error.empty()) {
    const QString reason = qs(read.error);
    setMessage(importButton_, reason);
    emit refusedLocally(reason);
    return;
  }
  request(read.candidate, importButton_, read.angularMomentumMap);
}

QString BodyEditor::droppedMesh(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  for (const QUrl& url : mime->urls()) {
    if (!url.isLocalFile()) continue;
    const QString path = url.toLocalFile();
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("stl") || suffix == QLatin1String("obj") ||
        suffix == QLatin1String("ply")) {
      return path;
    }
  }
  return {};
}

void BodyEditor::dragEnterEvent(QDragEnterEvent* event) {
  if (droppedMesh(event->mimeData()).isEmpty()) {
    event->ignore();
    return;
  }
  event->acceptProposedAction();
}

void BodyEditor::dropEvent(QDropEvent* event) {
  const QString path = droppedMesh(event->mimeData());
  if (path.isEmpty()) {
    event->ignore();
    return;
  }
  event->acceptProposedAction();
  importMesh(path);
}

void BodyEditor::setMessage(QWidget* source, const QString& reason) {
  const bool error = !reason.isEmpty();
  errorSource_ = error ? source : nullptr;
  if (error) {
    message_->setText(tr("%1 (the body that runs is unchanged)").arg(reason));
  } else {
    message_->clear();
  }
  message_->setVisible(error);
}

}  // namespace ricochet::app
