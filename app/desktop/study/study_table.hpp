#pragma once
// A study's results as the window shows them: the CSV text the command line writes, read back
// into cells (and numbers) for the table and the plot.
//
// The text is the single source: the window's "Export Results CSV" writes it as it is, so the
// file is ricochet-cli's byte for byte, and the table and the figure show what the file says.
// StudyTableModel presents it to a QTableView: numbers in 6 significant digits (the full 17 in
// the tooltip, as in the file), sortable by value through StudyTableSortModel.

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <QString>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ricochet::app {

/// The fields of one CSV line (RFC 4180: a quoted field may hold commas and doubled quotes).
std::vector<std::string> splitCsvLine(std::string_view line);

class StudyTable {
 public:
  /// Appends CSV text made of whole lines; the first line ever appended is the header.
  void append(std::string_view lines);
  void clear();

  const std::string& text() const { return text_; }
  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t rowCount() const { return cells_.size(); }
  const std::string& cell(std::size_t row, std::size_t column) const;
  /// The cell as a number: NaN when it is empty, text, or "nan".
  double number(std::size_t row, std::size_t column) const;
  /// Index of `name` among the columns, or -1.
  int column(std::string_view name) const;

 private:
  std::string text_;
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> cells_;
  std::vector<std::vector<double>> numbers_;
};

class StudyTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  /// Sort role: the cell's number (a double) for numeric cells, else its text.
  static constexpr int kSortRole = Qt::UserRole + 1;

  using QAbstractTableModel::QAbstractTableModel;

  /// Shows `table` (not owned; call rowsAppended()/reset() after changing it).
  void setTable(const StudyTable* table);
  /// Rows [first, rowCount) were appended to the table.
  void rowsAppended(std::size_t first);
  void reset();

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  const StudyTable* table_ = nullptr;
  std::size_t shownRows_ = 0;
  std::size_t shownColumns_ = 0;
};

/// Sorts numbers as numbers (NaN last), text as text.
class StudyTableSortModel : public QSortFilterProxyModel {
  Q_OBJECT
 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;

 protected:
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

/// A number for a table cell: whole numbers in full, others in 6 significant digits, NaN as a dash.
QString shortNumber(double value);

/// A count with its noun: "1 run", "9 runs" (`many` for every count but 1).
QString countOf(qint64 n, const QString& one, const QString& many);

}  // namespace ricochet::app
