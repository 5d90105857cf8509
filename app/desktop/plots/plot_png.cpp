#include "app/desktop/plots/plot_png.hpp"

#include "app/desktop/plots/plot_painter.hpp"

#include <QBuffer>
#include <QImage>
#include <QObject>

namespace ricochet::app {

QString renderPlotsPng(const PlotFigure& figure, QSize size, QByteArray* png) {
  if (figure.charts.empty()) return QObject::tr("no chart to render");
  const QImage image = renderFigure(figure, size);
  if (image.isNull()) return QObject::tr("no memory for a %1 x %2 image").arg(size.width()).arg(size.height());
  QBuffer buffer(png);
  buffer.open(QIODevice::WriteOnly);
  if (!image.save(&buffer, "PNG")) return QObject::tr("the PNG could not be encoded");
  return {};
}

}  // namespace ricochet::app
