#include "app/desktop/study/study_table.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace ricochet::app {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The whole field as a number, else NaN.
double toNumber(const std::string& field, bool* isNumber) {
  double v = kNaN;
  const char* end = field.data() + field.size();
  const auto r = std::from_chars(field.data(), end, v);
  *isNumber = !field.empty() && r.ec == std::errc() && r.ptr == end;
  return *isNumber ? v : kNaN;
}

}  // namespace

std::vector<std::string> splitCsvLine(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

void StudyTable::append(std::string_view lines) {
  text_.append(lines);
  std::size_t start = 0;
  while (start < lines.size()) {
    std::size_t end = lines.find('\n', start);
    if (end == std::string_view::npos) end = lines.size();
    std::vector<std::string> fields = splitCsvLine(lines.substr(start, end - start));
    start = end + 1;
    if (columns_.empty()) {
      columns_ = std::move(fields);
      continue;
    }
    fields.resize(columns_.size());
    std::vector<double> numbers(fields.size());
    for (std::size_t c = 0; c < fields.size(); ++c) {
      bool isNumber = false;
      numbers[c] = toNumber(fields[c], &isNumber);
    }
    cells_.push_back(std::move(fields));
    numbers_.push_back(std::move(numbers));
  }
}

void StudyTable::clear() { *this = StudyTable(); }

const std::string& StudyTable::cell(std::size_t row, std::size_t column) const {
  return cells_[row][column];
}

double StudyTable::number(std::size_t row, std::size_t column) const { return numbers_[row][column]; }

int StudyTable::column(std::string_view name) const {
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    if (columns_[c] == name) return static_cast<int>(c);
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------

void StudyTableModel::setTable(const StudyTable* table) {
  beginResetModel();
  table_ = table;
  shownRows_ = table ? table->rowCount() : 0;
  shownColumns_ = table ? table->columns().size() : 0;
  endResetModel();
}

void StudyTableModel::rowsAppended(std::size_t first) {
  if (!table_) return;
  if (first != shownRows_ || table_->columns().size() != shownColumns_) {
    reset();
    return;
  }
  if (table_->rowCount() <= shownRows_) return;
  beginInsertRows({}, int(shownRows_), int(table_->rowCount()) - 1);
  shownRows_ = table_->rowCount();
  endInsertRows();
}

void StudyTableModel::reset() { setTable(table_); }

int StudyTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(shownRows_);
}

int StudyTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(shownColumns_);
}

QVariant StudyTableModel::data(const QModelIndex& index, int role) const {
  if (!table_ || !index.isValid() || std::size_t(index.row()) >= shownRows_ ||
      std::size_t(index.column()) >= shownColumns_) {
    return {};
  }
  const auto row = std::size_t(index.row()), column = std::size_t(index.column());
  const std::string& text = table_->cell(row, column);
  const double x = table_->number(row, column);
  const bool numeric = !std::isnan(x) || text == "nan";
  switch (role) {
    case Qt::DisplayRole:
      return numeric ? shortNumber(x) : QString::fromStdString(text);
    case Qt::ToolTipRole:
      return QString::fromStdString(text);
    case Qt::TextAlignmentRole:
      return numeric ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case kSortRole:
      return numeric ? QVariant(x) : QVariant(QString::fromStdString(text));
    default:
      return {};
  }
}

QVariant StudyTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  const bool text = role == Qt::DisplayRole || role == Qt::ToolTipRole;
  if (!text || !table_) return QAbstractTableModel::headerData(section, orientation, role);
  if (orientation == Qt::Vertical) return section + 1;
  if (section < 0 || std::size_t(section) >= shownColumns_) return {};
  const QString name = QString::fromStdString(table_->columns()[std::size_t(section)]);
  if (role == Qt::ToolTipRole) return name;
  // A long dotted name (a sensitivity series' "ry0+3.141592653589793e-08.distance") on two lines,
  // broken after its last dot, so the column need not be as wide as the whole name.
  const qsizetype dot = name.lastIndexOf(QLatin1Char('.'));
  if (name.size() > 16 && dot > 0 && dot + 1 < name.size()) {
    return name.left(dot + 1) + QLatin1Char('\n') + name.mid(dot + 1);
  }
  return name;
}

bool StudyTableSortModel::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  const QVariant a = left.data(StudyTableModel::kSortRole), b = right.data(StudyTableModel::kSortRole);
  const bool an = a.typeId() == QMetaType::Double, bn = b.typeId() == QMetaType::Double;
  if (an && bn) {
    const double x = a.toDouble(), y = b.toDouble();
    if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);  // NaN last
    return x < y;
  }
  if (an != bn) return an;  // numbers before text
  return a.toString() < b.toString();
}

QString shortNumber(double value) {
  if (std::isnan(value)) return QStringLiteral("\u2013");
  if (value == std::floor(value) && std::fabs(value) < 1e15) return QString::number(qint64(value));
  return QString::number(value, 'g', 6);
}

QString countOf(qint64 n, const QString& one, const QString& many) {
  return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

}  // namespace ricochet::app
