#include "app/desktop/scenario/scenario_editor.hpp"

#include "app/desktop/bodies/body_editor.hpp"
#include "app/desktop/widgets/number_field.hpp"
#include "app/desktop/widgets/wheel_guard.hpp"
#include "core/model/registry.hpp"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <array>
#include <string>

namespace ricochet::app {

namespace {
// Integrator settings described like parameters, so they share NumberField and checkValue.
ParameterSpec hSpec(const SystemInfo& info) {
  return {"h", "s", info.defaultH, 0.0, kUnbounded, true, false,
          "Time step of the integrator (fixed step length)."};
}
ParameterSpec toleranceSpec(const SystemInfo& info) {
  return {"tolerance", "", info.defaultTolerance, 0.0, 1.0, true, true,
          "Solver tolerance of the impact-time root finding and the Newton solves."};
}
ParameterSpec tEndSpec(const SystemInfo& info) {
  return {"t_end", "s", info.defaultTEnd, 0.0, kUnbounded, true, false,
          "End time of the scenario (saved with it; the live run stops there only when "
          "'Stop at t_end' is checked)."};
}

QLabel* messageLabel() {
  auto* l = new QLabel;
  l->setWordWrap(true);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  l->setStyleSheet(QStringLiteral("color: #b3261e;"));
  l->hide();
  return l;
}

// Descriptions and help: dark grey, about 8:1 against the window background (palette(dark) was
// 2.2:1 and read as disabled text).
constexpr const char* kHelpTextStyle = "color: #444444;";

void clearLayout(QWidget* host) {
  // Deletes the previous form (widgets and layout) of a host widget. findChildren returns a copy:
  // iterating host->children() itself while deleting read freed memory (each delete edits it).
  qDeleteAll(host->findChildren<QWidget*>(Qt::FindDirectChildrenOnly));
  delete host->layout();
}
}  // namespace

ScenarioEditor::ScenarioEditor(QWidget* parent) : QWidget(parent) {
  auto* top = new QVBoxLayout(this);

  auto* systemBox = new QGroupBox(tr("System"));
  auto* sys = new QVBoxLayout(systemBox);
  systemCombo_ = new QComboBox;
  systemCombo_->setObjectName(QStringLiteral("systemCombo"));
  systemCombo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  systemCombo_->setMinimumContentsLength(16);
  for (const SystemDescription* s : systems()) {
    const SystemInfo& info = s->info();
    // The title alone (the source is in the label below): the dock is narrow.
    systemCombo_->addItem(QString::fromStdString(info.title), QString::fromStdString(info.id));
    systemCombo_->setItemData(systemCombo_->count() - 1,
                              QString::fromStdString(info.id + ": " + info.summary),
                              Qt::ToolTipRole);
  }
  // The list shows whole titles, however narrow the dock.
  int widest = 0;
  for (int i = 0; i < systemCombo_->count(); ++i) {
    widest = std::max(widest, systemCombo_->fontMetrics().horizontalAdvance(systemCombo_->itemText(i)));
  }
  systemCombo_->view()->setMinimumWidth(widest + 48);
  connect(systemCombo_, &QComboBox::currentIndexChanged, systemCombo_,
          [this](int i) { systemCombo_->setToolTip(systemCombo_->itemText(i)); });
  sys->addWidget(systemCombo_);
  sourceLabel_ = new QLabel;
  sourceLabel_->setObjectName(QStringLiteral("sourceLabel"));
  sourceLabel_->setWordWrap(true);
  summaryLabel_ = new QLabel;
  summaryLabel_->setWordWrap(true);
  summaryLabel_->setStyleSheet(QString::fromLatin1(kHelpTextStyle));
  sys->addWidget(sourceLabel_);
  sys->addWidget(summaryLabel_);
  top->addWidget(systemBox);
  connect(systemCombo_, &QComboBox::activated, this, [this](int index) {
    const QString id = systemCombo_->itemData(index).toString();
    if (id.toStdString() != applied_.system) emit systemRequested(id);
  });

  parameterBox_ = new QGroupBox(tr("Parameters"));
  auto* pl = new QVBoxLayout(parameterBox_);
  parameterHost_ = new QWidget;
  pl->addWidget(parameterHost_);
  top->addWidget(parameterBox_);

  bodyEditor_ = new BodyEditor;
  bodyEditor_->hide();
  top->addWidget(bodyEditor_);
  bodiesLabel_ = new QLabel;
  bodiesLabel_->setObjectName(QStringLiteral("bodiesLabel"));
  bodiesLabel_->setWordWrap(true);
  bodiesLabel_->setTextFormat(Qt::PlainText);
  bodiesLabel_->hide();
  top->addWidget(bodiesLabel_);
  connect(bodyEditor_, &BodyEditor::bodyRequested, this,
          [this](std::shared_ptr<const BodyScenario> body, QWidget* source,
                 std::optional<Eigen::Matrix3d> angularMomentumMap) {
            desired_.body = std::move(body);
            if (angularMomentumMap) keepAngularVelocity(*angularMomentumMap);
            emit requestRun(desired_, source);
          });
  connect(bodyEditor_, &BodyEditor::epsilonRequested, this, &ScenarioEditor::requestEpsilon);
  connect(bodyEditor_, &BodyEditor::refusedLocally, this, &ScenarioEditor::refusedLocally);

  initialBox_ = new QGroupBox(tr("Initial conditions"));
  auto* il = new QVBoxLayout(initialBox_);
  initialHost_ = new QWidget;
  il->addWidget(initialHost_);
  top->addWidget(initialBox_);

  auto* integratorBox = new QGroupBox(tr("Integrator"));
  auto* ig = new QVBoxLayout(integratorBox);
  integratorCombo_ = new QComboBox;
  integratorCombo_->setObjectName(QStringLiteral("integratorCombo"));
  integratorCombo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  integratorCombo_->setMinimumContentsLength(16);
  ig->addWidget(integratorCombo_);
  integratorHelp_ = new QLabel;
  integratorHelp_->setWordWrap(true);
  integratorHelp_->setStyleSheet(QString::fromLatin1(kHelpTextStyle));
  ig->addWidget(integratorHelp_);
  settingsHost_ = new QWidget;
  ig->addWidget(settingsHost_);
  top->addWidget(integratorBox);
  for (QWidget* combo :
       {static_cast<QWidget*>(systemCombo_), static_cast<QWidget*>(integratorCombo_)}) {
    takeWheelOnlyWithFocus(combo);
  }
  connect(integratorCombo_, &QComboBox::activated, this, [this](int index) {
    if (updating_) return;
    const std::string name = integratorCombo_->itemData(index).toString().toStdString();
    integratorHelp_->setText(integratorCombo_->itemData(index, Qt::ToolTipRole).toString());
    if (name == desired_.integrator.name) return;
    desired_.integrator.name = name;
    emit requestRun(desired_, integratorCombo_);
  });

  defaultsButton_ = new QPushButton(tr("Paper defaults"));
  defaultsButton_->setObjectName(QStringLiteral("defaultsButton"));
  defaultsButton_->setToolTip(
      tr("Restore the parameters, initial conditions and integrator settings of the paper."));
  connect(defaultsButton_, &QPushButton::clicked, this, &ScenarioEditor::restoreDefaults);
  top->addWidget(defaultsButton_);
  top->addStretch(1);
}

void ScenarioEditor::addRow(QFormLayout* form, NumberField* field, Row::Target target,
                            std::size_t index) {
  const ParameterSpec& spec = field->spec();
  auto* label = new QLabel(QString::fromStdString(spec.name));
  label->setToolTip(field->toolTip());
  label->setBuddy(field);
  auto* message = messageLabel();
  message->setObjectName(QStringLiteral("message_") + QString::fromStdString(spec.name));
  form->addRow(label, field);
  form->addRow(QString(), message);
  rows_.push_back(Row{field, message, target, index});
  const std::size_t rowIndex = rows_.size() - 1;
  connect(field, &NumberField::committed, this,
          [this, rowIndex](double v) { onCommitted(rows_[rowIndex], v); });
  connect(field, &NumberField::refused, this, [this, field](const QString& reason) {
    setRowMessage(field, reason);
    emit refusedLocally(reason);
  });
}

void ScenarioEditor::rebuildForms(const SystemInfo& info) {
  rows_.clear();
  clearLayout(parameterHost_);
  clearLayout(initialHost_);
  clearLayout(settingsHost_);

  auto makeForm = [](QWidget* host) {
    auto* form = new QFormLayout(host);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setVerticalSpacing(2);
    return form;
  };
  QFormLayout* pf = makeForm(parameterHost_);
  for (std::size_t i = 0; i < info.parameters.size(); ++i) {
    addRow(pf, new NumberField(info.parameters[i], QStringLiteral("parameter")), Row::Parameter, i);
  }
  parameterBox_->setVisible(!info.parameters.empty());
  QFormLayout* inf = makeForm(initialHost_);
  for (std::size_t i = 0; i < info.initial.size(); ++i) {
    addRow(inf, new NumberField(info.initial[i], QStringLiteral("initial condition")),
           Row::Initial, i);
  }
  initialBox_->setVisible(!info.initial.empty());
  QFormLayout* sf = makeForm(settingsHost_);
  addRow(sf, new NumberField(hSpec(info), QStringLiteral("integrator setting")), Row::H, 0);
  addRow(sf, new NumberField(toleranceSpec(info), QStringLiteral("integrator setting")),
         Row::Tolerance, 0);
  addRow(sf, new NumberField(tEndSpec(info), QStringLiteral("integrator setting")), Row::TEnd, 0);

  integratorCombo_->clear();
  for (const IntegratorInfo& in : info.integrators) {
    integratorCombo_->addItem(QString::fromStdString(in.title), QString::fromStdString(in.name));
    integratorCombo_->setItemData(integratorCombo_->count() - 1, QString::fromStdString(in.help),
                                  Qt::ToolTipRole);
  }
  sourceLabel_->setText(tr("<b>%1</b> &mdash; source: %2")
                            .arg(QString::fromStdString(info.title).toHtmlEscaped(),
                                 QString::fromStdString(info.source).toHtmlEscaped()));
  summaryLabel_->setText(QString::fromStdString(info.summary));
  summaryLabel_->setVisible(!info.summary.empty());
  formsFor_ = info.id;
}

void ScenarioEditor::showValues(const Scenario& s) {
  updating_ = true;
  for (Row& row : rows_) row.field->setValue(slot(const_cast<Scenario&>(s), row));
  for (Row& row : rows_) row.message->hide();
  const int sysIndex = systemCombo_->findData(QString::fromStdString(s.system));
  if (sysIndex >= 0) systemCombo_->setCurrentIndex(sysIndex);
  const int inIndex = integratorCombo_->findData(QString::fromStdString(s.integrator.name));
  if (inIndex >= 0) {
    integratorCombo_->setCurrentIndex(inIndex);
    integratorHelp_->setText(integratorCombo_->itemData(inIndex, Qt::ToolTipRole).toString());
  }
  integratorCombo_->setEnabled(integratorCombo_->count() > 1);
  updating_ = false;
}

double& ScenarioEditor::slot(Scenario& s, const Row& row) {
  switch (row.target) {
    case Row::Parameter: return s.parameters[row.index];
    case Row::Initial: return s.initial[row.index];
    case Row::H: return s.integrator.h;
    case Row::Tolerance: return s.integrator.tolerance;
    case Row::TEnd: return s.tEnd;
  }
  return s.tEnd;
}

void ScenarioEditor::setScenario(const Scenario& scenario) {
  const SystemDescription* system = findSystem(scenario.system);
  if (!system) return;
  applied_ = scenario;
  desired_ = scenario;
  if (formsFor_ != scenario.system) rebuildForms(system->info());
  showValues(scenario);
  const bool several = scenario.body && !scenario.body->bodies.empty();
  bodyEditor_->setVisible(system->info().defaultBody != nullptr && scenario.body != nullptr && !several);
  bodyEditor_->setScenario(scenario);
  showBodies(scenario);
  showMassSource();
}

void ScenarioEditor::showBodies(const Scenario& scenario) {
  // The one-body section edits a single "body"; a world of several bodies lists its own, which
  // its scenario file describes (the bodies panel will edit them here).
  const bool several = scenario.body && !scenario.body->bodies.empty();
  bodiesLabel_->setVisible(several);
  if (!several) return;
  const std::vector<BodyEntry>& bodies = scenario.body->bodies;
  QString text = tr("Bodies (%1), from the scenario file; edit its \"bodies\" list, or one number "
                    "with --set NAME.FIELD in ricochet-cli:")
                     .arg(bodies.size());
  constexpr std::size_t kShown = 12;
  for (std::size_t i = 0; i < bodies.size() && i < kShown; ++i) {
    const BodyEntry& b = bodies[i];
    const QString name = b.name.empty() ? QStringLiteral("b%1").arg(i) : QString::fromStdString(b.name);
    const QString mass = b.fixed ? tr("fixed")
                         : b.density ? tr("%1 kg/m^3").arg(*b.density)
                                     : tr("%1 kg").arg(b.mass);
    text += QStringLiteral("\n  %1: %2, %3").arg(name, QString::fromLatin1(shapeName(b.body.shape)), mass);
  }
  if (bodies.size() > kShown) text += tr("\n  ... and %1 more").arg(bodies.size() - kShown);
  bodiesLabel_->setText(text);
}

void ScenarioEditor::accepted(const Scenario& scenario, QWidget* source) {
  if (formsFor_ != scenario.system) {
    setScenario(scenario);
    return;
  }
  applied_ = scenario;
  // Fields the user is not looking at follow the running scenario; a field still marked as
  // refused keeps its text so the user can correct it.
  updating_ = true;
  for (Row& row : rows_) {
    if (row.field == source) {
      row.field->setValue(slot(applied_, row));
      row.message->hide();
      row.refused = std::numeric_limits<double>::quiet_NaN();
    } else if (!row.field->hasError()) {
      const double v = slot(applied_, row);
      if (v != row.field->value()) row.field->setValue(v);
    }
  }
  updating_ = false;
  showBodies(scenario);
  if (scenario.body) {
    if (source == defaultsButton_) {
      bodyEditor_->setScenario(scenario);  // the defaults replace whatever the section showed
    } else {
      bodyEditor_->accepted(scenario, source);
    }
  }
  showMassSource();
}

void ScenarioEditor::refused(QWidget* source, const QString& reason) {
  // Drop the refused value from the candidate: later edits start from what runs.
  for (Row& row : rows_) {
    if (row.field == source) {
      if (slot(desired_, row) != slot(applied_, row)) row.refused = slot(desired_, row);
      slot(desired_, row) = slot(applied_, row);
      row.field->setError(reason);
    }
  }
  if (source == integratorCombo_) {
    desired_.integrator.name = applied_.integrator.name;
    const int i = integratorCombo_->findData(QString::fromStdString(applied_.integrator.name));
    if (i >= 0) integratorCombo_->setCurrentIndex(i);
  }
  if (bodyEditor_->owns(source)) {
    desired_.body = applied_.body;
    if (source == bodyEditor_->epsilonField()) desired_.parameters = applied_.parameters;
    bodyEditor_->refused(source, reason);
  }
  setRowMessage(source, reason);
}

void ScenarioEditor::runStarted(const RunInfo& info) {
  bodyEditor_->showFigures(info.body);
  retryRefused(info.scenario);
}

void ScenarioEditor::retryRefused(const Scenario& running) {
  // A value refused earlier may be admissible now that another edit runs (e.g. a smaller body
  // under a start height that cut the ground): it is asked for again, the first marked field
  // first. Refused again, it keeps its mark with the new reason and is not retried until the
  // next run starts.
  for (Row& row : rows_) {
    if (!row.field->hasError() || std::isnan(row.refused)) continue;
    const double v = row.refused;
    // The running scenario with this one value: the candidate of later edits (desired_) is not
    // touched, so a refusal here never rides along with them.
    Scenario candidate = running;
    if (v == slot(candidate, row)) continue;
    slot(candidate, row) = v;
    emit requestRun(candidate, row.field);
    return;
  }
}

void ScenarioEditor::runAccepted(const RunInfo& info, const RunRequest& request) {
  if (request.kind == RequestKind::Edit || request.kind == RequestKind::Reset) {
    accepted(info.scenario, request.source);
  } else {
    setScenario(info.scenario);
  }
  runStarted(info);
}

void ScenarioEditor::runRefused(const RunRequest& request, const QString& message,
                                const RunInfo* current) {
  switch (request.kind) {
    case RequestKind::Edit: refused(request.source, message); break;
    case RequestKind::History:
      if (current) setScenario(current->scenario);
      break;
    case RequestKind::System:
    case RequestKind::Startup:
      if (request.defaults && current) setScenario(current->scenario);  // the picker shows what runs
      break;
    default: break;
  }
}

void ScenarioEditor::requestEpsilon(double value, QWidget* source) {
  const SystemDescription* system = findSystem(desired_.system);
  if (!system) return;
  const std::vector<ParameterSpec>& specs = system->info().parameters;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].name != "epsilon") continue;
    if (value == desired_.parameters[i]) return;
    desired_.parameters[i] = value;
    emit requestRun(desired_, source);
  }
}

void ScenarioEditor::keepAngularVelocity(const Eigen::Matrix3d& angularMomentumMap) {
  const SystemDescription* system = findSystem(desired_.system);
  if (!system) return;
  const std::vector<ParameterSpec>& specs = system->info().initial;
  std::array<std::size_t, 3> at{};
  int found = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      if (specs[i].name == "Pi" + std::to_string(k + 1) + "_0") {
        at[std::size_t(k)] = i;
        ++found;
      }
    }
  }
  if (found != 3) return;
  const Eigen::Vector3d pi(desired_.initial[at[0]], desired_.initial[at[1]], desired_.initial[at[2]]);
  const Eigen::Vector3d mapped = angularMomentumMap * pi;
  for (int k = 0; k < 3; ++k) desired_.initial[at[std::size_t(k)]] = mapped[k];
}

void ScenarioEditor::showMassSource() {
  NumberField* m = parameterField(QStringLiteral("m"));
  if (!m) return;
  const bool density = applied_.body && applied_.body->density;
  m->setEnabled(!density);
}

void ScenarioEditor::setRowMessage(const QWidget* source, const QString& reason) {
  for (Row& row : rows_) {
    if (row.field != source) continue;
    if (reason.isEmpty()) {
      row.message->hide();
    } else {
      const double running = slot(applied_, row);
      row.message->setText(tr("%1 (still running with %2 = %3)")
                               .arg(reason, QString::fromStdString(row.field->spec().name),
                                    QString::fromStdString(formatNumber(running))));
      row.message->show();
    }
  }
}

QString ScenarioEditor::messageFor(const QWidget* field) const {
  if (bodyEditor_->owns(field)) return bodyEditor_->messageFor(field);
  for (const Row& row : rows_) {
    if (row.field == field) return row.message->isVisible() ? row.message->text() : QString();
  }
  return {};
}

void ScenarioEditor::onCommitted(Row& row, double value) {
  if (updating_) return;
  // The refused value committed again unchanged (the field lost focus): it stays refused until
  // its cause changes (retryRefused), and it does not ride along with the next edit.
  if (row.field->hasError() && value == row.refused) return;
  setRowMessage(row.field, QString());
  // Back to the value that runs (after a refusal): nothing to restart.
  if (value == slot(applied_, row) && value == slot(desired_, row)) return;
  slot(desired_, row) = value;
  emit requestRun(desired_, row.field);
}

void ScenarioEditor::restoreDefaults() {
  const SystemDescription* system = findSystem(applied_.system);
  if (!system) return;
  desired_ = defaultScenario(*system);
  for (Row& row : rows_) row.field->setError(QString());
  showValues(desired_);
  emit requestRun(desired_, defaultsButton_);
}

NumberField* ScenarioEditor::parameterField(const QString& name) const {
  for (const Row& row : rows_) {
    if (row.target == Row::Parameter && row.field->spec().name == name.toStdString()) {
      return row.field;
    }
  }
  return nullptr;
}

NumberField* ScenarioEditor::initialField(const QString& name) const {
  for (const Row& row : rows_) {
    if (row.target == Row::Initial && row.field->spec().name == name.toStdString()) {
      return row.field;
    }
  }
  return nullptr;
}

NumberField* ScenarioEditor::settingField(const QString& name) const {
  for (const Row& row : rows_) {
    if (row.target != Row::Parameter && row.target != Row::Initial &&
        row.field->spec().name == name.toStdString()) {
      return row.field;
    }
  }
  return nullptr;
}

}  // namespace ricochet::app
