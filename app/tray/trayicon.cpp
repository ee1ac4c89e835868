#include "app/tray/trayicon.h"

#include "app/tray/trayicons.h"
#include "app/tray/traypresenter.h"

#include <QLocale>
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
    m_peersSeparator = m_menu->addSeparator(); // the peer entries go above it
    connect(m_menu->addAction(tr("Peers…")), &QAction::triggered, this, &TrayIcon::peersRequested);
    m_send = m_menu->addAction(tr("Send…"));
    connect(m_send, &QAction::triggered, this, &TrayIcon::sendRequested);
    m_newSession = m_menu->addAction(tr("New OpenCode session…"));
    connect(m_newSession, &QAction::triggered, this, &TrayIcon::newSessionRequested);
    setPageActionsAvailable(false, false);
    m_retry = m_menu->addAction(tr("Retry broker start"));
    connect(m_retry, &QAction::triggered, this, &TrayIcon::retryRequested);
    m_menu->addSeparator();
    // The CLI twin: claude-peers notifications pause [--for D] | resume.
    m_pauseMenu = m_menu->addMenu(tr("Pause notifications"));
    const std::pair<qint64, QString> pauses[] = {
        {3600, tr("For 1 hour")}, {8 * 3600, tr("For 8 hours")}, {0, tr("Until I turn them back on")}};
    for (const auto &pause : pauses) {
        QAction *action = m_pauseMenu->addAction(pause.second);
        // Not a structured binding: clang 15 cannot capture one.
        connect(action, &QAction::triggered, this,
                [this, seconds = pause.first] { Q_EMIT pauseRequested(seconds); });
        m_pauseFor << action;
    }
    m_resume = m_pauseMenu->addAction(tr("Resume notifications"));
    connect(m_resume, &QAction::triggered, this, &TrayIcon::resumeRequested);
    setNotificationsPaused(false);
    // The same toggle as in Settings (the CLI twin: claude-peers autostart).
    m_autostart = m_menu->addAction(tr("Start at login"));
    m_autostart->setCheckable(true);
    connect(m_autostart, &QAction::triggered, this, &TrayIcon::autostartToggled);
    connect(m_menu->addAction(tr("Quit")), &QAction::triggered, this, &TrayIcon::quitRequested);
    m_icon->setContextMenu(m_menu);
    // Times in state are measured when the menu opens, not pushed every second.
    connect(m_menu, &QMenu::aboutToShow, this, &TrayIcon::menuAboutToShow);
    connect(m_menu, &QMenu::aboutToShow, this, [this] {
        for (qsizetype i = 0; i < m_peerActions.size(); ++i)
            m_peerActions.at(i)->setText(m_presenter->menuText(m_peerItems.at(i)));
    });

    connect(m_icon, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
            Q_EMIT peersRequested();
    });
    connect(presenter, &TrayPresenter::changed, this, &TrayIcon::update);
    connect(m_icon, &QSystemTrayIcon::messageClicked, this, &TrayIcon::messageClicked);
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

void TrayIcon::setPageActionsAvailable(bool send, bool newSession)
{
    m_send->setEnabled(send);
    m_newSession->setEnabled(newSession);
}

void TrayIcon::setAutostartChecked(bool checked)
{
    m_autostart->setChecked(checked); // emits toggled, not triggered
}

void TrayIcon::showError(const QString &title, const QString &message)
{
    m_icon->showMessage(title, message, QSystemTrayIcon::Warning);
}

void TrayIcon::showMessage(const QString &title, const QString &message, bool urgent)
{
    m_icon->showMessage(title, message, urgent ? QSystemTrayIcon::Warning : QSystemTrayIcon::Information);
}

void TrayIcon::setNotificationsPaused(bool paused, const QDateTime &until)
{
    QString title = tr("Pause notifications");
    if (paused && !until.isValid()) {
        title = tr("Notifications paused");
    } else if (paused) {
        // The time alone while it is today's, else the date too.
        const QDateTime local = until.toLocalTime();
        title = tr("Notifications paused until %1")
                    .arg(local.date() == QDate::currentDate()
                             ? QLocale().toString(local.time(), QLocale::ShortFormat)
                             : QLocale().toString(local, QLocale::ShortFormat));
    }
    m_pauseMenu->setTitle(title);
    for (QAction *action : std::as_const(m_pauseFor))
        action->setVisible(!paused);
    m_resume->setVisible(paused);
}

void TrayIcon::update()
{
    m_status->setText(m_presenter->statusText());
    m_retry->setVisible(m_presenter->canRetry());
    rebuildPeerEntries();
    if (m_toolTip != m_presenter->toolTip()) {
        m_toolTip = m_presenter->toolTip();
        m_icon->setToolTip(m_toolTip);
    }
    if (m_iconState != m_presenter->iconState() || m_iconCount != m_presenter->iconCount()) {
        m_iconState = m_presenter->iconState();
        m_iconCount = m_presenter->iconCount();
        m_icon->setIcon(stateIcon(m_iconState, m_iconCount));
    }
}

void TrayIcon::rebuildPeerEntries()
{
    const QList<AttentionItem> items = m_presenter->menuItems();
    if (items == m_peerItems)
        return;
    qDeleteAll(m_peerActions);
    m_peerActions.clear();
    m_peerItems = items;
    for (const AttentionItem &item : items) {
        auto *action = new QAction(m_presenter->menuText(item), m_menu);
        action->setToolTip(item.message);
        connect(action, &QAction::triggered, this, [this, id = item.peerId] { Q_EMIT peerRequested(id); });
        m_menu->insertAction(m_peersSeparator, action);
        m_peerActions.append(action);
    }
}

} // namespace App
