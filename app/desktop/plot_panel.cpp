#include "app/desktop/plot_panel.hpp"

#include "render/qt/vtk_widget.hpp"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <vtkAxis.h>
#include <vtkBrush.h>
#include <vtkChartLegend.h>
#include <vtkChartXY.h>
#include <vtkContextScene.h>
#include <vtkContextView.h>
#include <vtkDoubleArray.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkPen.h>
#include <vtkPlot.h>
#include <vtkPlotLine.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkTable.h>
#include <vtkTextProperty.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ricochet::app {

namespace {
constexpr int kCharts = 3;
constexpr double kLogFloor = 1e-17;  // |error| below this (round-off of E0 itself) shows as 1e-17
constexpr int kAxisMargin = 90;      // px taken by the y-axis labels, the rest are plot columns

struct Rgb8 {
  unsigned char r, g, b;
};
// Colour-blind friendly palette (Okabe-Ito), total energy in near-black.
constexpr std::array<Rgb8, 8> kPalette{{{0x22, 0x22, 0x22},
                                        {0x00, 0x72, 0xB2},
                                        {0x00, 0x9E, 0x73},
                                        {0xD5, 0x5E, 0x00},
                                        {0xCC, 0x79, 0xA7},
                                        {0x56, 0xB4, 0xE9},
                                        {0xE6, 0x9F, 0x00},
                                        {0x80, 0x80, 0x80}}};

void applyPen(vtkPen* pen, const PlotPen& p) {
  pen->SetColor(p.colour.r, p.colour.g, p.colour.b, p.colour.a);
  pen->SetWidth(float(p.width));
  if (p.dashed) pen->SetLineType(vtkPen::DASH_LINE);
}

std::vector<double> values(vtkAbstractArray* array) {
  auto* a = vtkDoubleArray::SafeDownCast(array);
  if (!a) return {};
  return std::vector<double>(a->GetPointer(0), a->GetPointer(0) + a->GetNumberOfTuples());
}

vtkSmartPointer<vtkDoubleArray> column(const char* name) {
  auto a = vtkSmartPointer<vtkDoubleArray>::New();
  a->SetName(name);
  return a;
}

void styleAxis(vtkAxis* axis, const std::string& title) {
  axis->SetTitle(title);
  axis->GetTitleProperties()->SetFontSize(int(plotstyle::kTitleFont));
  axis->GetTitleProperties()->SetBold(false);
  axis->GetLabelProperties()->SetFontSize(int(plotstyle::kLabelFont));
  axis->SetBehavior(vtkAxis::FIXED);
  axis->SetTickLength(float(plotstyle::kTickLength));
  applyPen(axis->GetPen(), plotstyle::kAxisPen);
  applyPen(axis->GetGridPen(), plotstyle::kGridPen);
}
}  // namespace

struct PlotPanel::Impl {
  struct ChartSlot {
    vtkSmartPointer<vtkChartXY> chart;
    vtkSmartPointer<vtkTable> table;    // "t", then one column per series
    vtkSmartPointer<vtkTable> markers;  // "t", "y": two points per impact line
    std::vector<int> series;            // indices into RunInfo::series / PlotData::y
    std::vector<QString> names;
    std::vector<PlotPen> pens;          // of the series
    vtkPlot* markerPlot = nullptr;
    bool visible = true;
    QString title;                      // of the value axis
    double t0 = 0.0, t1 = 1.0, lo = 0.0, hi = 1.0;  // the axes' ranges
  };
  vtkSmartPointer<vtkContextView> view;
  std::array<ChartSlot, kCharts> charts;
  bool logError = false;
  bool relativeError = true;
  int errorSeries = -1;     // signed error
  int absErrorSeries = -1;  // |error|, for the log view
  double lastH = 0.0;
  std::vector<std::string> seriesNames;  // of the run the charts are built for
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
  bar->addStretch(1);
  errorLabel_ = new QLabel;
  bar->addWidget(errorLabel_);
  layout->addLayout(bar);
  view_ = new render::VtkWidget(this);
  view_->setObjectName(QStringLiteral("plotView"));
  view_->setMinimumSize(200, 240);
  layout->addWidget(view_, 1);
  view_->installEventFilter(this);

  d->view = vtkSmartPointer<vtkContextView>::New();
  d->view->SetRenderWindow(view_->renderWindow());
  d->view->SetInteractor(view_->interactor());
  d->view->GetRenderer()->SetBackground(1.0, 1.0, 1.0);

  const char* titles[kCharts] = {"energy [J]", "relative energy error", "momenta"};
  for (int c = 0; c < kCharts; ++c) {
    Impl::ChartSlot& slot = d->charts[std::size_t(c)];
    slot.chart = vtkSmartPointer<vtkChartXY>::New();
    slot.chart->SetAutoSize(false);
    slot.chart->SetShowLegend(true);
    slot.chart->GetLegend()->SetInline(true);
    slot.chart->GetLegend()->SetHorizontalAlignment(vtkChartLegend::RIGHT);
    slot.chart->GetLegend()->SetVerticalAlignment(vtkChartLegend::TOP);
    slot.chart->GetLegend()->GetLabelProperties()->SetFontSize(int(plotstyle::kLegendFont));
    slot.chart->GetLegend()->SetPadding(plotstyle::kLegendPadding);
    slot.chart->GetLegend()->SetSymbolWidth(plotstyle::kLegendSymbolWidth);
    const PlotRgba fill = plotstyle::kLegendFill;
    slot.chart->GetLegend()->GetBrush()->SetColor(fill.r, fill.g, fill.b, fill.a);
    applyPen(slot.chart->GetLegend()->GetPen(), plotstyle::kLegendEdge);
    // The axes follow the run; mouse pan/zoom would be undone by the next frame.
    slot.chart->SetActionToButton(vtkChart::PAN, -1);
    slot.chart->SetActionToButton(vtkChart::ZOOM, -1);
    slot.chart->SetActionToButton(vtkChart::ZOOM_AXIS, -1);
    slot.chart->SetActionToButton(vtkChart::SELECT, -1);
    slot.chart->SetZoomWithMouseWheel(false);
    slot.title = QString::fromLatin1(titles[c]);
    styleAxis(slot.chart->GetAxis(vtkAxis::LEFT), titles[c]);
    styleAxis(slot.chart->GetAxis(vtkAxis::BOTTOM), "");  // layoutCharts titles the lowest one
    // A single series is named by its axis title; a legend would only repeat it.
    if (c == Error) slot.chart->SetShowLegend(false);
    d->view->GetScene()->AddItem(slot.chart);
  }
  connect(logBox_, &QCheckBox::toggled, this, [this](bool on) {
    setLogError(on);
    emit logErrorToggled(on);
  });
}

PlotPanel::~PlotPanel() = default;

void PlotPanel::setRun(const RunInfo& info) {
  d->relativeError = info.relativeError;
  d->errorSeries = d->absErrorSeries = -1;
  for (std::size_t i = 0; i < info.series.size(); ++i) {
    if (info.series[i].group == SeriesInfo::Group::Error) d->errorSeries = int(i);
    if (info.series[i].group == SeriesInfo::Group::AbsError) d->absErrorSeries = int(i);
  }
  d->lastH = info.scenario.integrator.h;
  std::vector<std::string> names;
  for (const SeriesInfo& si : info.series) names.push_back(si.name);
  if (names == d->seriesNames) {
    // Same series (a restart of the same system): keep the plots, drop the data.
    for (Impl::ChartSlot& slot : d->charts) {
      for (vtkIdType k = 0; k < slot.table->GetNumberOfColumns(); ++k) {
        slot.table->GetColumn(k)->SetNumberOfTuples(0);
      }
      slot.table->Modified();
      for (vtkIdType k = 0; k < slot.markers->GetNumberOfColumns(); ++k) {
        slot.markers->GetColumn(k)->SetNumberOfTuples(0);
      }
      slot.markers->Modified();
      for (int k = 0; k < slot.chart->GetNumberOfPlots(); ++k) {
        slot.chart->GetPlot(k)->SetVisible(false);
      }
    }
    refreshErrorMode();
    view_->requestRender();
    return;
  }
  d->seriesNames = names;
  for (int c = 0; c < kCharts; ++c) {
    Impl::ChartSlot& slot = d->charts[std::size_t(c)];
    slot.chart->ClearPlots();
    slot.series.clear();
    slot.names.clear();
    slot.pens.clear();
    slot.table = vtkSmartPointer<vtkTable>::New();
    slot.table->AddColumn(column("t"));
    for (std::size_t i = 0; i < info.series.size(); ++i) {
      const SeriesInfo::Group g = info.series[i].group;
      const bool mine = (c == Energy && g == SeriesInfo::Group::Energy) ||
                        (c == Error && g == SeriesInfo::Group::Error) ||
                        (c == Momentum && g == SeriesInfo::Group::Momentum);
      if (!mine) continue;
      slot.series.push_back(int(i));
      slot.names.push_back(QString::fromStdString(info.series[i].name));
      slot.table->AddColumn(column(info.series[i].name.c_str()));
    }
    slot.markers = vtkSmartPointer<vtkTable>::New();
    slot.markers->AddColumn(column("t"));
    slot.markers->AddColumn(column("impacts"));
    // Impact lines first, so the curves are drawn over them.
    auto* markers = vtkPlotLine::SafeDownCast(slot.chart->AddPlot(vtkChart::LINE));
    markers->SetPolyLine(false);  // pairs of points: one vertical segment per impact
    markers->SetInputData(slot.markers, 0, 1);
    applyPen(markers->GetPen(), plotstyle::kImpactPen);
    markers->SetLabel("impacts");
    markers->SetLegendVisibility(c == Energy);  // one legend entry is enough
    slot.markerPlot = markers;
    for (std::size_t k = 0; k < slot.series.size(); ++k) {
      vtkPlot* p = slot.chart->AddPlot(vtkChart::LINE);
      p->SetInputData(slot.table, 0, vtkIdType(k + 1));
      const Rgb8 col = c == Energy ? kPalette[k % kPalette.size()]
                                   : kPalette[(k + 1) % kPalette.size()];
      const PlotPen pen{{col.r, col.g, col.b, 255},
                        c == Energy && k == 0 ? 2.0 : 1.5,
                        c == Energy && slot.names[k].startsWith(QStringLiteral("e."))};
      slot.pens.push_back(pen);
      applyPen(p->GetPen(), pen);
      p->SetLabel(slot.names[k].toStdString());
    }
    // Curves appear with their data (VTK complains about lines of fewer than two points).
    for (int k = 0; k < slot.chart->GetNumberOfPlots(); ++k) slot.chart->GetPlot(k)->SetVisible(false);
    slot.visible = !(c == Momentum && slot.series.empty());
    slot.chart->SetVisible(slot.visible);
  }
  refreshErrorMode();
  layoutCharts();
  view_->requestRender();
}

void PlotPanel::refreshErrorMode() {
  Impl::ChartSlot& slot = d->charts[Error];
  vtkAxis* axis = slot.chart->GetAxis(vtkAxis::LEFT);
  if (d->logError) {
    slot.title = d->relativeError ? QStringLiteral("log10 |(E - E0)/E0|")
                                  : QStringLiteral("log10 |(E - E0)/(K0 + |V0|)|");
  } else {
    slot.title = d->relativeError ? QStringLiteral("(E - E0)/|E0|")
                                  : QStringLiteral("(E - E0)/(K0 + |V0|)");
  }
  axis->SetTitle(slot.title.toStdString());
  if (!slot.names.empty()) {
    slot.names[0] = d->logError ? QStringLiteral("log10 |energy error|")
                                : QStringLiteral("energy error");
    slot.chart->GetPlot(1)->SetLabel(slot.names[0].toStdString());
  }
  errorLabel_->clear();
}

void PlotPanel::setLogError(bool log) {
  if (logBox_->isChecked() != log) {
    logBox_->setChecked(log);  // re-enters through toggled
    return;
  }
  d->logError = log;
  refreshErrorMode();
}

bool PlotPanel::logError() const { return d->logError; }

void PlotPanel::setSnapshot(const Snapshot& s) {
  const trace::PlotData& p = s.plot;
  const vtkIdType n = vtkIdType(p.t.size());
  double t0 = n > 0 ? p.t.front() : 0.0;
  double t1 = n > 0 ? p.t.back() : 1.0;
  if (!(t1 > t0)) t1 = t0 + std::max(d->lastH, 1e-9);

  for (int c = 0; c < kCharts; ++c) {
    Impl::ChartSlot& slot = d->charts[std::size_t(c)];
    if (!slot.visible || !slot.table) continue;
    auto* tcol = vtkDoubleArray::SafeDownCast(slot.table->GetColumn(0));
    tcol->SetNumberOfTuples(n);
    std::copy(p.t.begin(), p.t.end(), tcol->GetPointer(0));
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (std::size_t k = 0; k < slot.series.size(); ++k) {
      int src = slot.series[k];
      const bool logView = c == Error && d->logError;
      if (logView) src = d->absErrorSeries;
      auto* col = vtkDoubleArray::SafeDownCast(slot.table->GetColumn(vtkIdType(k + 1)));
      col->SetNumberOfTuples(n);
      double* out = col->GetPointer(0);
      const std::vector<double>& y = p.y[std::size_t(src)];
      for (vtkIdType i = 0; i < n; ++i) {
        double v = y[std::size_t(i)];
        if (logView) v = std::log10(std::max(v, kLogFloor));
        out[i] = v;
        if (std::isfinite(v)) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
      }
      col->Modified();
    }
    tcol->Modified();
    slot.table->Modified();
    if (!(lo <= hi)) {
      lo = -1.0;
      hi = 1.0;
    }
    // Pad the range by 5%; a flat series gets a small band around its value.
    double pad = 0.05 * (hi - lo);
    if (!(pad > 0.0)) pad = std::max(1e-12, 1e-3 * std::fabs(hi));
    if (c == Error && d->logError) pad = std::max(pad, 0.25);
    lo -= pad;
    hi += pad;
    slot.chart->GetAxis(vtkAxis::LEFT)->SetRange(lo, hi);
    slot.chart->GetAxis(vtkAxis::BOTTOM)->SetRange(t0, t1);
    slot.lo = lo;
    slot.hi = hi;
    slot.t0 = t0;
    slot.t1 = t1;

    // Impact markers: one vertical line per plot column holding an impact; when impacts are
    // dense (more than one column in eight), short ticks on the time axis instead, so the
    // curves are not buried under a red wash.
    const vtkIdType m = vtkIdType(p.eventTimes.size());
    const bool dense = m * 8 > vtkIdType(plotColumns());
    const double markTop = dense ? lo + 0.06 * (hi - lo) : hi;
    auto* mt = vtkDoubleArray::SafeDownCast(slot.markers->GetColumn(0));
    auto* my = vtkDoubleArray::SafeDownCast(slot.markers->GetColumn(1));
    mt->SetNumberOfTuples(2 * m);
    my->SetNumberOfTuples(2 * m);
    for (vtkIdType i = 0; i < m; ++i) {
      mt->SetValue(2 * i, p.eventTimes[std::size_t(i)]);
      mt->SetValue(2 * i + 1, p.eventTimes[std::size_t(i)]);
      my->SetValue(2 * i, lo);
      my->SetValue(2 * i + 1, markTop);
    }
    mt->Modified();
    my->Modified();
    slot.markers->Modified();
    slot.markerPlot->SetVisible(m > 0);
    for (std::size_t k = 0; k < slot.series.size(); ++k) {
      slot.chart->GetPlot(vtkIdType(k + 1))->SetVisible(n >= 2);
    }
  }
  if (d->errorSeries >= 0) {
    errorLabel_->setText(
        tr("%1 = %2")
            .arg(d->relativeError ? tr("(E - E0)/|E0|") : tr("(E - E0)/(K0 + |V0|)"))
            .arg(s.energyError, 0, 'e', 3));
  }
  view_->requestRender();
}

int PlotPanel::plotColumns() const {
  const int w = int(view_->width() * view_->devicePixelRatioF());
  return std::max(16, w - kAxisMargin);
}

void PlotPanel::layoutCharts() {
  const double dpr = view_->devicePixelRatioF();
  const float w = float(view_->width() * dpr);
  const float h = float(view_->height() * dpr);
  int visible = 0;
  for (const auto& slot : d->charts) visible += slot.visible ? 1 : 0;
  if (visible == 0) return;
  const float ch = h / float(visible);
  float top = h;
  int seen = 0;
  for (auto& slot : d->charts) {
    if (!slot.visible) continue;
    top -= ch;
    slot.chart->SetSize(vtkRectf(0.0f, top, w, ch));
    // The charts share the time axis: only the lowest one labels it (fewer strings for VTK to
    // measure and draw every frame, and the two upper charts get the height).
    const bool bottom = ++seen == visible;
    vtkAxis* t = slot.chart->GetAxis(vtkAxis::BOTTOM);
    t->SetLabelsVisible(bottom);
    t->SetTitle(bottom ? plotstyle::kTimeTitle : "");
  }
  emit plotColumnsChanged(plotColumns());
  view_->requestRender();
}

bool PlotPanel::eventFilter(QObject* watched, QEvent* event) {
  if (watched == view_ && event->type() == QEvent::Resize) layoutCharts();
  return QWidget::eventFilter(watched, event);
}

QStringList PlotPanel::seriesNames(Chart chart) const {
  QStringList out;
  for (const QString& n : d->charts[std::size_t(chart)].names) out << n;
  return out;
}

std::vector<double> PlotPanel::plottedValues(Chart chart, const QString& name) const {
  const Impl::ChartSlot& slot = d->charts[std::size_t(chart)];
  for (std::size_t k = 0; k < slot.names.size(); ++k) {
    if (slot.names[k] == name && slot.table) return values(slot.table->GetColumn(vtkIdType(k + 1)));
  }
  return {};
}

std::vector<double> PlotPanel::plottedTimes(Chart chart) const {
  const Impl::ChartSlot& slot = d->charts[std::size_t(chart)];
  return slot.table ? values(slot.table->GetColumn(0)) : std::vector<double>{};
}

int PlotPanel::markerCount(Chart chart) const {
  const Impl::ChartSlot& slot = d->charts[std::size_t(chart)];
  return slot.markers ? int(slot.markers->GetNumberOfRows() / 2) : 0;
}

bool PlotPanel::chartVisible(Chart chart) const { return d->charts[std::size_t(chart)].visible; }

PlotChart PlotPanel::chartData(Chart chart) const {
  const Impl::ChartSlot& slot = d->charts[std::size_t(chart)];
  PlotChart out;
  out.yTitle = slot.title;
  out.tMin = slot.t0;
  out.tMax = slot.t1;
  out.yMin = slot.lo;
  out.yMax = slot.hi;
  out.legend = slot.chart->GetShowLegend();
  if (!slot.table) return out;
  if (slot.markers && slot.markers->GetNumberOfRows() > 0) {
    PlotSeries impacts{QStringLiteral("impacts"), plotstyle::kImpactPen,
                       values(slot.markers->GetColumn(0)), values(slot.markers->GetColumn(1)),
                       true, chart == Energy};
    out.series.push_back(std::move(impacts));
  }
  const std::vector<double> t = values(slot.table->GetColumn(0));
  for (std::size_t k = 0; k < slot.series.size(); ++k) {
    out.series.push_back({slot.names[k], slot.pens[k], t,
                          values(slot.table->GetColumn(vtkIdType(k + 1))), false, true});
  }
  return out;
}

}  // namespace ricochet::app
