#include "app/desktop/scenario/presets_menu.hpp"

#include <QAction>
#include <QFile>
#include <QMap>

// Resources of a static library must be registered explicitly (outside any namespace).
static void initPresetResources() { Q_INIT_RESOURCE(presets); }

namespace ricochet::app {

namespace {

// Splits a markdown table row on the '|' that are not escaped as "\|"; the cells come back
// trimmed and unescaped. The leading and trailing (empty) cells are dropped.
QStringList tableCells(const QString& row) {
  QStringList cells;
  QString cell;
  for (qsizetype i = 0; i < row.size(); ++i) {
    const QChar c = row[i];
    if (c == QLatin1Char('\\') && i + 1 < row.size() && row[i + 1] == QLatin1Char('|')) {
      cell += QLatin1Char('|');
      ++i;
    } else if (c == QLatin1Char('|')) {
      cells << cell.trimmed();
      cell.clear();
    } else {
      cell += c;
    }
  }
  cells << cell.trimmed();
  if (!cells.isEmpty() && cells.front().isEmpty()) cells.removeFirst();
  if (!cells.isEmpty() && cells.back().isEmpty()) cells.removeLast();
  return cells;
}

// Who wrote each paper, for the submenu titles (README "What comes from where").
QString paperTitle(const QString& number) {
  static const QMap<QString, QString> titles = {
      {QStringLiteral("004"), QStringLiteral("Fetecau, Marsden, Ortiz, West (2003)")},
      {QStringLiteral("000"), QStringLiteral("Rodr\u00edguez Abella, Colombo: nonholonomic VCI")},
      {QStringLiteral("001"), QStringLiteral("Rodr\u00edguez Abella, Colombo: implicit, collisions")},
      {QStringLiteral("002"), QStringLiteral("Anahory Simoes, Colombo: inequality constraints")},
      {QStringLiteral("003"), QStringLiteral("Tran, Leok: Lie group VCI on SE(3)")}};
  const auto it = titles.find(number);
  return number.isEmpty() ? QStringLiteral("Other")
                          : QStringLiteral("[%1] %2").arg(number, it == titles.end() ? QString() : *it);
}

}  // namespace

QString Preset::paper() const {
  const qsizetype dash = file.indexOf(QLatin1Char('-'));
  if (dash != 3) return {};
  for (qsizetype i = 0; i < dash; ++i) {
    if (!file[i].isDigit()) return {};
  }
  return file.left(dash);
}

std::vector<Preset> parsePresetIndex(const QString& markdown) {
  std::vector<Preset> presets;
  for (const QString& line : markdown.split(QLatin1Char('\n'))) {
    const QString row = line.trimmed();
    if (!row.startsWith(QStringLiteral("| `"))) continue;
    const QStringList cells = tableCells(row);
    if (cells.size() < 3) continue;
    Preset p;
    p.file = cells[0];
    p.file.remove(QLatin1Char('`'));
    if (!p.file.endsWith(QStringLiteral(".json"))) continue;
    p.resource = QStringLiteral(":/presets/") + p.file;
    p.system = cells[1];
    p.description = cells[2];
    if (cells.size() > 3) p.expected = cells[3];
    presets.push_back(std::move(p));
  }
  return presets;
}

std::vector<Preset> embeddedPresets() {
  initPresetResources();
  QFile index(QString::fromLatin1(kPresetIndexResource));
  if (!index.open(QIODevice::ReadOnly)) return {};
  return parsePresetIndex(QString::fromUtf8(index.readAll()));
}

QMenu* createPresetsMenu(QWidget* parent, std::function<void(const Preset&)> open) {
  auto* menu = new QMenu(QObject::tr("&Presets"), parent);
  menu->setObjectName(QStringLiteral("presetsMenu"));
  menu->setToolTipsVisible(true);
  const std::vector<Preset> presets = embeddedPresets();
  if (presets.empty()) {
    menu->addAction(QObject::tr("(no presets in this build)"))->setEnabled(false);
    return menu;
  }
  QMap<QString, QMenu*> byPaper;
  for (const Preset& p : presets) {
    const QString paper = p.paper();
    QMenu*& sub = byPaper[paper];
    if (!sub) {
      sub = menu->addMenu(paperTitle(paper));
      sub->setToolTipsVisible(true);
    }
    QString label = p.file;
    label.chop(5);  // ".json"
    if (!paper.isEmpty()) label = label.mid(paper.size() + 1);
    QAction* a = sub->addAction(label);
    a->setObjectName(QStringLiteral("preset:") + p.file);
    QString tip = p.system + QStringLiteral(": ") + p.description;
    if (!p.expected.isEmpty()) tip += QObject::tr("\nExpected (spec) / here: %1").arg(p.expected);
    a->setToolTip(tip);
    a->setStatusTip(p.system + QStringLiteral(": ") + p.description);
    QObject::connect(a, &QAction::triggered, menu, [open, p] { open(p); });
  }
  return menu;
}

}  // namespace ricochet::app
