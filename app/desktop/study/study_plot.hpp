#pragma once
// The study window's plot: paints a StudyFigure (study_painter), names the point under the mouse
// in a tooltip, rings the point(s) of the selected table row, and reports a click on a point or
// a colour-map cell as that table row (and the series' tag).

#include "app/desktop/study/study_figure.hpp"

#include <QWidget>

#include <functional>
#include <optional>

namespace ricochet::app {

class StudyPlot : public QWidget {
  Q_OBJECT
 public:
  explicit StudyPlot(QWidget* parent = nullptr);

  void setFigure(StudyFigure figure);
  const StudyFigure& figure() const { return figure_; }
  /// Rings the point(s) of table row `row` (nullopt: none).
  void setHighlightedRow(std::optional<std::size_t> row);
  std::optional<std::size_t> highlightedRow() const { return highlight_; }
  /// The tooltip text of a point: row and series tag -> text.
  void setDescriber(std::function<QString(std::size_t, int)> describe) { describe_ = std::move(describe); }

  /// Where point `index` of series `series` is drawn, in widget coordinates (for tests).
  QPointF pointPosition(std::size_t series, std::size_t index) const;
  /// The centre of colour-map cell `index`, in widget coordinates (for tests).
  QPointF cellPosition(std::size_t index) const;

  QSize sizeHint() const override { return {720, 440}; }
  QSize minimumSizeHint() const override { return {320, 220}; }

 signals:
  /// A click on the point or cell of table row `row`, in the series with tag `tag`.
  void pointClicked(std::size_t row, int tag);

 protected:
  void paintEvent(class QPaintEvent* event) override;
  void mousePressEvent(class QMouseEvent* event) override;
  void mouseMoveEvent(class QMouseEvent* event) override;

 private:
  StudyFigure figure_;
  std::optional<std::size_t> highlight_;
  std::function<QString(std::size_t, int)> describe_;
};

}  // namespace ricochet::app
