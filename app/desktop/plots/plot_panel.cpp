#include "app/desktop/plots/plot_panel.hpp"

#include "app/desktop/plots/plot_canvas.hpp"
#include "app/desktop/plots/plot_interaction.hpp"

#include <QActionGroup>
#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPointer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ricochet::app {

namespace {
constexpr int kMaxColumns = 8192;  // the worker's limit
constexpr double kImpactPickPx = 5.0;

QString group(const QString& name) {
  const int dot = name.indexOf(QLatin1Char('.'));
  return dot > 0 ? name.left(dot) : QStringLiteral("energy");
}
}  // namespace

struct PlotPanel::Impl {
  std::vector<Panel> panels;
  ChartContext context;
  std::vector<PlotChart> charts;  // what each panel shows now
  std::vector<std::string> seriesNames;  // of the run the panels are built for
  QString readout;
  QPointer<QDialog> impactDialog;
  QLabel* impactLabel = nullptr;
  int lastColumns = 0;
};

PlotPanel::PlotPanel(QWidget* parent) : QWidget(parent), d(std::make_unique<Impl>()) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(6, 2, 6, 0);
  logBox_ = new QCheckBox(tr("log10 |energy error|"));
  logBox_->setObjectName(QStringLiteral("logErrorBox"));
  logBox_->setToolTip(tr("Plot the magnitude of the relative energy error on a log scale."));
  bar->addWidget(logBox_);
  addButton_ = new QToolButton;
  addButton_->setObjectName(QStringLiteral("addPlotButton"));
  addButton_->setText(tr("Add Plot"));
  addButton_->setToolTip(tr("Add a time plot of any quantity, a phase portrait or an impact map. "
                            "Right-click a plot to choose what it shows or to remove it."));
  addButton_->setPopupMode(QToolButton::InstantPopup);
  auto* addMenu = new QMenu(addButton_);
  addMenu->addAction(tr("Time Plot"), this, [this] { addPanel(Panel{PanelKind::Time, -1, {}, false}); });
  addMenu->addAction(tr("Phase Portrait"), this, [this] { addPanel(Panel{PanelKind::Phase, -1, {}, false}); });
  addMenu->addAction(tr("Impact Map"), this, [this] { addPanel(Panel{PanelKind::ImpactMap, -1, {}, false}); });
  addButton_->setMenu(addMenu);
  bar->addWidget(addButton_);
  resetZoomButton_ = new QToolButton;
  resetZoomButton_->setObjectName(QStringLiteral("resetZoomButton"));
  resetZoomButton_->setText(tr("Whole Run"));
  resetZoomButton_->setToolTip(tr("Show the whole run again (double-click or Esc in the plots). "
                                  "Wheel or drag across a plot to zoom the time axis, Shift+drag to pan."));
  resetZoomButton_->setEnabled(false);
  connect(resetZoomButton_, &QToolButton::clicked, this, &PlotPanel::resetZoom);
  bar->addWidget(resetZoomButton_);
  bar->addStretch(1);
  errorLabel_ = new QLabel;
  bar->addWidget(errorLabel_);
  layout->addLayout(bar);
  readout_ = new QLabel;
  readout_->setObjectName(QStringLiteral("plotReadout"));
  readout_->setContentsMargins(6, 0, 6, 0);
  readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  readout_->setText(QStringLiteral(" "));
  layout->addWidget(readout_);
  canvas_ = new PlotCanvas(this);
  canvas_->setObjectName(QStringLiteral("plotView"));
  canvas_->setMinimumSize(200, 240);
  layout->addWidget(canvas_, 1);
  connect(canvas_, &PlotCanvas::laidOut, this, &PlotPanel::updateColumns);
  interaction_ = new PlotInteraction(canvas_);
  connect(interaction_, &PlotInteraction::zoomRequested, this, &PlotPanel::zoomTime);
  connect(interaction_, &PlotInteraction::resetRequested, this, &PlotPanel::resetZoom);
  connect(interaction_, &PlotInteraction::hovered, this, &PlotPanel::onHover);
  connect(interaction_, &PlotInteraction::clicked, this, &PlotPanel::onClick);
  connect(interaction_, &PlotInteraction::menuRequested, this, [this](int chart, QPoint global) {
    QMenu* menu = panelMenu(chart);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(global);
  });
  connect(logBox_, &QCheckBox::toggled, this, [this](bool on) {
    setLogError(on);
    emit logErrorToggled(on);
  });
  defaultPanels();
  rebuild();
}

PlotPanel::~PlotPanel() = default;

void PlotPanel::defaultPanels() {
  // The default panels of the run: energies, energy error, momenta (when it has any), followed
  // by the user's panels that it can show.
  std::vector<Panel> user;
  for (const Panel& p : d->panels) {
    if (p.role >= 0) continue;
    bool ok = !p.columns.isEmpty();
    for (const QString& c : p.columns) ok = ok && d->context.indexOf(c) >= 0;
    if (ok) user.push_back(p);
  }
  d->panels.clear();
  QStringList energy, error, momenta;
  for (std::size_t i = 0; i < d->context.names.size(); ++i) {
    switch (d->context.groups[i]) {
      case SeriesInfo::Group::Energy: energy << d->context.names[i]; break;
      case SeriesInfo::Group::Error: error << d->context.names[i]; break;
      case SeriesInfo::Group::Momentum: momenta << d->context.names[i]; break;
      default: break;
    }
  }
  d->panels.push_back(Panel{PanelKind::Time, Energy, energy, false});
  d->panels.push_back(Panel{PanelKind::Time, Error, error, false});
  if (!momenta.isEmpty() || d->context.names.empty()) {
    d->panels.push_back(Panel{PanelKind::Time, Momentum, momenta, false});
  }
  for (Panel& p : user) d->panels.push_back(std::move(p));
}

void PlotPanel::setRun(const RunInfo& info) {
  ChartContext& c = d->context;
  c.names.clear();
  c.groups.clear();
  c.absErrorSeries = -1;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < info.series.size(); ++i) {
    names.push_back(info.series[i].name);
    c.names.push_back(QString::fromStdString(info.series[i].name));
    c.groups.push_back(info.series[i].group);
    if (info.series[i].group == SeriesInfo::Group::AbsError) c.absErrorSeries = int(i);
  }
  c.constraints = info.constraints;
  c.relativeError = info.relativeError;
  c.h = info.scenario.integrator.h;
  c.snapshot.reset();
  c.window.reset();
  resetZoomButton_->setEnabled(false);
  if (names != d->seriesNames) {
    d->seriesNames = names;
    defaultPanels();
    emit panelsChanged();
  }
  errorLabel_->clear();
  rebuild();  // the axes at once, before any data
}

void PlotPanel::setSnapshot(SnapshotPtr s) {
  d->context.snapshot = std::move(s);
  const Snapshot& snap = *d->context.snapshot;
  if (d->context.names.size() == snap.plot.y.size()) {
    int err = -1;
    for (std::size_t i = 0; i < d->context.groups.size(); ++i) {
      if (d->context.groups[i] == SeriesInfo::Group::Error) err = int(i);
    }
    if (err >= 0) {
      errorLabel_->setText(tr("%1 = %2")
                               .arg(d->context.relativeError ? tr("(E - E0)/|E0|") : tr("(E - E0)/(K0 + |V0|)"))
                               .arg(snap.energyError, 0, 'e', 3));
    }
  }
  rebuild();
}

void PlotPanel::setSnapshot(const Snapshot& s) { setSnapshot(std::make_shared<const Snapshot>(s)); }

void PlotPanel::setOverlay(std::shared_ptr<const OverlayCurves> overlay) {
  d->context.overlay = std::move(overlay);
  rebuild();
}

const std::shared_ptr<const OverlayCurves>& PlotPanel::overlay() const {
  return d->context.overlay;
}

void PlotPanel::setLogError(bool log) {
  if (logBox_->isChecked() != log) {
    logBox_->setChecked(log);  // re-enters through toggled
    return;
  }
  d->context.logError = log;
  rebuild();
}

bool PlotPanel::logError() const { return d->context.logError; }

void PlotPanel::rebuild() {
  ChartContext& c = d->context;
  const FigureLayout& l = canvas_->figureLayout();
  c.columns = l.charts.empty() ? std::max(16, canvas_->width() - 90) : int(l.charts.front().area.width());
  d->charts.clear();
  for (const Panel& p : d->panels) d->charts.push_back(buildChart(p, c));
  canvas_->setFigure(figure());
  updateColumns();
}

void PlotPanel::updateColumns() {
  const int columns = plotColumns();
  if (columns != d->lastColumns) {
    d->lastColumns = columns;
    emit plotColumnsChanged(columns);
  }
}

int PlotPanel::plotColumns() const {
  const FigureLayout& l = canvas_->figureLayout();
  const double dpr = canvas_->devicePixelRatioF();
  double w = l.charts.empty() ? canvas_->width() - 90.0 : l.charts.front().area.width();
  w *= dpr;
  if (d->context.window) {
    const auto [f0, f1] = d->context.fullRange();
    const auto [t0, t1] = *d->context.window;
    if (t1 > t0) w *= std::max(1.0, (f1 - f0) / (t1 - t0));
  }
  return std::clamp(int(w), 16, kMaxColumns);
}

// --- panels ------------------------------------------------------------------------------------

int PlotPanel::panelCount() const { return int(d->panels.size()); }

const PlotPanel::Panel& PlotPanel::panel(int index) const { return d->panels.at(std::size_t(index)); }

int PlotPanel::addPanel(Panel p) {
  if (p.columns.isEmpty()) p.columns = defaultColumns(p.kind, d->context);
  d->panels.push_back(std::move(p));
  rebuild();
  emit panelsChanged();
  return int(d->panels.size()) - 1;
}

void PlotPanel::removePanel(int index) {
  if (index < 0 || index >= panelCount() || panelCount() == 1) return;  // one stays
  d->panels.erase(d->panels.begin() + index);
  rebuild();
  emit panelsChanged();
}

void PlotPanel::setPanel(int index, Panel p) {
  if (index < 0 || index >= panelCount()) return;
  d->panels[std::size_t(index)] = std::move(p);
  rebuild();
  emit panelsChanged();
}

int PlotPanel::panelIndex(Chart role) const {
  for (std::size_t i = 0; i < d->panels.size(); ++i) {
    if (d->panels[i].role == int(role)) return int(i);
  }
  return -1;
}

QStringList PlotPanel::quantities() const {
  QStringList out;
  for (std::size_t i = 0; i < d->context.names.size(); ++i) {
    if (d->context.groups[i] != SeriesInfo::Group::AbsError) out << d->context.names[i];
  }
  return out;
}

QMenu* PlotPanel::panelMenu(int index) {
  auto* menu = new QMenu(this);
  menu->setObjectName(QStringLiteral("plotMenu"));
  if (index < 0 || index >= panelCount()) return menu;
  const Panel p = d->panels[std::size_t(index)];
  const QStringList all = quantities();
  if (p.kind == PanelKind::Time) {
    QMenu* show = menu->addMenu(tr("&Quantities"));
    show->setObjectName(QStringLiteral("quantitiesMenu"));
    QString lastGroup;
    for (const QString& q : all) {
      if (p.role == Error) break;  // the error panel shows the energy error alone
      if (group(q) != lastGroup && !lastGroup.isEmpty()) show->addSeparator();
      lastGroup = group(q);
      QAction* a = show->addAction(q);
      a->setCheckable(true);
      a->setChecked(p.columns.contains(q));
      connect(a, &QAction::toggled, this, [this, index, q](bool on) {
        if (index >= panelCount()) return;
        Panel now = panel(index);
        if (on && !now.columns.contains(q)) {
          // In trace order.
          QStringList ordered;
          for (const QString& n : quantities()) {
            if (n == q || now.columns.contains(n)) ordered << n;
          }
          now.columns = ordered;
        } else if (!on) {
          now.columns.removeAll(q);
        }
        setPanel(index, now);
      });
    }
    QAction* dev = menu->addAction(tr("Deviation from the Initial Value (\u0394)"));
    dev->setObjectName(QStringLiteral("deviationAction"));
    dev->setCheckable(true);
    dev->setChecked(p.deviation);
    dev->setToolTip(tr("Plot value - initial value: round-off in a conserved quantity becomes visible"));
    connect(dev, &QAction::toggled, this, [this, index](bool on) {
      if (index >= panelCount()) return;
      Panel now = panel(index);
      now.deviation = on;
      setPanel(index, now);
    });
  } else {
    for (int axis = 0; axis < 2; ++axis) {
      QMenu* sub = menu->addMenu(axis == 0 ? tr("&Horizontal Axis") : tr("&Vertical Axis"));
      auto* groupActions = new QActionGroup(sub);
      for (const QString& q : all) {
        QAction* a = sub->addAction(q);
        a->setCheckable(true);
        a->setChecked(p.columns.value(axis) == q);
        groupActions->addAction(a);
        connect(a, &QAction::triggered, this, [this, index, axis, q] {
          if (index >= panelCount()) return;
          Panel now = panel(index);
          while (now.columns.size() < 2) now.columns << QString();
          now.columns[axis] = q;
          setPanel(index, now);
        });
      }
    }
  }
  menu->addSeparator();
  QAction* remove = menu->addAction(tr("&Remove This Plot"), this, [this, index] { removePanel(index); });
  remove->setObjectName(QStringLiteral("removePlotAction"));
  remove->setEnabled(panelCount() > 1);
  return menu;
}

// --- exploring ---------------------------------------------------------------------------------

void PlotPanel::zoomTime(double t0, double t1) {
  if (!(t1 > t0) || !std::isfinite(t0) || !std::isfinite(t1)) return;
  // Not finer than a few steps across the plot.
  const double least = 4.0 * d->context.h;
  if (t1 - t0 < least) {
    const double mid = 0.5 * (t0 + t1);
    t0 = mid - 0.5 * least;
    t1 = mid + 0.5 * least;
  }
  d->context.window = std::pair{t0, t1};
  resetZoomButton_->setEnabled(true);
  rebuild();
}

void PlotPanel::resetZoom() {
  d->context.window.reset();
  resetZoomButton_->setEnabled(false);
  rebuild();
}

bool PlotPanel::zoomed() const { return d->context.window.has_value(); }

std::pair<double, double> PlotPanel::timeWindow() const {
  return d->context.window ? *d->context.window : d->context.fullRange();
}

QString PlotPanel::readout() const { return d->readout; }

QDialog* PlotPanel::impactDetails() const { return d->impactDialog; }

QString PlotPanel::impactText(int index) const {
  const SnapshotPtr& s = d->context.snapshot;
  if (!s || !s->impactRows || index < 0 || std::size_t(index) >= s->impactRows->size()) return {};
  return impactDescription(s->impactRows->impact(std::size_t(index)), d->context);
}

void PlotPanel::onHover(int chart, QPointF at) {
  QString text;
  const FigureLayout& l = canvas_->figureLayout();
  if (chart >= 0 && std::size_t(chart) < d->charts.size() && l.charts[std::size_t(chart)].area.contains(at)) {
    const PlotChart& c = d->charts[std::size_t(chart)];
    const QRectF a = l.charts[std::size_t(chart)].area;
    const double x = c.tMin + (at.x() - a.left()) / a.width() * (c.tMax - c.tMin);
    if (c.timeAxis()) {
      QStringList parts{tr("t = %1 s").arg(x, 0, 'g', 7)};
      for (const PlotSeries& s : c.series) {
        if (s.segments || s.t.empty()) continue;
        // The plotted point nearest in time.
        const auto it = std::lower_bound(s.t.begin(), s.t.end(), x);
        std::size_t i = std::size_t(it - s.t.begin());
        if (i == s.t.size() || (i > 0 && x - s.t[i - 1] < s.t[i] - x)) --i;
        parts << QStringLiteral("%1 = %2").arg(s.name).arg(s.y[i], 0, 'g', 10);
      }
      text = parts.join(QStringLiteral("   "));
    } else if (!c.series.empty()) {
      // The dot nearest to the pointer.
      const PlotSeries& s = c.series.front();
      const ChartLayout& cl = l.charts[std::size_t(chart)];
      double best = 1e300;
      std::size_t bi = 0;
      for (std::size_t i = 0; i < s.t.size(); ++i) {
        const double dx = pageX(c, cl, s.t[i]) - at.x(), dy = pageY(c, cl, s.y[i]) - at.y();
        if (dx * dx + dy * dy < best) {
          best = dx * dx + dy * dy;
          bi = i;
        }
      }
      if (best < 1e300) {
        text = QStringLiteral("%1 = %2   %3 = %4").arg(c.xTitle).arg(s.t[bi], 0, 'g', 10).arg(c.yTitle).arg(s.y[bi], 0, 'g', 10);
      }
    }
  }
  d->readout = text;
  readout_->setText(text.isEmpty() ? QStringLiteral(" ") : text);
  readout_->setToolTip(text);
}

void PlotPanel::onClick(int chart, QPointF at) {
  if (chart < 0 || std::size_t(chart) >= d->charts.size()) return;
  const PlotChart& c = d->charts[std::size_t(chart)];
  const SnapshotPtr& s = d->context.snapshot;
  if (!c.timeAxis() || !s || !s->impactRows) return;
  const ChartLayout& cl = canvas_->figureLayout().charts[std::size_t(chart)];
  // The impact line nearest to the click, within a few pixels.
  double best = kImpactPickPx;
  double hit = std::nan("");
  for (const PlotSeries& ser : c.series) {
    if (!ser.segments) continue;
    for (std::size_t i = 0; i < ser.t.size(); i += 2) {
      const double dx = std::fabs(pageX(c, cl, ser.t[i]) - at.x());
      if (dx <= best) {
        best = dx;
        hit = ser.t[i];
      }
    }
  }
  if (std::isnan(hit)) return;
  const int index = s->impactRows->nearest(hit);
  if (index < 0) return;
  const QString text = impactText(index);
  if (!d->impactDialog) {
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("impactDetails"));
    dialog->setWindowTitle(tr("Impact"));
    auto* layout = new QVBoxLayout(dialog);
    d->impactLabel = new QLabel;
    d->impactLabel->setObjectName(QStringLiteral("impactText"));
    d->impactLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(d->impactLabel);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(box, &QDialogButtonBox::rejected, dialog, &QDialog::hide);
    layout->addWidget(box);
    d->impactDialog = dialog;
  }
  d->impactLabel->setText(text);
  d->impactDialog->show();
  d->impactDialog->raise();
  emit impactShown(text);
}

// --- what is shown -----------------------------------------------------------------------------

QStringList PlotPanel::seriesNames(Chart chart) const {
  const int i = panelIndex(chart);
  QStringList out;
  if (i < 0) return out;
  if (chart == Error) return {d->context.logError ? QStringLiteral("log10 |energy error|") : QStringLiteral("energy error")};
  for (const QString& n : d->panels[std::size_t(i)].columns) {
    out << (d->panels[std::size_t(i)].deviation ? QStringLiteral("\u0394 ") + n : n);
  }
  return out;
}

std::vector<double> PlotPanel::plottedValues(Chart chart, const QString& name) const {
  const int i = panelIndex(chart);
  if (i < 0) return {};
  for (const PlotSeries& s : d->charts[std::size_t(i)].series) {
    if (s.segments) continue;
    if (s.name == name) return s.y;
  }
  return {};
}

std::vector<double> PlotPanel::plottedTimes(Chart chart) const {
  const int i = panelIndex(chart);
  if (i < 0) return {};
  for (const PlotSeries& s : d->charts[std::size_t(i)].series) {
    if (!s.segments) return s.t;
  }
  return {};
}

int PlotPanel::markerCount(Chart chart) const {
  const int i = panelIndex(chart);
  if (i < 0) return 0;
  for (const PlotSeries& s : d->charts[std::size_t(i)].series) {
    if (s.segments) return int(s.t.size() / 2);
  }
  return 0;
}

bool PlotPanel::chartVisible(Chart chart) const { return panelIndex(chart) >= 0; }

PlotChart PlotPanel::chartData(Chart chart) const {
  const int i = panelIndex(chart);
  return i < 0 ? PlotChart{} : d->charts[std::size_t(i)];
}

PlotChart PlotPanel::panelChart(int index) const {
  return index < 0 || std::size_t(index) >= d->charts.size() ? PlotChart{} : d->charts[std::size_t(index)];
}

PlotFigure PlotPanel::figure() const {
  PlotFigure f;
  f.timeTitle = QString::fromLatin1(plotstyle::kTimeTitle);
  f.charts = d->charts;
  return f;
}

QRectF PlotPanel::plotArea(int index) const {
  const FigureLayout& l = canvas_->figureLayout();
  return index < 0 || std::size_t(index) >= l.charts.size() ? QRectF() : l.charts[std::size_t(index)].area;
}

QRectF PlotPanel::legendRect(int index) const {
  const FigureLayout& l = canvas_->figureLayout();
  return index < 0 || std::size_t(index) >= l.charts.size() ? QRectF() : l.charts[std::size_t(index)].legendRect;
}

}  // namespace ricochet::app
