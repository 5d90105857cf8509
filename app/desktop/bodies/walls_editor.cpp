#include "app/desktop/bodies/walls_editor.hpp"

#include "app/desktop/widgets/number_field.hpp"
#include "core/io/body_io.hpp"
#include "core/io/json_checker.hpp"

#include <QCheckBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ricochet::app {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// A new plane stands this far from where the body starts (m), a new box is this wide.
constexpr double kNewPlaneDistance = 5.0;
constexpr double kNewBoxSize = 10.0;

// The file format checks the numbers (io::readBody, through checked()); a field only refuses
// what is not a finite number, except the ceiling's height, whose 0 means "no ceiling".
ParameterSpec spec(const char* name, const char* help, double min = -kInf, bool exclusive = false) {
  return {name, "m", 0.0, min, kInf, exclusive, false, help};
}

NumberField* field(const ParameterSpec& s, const QString& kind, const QString& objectName) {
  auto* f = new NumberField(s, kind);
  f->setObjectName(objectName);
  return f;
}

// The plane of a wall as the editor shows it: its normal as given and its offset d = n.point
// (n made unit): the plane n.x = d.
double offsetOf(const WallSpec& w) {
  const double length = w.normal.norm();
  return length > 0.0 ? w.normal.dot(w.point) / length : 0.0;
}

}  // namespace

WallsEditor::WallsEditor(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("wallsEditor"));
  auto* top = new QVBoxLayout(this);
  top->setContentsMargins(0, 6, 0, 0);
  top->setSpacing(2);
  auto* title = new QLabel(tr("<b>Walls</b> (the ground is the floor)"));
  title->setToolTip(
      tr("Planes the body bounces off, as the scenario's \"world\" object holds them: a box of "
         "walls, and any other planes"));
  top->addWidget(title);

  boxCheck_ = new QCheckBox(tr("Box of walls around the body"));
  boxCheck_->setObjectName(QStringLiteral("wallsBoxCheck"));
  boxCheck_->setToolTip(
      tr("Vertical walls at x = cx \u00b1 Lx/2 and y = cy \u00b1 Ly/2 (\"world.box\"), with a "
         "ceiling if you want one"));
  top->addWidget(boxCheck_);
  connect(boxCheck_, &QCheckBox::toggled, this, &WallsEditor::onBoxToggled);

  boxHost_ = new QWidget;
  auto* box = new QFormLayout(boxHost_);
  box->setContentsMargins(12, 0, 0, 0);
  box->setVerticalSpacing(2);
  box->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  const QString kind = QStringLiteral("box wall");
  lx_ = field(spec("Lx", "The box's floor size along x (world.box.size[0])."), kind,
              QStringLiteral("wallsBox_Lx"));
  ly_ = field(spec("Ly", "The box's floor size along y (world.box.size[1])."), kind,
              QStringLiteral("wallsBox_Ly"));
  cx_ = field(spec("cx", "The box's centre, x (world.box.center[0])."), kind,
              QStringLiteral("wallsBox_cx"));
  cy_ = field(spec("cy", "The box's centre, y (world.box.center[1])."), kind,
              QStringLiteral("wallsBox_cy"));
  box->addRow(tr("size x"), lx_);
  box->addRow(tr("size y"), ly_);
  box->addRow(tr("centre x"), cx_);
  box->addRow(tr("centre y"), cy_);
  ceilingCheck_ = new QCheckBox(tr("Ceiling"));
  ceilingCheck_->setObjectName(QStringLiteral("wallsCeilingCheck"));
  ceilingCheck_->setToolTip(tr("A ceiling at a height above the ground (world.box.size[2])"));
  box->addRow(ceilingCheck_);
  height_ =
      field(spec("height", "The ceiling's height above the ground (world.box.size[2]).", 0.0, true),
            kind, QStringLiteral("wallsBox_height"));
  box->addRow(tr("height"), height_);
  top->addWidget(boxHost_);
  connect(ceilingCheck_, &QCheckBox::toggled, this, &WallsEditor::onCeilingToggled);
  const std::pair<NumberField*, const char*> boxFields[] = {
      {lx_, "Lx"}, {ly_, "Ly"}, {cx_, "cx"}, {cy_, "cy"}, {height_, "height"}};
  for (const auto& [f, name] : boxFields) {
    connect(f, &NumberField::committed, this,
            [this, f = f, name = QString::fromLatin1(name)](double v) { onBoxField(name, v, f); });
  }

  auto* planesTitle =
      new QLabel(tr("Planes: normal n and offset d, the body where n\u00b7x \u2265 d"));
  planesTitle->setWordWrap(true);
  planesTitle->setToolTip(
      tr("\"world.walls\": each plane n\u00b7x = d (n made unit), the body on "
         "the side n points to"));
  top->addWidget(planesTitle);
  planesLayout_ = new QVBoxLayout;
  planesLayout_->setSpacing(4);
  top->addLayout(planesLayout_);
  addPlane_ = new QPushButton(tr("Add Plane"));
  addPlane_->setObjectName(QStringLiteral("addPlaneButton"));
  addPlane_->setToolTip(
      tr("A vertical plane %1 m beyond the body's start along x").arg(kNewPlaneDistance));
  top->addWidget(addPlane_);
  connect(addPlane_, &QPushButton::clicked, this, &WallsEditor::addPlane);
  showWorld(WorldSpec{}, Eigen::Vector3d::Zero());
}

NumberField* WallsEditor::boxField(const QString& name) const {
  if (name == QLatin1String("Lx")) return lx_;
  if (name == QLatin1String("Ly")) return ly_;
  if (name == QLatin1String("cx")) return cx_;
  if (name == QLatin1String("cy")) return cy_;
  if (name == QLatin1String("height")) return height_;
  return nullptr;
}

NumberField* WallsEditor::planeField(int i, const QString& name) const {
  if (i < 0 || std::size_t(i) >= planes_.size()) return nullptr;
  const PlaneRow& r = planes_[std::size_t(i)];
  if (name == QLatin1String("nx")) return r.n[0];
  if (name == QLatin1String("ny")) return r.n[1];
  if (name == QLatin1String("nz")) return r.n[2];
  if (name == QLatin1String("offset")) return r.offset;
  return nullptr;
}

QToolButton* WallsEditor::removePlaneButton(int i) const {
  return i >= 0 && std::size_t(i) < planes_.size() ? planes_[std::size_t(i)].remove : nullptr;
}

bool WallsEditor::owns(const QWidget* widget) const {
  if (!widget) return false;
  if (widget == boxCheck_ || widget == ceilingCheck_ || widget == addPlane_ || widget == lx_ ||
      widget == ly_ || widget == cx_ || widget == cy_ || widget == height_) {
    return true;
  }
  for (const PlaneRow& r : planes_) {
    if (widget == r.n[0] || widget == r.n[1] || widget == r.n[2] || widget == r.offset ||
        widget == r.remove) {
      return true;
    }
  }
  return false;
}

std::optional<WorldSpec> WallsEditor::checked(const WorldSpec& world, QString* error) {
  const json::Value object = io::worldToJson(world);
  io::JsonChecker checker("");
  BodyScenario read;
  if (!io::readBody(checker, nullptr, &object, {}, read)) {
    if (error) *error = QString::fromStdString(checker.error());
    return std::nullopt;
  }
  return read.world;
}

void WallsEditor::showWorld(const WorldSpec& world, const Eigen::Vector3d& start) {
  updating_ = true;
  applied_ = shown_ = world;
  start_ = start;
  boxCheck_->setChecked(world.box.has_value());
  boxHost_->setVisible(world.box.has_value());
  if (world.box) {
    const BoxWorld& b = *world.box;
    const std::pair<NumberField*, double> values[] = {
        {lx_, b.size.x()}, {ly_, b.size.y()}, {cx_, b.center.x()}, {cy_, b.center.y()}};
    for (const auto& [f, v] : values) {
      if (!f->hasError()) f->setValue(v);
    }
    ceilingCheck_->setChecked(b.height > 0.0);
    if (!height_->hasError()) {
      height_->setValue(b.height > 0.0 ? b.height
                                       : std::max({b.size.x(), b.size.y(), 2.0 * start.z()}));
    }
    static_cast<QFormLayout*>(boxHost_->layout())->setRowVisible(height_, b.height > 0.0);
  }
  rebuildPlanes(world.walls.size());
  for (std::size_t i = 0; i < world.walls.size(); ++i) {
    const WallSpec& w = world.walls[i];
    PlaneRow& r = planes_[i];
    for (int k = 0; k < 3; ++k) {
      if (!r.n[k]->hasError()) r.n[k]->setValue(w.normal[k]);
    }
    if (!r.offset->hasError()) r.offset->setValue(offsetOf(w));
  }
  addPlane_->setEnabled(int(world.walls.size()) + (world.box ? 5 : 0) < kMaxWorldPlanes);
  updating_ = false;
}

void WallsEditor::rebuildPlanes(std::size_t count) {
  while (planes_.size() > count) {
    delete planes_.back().row;
    planes_.pop_back();
  }
  while (planes_.size() < count) {
    const std::size_t i = planes_.size();
    PlaneRow r;
    r.row = new QWidget;
    auto* grid = new QGridLayout(r.row);
    grid->setContentsMargins(12, 0, 0, 0);
    grid->setHorizontalSpacing(4);
    grid->setVerticalSpacing(2);
    const QString prefix = QStringLiteral("wall%1_").arg(i);
    const QString kind = QStringLiteral("plane %1").arg(i + 1);
    static const char* const kAxes[3] = {"nx", "ny", "nz"};
    grid->addWidget(new QLabel(tr("plane %1: n").arg(i + 1)), 0, 0, 1, 3);
    for (int k = 0; k < 3; ++k) {
      ParameterSpec s{kAxes[k],
                      "",
                      0.0,
                      -kInf,
                      kInf,
                      false,
                      false,
                      "The plane's normal (world.walls[].normal), towards the side the body keeps "
                      "to; any length but zero."};
      r.n[k] = field(s, kind, prefix + QLatin1String(kAxes[k]));
      r.n[k]->setMinimumWidth(40);
      grid->addWidget(r.n[k], 1, k);
    }
    grid->addWidget(new QLabel(tr("d")), 2, 0, Qt::AlignRight);
    r.offset = field(spec("offset", "The plane's offset d: the plane n\u00b7x = d, n made unit."),
                     kind, prefix + QStringLiteral("offset"));
    grid->addWidget(r.offset, 2, 1);
    r.remove = new QToolButton;
    r.remove->setObjectName(prefix + QStringLiteral("remove"));
    r.remove->setText(tr("Remove"));
    r.remove->setToolTip(tr("Remove this plane"));
    grid->addWidget(r.remove, 2, 2);
    planesLayout_->addWidget(r.row);
    for (int k = 0; k < 3; ++k) {
      NumberField* f = r.n[k];
      connect(f, &NumberField::committed, this,
              [this, i, k, f](double v) { onPlaneField(i, k, v, f); });
    }
    NumberField* offset = r.offset;
    connect(offset, &NumberField::committed, this,
            [this, i, offset](double v) { onPlaneField(i, 3, v, offset); });
    connect(r.remove, &QToolButton::clicked, this, [this, i] { removePlane(i); });
    planes_.push_back(r);
  }
}

void WallsEditor::send(WorldSpec world, QWidget* source) {
  QString error;
  const std::optional<WorldSpec> ok = checked(world, &error);
  if (!ok) {
    if (auto* f = qobject_cast<NumberField*>(source)) f->setError(error);
    emit refusedLocally(source, error);
    return;
  }
  if (auto* f = qobject_cast<NumberField*>(source)) f->setError(QString());
  shown_ = *ok;
  emit worldRequested(*ok, source);
}

void WallsEditor::refused(QWidget* source, const QString& /*reason*/) {
  // The field keeps its refused text (marked by the Body section); a toggle goes back to what
  // runs.
  if (source == boxCheck_ || source == ceilingCheck_ || source == addPlane_ ||
      qobject_cast<QToolButton*>(source)) {
    const WorldSpec running = applied_;
    showWorld(running, start_);
  }
  shown_ = applied_;
}

void WallsEditor::onBoxToggled(bool on) {
  if (updating_) return;
  WorldSpec world = shown_;
  if (on) {
    BoxWorld b;
    b.size = Eigen::Vector2d::Constant(kNewBoxSize);
    b.center = start_.head<2>();
    world.box = b;
  } else {
    world.box.reset();
  }
  boxHost_->setVisible(on);
  send(std::move(world), boxCheck_);
}

void WallsEditor::onBoxField(const QString& name, double value, QWidget* source) {
  if (updating_ || !shown_.box) return;
  WorldSpec world = shown_;
  BoxWorld& b = *world.box;
  if (name == QLatin1String("Lx")) b.size.x() = value;
  if (name == QLatin1String("Ly")) b.size.y() = value;
  if (name == QLatin1String("cx")) b.center.x() = value;
  if (name == QLatin1String("cy")) b.center.y() = value;
  if (name == QLatin1String("height")) {
    if (!ceilingCheck_->isChecked()) return;  // kept for when the ceiling is ticked
    b.height = value;
  }
  send(std::move(world), source);
}

void WallsEditor::onCeilingToggled(bool on) {
  if (updating_ || !shown_.box) return;
  WorldSpec world = shown_;
  world.box->height = on ? height_->value() : 0.0;
  static_cast<QFormLayout*>(boxHost_->layout())->setRowVisible(height_, on);
  send(std::move(world), ceilingCheck_);
}

void WallsEditor::onPlaneField(std::size_t i, int component, double value, QWidget* source) {
  if (updating_ || i >= shown_.walls.size()) return;
  const PlaneRow& r = planes_[i];
  // The plane as the row shows it, with the edited number.
  Eigen::Vector3d n(r.n[0]->value(), r.n[1]->value(), r.n[2]->value());
  double d = r.offset->value();
  if (component < 3)
    n[component] = value;
  else
    d = value;
  WorldSpec world = shown_;
  WallSpec& w = world.walls[i];
  w.normal = n;
  const double length = n.norm();
  // (+ 0.0 turns the -0 of a zero component into 0: "point": [4, 0, 0], not [4, -0, -0].)
  w.point =
      length > 0.0 ? Eigen::Vector3d((d * n / length).array() + 0.0) : Eigen::Vector3d::Zero();
  send(std::move(world), source);
}

void WallsEditor::addPlane() {
  if (updating_) return;
  WorldSpec world = shown_;
  WallSpec w;
  w.normal = Eigen::Vector3d(-1.0, 0.0, 0.0);  // the body keeps to x <= x0 + 5 m
  w.point = Eigen::Vector3d(start_.x() + kNewPlaneDistance, start_.y(), 0.0);
  world.walls.push_back(w);
  send(std::move(world), addPlane_);
}

void WallsEditor::removePlane(std::size_t i) {
  if (updating_ || i >= shown_.walls.size()) return;
  WorldSpec world = shown_;
  world.walls.erase(world.walls.begin() + std::ptrdiff_t(i));
  send(std::move(world), planes_[i].remove);
}

}  // namespace ricochet::app
