#include "app/desktop/study/study_editor.hpp"

#include "app/desktop/scenario/scenario_editor.hpp"
#include "app/desktop/study/study_axis_row.hpp"
#include "app/desktop/study/study_preset_forms.hpp"
#include "app/desktop/widgets/number_field.hpp"
#include "core/model/registry.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>

namespace ricochet::app {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
QString num(double x) { return qs(formatNumber(x)); }

const SystemInfo* infoOf(const Scenario& s) {
  const SystemDescription* system = findSystem(s.system);
  return system ? &system->info() : nullptr;
}

/// The field an axis name stands for: "p:m", "i:z0", "h", ..., or "" when unknown.
QString fieldKey(const SystemInfo& info, const QString& name) {
  if (name == QLatin1String("h") || name == QLatin1String("tolerance") || name == QLatin1String("t_end") ||
      name == QLatin1String("integrator")) {
    return name;
  }
  const bool onlyInitial = name.startsWith(QLatin1String("initial."));
  const bool onlyParameter = name.startsWith(QLatin1String("parameters."));
  const std::string bare = name.mid(onlyInitial ? 8 : onlyParameter ? 11 : 0).toStdString();
  if (!onlyInitial && indexOf(info.parameters, bare)) return QStringLiteral("p:") + qs(bare);
  if (!onlyParameter && indexOf(info.initial, bare)) return QStringLiteral("i:") + qs(bare);
  return {};
}

/// "5 values: 1, 2, 3, ..., 9" (the first four and the last).
QString previewOf(const study::Axis& axis, bool random) {
  const std::size_t n = axis.size();
  QStringList shown;
  for (std::size_t i = 0; i < n && i < 4; ++i) {
    shown << (axis.names.empty() ? QString::number(axis.numbers[i], 'g', 6) : qs(axis.names[i]));
  }
  if (n > 5) shown << QStringLiteral("\u2026");
  if (n > 4) shown << (axis.names.empty() ? QString::number(axis.numbers[n - 1], 'g', 6) : qs(axis.names[n - 1]));
  const QString what = random ? countOf(qint64(n), QObject::tr("draw"), QObject::tr("draws"))
                              : countOf(qint64(n), QObject::tr("value"), QObject::tr("values"));
  return what + QStringLiteral(": ") + shown.join(QStringLiteral(", "));
}


}  // namespace

StudyEditor::StudyEditor(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("studyEditor"));
  auto* top = new QVBoxLayout(this);
  top->setContentsMargins(6, 6, 6, 6);

  auto* presetRow = new QHBoxLayout;
  preset_ = new QComboBox;
  preset_->setObjectName(QStringLiteral("presetCombo"));
  preset_->addItem(tr("Custom study"), int(StudyPreset::Custom));
  preset_->addItem(tr("Convergence in h (paper study)"), int(StudyPreset::Convergence));
  preset_->addItem(tr("Sensitivity to initial conditions (paper study)"), int(StudyPreset::Sensitivity));
  preset_->addItem(tr("Compare integrators (paper study)"), int(StudyPreset::Compare));
  auto* presetLabel = new QLabel(tr("&Study:"));
  presetLabel->setBuddy(preset_);
  presetRow->addWidget(presetLabel);
  presetRow->addWidget(preset_, 1);
  top->addLayout(presetRow);
  presetHelp_ = studyNote(QString());
  top->addWidget(presetHelp_);

  tabs_ = new QTabWidget;
  tabs_->setObjectName(QStringLiteral("studyTabs"));
  tabs_->setDocumentMode(true);
  // The study's own settings.
  auto* studyPage = new QWidget;
  auto* studyLayout = new QVBoxLayout(studyPage);
  studyLayout->setContentsMargins(2, 6, 2, 2);
  baseSummary_ = studyNote(QString());
  baseSummary_->setObjectName(QStringLiteral("baseSummary"));
  studyLayout->addWidget(baseSummary_);
  presets_ = new StudyPresetForms(this);
  pages_ = new QStackedWidget;
  pages_->addWidget(buildCustomPage());  // in StudyPreset order
  for (StudyPreset p : {StudyPreset::Convergence, StudyPreset::Sensitivity, StudyPreset::Compare}) {
    pages_->addWidget(presets_->page(p));
  }
  studyLayout->addWidget(pages_);
  auto* common = new QWidget;
  QFormLayout* cf = studyForm(common);
  cf->setContentsMargins(0, 0, 0, 0);
  jobs_ = studySpin("jobsSpin", 0, 256, 0,
               tr("Worker threads; results are the same for any number. Compare runs one at a time by "
                  "default, so its cost column is comparable."));
  jobs_->setSpecialValueText(tr("every core"));
  cf->addRow(tr("Threads:"), jobs_);
  studyLayout->addWidget(common);
  studyLayout->addStretch(1);
  auto* studyScroll = new QScrollArea;
  studyScroll->setWidget(studyPage);
  studyScroll->setWidgetResizable(true);
  studyScroll->setFrameShape(QFrame::NoFrame);
  studyScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  tabs_->addTab(studyScroll, tr("Setup"));

  // The base scenario: the main window's generated forms.
  baseEditor_ = new ScenarioEditor;
  baseEditor_->setObjectName(QStringLiteral("studyBaseEditor"));
  auto* baseScroll = new QScrollArea;
  baseScroll->setWidget(baseEditor_);
  baseScroll->setWidgetResizable(true);
  baseScroll->setFrameShape(QFrame::NoFrame);
  baseScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  tabs_->addTab(baseScroll, tr("Base scenario"));
  top->addWidget(tabs_, 1);

  runs_ = new QLabel;
  runs_->setObjectName(QStringLiteral("runsLabel"));
  runs_->setWordWrap(true);
  runs_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  top->addWidget(runs_);

  connect(baseEditor_, &ScenarioEditor::requestRun, this, &StudyEditor::onBaseEdit);
  connect(baseEditor_, &ScenarioEditor::systemRequested, this, [this](const QString& id) {
    if (const SystemDescription* system = findSystem(id.toStdString())) {
      setBase(defaultScenario(*system));
      emit changed();
    }
  });
  connect(preset_, &QComboBox::currentIndexChanged, this, [this] {
    const StudyPreset p = preset();
    pages_->setCurrentIndex(int(p));
    jobs_->setValue(p == StudyPreset::Compare ? 1 : 0);
    static const char* const kHelp[] = {
        "Vary fields of the base scenario over lists, ranges or random draws; one row of results per "
        "run (ricochet-cli study).",
        "The state error at a time T against a run with a much finer h, for h0, h0/2, ...: the observed "
        "order per level and the fitted slope (ricochet-cli convergence).",
        "How fast runs from slightly perturbed initial conditions separate from the base run, collision "
        "by collision: paper 003's cube experiment (ricochet-cli sensitivity).",
        "The base scenario under several integrators and time steps: energy and momentum errors, impact "
        "times and cost side by side (ricochet-cli compare)."};
    presetHelp_->setText(tr(kHelp[int(p)]));
    updateSummary();
    emit changed();
  });
  const auto edited = [this] {
    updateSummary();
    emit changed();
  };
  for (QSpinBox* s : {seed_, steps_, jobs_}) connect(s, &QSpinBox::valueChanged, this, edited);
  connect(combine_, &QComboBox::currentIndexChanged, this, edited);
  connect(presets_, &StudyPresetForms::changed, this, edited);
  presetHelp_->setText(tr("Vary fields of the base scenario over lists, ranges or random draws; one row "
                          "of results per run (ricochet-cli study)."));
}

QWidget* StudyEditor::buildCustomPage() {
  auto* page = new QWidget;
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* vary = new QGroupBox(tr("Vary"));
  auto* vl = new QVBoxLayout(vary);
  addAxis_ = new QPushButton(tr("Add a field to vary"));
  addAxis_->setObjectName(QStringLiteral("addAxisButton"));
  addAxis_->setToolTip(tr("Any parameter, initial condition or integrator setting of the base scenario"));
  addMenu_ = new QMenu(addAxis_);
  addMenu_->setObjectName(QStringLiteral("addAxisMenu"));
  addAxis_->setMenu(addMenu_);
  connect(addMenu_, &QMenu::aboutToShow, this, &StudyEditor::rebuildAddMenu);
  axesLayout_ = new QVBoxLayout;
  axesLayout_->setSpacing(6);
  noAxis_ = studyNote(tr("No field varies yet: the study is one run of the base scenario."));
  vl->addLayout(axesLayout_);
  vl->addWidget(noAxis_);
  vl->addWidget(addAxis_, 0, Qt::AlignLeft);
  layout->addWidget(vary);

  auto* options = new QGroupBox(tr("Runs"));
  QFormLayout* f = studyForm(options);
  combine_ = new QComboBox;
  combine_->setObjectName(QStringLiteral("combineCombo"));
  combine_->addItem(tr("grid: every combination"), int(study::Combine::Grid));
  combine_->addItem(tr("zip: the i-th value of every axis"), int(study::Combine::Zip));
  f->addRow(tr("Combine:"), combine_);
  seed_ = studySpin("seedSpin", 0, 2147483647, 1, tr("Seed of the random draws: the same seed, the same draws"));
  f->addRow(tr("Seed:"), seed_);
  steps_ = studySpin("stepsSpin", 0, 2000000000, 0,
                tr("Steps every run takes; 'scenario t_end': each run lasts its scenario's t_end"));
  steps_->setSpecialValueText(tr("scenario t_end"));
  steps_->setGroupSeparatorShown(true);
  f->addRow(tr("Length:"), steps_);
  layout->addWidget(options);
  return page;
}

void StudyEditor::setBase(const Scenario& scenario) {
  const SystemInfo* info = infoOf(scenario);
  if (!info) return;
  updating_ = true;
  base_ = scenario;
  baseEditor_->setScenario(scenario);
  for (StudyAxisRow* row : axes_) {
    row->hide();
    row->deleteLater();
  }
  axes_.clear();
  noAxis_->show();
  presets_->seed(scenario);
  updating_ = false;
  updateSummary();
}

bool StudyEditor::setStudy(const study::Study& study, QString* error) {
  setBase(study.base);
  setPreset(StudyPreset::Custom);
  updating_ = true;
  for (const study::AxisSpec& a : study.vary) {
    StudyAxisRow* row = addAxis(qs(a.name));
    if (!row || !row->setAxis(a)) {
      if (error) *error = tr("the axis '%1' does not fit the editor").arg(qs(a.name));
      updating_ = false;
      updateSummary();
      return false;
    }
  }
  combine_->setCurrentIndex(combine_->findData(int(study.combine)));
  seed_->setValue(int(std::min<std::uint64_t>(study.seed, 2147483647)));
  steps_->setValue(study.steps > 0 ? int(std::min<std::int64_t>(study.steps, 2000000000)) : 0);
  updating_ = false;
  updateSummary();
  emit changed();
  return true;
}

void StudyEditor::setPreset(StudyPreset p) { preset_->setCurrentIndex(preset_->findData(int(p))); }

StudyPreset StudyEditor::preset() const { return StudyPreset(preset_->currentData().toInt()); }

void StudyEditor::rebuildAddMenu() {
  addMenu_->clear();
  const SystemInfo* info = infoOf(base_);
  if (!info) return;
  QStringList varied;
  for (StudyAxisRow* row : axes_) varied << fieldKey(*info, row->name());
  const auto add = [&](QMenu* menu, const QString& name, const QString& text, const QString& tip) {
    QAction* a = menu->addAction(text);
    a->setData(name);
    a->setToolTip(tip);
    a->setEnabled(!varied.contains(fieldKey(*info, name)));
    connect(a, &QAction::triggered, this, [this, name] { addAxis(name); });
  };
  const auto entry = [](const ParameterSpec& spec, double value) {
    return QStringLiteral("%1    (%2%3)")
        .arg(qs(spec.name), num(value), spec.unit.empty() ? QString() : QStringLiteral(" ") + qs(spec.unit));
  };
  QMenu* parameters = addMenu_->addMenu(tr("Parameters"));
  for (std::size_t i = 0; i < info->parameters.size(); ++i) {
    add(parameters, qs(info->parameters[i].name), entry(info->parameters[i], base_.parameters[i]),
        qs(info->parameters[i].help));
  }
  QMenu* initial = addMenu_->addMenu(tr("Initial conditions"));
  for (std::size_t i = 0; i < info->initial.size(); ++i) {
    const std::string& n = info->initial[i].name;
    const QString name = indexOf(info->parameters, n) ? QStringLiteral("initial.") + qs(n) : qs(n);
    add(initial, name, entry(info->initial[i], base_.initial[i]), qs(info->initial[i].help));
  }
  QMenu* integrator = addMenu_->addMenu(tr("Integrator"));
  for (const char* setting : {"h", "tolerance", "t_end"}) {
    const NumberField* field = baseEditor_->settingField(QString::fromLatin1(setting));
    const double value = std::string(setting) == "h" ? base_.integrator.h
                         : std::string(setting) == "tolerance" ? base_.integrator.tolerance
                                                               : base_.tEnd;
    add(integrator, QString::fromLatin1(setting), entry(field->spec(), value), qs(field->spec().help));
  }
  if (info->integrators.size() > 1) {
    add(integrator, QStringLiteral("integrator"), tr("integrator    (%1)").arg(qs(base_.integrator.name)),
        tr("Run every chosen integrator"));
  }
}

StudyAxisRow* StudyEditor::addAxis(const QString& name) {
  const SystemInfo* info = infoOf(base_);
  if (!info) return nullptr;
  const QString key = fieldKey(*info, name);
  if (key.isEmpty()) return nullptr;
  for (StudyAxisRow* row : axes_) {
    if (fieldKey(*info, row->name()) == key) return nullptr;
  }
  StudyAxisRow* row = nullptr;
  if (key == QLatin1String("integrator")) {
    row = new StudyAxisRow(info->integrators);
  } else if (key == QLatin1String("h") || key == QLatin1String("tolerance") || key == QLatin1String("t_end")) {
    const double value = key == QLatin1String("h") ? base_.integrator.h
                         : key == QLatin1String("tolerance") ? base_.integrator.tolerance
                                                             : base_.tEnd;
    row = new StudyAxisRow(name, baseEditor_->settingField(key)->spec(), QStringLiteral("integrator setting"), value);
  } else {
    const std::string bare = key.mid(2).toStdString();
    if (key.startsWith(QLatin1String("p:"))) {
      row = new StudyAxisRow(name, baseEditor_->parameterField(qs(bare))->spec(), QStringLiteral("parameter"),
                             base_.parameters[*indexOf(info->parameters, bare)]);
    } else {
      row = new StudyAxisRow(name, baseEditor_->initialField(qs(bare))->spec(), QStringLiteral("initial condition"),
                             base_.initial[*indexOf(info->initial, bare)]);
    }
  }
  axes_.push_back(row);
  axesLayout_->addWidget(row);
  noAxis_->hide();
  connect(row, &StudyAxisRow::changed, this, [this] {
    if (updating_) return;
    updateSummary();
    emit changed();
  });
  connect(row, &StudyAxisRow::removeRequested, this, [this, row] { removeAxis(row); });
  if (!updating_) {
    updateSummary();
    emit changed();
  }
  return row;
}

void StudyEditor::removeAxis(StudyAxisRow* row) {
  std::erase(axes_, row);
  row->hide();
  row->deleteLater();
  noAxis_->setVisible(axes_.empty());
  updateSummary();
  emit changed();
}

void StudyEditor::onBaseEdit(const Scenario& candidate, QWidget* source) {
  // The main window's checks: the ranges, then the system's own (the admissible set).
  std::string error = validateScenario(candidate);
  if (error.empty()) {
    const CreateResult created = createSimulation(candidate);
    if (!created.simulation) error = created.error;
  }
  if (!error.empty()) {
    baseEditor_->refused(source, qs(error));
    return;
  }
  base_ = candidate;
  baseEditor_->accepted(candidate, source);
  updateSummary();
  emit changed();
}

std::optional<study::Study> StudyEditor::customStudy(QString* error) const {
  study::Study s;
  s.base = base_;
  for (StudyAxisRow* row : axes_) {
    const auto axis = row->axis(error);
    if (!axis) return std::nullopt;
    s.vary.push_back(*axis);
  }
  s.combine = study::Combine(combine_->currentData().toInt());
  s.seed = std::uint64_t(seed_->value());
  s.steps = steps_->value() > 0 ? steps_->value() : -1;
  return s;
}

std::optional<StudyRequest> StudyEditor::request(QString* error) const {
  StudyRequest r;
  r.preset = preset();
  r.jobs = jobs_->value();
  switch (r.preset) {
    case StudyPreset::Custom: {
      const auto s = customStudy(error);
      if (!s) return std::nullopt;
      r.custom = *s;
      break;
    }
    case StudyPreset::Convergence:
    case StudyPreset::Sensitivity:
    case StudyPreset::Compare:
      if (!presets_->fill(r, base_, error)) return std::nullopt;
      break;
  }
  return r;
}

void StudyEditor::updateSummary() {
  if (updating_) return;
  const SystemInfo* info = infoOf(base_);
  if (!info) return;
  baseSummary_->setText(tr("Base: <b>%1</b> (%2), %3, h = %4 s, t_end = %5 s. Edit it under <i>Base scenario</i>.")
                            .arg(qs(info->id), qs(info->title).toHtmlEscaped(), qs(base_.integrator.name),
                                 num(base_.integrator.h), num(base_.tEnd)));
  presets_->showLength(base_.tEnd);
  QString text;
  bool bad = false;
  for (StudyAxisRow* row : axes_) row->setPreview(QString(), false);
  QString error;
  const auto request = this->request(&error);
  if (!request) {
    text = error;
    bad = true;
  } else if (request->preset == StudyPreset::Custom) {
    const study::PlanResult planned = study::planStudy(request->custom);
    if (!planned.ok()) {
      text = qs(planned.error);
      bad = true;
      for (std::size_t k = 0; k < axes_.size(); ++k) {
        if (text.contains(QStringLiteral("vary[%1]").arg(k))) axes_[k]->setPreview(text, true);
      }
    } else {
      const study::StudyPlan& plan = *planned.plan;
      for (std::size_t k = 0; k < axes_.size() && k < plan.axes.size(); ++k) {
        axes_[k]->setPreview(previewOf(plan.axes[k], study::isRandom(plan.study.vary[k].kind)), false);
      }
      text = countOf(plan.runs, tr("run"), tr("runs"));
      if (plan.runs > kMaxWindowRuns) {
        text += tr(": more than the window runs (%1); save the study and run it with ricochet-cli study")
                    .arg(kMaxWindowRuns);
        bad = true;
      }
    }
  } else {
    text = StudyPresetForms::summary(*request, &bad);
  }
  runs_->setText(text);
  runs_->setStyleSheet(bad ? QStringLiteral("color: #b3261e;") : QStringLiteral("font-weight: bold;"));
}

}  // namespace ricochet::app
