#include "app/desktop/study/study_axis_row.hpp"

#include "app/desktop/widgets/number_field.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QRegularExpression>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ricochet::app {

namespace {

using study::AxisKind;

/// The most values or samples one axis gives in the window.
constexpr int kMaxAxisCount = 1'000'000;

bool inRange(const ParameterSpec& spec, double v) { return checkValue(spec, v, "value").empty(); }

/// A standard deviation in the field's unit.
ParameterSpec sdSpec(const ParameterSpec& spec) {
  return {"sd", spec.unit, 0.0, 0.0, kUnbounded, false, false,
          "Standard deviation of the random draws, in the field's unit."};
}

QString joinNumbers(const std::vector<double>& values) {
  QStringList parts;
  for (double v : values) parts << QString::fromStdString(formatNumber(v));
  return parts.join(QStringLiteral(", "));
}

}  // namespace

StudyAxisRow::StudyAxisRow(QString name, ParameterSpec spec, QString kind, double base, QWidget* parent)
    : QFrame(parent), name_(std::move(name)), spec_(std::move(spec)), base_(base) {
  const QString unit = QString::fromStdString(spec_.unit);
  buildHeader(unit.isEmpty() ? name_ : QStringLiteral("%1 [%2]").arg(name_, unit),
              QString::fromStdString(spec_.help));
  from_ = new NumberField(spec_, kind);
  to_ = new NumberField(spec_, kind);
  sd_ = new NumberField(sdSpec(spec_), kind);
  for (QWidget* w : std::initializer_list<QWidget*>{from_, to_, sd_}) w->setMinimumWidth(80);
  from_->setObjectName(QStringLiteral("fromField"));
  to_->setObjectName(QStringLiteral("toField"));
  sd_->setObjectName(QStringLiteral("sdField"));
  values_ = new QLineEdit;
  values_->setObjectName(QStringLiteral("valuesEdit"));
  values_->setPlaceholderText(tr("values, e.g. 0.02, 0.01, 0.005"));
  values_->setToolTip(tr("The values, separated by commas or spaces (scientific notation accepted)"));
  count_ = new QSpinBox;
  count_->setObjectName(QStringLiteral("countSpin"));
  count_->setRange(1, kMaxAxisCount);
  count_->setGroupSeparatorShown(true);
  count_->setMinimumWidth(70);
  fromLabel_ = new QLabel;
  toLabel_ = new QLabel;
  sdLabel_ = new QLabel(tr("sd"));
  countLabel_ = new QLabel;
  grid_->addWidget(values_, 0, 0, 1, 4);
  grid_->addWidget(fromLabel_, 1, 0);
  grid_->addWidget(from_, 1, 1);
  grid_->addWidget(toLabel_, 1, 2);
  grid_->addWidget(to_, 1, 3);
  grid_->addWidget(sdLabel_, 2, 0);
  grid_->addWidget(sd_, 2, 1);
  grid_->addWidget(countLabel_, 2, 2);
  grid_->addWidget(count_, 2, 3);
  grid_->setColumnStretch(1, 1);
  grid_->setColumnStretch(3, 1);

  struct KindItem {
    const char* text;
    AxisKind kind;
    const char* tip;
  };
  const KindItem kinds[] = {
      {"list", AxisKind::Values, "the values as listed"},
      {"linspace", AxisKind::Linspace, "count values evenly spaced from 'from' to 'to', both included"},
      {"logspace", AxisKind::Logspace, "count values geometrically spaced between the end values"},
      {"uniform (random)", AxisKind::Uniform, "random draws, uniform on [low, high] (the study's seed)"},
      {"normal (random)", AxisKind::Normal, "random draws, normal(mean, sd) (the study's seed)"},
      {"perturb (random)", AxisKind::Perturb, "random draws: the base value plus normal(0, sd)"}};
  for (const KindItem& k : kinds) {
    kind_->addItem(tr(k.text), int(k.kind));
    kind_->setItemData(kind_->count() - 1, tr(k.tip), Qt::ToolTipRole);
  }

  // Seed values around the base: a time step halves (logspace), anything else spans +-50 %.
  const double b = base_;
  const bool step = name_ == QStringLiteral("h") || name_ == QStringLiteral("tolerance");
  double lo = b == 0.0 ? -1.0 : b * 0.5, hi = b == 0.0 ? 1.0 : b * 1.5;
  if (step) {
    lo = b;
    hi = b / 8.0;
  }
  if (!inRange(spec_, lo) || !inRange(spec_, hi)) lo = hi = b;
  from_->setValue(lo);
  to_->setValue(hi);
  sd_->setValue(b == 0.0 ? 1e-8 : std::fabs(b) * (step ? 0.1 : 1e-6));
  values_->setText(QString::fromStdString(formatNumber(b)));
  count_->setValue(step ? 4 : 5);
  setKind(step ? AxisKind::Logspace : AxisKind::Linspace);

  for (NumberField* f : {from_, to_, sd_}) {
    connect(f, &NumberField::committed, this, &StudyAxisRow::changed);
    connect(f, &NumberField::refused, this, &StudyAxisRow::changed);
  }
  connect(values_, &QLineEdit::editingFinished, this, &StudyAxisRow::changed);
  connect(count_, &QSpinBox::valueChanged, this, &StudyAxisRow::changed);
  connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
    updateInputs();
    emit changed();
  });
}

StudyAxisRow::StudyAxisRow(const std::vector<IntegratorInfo>& integrators, QWidget* parent)
    : QFrame(parent), name_(QStringLiteral("integrator")) {
  buildHeader(name_, tr("Every checked integrator runs the scenario."));
  kind_->addItem(tr("list"), int(AxisKind::Values));
  kind_->setEnabled(false);
  integrators_ = new QListWidget;
  integrators_->setObjectName(QStringLiteral("integratorList"));
  for (const IntegratorInfo& in : integrators) {
    auto* item = new QListWidgetItem(QString::fromStdString(in.name));
    item->setData(Qt::UserRole, QString::fromStdString(in.name));
    item->setToolTip(QString::fromStdString(in.title + ": " + in.help));
    item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
    item->setCheckState(Qt::Checked);
    integrators_->addItem(item);
  }
  integrators_->setFixedHeight(integrators_->sizeHintForRow(0) * int(std::min<std::size_t>(integrators.size(), 5)) +
                               2 * integrators_->frameWidth() + 2);
  grid_->addWidget(integrators_, 0, 0, 1, 4);
  connect(integrators_, &QListWidget::itemChanged, this, &StudyAxisRow::changed);
}

void StudyAxisRow::buildHeader(const QString& title, const QString& tip) {
  setObjectName(QStringLiteral("axis_") + name_);
  setFrameShape(QFrame::StyledPanel);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 6, 6, 6);
  layout->setSpacing(4);
  auto* header = new QHBoxLayout;
  auto* label = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
  label->setToolTip(tip);
  kind_ = new QComboBox;
  kind_->setObjectName(QStringLiteral("kindCombo"));
  remove_ = new QToolButton;
  remove_->setObjectName(QStringLiteral("removeAxisButton"));
  remove_->setText(QStringLiteral("\u2715"));
  remove_->setAutoRaise(true);
  remove_->setToolTip(tr("Stop varying %1").arg(name_));
  connect(remove_, &QToolButton::clicked, this, &StudyAxisRow::removeRequested);
  header->addWidget(label);
  header->addStretch(1);
  header->addWidget(kind_);
  header->addWidget(remove_);
  layout->addLayout(header);
  grid_ = new QGridLayout;
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setHorizontalSpacing(6);
  grid_->setVerticalSpacing(3);
  layout->addLayout(grid_);
  hint_ = new QLabel;
  hint_->setObjectName(QStringLiteral("axisPreview"));
  hint_->setWordWrap(true);
  hint_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(hint_);
}

AxisKind StudyAxisRow::kind() const { return AxisKind(kind_->currentData().toInt()); }

void StudyAxisRow::setKind(AxisKind kind) {
  const int i = kind_->findData(int(kind));
  if (i >= 0) kind_->setCurrentIndex(i);
  updateInputs();
}

void StudyAxisRow::updateInputs() {
  if (isIntegrator()) return;
  const AxisKind k = kind();
  const bool list = k == AxisKind::Values, ranged = k == AxisKind::Linspace || k == AxisKind::Logspace;
  const bool random = study::isRandom(k);
  values_->setVisible(list);
  fromLabel_->setVisible(!list && k != AxisKind::Perturb);
  from_->setVisible(!list && k != AxisKind::Perturb);
  toLabel_->setVisible(ranged || k == AxisKind::Uniform);
  to_->setVisible(ranged || k == AxisKind::Uniform);
  sdLabel_->setVisible(k == AxisKind::Normal || k == AxisKind::Perturb);
  sd_->setVisible(k == AxisKind::Normal || k == AxisKind::Perturb);
  countLabel_->setVisible(!list);
  count_->setVisible(!list);
  fromLabel_->setText(k == AxisKind::Uniform ? tr("low") : k == AxisKind::Normal ? tr("mean") : tr("from"));
  toLabel_->setText(k == AxisKind::Uniform ? tr("high") : tr("to"));
  countLabel_->setText(random ? tr("samples") : tr("count"));
  if (k == AxisKind::Perturb) {
    sdLabel_->setText(tr("sd around %1").arg(QString::fromStdString(formatNumber(base_))));
  } else {
    sdLabel_->setText(tr("sd"));
  }
}

std::optional<study::AxisSpec> StudyAxisRow::axis(QString* error) const {
  study::AxisSpec a;
  a.name = name_.toStdString();
  const auto fail = [&](const QString& why) -> std::optional<study::AxisSpec> {
    if (error) *error = tr("vary %1: %2").arg(name_, why);
    return std::nullopt;
  };
  if (isIntegrator()) {
    a.kind = AxisKind::Values;
    for (int i = 0; i < integrators_->count(); ++i) {
      if (integrators_->item(i)->checkState() == Qt::Checked) {
        a.names.push_back(integrators_->item(i)->data(Qt::UserRole).toString().toStdString());
      }
    }
    if (a.names.empty()) return fail(tr("check at least one integrator"));
    return a;
  }
  a.kind = kind();
  const auto fieldValue = [&](NumberField* f, double& into) {
    if (f->hasError()) return false;
    into = f->value();
    return true;
  };
  double x = 0.0, y = 0.0;
  switch (a.kind) {
    case AxisKind::Values: {
      static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
      const QStringList items = values_->text().split(separators, Qt::SkipEmptyParts);
      if (items.isEmpty()) return fail(tr("no values given"));
      for (const QString& item : items) {
        double v = 0.0;
        QString reason;
        if (!from_->parse(item, &v, &reason)) return fail(reason);
        a.numbers.push_back(v);
      }
      return a;
    }
    case AxisKind::Linspace:
    case AxisKind::Logspace:
    case AxisKind::Uniform:
      if (!fieldValue(from_, x)) return fail(from_->error());
      if (!fieldValue(to_, y)) return fail(to_->error());
      a.numbers = {x, y};
      break;
    case AxisKind::Normal:
      if (!fieldValue(from_, x)) return fail(from_->error());
      if (!fieldValue(sd_, y)) return fail(sd_->error());
      a.numbers = {x, y};
      break;
    case AxisKind::Perturb:
      if (!fieldValue(sd_, x)) return fail(sd_->error());
      a.numbers = {x};
      break;
  }
  a.count = count_->value();
  return a;
}

bool StudyAxisRow::setAxis(const study::AxisSpec& a) {
  if (QString::fromStdString(a.name) != name_) return false;
  if (isIntegrator()) {
    for (int i = 0; i < integrators_->count(); ++i) {
      const std::string n = integrators_->item(i)->data(Qt::UserRole).toString().toStdString();
      const bool on = std::find(a.names.begin(), a.names.end(), n) != a.names.end();
      integrators_->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
    }
    return true;
  }
  setKind(a.kind);
  switch (a.kind) {
    case AxisKind::Values: values_->setText(joinNumbers(a.numbers)); break;
    case AxisKind::Linspace:
    case AxisKind::Logspace:
    case AxisKind::Uniform:
      if (a.numbers.size() != 2) return false;
      from_->setValue(a.numbers[0]);
      to_->setValue(a.numbers[1]);
      break;
    case AxisKind::Normal:
      if (a.numbers.size() != 2) return false;
      from_->setValue(a.numbers[0]);
      sd_->setValue(a.numbers[1]);
      break;
    case AxisKind::Perturb:
      if (a.numbers.size() != 1) return false;
      sd_->setValue(a.numbers[0]);
      break;
  }
  if (a.kind != AxisKind::Values) count_->setValue(int(std::min<std::int64_t>(a.count, kMaxAxisCount)));
  return true;
}

void StudyAxisRow::setPreview(const QString& text, bool error) {
  hint_->setText(text);
  hint_->setStyleSheet(error ? QStringLiteral("color: #b3261e;") : QStringLiteral("color: #5f6368;"));
}

QString StudyAxisRow::preview() const { return hint_->text(); }

}  // namespace ricochet::app
