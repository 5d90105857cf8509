#include "app/desktop/run/run_status.hpp"

#include <QLabel>
#include <QLocale>
#include <QStatusBar>

#include <algorithm>
#include <cmath>

namespace ricochet::app {

namespace {

// Decimal places that resolve one step of length h in the time display (2..9).
int timeDecimals(double h) {
  if (!(h > 0.0)) return 3;
  return std::clamp(int(std::ceil(-std::log10(h) - 1e-9)), 2, 9);
}

// 2822209 -> "2 822 209" (thin spaces: readable, and the same in every locale).
QString groupedInteger(std::int64_t n) {
  return QLocale(QLocale::English, QLocale::UnitedStates)
      .toString(qlonglong(n))
      .replace(QLatin1Char(','), QChar(0x2009));
}

QString scientific(double v) { return QString::number(v, 'e', 2); }

}  // namespace

RunStatus::RunStatus(QStatusBar* bar) : QObject(bar), bar_(bar) {
  struct Field {
    const char* name;
    const char* tip;
    int minChars;
  };
  const Field fields[] = {{"state", "Run state", 8},
                          {"time", "Simulated time", 14},
                          {"steps", "Steps taken", 12},
                          {"impacts", "Impacts so far", 10},
                          {"rate", "Integrator steps per wall-clock second", 14},
                          {"error", "Relative energy error (E - E0)/|E0| of the current state", 16}};
  for (const Field& f : fields) {
    auto* l = new QLabel;
    l->setObjectName(QStringLiteral("status_") + QString::fromLatin1(f.name));
    l->setToolTip(tr(f.tip));
    l->setMinimumWidth(l->fontMetrics().horizontalAdvance(QLatin1Char('0')) * f.minChars);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    bar->addPermanentWidget(l);
    fields_[QString::fromLatin1(f.name)] = l;
  }
}

QLabel* RunStatus::field(const QString& name) const {
  auto it = fields_.find(name);
  return it == fields_.end() ? nullptr : it->second;
}

void RunStatus::show(const Snapshot& s, const RunInfo& run) {
  const double h = run.scenario.integrator.h;
  fields_["time"]->setText(tr("t = %1 s").arg(s.t, 0, 'f', timeDecimals(h)));
  fields_["steps"]->setText((s.step == 1 ? tr("%1 step") : tr("%1 steps"))
                                .arg(groupedInteger(s.step)));
  fields_["impacts"]->setText((s.impacts == 1 ? tr("%1 impact") : tr("%1 impacts"))
                                  .arg(groupedInteger(s.impacts)));
  fields_["rate"]->setText(s.running ? tr("%1 steps/s").arg(scientific(s.stepsPerSecond))
                                     : tr("\u2014 steps/s"));
  fields_["error"]->setText(
      (run.relativeError ? tr("\u0394E/|E0| = %1") : tr("\u0394E/(K0+|V0|) = %1"))
          .arg(QString::number(s.energyError, 'e', 2)));
  QString state = s.running ? tr("running") : (s.finished ? tr("at t_end") : tr("paused"));
  if (!s.failure.isEmpty()) state = tr("failed");
  const bool warning = s.failure.isEmpty() && !s.warning.isEmpty();
  if (warning) state = tr("%1, energy warning").arg(state);
  QLabel* stateField = fields_["state"];
  stateField->setText(state);
  stateField->setStyleSheet(!s.failure.isEmpty() ? QStringLiteral("color: #b3261e;")
                            : warning            ? QStringLiteral("color: #8a5300;")
                                                 : QString());
  stateField->setToolTip(!s.failure.isEmpty() ? s.failure : warning ? s.warning : tr("Run state"));
  if (!s.failure.isEmpty() && s.failure != shownFailure_) {
    shownFailure_ = s.failure;
    bar_->showMessage(tr("Integrator failed: %1").arg(s.failure));
  } else if (warning && !warned_) {
    warned_ = true;
    bar_->showMessage(tr("Energy warning: %1").arg(s.warning));
  }
}

}  // namespace ricochet::app
