#include "app/desktop/plot_png.hpp"

#include <QBuffer>
#include <QImage>
#include <QObject>
#include <QOpenGLContext>

#include <X11/Xlib.h>

#include <vtkAxis.h>
#include <vtkBrush.h>
#include <vtkChartLegend.h>
#include <vtkChartXY.h>
#include <vtkContextActor.h>
#include <vtkContextScene.h>
#include <vtkDoubleArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPen.h>
#include <vtkPlotLine.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkStringArray.h>
#include <vtkTable.h>
#include <vtkTextProperty.h>
#include <vtkWindowToImageFilter.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace ricochet::app {

namespace {

namespace ps = plotstyle;

int fontPx(double base, double scale) { return std::max(1, int(std::lround(base * scale))); }

void applyPen(vtkPen* pen, const PlotPen& p, double scale) {
  pen->SetColor(p.colour.r, p.colour.g, p.colour.b, p.colour.a);
  pen->SetWidth(float(p.width * scale));
  pen->SetLineType(p.dashed ? vtkPen::DASH_LINE : vtkPen::SOLID_LINE);
}

// An axis as the panel styles it, text and lines scaled by `scale`.
void styleAxis(vtkAxis* axis, const QString& title, double lo, double hi, bool labels, double scale) {
  axis->SetTitle(title.toStdString());
  axis->GetTitleProperties()->SetFontSize(fontPx(ps::kTitleFont, scale));
  axis->GetTitleProperties()->SetBold(false);
  axis->GetLabelProperties()->SetFontSize(fontPx(ps::kLabelFont, scale));
  axis->SetLabelsVisible(labels);
  // Tick length and label offset stay as they are: VTK places the titles a fixed distance from
  // the labels, so scaling these would push the labels into the titles.
  axis->SetTickLength(float(ps::kTickLength));
  applyPen(axis->GetPen(), ps::kAxisPen, scale);
  applyPen(axis->GetGridPen(), ps::kGridPen, scale);
  axis->SetBehavior(vtkAxis::FIXED);
  axis->SetRange(lo, hi);
}

// `chart` as a VTK chart like the panel's, scaled by `scale`; the lowest chart labels the time.
vtkSmartPointer<vtkChartXY> buildChart(const PlotChart& chart, const QString& timeTitle,
                                       bool lowest, double scale) {
  auto to = vtkSmartPointer<vtkChartXY>::New();
  to->SetAutoSize(false);
  styleAxis(to->GetAxis(vtkAxis::LEFT), chart.yTitle, chart.yMin, chart.yMax, true, scale);
  styleAxis(to->GetAxis(vtkAxis::BOTTOM), lowest ? timeTitle : QString(), chart.tMin, chart.tMax,
            lowest, scale);
  to->SetShowLegend(chart.legend);
  vtkChartLegend* legend = to->GetLegend();
  legend->SetInline(true);
  legend->SetHorizontalAlignment(vtkChartLegend::RIGHT);
  legend->SetVerticalAlignment(vtkChartLegend::TOP);
  legend->GetLabelProperties()->SetFontSize(fontPx(ps::kLegendFont, scale));
  const PlotRgba fill = ps::kLegendFill;
  legend->GetBrush()->SetColor(fill.r, fill.g, fill.b, fill.a);
  applyPen(legend->GetPen(), ps::kLegendEdge, scale);
  legend->SetSymbolWidth(int(std::lround(ps::kLegendSymbolWidth * scale)));
  legend->SetPadding(int(std::lround(ps::kLegendPadding * scale)));

  for (const PlotSeries& s : chart.series) {
    auto table = vtkSmartPointer<vtkTable>::New();
    for (const auto& [name, data] : {std::pair{"t", &s.t}, std::pair{"y", &s.y}}) {
      auto column = vtkSmartPointer<vtkDoubleArray>::New();
      column->SetName(name);
      column->SetNumberOfTuples(vtkIdType(data->size()));
      std::copy(data->begin(), data->end(), column->GetPointer(0));
      table->AddColumn(column);
    }
    auto* line = vtkPlotLine::SafeDownCast(to->AddPlot(vtkChart::LINE));
    line->SetInputData(table, "t", "y");
    line->SetPolyLine(!s.segments);  // segments: pairs of points, one line each
    applyPen(line->GetPen(), s.pen, scale);
    line->SetLabel(s.name.toStdString());
    line->SetLegendVisibility(s.inLegend);
    line->SetVisible(s.drawn());
  }
  return to;
}

// An off-screen VTK window of the export's size holding the charts.
class FigureWindow {
 public:
  ~FigureWindow() {
    scene_ = nullptr;
    if (window_) window_->Finalize();
    window_ = nullptr;
    if (display_) XCloseDisplay(display_);
    // VTK made its own context current: hand the GUI thread back the one Qt believes is current
    // (the live views make theirs current before drawing anyway).
    if (qtContext_ && qtSurface_) qtContext_->makeCurrent(qtSurface_);
  }

  // Empty on success, otherwise why no window could be made.
  QString create(QSize size) {
    // VTK's X11 window aborts the process without a display: ask X first (as OffscreenRenderer).
    const char* name = std::getenv("DISPLAY");
    if (!name || !*name) return QObject::tr("no X display (DISPLAY is not set) to render the plots on");
    display_ = XOpenDisplay(nullptr);
    if (!display_) return QObject::tr("cannot open X display '%1' to render the plots").arg(QString::fromLocal8Bit(name));
    qtContext_ = QOpenGLContext::currentContext();
    qtSurface_ = qtContext_ ? qtContext_->surface() : nullptr;
    window_ = vtkSmartPointer<vtkRenderWindow>::New();
    window_->SetDisplayId(display_);
    window_->SetOffScreenRendering(1);
    window_->SetMultiSamples(8);  // antialiased curves where the driver supports it
    window_->SetSize(size.width(), size.height());
    window_->AddRenderer(renderer_);
    renderer_->SetBackground(1.0, 1.0, 1.0);
    if (!window_->SupportsOpenGL()) {
      return QObject::tr("the X display '%1' offers no OpenGL 3.2 context, which VTK needs to "
                         "render the plots").arg(QString::fromLocal8Bit(name));
    }
    scene_ = vtkSmartPointer<vtkContextScene>::New();
    actor_->SetScene(scene_);
    renderer_->AddActor(actor_);
    size_ = size;
    return {};
  }

  // Shows `charts` (instead of the previous ones) in a window of `size`.
  void setCharts(const std::vector<vtkSmartPointer<vtkChartXY>>& charts, QSize size) {
    scene_->ClearItems();
    for (const auto& c : charts) scene_->AddItem(c);
    size_ = size;
    window_->SetSize(size.width(), size.height());
  }
  // Renders (twice: see render()) without reading the frame back: lays the charts out.
  void layOut() {
    window_->Render();
    window_->Render();
  }
  vtkRenderWindow* window() const { return window_; }

  QImage render() {
    // Twice: the first frame lays the charts out and gives each plot its shift and scale, which
    // the plots' cached points only take up on the next frame (a constant series would be missing).
    layOut();
    vtkNew<vtkWindowToImageFilter> grab;
    grab->SetInput(window_);
    grab->SetInputBufferTypeToRGB();
    grab->ReadFrontBufferOff();  // off-screen: the frame is in the back buffer
    grab->ShouldRerenderOff();
    grab->Update();
    vtkImageData* image = grab->GetOutput();
    int dims[3];
    image->GetDimensions(dims);
    const auto* src = static_cast<const unsigned char*>(image->GetScalarPointer());
    if (!src || dims[0] != size_.width() || dims[1] != size_.height()) return {};
    QImage out(size_, QImage::Format_RGB888);
    const std::size_t row = std::size_t(size_.width()) * 3;
    for (int y = 0; y < size_.height(); ++y) {  // VTK's rows run bottom-up
      std::memcpy(out.scanLine(y), src + std::size_t(size_.height() - 1 - y) * row, row);
    }
    return out;
  }

 private:
  Display* display_ = nullptr;
  QOpenGLContext* qtContext_ = nullptr;
  QSurface* qtSurface_ = nullptr;
  vtkSmartPointer<vtkRenderWindow> window_;
  vtkNew<vtkRenderer> renderer_;
  vtkNew<vtkContextActor> actor_;
  vtkSmartPointer<vtkContextScene> scene_;
  QSize size_;
};

}  // namespace

QString renderPlotsPng(const PlotFigure& figure, QSize size, QByteArray* png) {
  if (figure.charts.empty()) return QObject::tr("no chart to render");
  FigureWindow window;
  const double s = plotExportScale(size);
  // Ticks as dense as on a screen-sized figure: VTK spaces them by pixels, while the labels grow
  // with the scale. So lay the charts out first at the logical size (size / scale, unscaled text),
  // keep those ticks and labels, and then draw at full size with scaled text and lines.
  const QSize logical(int(std::lround(size.width() / s)), int(std::lround(size.height() / s)));
  if (const QString e = window.create(logical); !e.isEmpty()) return e;
  // Stacked as on screen, sharing the time axis: only the lowest chart labels it.
  auto build = [&](double scale, QSize at) {
    std::vector<vtkSmartPointer<vtkChartXY>> built;
    const std::size_t n = figure.charts.size();
    const float w = float(at.width());
    const float ch = float(at.height()) / float(n);
    for (std::size_t i = 0; i < n; ++i) {
      auto chart = buildChart(figure.charts[i], figure.timeTitle, i + 1 == n, scale);
      chart->SetSize(vtkRectf(0.0f, float(at.height()) - float(i + 1) * ch, w, ch));
      built.push_back(chart);
    }
    window.setCharts(built, at);
    return built;
  };
  std::vector<vtkSmartPointer<vtkChartXY>> charts = build(1.0, logical);
  if (s > 1.0) {
    window.layOut();
    std::vector<std::array<vtkSmartPointer<vtkDoubleArray>, 2>> ticks;
    std::vector<std::array<vtkSmartPointer<vtkStringArray>, 2>> labels;
    for (const auto& c : charts) {
      ticks.emplace_back();
      labels.emplace_back();
      for (int a = 0; a < 2; ++a) {
        vtkAxis* axis = c->GetAxis(a == 0 ? vtkAxis::LEFT : vtkAxis::BOTTOM);
        ticks.back()[std::size_t(a)] = vtkSmartPointer<vtkDoubleArray>::New();
        ticks.back()[std::size_t(a)]->DeepCopy(axis->GetTickPositions());
        labels.back()[std::size_t(a)] = vtkSmartPointer<vtkStringArray>::New();
        labels.back()[std::size_t(a)]->DeepCopy(axis->GetTickLabels());
      }
    }
    charts = build(s, size);
    for (std::size_t i = 0; i < charts.size(); ++i) {
      for (int a = 0; a < 2; ++a) {
        vtkAxis* axis = charts[i]->GetAxis(a == 0 ? vtkAxis::LEFT : vtkAxis::BOTTOM);
        if (ticks[i][std::size_t(a)]->GetNumberOfTuples() > 0) {
          axis->SetCustomTickPositions(ticks[i][std::size_t(a)], labels[i][std::size_t(a)]);
        }
      }
    }
  }
  const QImage image = window.render();
  if (image.isNull()) return QObject::tr("the off-screen render failed");
  QBuffer buffer(png);
  buffer.open(QIODevice::WriteOnly);
  if (!image.save(&buffer, "PNG")) return QObject::tr("the PNG could not be encoded");
  return {};
}

}  // namespace ricochet::app
