#include "app/desktop/widgets/status_message.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolButton>

namespace ricochet::app {

StatusMessage::StatusMessage(QStatusBar* bar) : QWidget(bar) {
  setObjectName(QStringLiteral("statusMessage"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(2, 0, 2, 0);
  layout->setSpacing(4);
  label_ = new QLabel;
  label_->setObjectName(QStringLiteral("statusMessageText"));
  label_->setMinimumWidth(40);
  label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  layout->addWidget(label_, 1);
  details_ = new QToolButton;
  details_->setObjectName(QStringLiteral("statusMessageDetails"));
  details_->setText(tr("Details..."));
  details_->setAutoRaise(true);
  details_->setToolTip(tr("The whole message"));
  details_->hide();
  connect(details_, &QToolButton::clicked, this, &StatusMessage::showDetails);
  layout->addWidget(details_);
  // A permanent widget with stretch takes the room QStatusBar would draw its message in.
  bar->addPermanentWidget(this, 1);
  connect(bar, &QStatusBar::messageChanged, this, &StatusMessage::setText);
}

void StatusMessage::setText(const QString& text) {
  text_ = text;
  label_->setToolTip(text);
  refresh();
}

QString StatusMessage::shownText() const { return label_->text(); }

void StatusMessage::refresh() {
  const QString oneLine = QString(text_).replace(QLatin1Char('\n'), QLatin1Char(' '));
  const QString shown = label_->fontMetrics().elidedText(oneLine, Qt::ElideRight, label_->width());
  label_->setText(shown);
  details_->setVisible(!text_.isEmpty() && shown != oneLine);
}

void StatusMessage::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  refresh();
}

void StatusMessage::showDetails() {
  if (text_.isEmpty()) return;
  auto* box = new QMessageBox(QMessageBox::Information, tr("Message"), text_, QMessageBox::Ok, window());
  box->setObjectName(QStringLiteral("statusMessageBox"));
  box->setTextInteractionFlags(Qt::TextSelectableByMouse);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

}  // namespace ricochet::app
