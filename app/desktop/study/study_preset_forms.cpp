#include "app/desktop/study/study_preset_forms.hpp"

#include "app/desktop/widgets/number_field.hpp"
#include "core/model/registry.hpp"

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSpinBox>

#include <charconv>
#include <cmath>

namespace ricochet::app {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
QString num(double x) { return qs(formatNumber(x)); }

}  // namespace

QFormLayout* studyForm(QWidget* host) {
  auto* f = new QFormLayout(host);
  f->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  return f;
}

std::optional<double> parseStudyNumber(const QString& text) {
  const std::string s = text.trimmed().toStdString();
  double v = 0.0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

QLabel* studyNote(const QString& text) {
  auto* l = new QLabel(text);
  l->setWordWrap(true);
  l->setStyleSheet(QStringLiteral("color: #5f6368;"));
  return l;
}

QSpinBox* studySpin(const char* name, int lo, int hi, int value, const QString& tip) {
  auto* s = new QSpinBox;
  s->setObjectName(QString::fromLatin1(name));
  s->setRange(lo, hi);
  s->setValue(value);
  s->setToolTip(tip);
  return s;
}

StudyPresetForms::StudyPresetForms(QObject* parent) : QObject(parent) {
  const auto notify = [this] { emit changed(); };

  auto* convergence = new QGroupBox(tr("Convergence"));
  convergence_ = convergence;
  QFormLayout* f = studyForm(convergence);
  at_ = new NumberField({"T", "s", 1.0, 0.0, kUnbounded, true, false,
                         "Time at which the state error is measured, after the impacts of interest; a "
                         "whole number of steps of h0."},
                        QStringLiteral("option"));
  at_->setObjectName(QStringLiteral("atField"));
  f->addRow(tr("At T:"), at_);
  h0_ = new NumberField({"h0", "s", 0.0, 0.0, kUnbounded, false, false,
                         "Coarsest time step; 0: the largest T/2^k not above the scenario's h."},
                        QStringLiteral("option"));
  h0_->setObjectName(QStringLiteral("h0Field"));
  f->addRow(tr("h0 (0: auto):"), h0_);
  levels_ = studySpin("levelsSpin", 2, 20, 5, tr("Levels: h0, h0/2, ..., h0/2^(L-1)"));
  f->addRow(tr("Levels:"), levels_);
  refLevels_ = studySpin("refLevelsSpin", 1, 10, 3, tr("The reference runs with the finest h halved this many times"));
  f->addRow(tr("Reference halvings:"), refLevels_);
  f->addRow(studyNote(tr("Error: the norm of the q.* difference at T (SE(3): position and the nine "
                         "entries of R). Systems whose flight is integrated exactly also report "
                         "error/(h\u00b2|2\u03b1\u22121|).")));

  auto* sensitivity = new QGroupBox(tr("Sensitivity"));
  sensitivity_ = sensitivity;
  f = studyForm(sensitivity);
  perturbations_ = new QPlainTextEdit;
  perturbations_->setObjectName(QStringLiteral("perturbationsEdit"));
  perturbations_->setToolTip(tr("One NAME=DELTA per line: a parameter or initial condition and how much "
                                "it is moved (as --perturb)"));
  perturbations_->setTabChangesFocus(true);
  perturbations_->setFixedHeight(perturbations_->fontMetrics().lineSpacing() * 4 + 12);
  f->addRow(tr("Perturb:"), perturbations_);
  collisions_ = studySpin("collisionsSpin", 1, 100000, 12, tr("Collisions of the base run compared"));
  f->addRow(tr("Collisions:"), collisions_);
  sensitivityLength_ = studyNote(QString());
  f->addRow(sensitivityLength_);

  auto* compare = new QGroupBox(tr("Compare"));
  compare_ = compare;
  f = studyForm(compare);
  integrators_ = new QListWidget;
  integrators_->setObjectName(QStringLiteral("compareIntegrators"));
  f->addRow(tr("Integrators:"), integrators_);
  hs_ = new QLineEdit;
  hs_->setObjectName(QStringLiteral("compareHs"));
  hs_->setToolTip(tr("Time steps, separated by commas (as --h H,H...)"));
  f->addRow(tr("h [s]:"), hs_);
  impactTimes_ = studySpin("impactTimesSpin", 0, 1000, 5, tr("First impact times reported per run"));
  f->addRow(tr("Impact times:"), impactTimes_);
  compareLength_ = studyNote(QString());
  f->addRow(compareLength_);

  for (QSpinBox* s : {levels_, refLevels_, collisions_, impactTimes_}) connect(s, &QSpinBox::valueChanged, this, notify);
  for (NumberField* n : {at_, h0_}) {
    connect(n, &NumberField::committed, this, notify);
    connect(n, &NumberField::refused, this, notify);
  }
  connect(perturbations_, &QPlainTextEdit::textChanged, this, notify);
  connect(hs_, &QLineEdit::textChanged, this, notify);
  connect(integrators_, &QListWidget::itemChanged, this, notify);
}

QWidget* StudyPresetForms::page(StudyPreset preset) const {
  switch (preset) {
    case StudyPreset::Convergence: return convergence_;
    case StudyPreset::Sensitivity: return sensitivity_;
    case StudyPreset::Compare: return compare_;
    case StudyPreset::Custom: break;
  }
  return nullptr;
}

void StudyPresetForms::seed(const Scenario& base) {
  const SystemDescription* system = findSystem(base.system);
  if (!system) return;
  const SystemInfo& info = system->info();
  const QSignalBlocker block(this);
  at_->setValue(base.tEnd / 10.0);
  h0_->setValue(0.0);
  std::vector<study::Perturbation> perturbations = study::defaultPerturbations(base);
  if (perturbations.empty() && !info.initial.empty()) perturbations.push_back({info.initial.front().name, 1e-8});
  QStringList lines;
  for (const study::Perturbation& p : perturbations) lines << qs(p.name) + QLatin1Char('=') + num(p.delta);
  perturbations_->setPlainText(lines.join(QLatin1Char('\n')));
  integrators_->clear();
  for (const IntegratorInfo& in : info.integrators) {
    auto* item = new QListWidgetItem(qs(in.name));
    item->setData(Qt::UserRole, qs(in.name));
    item->setToolTip(qs(in.title + ": " + in.help));
    item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
    item->setCheckState(Qt::Checked);
    integrators_->addItem(item);
  }
  integrators_->setFixedHeight(integrators_->sizeHintForRow(0) * int(std::min<std::size_t>(info.integrators.size(), 5)) +
                               2 * integrators_->frameWidth() + 2);
  hs_->setText(num(base.integrator.h));
  showLength(base.tEnd);
}

void StudyPresetForms::showLength(double tEnd) {
  const QString length = tr("Each run lasts the base scenario's t_end (%1 s).").arg(num(tEnd));
  sensitivityLength_->setText(length);
  compareLength_->setText(length);
}

bool StudyPresetForms::fill(StudyRequest& r, const Scenario& base, QString* error) const {
  const auto fail = [&](const QString& why) {
    if (error) *error = why;
    return false;
  };
  switch (r.preset) {
    case StudyPreset::Custom: return fail(tr("not a built-in study"));
    case StudyPreset::Convergence:
      if (at_->hasError()) return fail(at_->error());
      if (h0_->hasError()) return fail(h0_->error());
      r.convergence.base = base;
      r.convergence.at = at_->value();
      r.convergence.h0 = h0_->value();
      r.convergence.levels = levels_->value();
      r.convergence.refLevels = refLevels_->value();
      return true;
    case StudyPreset::Sensitivity: {
      r.sensitivity.base = base;
      r.sensitivity.collisions = collisions_->value();
      const QStringList lines = perturbations_->toPlainText().split(QLatin1Char('\n'));
      for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty()) continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        const auto delta = eq > 0 ? parseStudyNumber(line.mid(eq + 1)) : std::nullopt;
        if (!delta) {
          return fail(tr("perturbation '%1' (line %2): expected NAME=DELTA with a finite number DELTA").arg(line).arg(i + 1));
        }
        study::Perturbation p{line.left(eq).trimmed().toStdString(), *delta};
        Scenario probe;
        if (const std::string e = study::perturbedScenario(base, p, probe); !e.empty()) return fail(qs(e));
        r.sensitivity.perturbations.push_back(p);
      }
      if (r.sensitivity.perturbations.empty()) return fail(tr("perturb: give at least one NAME=DELTA"));
      return true;
    }
    case StudyPreset::Compare: {
      r.compare.base = base;
      r.compare.impactTimes = impactTimes_->value();
      for (int i = 0; i < integrators_->count(); ++i) {
        if (integrators_->item(i)->checkState() == Qt::Checked) {
          r.compare.integrators.push_back(integrators_->item(i)->data(Qt::UserRole).toString().toStdString());
        }
      }
      if (r.compare.integrators.empty()) return fail(tr("integrators: check at least one"));
      static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
      const QStringList items = hs_->text().split(separators, Qt::SkipEmptyParts);
      if (items.isEmpty()) return fail(tr("h: give at least one time step"));
      for (const QString& item : items) {
        const auto h = parseStudyNumber(item);
        if (!h) return fail(tr("h '%1' is not a number").arg(item));
        r.compare.hs.push_back(*h);
      }
      return true;
    }
  }
  return false;
}

QString StudyPresetForms::summary(const StudyRequest& r, bool* bad) {
  *bad = false;
  switch (r.preset) {
    case StudyPreset::Convergence: {
      study::StudyPlan plan;
      if (const std::string e = study::convergencePlan(r.convergence, plan); !e.empty()) {
        *bad = true;
        return qs(e);
      }
      const std::vector<double>& hs = plan.axes[0].numbers;
      return tr("%1 runs: h = %2 down to %3 s, and the reference at h = %4 s")
          .arg(plan.runs)
          .arg(num(hs.front()), num(hs[hs.size() - 2]), num(hs.back()));
    }
    case StudyPreset::Sensitivity:
      return tr("%1: the base run and %2 perturbed")
          .arg(countOf(qint64(r.sensitivity.perturbations.size()) + 1, tr("run"), tr("runs")))
          .arg(r.sensitivity.perturbations.size());
    case StudyPreset::Compare:
      return tr("%1: %2 \u00d7 %3")
          .arg(countOf(qint64(r.compare.integrators.size() * r.compare.hs.size()), tr("run"), tr("runs")),
               countOf(qint64(r.compare.integrators.size()), tr("integrator"), tr("integrators")),
               countOf(qint64(r.compare.hs.size()), tr("time step"), tr("time steps")));
    case StudyPreset::Custom: break;
  }
  return {};
}

}  // namespace ricochet::app
