#include "trayicon.h"

#include "trayicons.h"
#include "traypresenter.h"

#include <QMenu>
#include <QSystemTrayIcon>

namespace App {

TrayIcon::TrayIcon(TrayPresenter *presenter, QObject *parent)
    : QObject(parent),
      m_presenter(presenter),
      m_menu(new QMenu) // a QMenu cannot have a QObject parent; deleted in the destructor
      ,
      m_icon(new QSystemTrayIcon(this))
{
    m_status = m_menu->addAction(QString());
    m_status->setEnabled(false);
    m_menu->addSeparator();
    connect(m_menu->addAction(tr("Peers…")), &QAction::triggered, this, &TrayIcon::peersRequested);
    m_retry = m_menu->addAction(tr("Retry broker start"));
    connect(m_retry, &QAction::triggered, this, &TrayIcon::retryRequested);
    m_menu->addSeparator();
    connect(m_menu->addAction(tr("Quit")), &QAction::triggered, this, &TrayIcon::quitRequested);
    m_icon->setContextMenu(m_menu);

    connect(m_icon, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
            Q_EMIT peersRequested();
    });
    connect(presenter, &TrayPresenter::changed, this, &TrayIcon::update);
    connect(presenter, &TrayPresenter::notificationRequested, this,
            [this](const QString &title, const QString &message) {
                m_icon->showMessage(title, message, QSystemTrayIcon::Warning);
            });
    update();
}

TrayIcon::~TrayIcon()
{
    delete m_menu;
}

void TrayIcon::show()
{
    m_icon->show();
}

void TrayIcon::update()
{
    m_status->setText(m_presenter->statusText());
    m_retry->setVisible(m_presenter->canRetry());
    m_icon->setToolTip(m_presenter->toolTip());
    if (m_iconState != m_presenter->iconState() || m_icon->icon().isNull()) {
        m_iconState = m_presenter->iconState();
        m_icon->setIcon(stateIcon(m_iconState));
    }
}

} // namespace App
