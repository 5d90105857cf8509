#include "app/desktop/plot_export.hpp"

#include "app/desktop/main_window.hpp"
#include "app/desktop/plot_panel.hpp"
#include "render/vtk_widget.hpp"

#include <QBuffer>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFont>
#include <QFontMetricsF>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QOpenGLContext>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <X11/Xlib.h>

#include <vtkAxis.h>
#include <vtkBrush.h>
#include <vtkChartLegend.h>
#include <vtkChartXY.h>
#include <vtkColor.h>
#include <vtkContextActor.h>
#include <vtkContextMapper2D.h>
#include <vtkContextScene.h>
#include <vtkDataArray.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPen.h>
#include <vtkPlot.h>
#include <vtkPlotLine.h>
#include <vtkPropCollection.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>
#include <vtkRendererCollection.h>
#include <vtkDoubleArray.h>
#include <vtkStringArray.h>
#include <vtkSmartPointer.h>
#include <vtkTable.h>
#include <vtkTextProperty.h>
#include <vtkWindowToImageFilter.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

namespace ricochet::app {

namespace {
constexpr int kMinSide = 64;
constexpr int kMaxSide = 8192;

constexpr SizePreset kSizes[] = {{"1600 \u00d7 1000", 1600, 1000},
                                 {"1200 \u00d7 900", 1200, 900},
                                 {"2400 \u00d7 1500", 2400, 1500},
                                 {"3200 \u00d7 2000 (print)", 3200, 2000},
                                 {"800 \u00d7 500", 800, 500},
                                 {"1000 \u00d7 1400 (portrait)", 1000, 1400}};

QString extensionOf(PlotFormat f) { return f == PlotFormat::Png ? QStringLiteral("png") : QStringLiteral("svg"); }

// --- Copying the live charts -----------------------------------------------------------------

// The charts PlotPanel draws, in its order (Energy, Error, Momentum): the vtkChartXY items of the
// context scene held by the panel's render window (a vtkContextActor in one of its renderers).
std::vector<vtkChartXY*> liveCharts(const PlotPanel& panel) {
  std::vector<vtkChartXY*> charts;
  vtkRendererCollection* renderers = panel.view()->renderWindow()->GetRenderers();
  renderers->InitTraversal();
  while (vtkRenderer* ren = renderers->GetNextItem()) {
    vtkPropCollection* props = ren->GetViewProps();
    props->InitTraversal();
    while (vtkProp* prop = props->GetNextProp()) {
      auto* actor = vtkContextActor::SafeDownCast(prop);
      if (!actor || !actor->GetScene()) continue;
      vtkContextScene* scene = actor->GetScene();
      for (unsigned i = 0; i < scene->GetNumberOfItems(); ++i) {
        if (auto* chart = vtkChartXY::SafeDownCast(scene->GetItem(i))) charts.push_back(chart);
      }
    }
  }
  return charts;
}

void copyText(vtkTextProperty* to, vtkTextProperty* from, double s) {
  to->ShallowCopy(from);
  to->SetFontSize(std::max(1, int(std::lround(from->GetFontSize() * s))));
}

void copyPen(vtkPen* to, vtkPen* from, double s) {
  to->DeepCopy(from);
  to->SetWidth(float(from->GetWidth() * s));
}

void copyAxis(vtkAxis* to, vtkAxis* from, double s) {
  to->SetTitle(from->GetTitle());
  to->SetTitleVisible(from->GetTitleVisible());
  copyText(to->GetTitleProperties(), from->GetTitleProperties(), s);
  copyText(to->GetLabelProperties(), from->GetLabelProperties(), s);
  to->SetLabelsVisible(from->GetLabelsVisible());
  to->SetTicksVisible(from->GetTicksVisible());
  to->SetAxisVisible(from->GetAxisVisible());
  to->SetGridVisible(from->GetGridVisible());
  to->SetNotation(from->GetNotation());
  to->SetPrecision(from->GetPrecision());
  // Tick length and label offset stay as they are: VTK places the titles a fixed distance from
  // the labels, so scaling these would push the labels into the titles.
  to->SetTickLength(from->GetTickLength());
  to->SetLabelOffset(from->GetLabelOffset());
  copyPen(to->GetPen(), from->GetPen(), s);
  copyPen(to->GetGridPen(), from->GetGridPen(), s);
  to->SetLogScale(from->GetLogScale());
  to->SetBehavior(vtkAxis::FIXED);  // the live axes follow the run; the figure keeps this view
  to->SetRange(from->GetMinimum(), from->GetMaximum());
}

// A copy of `from` (its plots drawing frozen copies of their tables), fonts and pens scaled by s.
vtkSmartPointer<vtkChartXY> copyChart(vtkChartXY* from, double s,
                                      std::map<vtkTable*, vtkSmartPointer<vtkTable>>& tables) {
  auto to = vtkSmartPointer<vtkChartXY>::New();
  to->SetAutoSize(false);
  copyAxis(to->GetAxis(vtkAxis::LEFT), from->GetAxis(vtkAxis::LEFT), s);
  copyAxis(to->GetAxis(vtkAxis::BOTTOM), from->GetAxis(vtkAxis::BOTTOM), s);
  to->SetShowLegend(from->GetShowLegend());
  vtkChartLegend* lf = from->GetLegend();
  vtkChartLegend* lt = to->GetLegend();
  lt->SetInline(lf->GetInline());
  lt->SetHorizontalAlignment(lf->GetHorizontalAlignment());
  lt->SetVerticalAlignment(lf->GetVerticalAlignment());
  copyText(lt->GetLabelProperties(), lf->GetLabelProperties(), s);
  lt->GetBrush()->DeepCopy(lf->GetBrush());
  copyPen(lt->GetPen(), lf->GetPen(), s);
  lt->SetSymbolWidth(int(std::lround(lf->GetSymbolWidth() * s)));
  lt->SetPadding(int(std::lround(lf->GetPadding() * s)));

  for (vtkIdType k = 0; k < from->GetNumberOfPlots(); ++k) {
    vtkPlot* p = from->GetPlot(k);
    auto* line = vtkPlotLine::SafeDownCast(p);
    vtkTable* input = p->GetInput();
    if (!line || !input) continue;  // PlotPanel draws lines only
    vtkDataArray* x = p->GetData()->GetInputArrayToProcess(0, input);
    vtkDataArray* y = p->GetData()->GetInputArrayToProcess(1, input);
    if (!x || !y || !x->GetName() || !y->GetName()) continue;
    vtkSmartPointer<vtkTable>& copy = tables[input];
    if (!copy) {
      copy = vtkSmartPointer<vtkTable>::New();
      copy->DeepCopy(input);
    }
    auto* q = vtkPlotLine::SafeDownCast(to->AddPlot(vtkChart::LINE));
    q->SetInputData(copy, x->GetName(), y->GetName());
    q->SetUseIndexForXSeries(p->GetUseIndexForXSeries());
    q->SetPolyLine(line->GetPolyLine());
    q->SetMarkerStyle(line->GetMarkerStyle());
    copyPen(q->GetPen(), p->GetPen(), s);
    q->GetBrush()->DeepCopy(p->GetBrush());
    q->SetLabel(p->GetLabel());
    q->SetLegendVisibility(p->GetLegendVisibility());
    q->SetVisible(p->GetVisible() && copy->GetNumberOfRows() >= 2);
  }
  return to;
}

// --- Off-screen rendering --------------------------------------------------------------------

// An off-screen VTK window of the export's size holding copies of the charts.
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

// --- SVG ----------------------------------------------------------------------------------------

QString num(double v) { return QString::number(v, 'f', 2); }

QString colour(const vtkColor4ub& c) {
  return QStringLiteral("#%1%2%3")
      .arg(c.GetRed(), 2, 16, QLatin1Char('0'))
      .arg(c.GetGreen(), 2, 16, QLatin1Char('0'))
      .arg(c.GetBlue(), 2, 16, QLatin1Char('0'));
}

// stroke, its opacity, width and dashes of a VTK pen.
QString strokeOf(vtkPen* pen) {
  const vtkColor4ub c = pen->GetColorObject();
  QString a = QStringLiteral("stroke=\"%1\" stroke-width=\"%2\"").arg(colour(c), num(pen->GetWidth()));
  if (c.GetAlpha() < 255) a += QStringLiteral(" stroke-opacity=\"%1\"").arg(c.GetAlpha() / 255.0, 0, 'f', 3);
  const double w = std::max(1.0, double(pen->GetWidth()));
  switch (pen->GetLineType()) {
    case vtkPen::DASH_LINE: a += QStringLiteral(" stroke-dasharray=\"%1,%2\"").arg(num(4 * w), num(3 * w)); break;
    case vtkPen::DOT_LINE: a += QStringLiteral(" stroke-dasharray=\"%1,%2\"").arg(num(w), num(2 * w)); break;
    case vtkPen::DASH_DOT_LINE:
      a += QStringLiteral(" stroke-dasharray=\"%1,%2,%3,%2\"").arg(num(4 * w), num(2 * w), num(w));
      break;
    default: break;
  }
  return a;
}

QString fontOf(double px) {
  // VTK draws with its own Arial; Liberation Sans has the same metrics.
  return QStringLiteral("font-family=\"Arial, 'Liberation Sans', Helvetica, sans-serif\" font-size=\"%1\"").arg(num(px));
}

// Width of `text` at `px` pixels in a sans-serif font (the legend box's size).
double textWidth(const QString& text, double px) {
  QFont f(QStringLiteral("Arial"));
  f.setPixelSize(std::max(1, int(std::lround(px))));
  return QFontMetricsF(f).horizontalAdvance(text);
}

// The charts as an SVG drawing of `size`: scene y runs up, SVG y down (y_svg = H - y_scene).
QByteArray svgOf(const std::vector<vtkSmartPointer<vtkChartXY>>& charts, QSize size, const QString& title) {
  const double H = size.height();
  QString o;
  o += QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  o += QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%1\" height=\"%2\" "
                      "viewBox=\"0 0 %1 %2\">\n")
           .arg(size.width()).arg(size.height());
  o += QStringLiteral("<title>%1</title>\n<desc>Ricochet plots</desc>\n").arg(title.toHtmlEscaped());
  o += QStringLiteral("<rect x=\"0\" y=\"0\" width=\"%1\" height=\"%2\" fill=\"#ffffff\"/>\n")
           .arg(size.width()).arg(size.height());
  // One plot-area width for all charts, so the stacked time axes line up, with room on the left
  // for the y tick labels and title as measured here (viewers without Arial substitute wider
  // fonts than the one VTK laid the charts out with).
  double xLeft = 0.0, xRight = size.width();
  for (const auto& chart : charts) {
    vtkAxis* left = chart->GetAxis(vtkAxis::LEFT);
    vtkAxis* bottom = chart->GetAxis(vtkAxis::BOTTOM);
    double need = chart->GetSize().GetX() + (left->GetTicksVisible() ? left->GetTickLength() : 0.0);
    if (left->GetLabelsVisible()) {
      const double fs = left->GetLabelProperties()->GetFontSize();
      double widest = 0.0;
      vtkStringArray* labels = left->GetTickLabels();
      for (vtkIdType i = 0; labels && i < labels->GetNumberOfValues(); ++i) {
        widest = std::max(widest, textWidth(QString::fromStdString(labels->GetValue(i)), fs));
      }
      need += 0.3 * fs + widest;
    }
    if (left->GetTitleVisible() && !left->GetTitle().empty()) need += 1.4 * left->GetTitleProperties()->GetFontSize();
    xLeft = std::max({xLeft, need, double(bottom->GetPoint1()[0])});
    xRight = std::min(xRight, double(bottom->GetPoint2()[0]));
  }
  int clipId = 0;
  for (const auto& chart : charts) {
    vtkAxis* left = chart->GetAxis(vtkAxis::LEFT);
    vtkAxis* bottom = chart->GetAxis(vtkAxis::BOTTOM);
    const double x0 = xLeft, x1 = xRight;
    const double y0 = left->GetPoint1()[1], y1 = left->GetPoint2()[1];  // scene: y0 < y1
    const double tmin = bottom->GetMinimum(), tmax = bottom->GetMaximum();
    const double vmin = left->GetMinimum(), vmax = left->GetMaximum();
    if (!(x1 > x0) || !(y1 > y0) || !(tmax > tmin) || !(vmax > vmin)) continue;
    auto X = [&](double t) { return x0 + (t - tmin) / (tmax - tmin) * (x1 - x0); };
    auto sceneY = [&](double v) { return y0 + (v - vmin) / (vmax - vmin) * (y1 - y0); };
    auto Y = [&](double v) { return H - sceneY(v); };
    auto tickAt = [&](vtkAxis* axis, double v) { return axis == bottom ? X(v) : sceneY(v); };
    const QString clip = QStringLiteral("plotArea%1").arg(++clipId);
    // (In <defs>: renderers without clip paths, e.g. SVG Tiny ones, then skip it instead of
    // painting the rectangle.)
    o += QStringLiteral("<g class=\"chart\">\n<defs><clipPath id=\"%1\"><rect x=\"%2\" y=\"%3\" width=\"%4\" height=\"%5\"/></clipPath></defs>\n")
             .arg(clip, num(x0), num(H - y1), num(x1 - x0), num(y1 - y0));

    // Grid at the ticks.
    for (vtkAxis* axis : {bottom, left}) {
      if (!axis->GetGridVisible()) continue;
      vtkDoubleArray* at = axis->GetTickPositions();
      o += QStringLiteral("<g fill=\"none\" %1>\n").arg(strokeOf(axis->GetGridPen()));
      for (vtkIdType i = 0; at && i < at->GetNumberOfTuples(); ++i) {
        const double p = tickAt(axis, at->GetValue(i));
        if (axis == bottom) {
          o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\"/>\n").arg(num(p), num(H - y0), num(H - y1));
        } else {
          o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\"/>\n").arg(num(x0), num(H - p), num(x1));
        }
      }
      o += QStringLiteral("</g>\n");
    }

    // The plots in drawing order (impact markers first, under the curves), clipped to the area.
    o += QStringLiteral("<g clip-path=\"url(#%1)\" fill=\"none\" stroke-linejoin=\"round\" stroke-linecap=\"butt\">\n").arg(clip);
    for (vtkIdType k = 0; k < chart->GetNumberOfPlots(); ++k) {
      auto* plot = vtkPlotLine::SafeDownCast(chart->GetPlot(k));
      vtkTable* table = plot ? plot->GetInput() : nullptr;
      if (!plot || !plot->GetVisible() || !table) continue;
      vtkDataArray* xs = plot->GetData()->GetInputArrayToProcess(0, table);
      vtkDataArray* ys = plot->GetData()->GetInputArrayToProcess(1, table);
      if (!xs || !ys) continue;
      const vtkIdType n = std::min(xs->GetNumberOfTuples(), ys->GetNumberOfTuples());
      const QString attrs = QStringLiteral("%1 data-series=\"%2\"")
                                .arg(strokeOf(plot->GetPen()), QString::fromStdString(plot->GetLabel()).toHtmlEscaped());
      if (plot->GetPolyLine()) {
        // One polyline per run of finite points.
        QString points;
        int count = 0;
        auto flush = [&] {
          if (count >= 2) o += QStringLiteral("<polyline %1 points=\"%2\"/>\n").arg(attrs, points.trimmed());
          points.clear();
          count = 0;
        };
        for (vtkIdType i = 0; i < n; ++i) {
          const double t = xs->GetTuple1(i), v = ys->GetTuple1(i);
          if (!std::isfinite(t) || !std::isfinite(v)) {
            flush();
            continue;
          }
          points += num(X(t)) + QLatin1Char(',') + num(Y(v)) + QLatin1Char(' ');
          ++count;
        }
        flush();
      } else {
        // Pairs of points: separate segments (the impact lines).
        QString d;
        for (vtkIdType i = 0; i + 1 < n; i += 2) {
          const double ta = xs->GetTuple1(i), va = ys->GetTuple1(i);
          const double tb = xs->GetTuple1(i + 1), vb = ys->GetTuple1(i + 1);
          if (!std::isfinite(ta + va + tb + vb)) continue;
          d += QStringLiteral("M%1 %2L%3 %4").arg(num(X(ta)), num(Y(va)), num(X(tb)), num(Y(vb)));
        }
        if (!d.isEmpty()) o += QStringLiteral("<path %1 d=\"%2\"/>\n").arg(attrs, d);
      }
    }
    o += QStringLiteral("</g>\n");

    // Axes: line, ticks, tick labels, title.
    for (vtkAxis* axis : {bottom, left}) {
      const bool isLeft = axis == left;
      const double tick = axis->GetTicksVisible() ? axis->GetTickLength() : 0.0;
      if (axis->GetAxisVisible()) {
        o += QStringLiteral("<g fill=\"none\" %1>\n").arg(strokeOf(axis->GetPen()));
        o += isLeft ? QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\"/>\n").arg(num(x0), num(H - y0), num(H - y1))
                    : QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\"/>\n").arg(num(x0), num(H - y0), num(x1));
        vtkDoubleArray* at = axis->GetTickPositions();
        for (vtkIdType i = 0; tick > 0 && at && i < at->GetNumberOfTuples(); ++i) {
          const double p = tickAt(axis, at->GetValue(i));
          o += isLeft ? QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\"/>\n").arg(num(x0 - tick), num(H - p), num(x0))
                      : QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\"/>\n").arg(num(p), num(H - y0), num(H - y0 + tick));
        }
        o += QStringLiteral("</g>\n");
      }
      if (axis->GetLabelsVisible()) {
        const double fs = axis->GetLabelProperties()->GetFontSize();
        vtkDoubleArray* at = axis->GetTickPositions();
        vtkStringArray* labels = axis->GetTickLabels();
        o += QStringLiteral("<g fill=\"#000000\" %1 text-anchor=\"%2\">\n").arg(fontOf(fs), isLeft ? QStringLiteral("end") : QStringLiteral("middle"));
        for (vtkIdType i = 0; at && labels && i < at->GetNumberOfTuples() && i < labels->GetNumberOfValues(); ++i) {
          const QString text = QString::fromStdString(labels->GetValue(i)).toHtmlEscaped();
          const double p = tickAt(axis, at->GetValue(i));
          o += isLeft ? QStringLiteral("<text x=\"%1\" y=\"%2\">%3</text>\n").arg(num(x0 - tick - 0.3 * fs), num(H - p + 0.35 * fs), text)
                      : QStringLiteral("<text x=\"%1\" y=\"%2\">%3</text>\n").arg(num(p), num(H - y0 + tick + 1.0 * fs), text);
        }
        o += QStringLiteral("</g>\n");
      }
      const std::string t = axis->GetTitle();
      if (axis->GetTitleVisible() && !t.empty()) {
        const double fs = axis->GetTitleProperties()->GetFontSize();
        const vtkRectf box = chart->GetSize();
        const QString text = QString::fromStdString(t).toHtmlEscaped();
        if (isLeft) {
          const double x = box.GetX() + 0.9 * fs;  // baseline: the chart's left edge + the ascent
          const double y = H - 0.5 * (y0 + y1);
          o += QStringLiteral("<text fill=\"#000000\" %1 text-anchor=\"middle\" transform=\"translate(%2,%3) rotate(-90)\">%4</text>\n")
                   .arg(fontOf(fs), num(x), num(y), text);
        } else {
          // Below the tick labels where the chart's bottom margin allows, else at its bottom edge.
          const double labels = bottom->GetLabelsVisible() ? 1.3 * bottom->GetLabelProperties()->GetFontSize() : 0.0;
          const double y = std::min(H - box.GetY() - 0.25 * fs, H - y0 + tick + labels + 0.9 * fs);
          o += QStringLiteral("<text fill=\"#000000\" %1 text-anchor=\"middle\" x=\"%2\" y=\"%3\">%4</text>\n")
                   .arg(fontOf(fs), num(0.5 * (x0 + x1)), num(y), text);
        }
      }
    }

    // Legend: top right inside the plot area, as VTK draws it (inline).
    if (chart->GetShowLegend()) {
      vtkChartLegend* legend = chart->GetLegend();
      std::vector<vtkPlot*> entries;
      for (vtkIdType k = 0; k < chart->GetNumberOfPlots(); ++k) {
        vtkPlot* p = chart->GetPlot(k);
        if (p->GetVisible() && p->GetLegendVisibility() && !p->GetLabel().empty()) entries.push_back(p);
      }
      if (!entries.empty()) {
        const double fs = legend->GetLabelProperties()->GetFontSize();
        const double pad = std::max(2, legend->GetPadding());
        const double sym = std::max(8, legend->GetSymbolWidth());
        const double row = 1.3 * fs;
        double textW = 0.0;
        for (vtkPlot* p : entries) textW = std::max(textW, textWidth(QString::fromStdString(p->GetLabel()), fs));
        const double w = pad + sym + pad + textW + pad;
        const double h = 2 * pad + row * double(entries.size());
        const double left0 = x1 - pad - w, top = H - y1 + pad;
        const vtkColor4ub fill = legend->GetBrush()->GetColorObject();
        o += QStringLiteral("<g class=\"legend\">\n<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"%5\" fill-opacity=\"%6\" %7/>\n")
                 .arg(num(left0), num(top), num(w), num(h), colour(fill))
                 .arg(fill.GetAlpha() / 255.0, 0, 'f', 3)
                 .arg(strokeOf(legend->GetPen()));
        for (std::size_t i = 0; i < entries.size(); ++i) {
          const double cy = top + pad + row * (double(i) + 0.5);
          o += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" fill=\"none\" %4/>\n")
                   .arg(num(left0 + pad), num(cy), num(left0 + pad + sym), strokeOf(entries[i]->GetPen()));
          o += QStringLiteral("<text fill=\"#000000\" %1 x=\"%2\" y=\"%3\">%4</text>\n")
                   .arg(fontOf(fs), num(left0 + 2 * pad + sym), num(cy + 0.35 * fs),
                        QString::fromStdString(entries[i]->GetLabel()).toHtmlEscaped());
        }
        o += QStringLiteral("</g>\n");
      }
    }
    o += QStringLiteral("</g>\n");
  }
  o += QStringLiteral("</svg>\n");
  return o.toUtf8();
}

}  // namespace

double plotExportScale(QSize size) {
  const double s = std::min(size.width() / 800.0, size.height() / 500.0);
  return std::clamp(s, 1.0, 4.0);
}

QString exportPlots(const PlotPanel& panel, const PlotExportRequest& r) {
  const QString path = QDir::toNativeSeparators(r.output);
  if (r.output.isEmpty()) return QObject::tr("no output file chosen");
  if (r.size.width() < kMinSide || r.size.height() < kMinSide || r.size.width() > kMaxSide ||
      r.size.height() > kMaxSide) {
    return QObject::tr("plot size %1 x %2 is invalid: width and height must be in [%3, %4] pixels")
        .arg(r.size.width()).arg(r.size.height()).arg(kMinSide).arg(kMaxSide);
  }
  // Which charts: the visible ones (a system without momenta has no momentum chart).
  const std::vector<vtkChartXY*> live = liveCharts(panel);
  std::vector<vtkChartXY*> chosen;
  for (int c = 0; c < int(live.size()) && c < 3; ++c) {
    const bool wanted = r.charts == PlotSelection::All || int(r.charts) == c;
    if (wanted && panel.chartVisible(PlotPanel::Chart(c))) chosen.push_back(live[std::size_t(c)]);
  }
  if (chosen.empty()) {
    return QObject::tr("nothing to export to '%1': the chosen plot is not shown for this system").arg(path);
  }
  if (panel.plottedTimes(PlotPanel::Energy).size() < 2) {
    return QObject::tr("nothing to export to '%1' yet: the run has no plotted data").arg(path);
  }

  FigureWindow figure;
  const double s = plotExportScale(r.size);
  // Ticks as dense as on a screen-sized figure: VTK spaces them by pixels, while the labels grow
  // with the scale. So lay the charts out first at the logical size (size / scale, unscaled text),
  // keep those ticks and labels, and then draw at full size with scaled text and lines.
  const QSize logical(int(std::lround(r.size.width() / s)), int(std::lround(r.size.height() / s)));
  if (const QString e = figure.create(logical); !e.isEmpty()) {
    return QObject::tr("cannot export '%1': %2").arg(path, e);
  }
  // Stacked as on screen, sharing the time axis: only the lowest chart labels it.
  std::string timeTitle = "t [s]";
  for (vtkChartXY* c : live) {
    const std::string t = c->GetAxis(vtkAxis::BOTTOM)->GetTitle();
    if (!t.empty()) timeTitle = t;
  }
  std::map<vtkTable*, vtkSmartPointer<vtkTable>> tables;
  auto build = [&](double scale, QSize size) {
    std::vector<vtkSmartPointer<vtkChartXY>> built;
    const float w = float(size.width());
    const float ch = float(size.height()) / float(chosen.size());
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      auto chart = copyChart(chosen[i], scale, tables);
      const bool bottom = i + 1 == chosen.size();
      vtkAxis* t = chart->GetAxis(vtkAxis::BOTTOM);
      t->SetLabelsVisible(bottom);
      t->SetTitle(bottom ? timeTitle : std::string());
      chart->SetSize(vtkRectf(0.0f, float(size.height()) - float(i + 1) * ch, w, ch));
      built.push_back(chart);
    }
    figure.setCharts(built, size);
    return built;
  };
  std::vector<vtkSmartPointer<vtkChartXY>> charts = build(1.0, logical);
  if (s > 1.0) {
    figure.layOut();
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
    charts = build(s, r.size);
    for (std::size_t i = 0; i < charts.size(); ++i) {
      for (int a = 0; a < 2; ++a) {
        vtkAxis* axis = charts[i]->GetAxis(a == 0 ? vtkAxis::LEFT : vtkAxis::BOTTOM);
        if (ticks[i][std::size_t(a)]->GetNumberOfTuples() > 0) {
          axis->SetCustomTickPositions(ticks[i][std::size_t(a)], labels[i][std::size_t(a)]);
        }
      }
    }
  }

  if (r.format == PlotFormat::Png) {
    const QImage image = figure.render();
    if (image.isNull()) return QObject::tr("cannot export '%1': the off-screen render failed").arg(path);
    QByteArray bytes;
    {
      QBuffer buffer(&bytes);
      buffer.open(QIODevice::WriteOnly);
      if (!image.save(&buffer, "PNG")) return QObject::tr("cannot encode the PNG for '%1'").arg(path);
    }
    return writeFileAtomically(r.output, bytes);
  }

  // SVG: drawn from the same charts, laid out by VTK for this size (axis ends, ticks and their
  // labels), the data mapped to the page in double precision here. (vtkSVGExporter is not used:
  // it writes the curves in the charts' shift-and-scale frame, a non-uniformly scaled group,
  // which turns the strokes into smears and loses the digits of small ranges.)
  figure.layOut();
  return writeFileAtomically(r.output, svgOf(charts, r.size, QFileInfo(r.output).completeBaseName()));
}

// ---------------------------------------------------------------------------------------------

PlotExportDialog::PlotExportDialog(const QString& directory, const QString& baseName, QWidget* parent)
    : QDialog(parent) {
  setObjectName(QStringLiteral("plotExportDialog"));
  setWindowTitle(tr("Export Plots"));

  format_ = new QComboBox;
  format_->addItem(tr("PNG image"), int(PlotFormat::Png));
  format_->addItem(tr("SVG drawing (vector)"), int(PlotFormat::Svg));

  path_ = new QLineEdit(QDir(directory).filePath(baseName + QStringLiteral("-plots.png")));
  path_->setMinimumWidth(360);
  auto* browse = new QPushButton(tr("Browse..."));
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString ext = extensionOf(format());
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Plot file"), path_->text(), tr("%1 files (*.%2)").arg(ext.toUpper(), ext));
    if (!chosen.isEmpty()) path_->setText(chosen);
  });
  auto* pathRow = new QHBoxLayout;
  pathRow->addWidget(path_, 1);
  pathRow->addWidget(browse);

  size_ = new SizePicker(kSizes, 0, kMinSide, kMaxSide);  // 1600 x 1000

  charts_ = new QComboBox;
  charts_->addItem(tr("All plots (stacked)"), int(PlotSelection::All));
  charts_->addItem(tr("Energy"), int(PlotSelection::Energy));
  charts_->addItem(tr("Energy error"), int(PlotSelection::Error));
  charts_->addItem(tr("Momenta"), int(PlotSelection::Momentum));

  auto* note = new QLabel(tr("Text and lines grow with the size, so a large figure reads like the "
                             "view on screen. SVG keeps the curves as vector paths."));
  note->setWordWrap(true);
  error_ = new QLabel;
  error_->setObjectName(QStringLiteral("plotExportError"));
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #b3261e;"));

  auto* form = new QFormLayout;
  form->addRow(tr("Format:"), format_);
  form->addRow(tr("File:"), pathRow);
  form->addRow(tr("Size:"), size_);
  form->addRow(tr("Plots:"), charts_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(note);
  layout->addWidget(error_);
  layout->addWidget(buttons);
  connect(format_, &QComboBox::currentIndexChanged, this, &PlotExportDialog::onFormatChanged);
}

PlotFormat PlotExportDialog::format() const { return PlotFormat(format_->currentData().toInt()); }

void PlotExportDialog::setFormat(PlotFormat f) { format_->setCurrentIndex(format_->findData(int(f))); }

void PlotExportDialog::onFormatChanged() {
  // Keep the file name, follow the extension.
  const QFileInfo fi(path_->text());
  const QString ext = extensionOf(format());
  if (fi.suffix().compare(ext, Qt::CaseInsensitive) != 0) {
    path_->setText(QDir(fi.path()).filePath(fi.completeBaseName() + QLatin1Char('.') + ext));
  }
}

PlotExportRequest PlotExportDialog::request(QString* error) const {
  PlotExportRequest r;
  r.format = format();
  r.output = path_->text().trimmed();
  r.size = size_->value();
  r.charts = PlotSelection(charts_->currentData().toInt());
  if (error) {
    error->clear();
    const QFileInfo fi(r.output);
    if (r.output.isEmpty()) {
      *error = tr("Choose a file.");
    } else if (fi.isDir()) {
      *error = tr("'%1' is a folder: choose a file name.").arg(r.output);
    } else if (!fi.absoluteDir().exists()) {
      *error = tr("The folder '%1' does not exist.").arg(fi.absolutePath());
    }
  }
  return r;
}

void PlotExportDialog::accept() {
  QString e;
  request(&e);
  if (!e.isEmpty()) {
    error_->setText(e);
    return;
  }
  QDialog::accept();
}

// ---------------------------------------------------------------------------------------------

PlotExportTask::PlotExportTask(const PlotPanel& panel, QObject* parent)
    : ExportJob(parent), panel_(panel) {}

QString PlotExportTask::start(const PlotExportRequest& request) {
  request_ = request;
  error_ = exportPlots(panel_, request);
  emit finished();
  return {};
}

ExportReport PlotExportTask::report() const {
  if (error_.isEmpty()) {
    return {ExportReport::Outcome::Completed,
            tr("Plots exported to %1").arg(QDir::toNativeSeparators(request_.output)), {}, {}};
  }
  return {ExportReport::Outcome::Failed, tr("Plot export failed: %1").arg(error_),
          tr("Export plots"), error_};
}

// ---------------------------------------------------------------------------------------------

PlotExporter::PlotExporter(MainWindow* window) : QObject(window), window_(window) {
  task_ = new PlotExportTask(*window->plots(), this);
  controller_ = new ExportController(
      window, task_,
      {tr("Plot export"), tr("Export Plots"), QString(), QStringLiteral("export/plotDirectory"),
       QStringLiteral("plotProgress")});
}

PlotExportDialog* PlotExporter::dialog() const {
  return qobject_cast<PlotExportDialog*>(controller_->dialog());
}

void PlotExporter::showDialog() {
  const RunInfoPtr run = window_->currentRun();
  const QString base = run ? QString::fromStdString(run->scenario.system) : QStringLiteral("ricochet");
  auto* dialog = new PlotExportDialog(controller_->directory(), base, window_);
  controller_->openDialog(dialog, [this, dialog] {
    const PlotExportRequest r = dialog->request();
    controller_->rememberDirectory(r.output);
    start(r);
  });
}

QString PlotExporter::start(const PlotExportRequest& request) {
  // The figure is rendered off screen on this thread: about 2 s for a 3200 x 2000 PNG under
  // llvmpipe (two 8x-multisampled frames at full size).
  controller_->runOnGuiThread([&] { return task_->start(request); });
  emit finished(task_->error());
  return task_->error();
}

}  // namespace ricochet::app
