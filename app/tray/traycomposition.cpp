#include "app/tray/traycomposition.h"

#include "app/autostart/autostart.h"
#include "app/brokerhost/brokercomposition.h"
#include "app/tray/brokerhost.h"
#include "app/tray/connectsnippets.h"
#include "app/tray/firstrunwizard.h"
#include "app/tray/mainwindow.h"
#include "app/tray/notifications/activitynotifications.h"
#include "app/tray/notifications/desktopnotifications.h"
#include "app/tray/notifications/notifier.h"
#include "app/tray/operatorpeer.h"
#include "app/tray/pages/controlcalls.h"
#include "app/tray/pages/federationmodels.h"
#include "app/tray/pages/federationpage.h"
#include "app/tray/pages/federationpresenter.h"
#include "app/tray/pages/messagespage.h"
#include "app/tray/pages/notificationspage.h"
#include "app/tray/pages/opencodeactivity.h"
#include "app/tray/pages/peerspage.h"
#include "app/tray/pages/schedulespage.h"
#include "app/tray/pages/schedulespresenter.h"
#include "app/tray/pages/sessionspage.h"
#include "app/tray/pages/sessionspresenter.h"
#include "app/tray/pages/settingspage.h"
#include "app/tray/pages/statuspage.h"
#include "app/tray/peersbymachinemodel.h"
#include "app/tray/peersmodel.h"
#include "app/tray/trayicon.h"
#include "app/tray/trayicons.h"
#include "app/tray/traylogging.h"
#include "app/tray/traypresenter.h"
#include "common/brokerapi.h"
#include "common/brokerclient.h"
#include "common/unixsignalnotifier.h"
#include "openchamber/controlbackend.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDBusConnection>
#include <QProcessEnvironment>
#include <QSystemTrayIcon>
#include <QTimer>

#include <csignal>

namespace App {

TrayComposition::TrayComposition(Broker::Settings settings, QObject *parent)
    : QObject(parent),
      m_host(new BrokerHost(settings, this)),
      m_presenter(new TrayPresenter(m_host, this)),
      m_model(new PeersModel(this)),
      m_client(new Broker::BrokerClient(settings.location, this)),
      m_operator(new OperatorPeer(settings.location, this)),
      m_notifier(new Notifier(new DesktopNotifications(QDBusConnection::sessionBus(), this),
                              {.configPath = settings.location.configPath}, this)),
      m_openCode(new OpenCodeActivity(this)),
      m_activityNotifications(new ActivityNotifications(new ControlCalls(m_client, this), this))
{
    // The tray hosts the broker: keychain and modules as in the headless broker. Set on the
    // broker thread before any start() (jobs run in order): the keychain's jobs and answers and
    // the modules' objects then live on the broker's event loop.
    // The control service follows its OpenCode sessions (status, permission and question events)
    // for the tray's attention and the Sessions page; the events reach m_openCode queued.
    m_host->runOnBrokerThread(
        [activity = m_openCode, notifications = m_activityNotifications](Broker::BrokerServer &server) {
            composeBroker(server, [activity, notifications](OpenChamber::OpenCodeBackend &control) {
                control.setWatchSessions(true);
                activity->follow(&control.events());
                notifications->follow(&control.events());
            });
        });
    connect(m_openCode, &OpenCodeActivity::attentionChanged, this,
            [this] { m_presenter->setSessionAttention(m_openCode->attentionItems()); });
    m_model->attach(m_host);
    // The tray's own peer is not news: no "operator joined" at each start (the id it asks for,
    // then the one the broker gave).
    m_presenter->setOwnPeerId(OperatorPeer::Identity().requestedId);
    connect(m_operator, &OperatorPeer::stateChanged, this, [this] {
        if (!m_operator->id().isEmpty())
            m_presenter->setOwnPeerId(m_operator->id());
    });
    m_window = std::make_unique<MainWindow>();
    m_window->setWindowIcon(applicationIcon());
    m_peersPage = new PeersPage(m_model, m_presenter, m_client);
    m_window->addPage(QStringLiteral("peers"), tr("Peers"), m_peersPage);
    connect(m_peersPage, &PeersPage::retryRequested, m_host, &BrokerHost::start);
    m_peersPage->showOpenCodeSessions(m_openCode);
    m_window->addPage(QStringLiteral("messages"), tr("Messages"),
                      m_messagesPage = new MessagesPage(*m_client, m_operator));
    m_window->addPage(QStringLiteral("federation"), tr("Federation"),
                      m_federationPage = new FederationPage(new FederationPresenter(m_client, this)));
    m_sessionsPage = new SessionsPage(new SessionsPresenter(m_client, m_openCode));
    m_window->addPage(QStringLiteral("sessions"), tr("Sessions"), m_sessionsPage);
    m_schedulesPage = new SchedulesPage(new SchedulesPresenter(m_client));
    m_window->addPage(QStringLiteral("schedules"), tr("Schedules"), m_schedulesPage);
    connect(m_schedulesPage, &SchedulesPage::openSessionRequested, this, &TrayComposition::openSession);
    // The Peers page's remote machines show their link's health from the federation's status.
    PairedBrokersModel *paired = m_federationPage->presenter()->paired();
    connect(paired, &QAbstractItemModel::modelReset, this, [this, paired] {
        QHash<QString, PeersByMachineModel::MachineLink> links;
        for (int row = 0; row < paired->rowCount(); ++row) {
            const PairedBrokersModel::Row &link = paired->rowAt(row);
            QString health = PairedBrokersModel::stateText(link);
            if (const QString rtt = PairedBrokersModel::roundTripText(link.rttSmoothedMs); !rtt.isEmpty())
                health += QStringLiteral(" · ") + rtt;
            links.insert(link.hostname, {health, link.fingerprint});
        }
        m_peersPage->tree()->setMachineLinks(std::move(links));
    });
    connect(m_peersPage, &PeersPage::openSessionRequested, this, &TrayComposition::openSession);
    connect(m_peersPage, &PeersPage::messageRequested, this, [this](const QString &peerId) {
        m_window->showPage(QStringLiteral("messages"));
        m_messagesPage->openPeer(peerId);
    });
    m_window->addPage(QStringLiteral("notifications"), tr("Notifications"),
                      new NotificationsPage(m_notifier));
    m_window->addPage(QStringLiteral("status"), tr("Status"), new StatusPage(m_client));
    m_settingsPage = new SettingsPage(
        m_client, ConnectSnippets::forInstalledPrograms(QCoreApplication::applicationDirPath()));
    m_window->addPage(QStringLiteral("settings"), tr("Settings"), m_settingsPage);
    connect(m_settingsPage, &SettingsPage::autostartToggled, this, &TrayComposition::setAutostart);
    m_settingsPage->setAutostartChecked(autostart().status().enabled);
    // A peer task's last run (Schedules page): its message in the operator's thread.
    connect(m_schedulesPage, &SchedulesPage::openMessageRequested, this,
            [this](const QString &peerId, qint64 messageId) {
                m_window->showPage(QStringLiteral("messages"));
                m_messagesPage->openMessage(peerId, messageId);
            });

    // `claude-peers kill-broker` (or another tray taking over) asked us to go: the answer is
    // already sent, so stop and leave.
    connect(m_host, &BrokerHost::shutdownRequested, this, [this] {
        qCInfo(lcUi) << "shutdown requested over HTTP; quitting";
        quit(0);
    });
    // A broker process took the port over (`claude-peers restart`, a package upgrade starting a
    // headless broker): it serves the same database, so the tray stays as its client — the pages
    // talk HTTP anyway, the host polls it for the icon and the Peers list, and offers to host the
    // broker again if it goes away.
    m_host->setFollowSuccessor(true);
    connect(m_host, &BrokerHost::handedOver, this, [](qint64 successorPid) {
        qCInfo(lcUi) << "broker handed over to pid" << successorPid << "; staying as its client";
    });
    wireNotifications();

    m_signals = new Broker::UnixSignalNotifier({SIGTERM, SIGINT, SIGHUP}, this);
    connect(m_signals, &Broker::UnixSignalNotifier::signalReceived, this, &TrayComposition::onUnixSignal);
}

TrayComposition::~TrayComposition()
{
    m_operator->stop();
    delete m_wizard;
    m_host->stop();
}

void TrayComposition::setTrayAvailability(std::function<bool()> available, int pollMs, int attempts)
{
    m_trayAvailable = std::move(available);
    m_trayPollMs = pollMs;
    m_trayPollAttemptsLeft = attempts;
}

void TrayComposition::start()
{
    if (!m_trayAvailable)
        m_trayAvailable = [] { return QSystemTrayIcon::isSystemTrayAvailable(); };
    if (m_windowed) {
        qCInfo(lcUi) << "windowed: no tray icon; closing the window quits";
        QApplication::setQuitOnLastWindowClosed(true);
        m_window->show();
    } else if (m_trayAvailable()) {
        createTrayIcon();
    } else if (m_waitForTray) {
        qCInfo(lcUi)
            << "no system tray on this desktop yet; waiting for one (--wait), the broker runs meanwhile";
        QTimer::singleShot(m_trayPollMs, this, &TrayComposition::pollForTray);
    } else {
        qCInfo(lcUi) << "no system tray on this desktop (yet); showing the window instead."
                     << "Closing it keeps the broker running (stop it with `claude-peers kill-broker`).";
        m_window->show();
        // At login the panel may come up after us: watch for it for a while (KeePassXC retries too).
        if (m_trayPollAttemptsLeft > 0)
            QTimer::singleShot(m_trayPollMs, this, &TrayComposition::pollForTray);
    }
    m_host->start();
    m_operator->start(); // registers once the broker answers, and again after a restart
}

void TrayComposition::pollForTray()
{
    if (m_tray)
        return;
    if (m_trayAvailable()) {
        qCInfo(lcUi) << "a system tray appeared: showing the icon (the window stays open)";
        createTrayIcon();
        return;
    }
    if (m_waitForTray || --m_trayPollAttemptsLeft > 0)
        QTimer::singleShot(m_trayPollMs, this, &TrayComposition::pollForTray);
    else
        qCInfo(lcUi) << "no system tray appeared; the window stays the app";
}

void TrayComposition::openSession(const QString &directory, const QString &sessionId)
{
    m_window->showPage(QStringLiteral("sessions"));
    m_sessionsPage->selectSession(directory, sessionId);
}

void TrayComposition::createTrayIcon()
{
    m_tray = new TrayIcon(m_presenter, this);
    connect(m_tray, &TrayIcon::peersRequested, this, [this] { m_window->showPage(QStringLiteral("peers")); });
    connect(m_tray, &TrayIcon::peerRequested, this, [this](const QString &peerId) {
        if (const auto session = m_openCode->session(peerId)) { // an OpenCode session's entry
            openSession(session->directory, peerId);
            return;
        }
        m_window->showPage(QStringLiteral("peers"));
        m_peersPage->selectPeer(peerId);
    });
    // Pages other helpers build: the entries work once their page is added.
    m_tray->setPageActionsAvailable(m_window->page(QStringLiteral("messages")) != nullptr,
                                    m_window->page(QStringLiteral("sessions")) != nullptr);
    connect(m_tray, &TrayIcon::sendRequested, this,
            [this] { m_window->showPage(QStringLiteral("messages")); });
    connect(m_tray, &TrayIcon::newSessionRequested, this,
            [this] { m_window->showPage(QStringLiteral("sessions")); });
    connect(m_tray, &TrayIcon::retryRequested, m_host, &BrokerHost::start);
    connect(m_tray, &TrayIcon::quitRequested, this, [this] { quit(0); });
    // The entry may change behind our back (claude-peers autostart): read it when the menu opens.
    connect(m_tray, &TrayIcon::menuAboutToShow, this,
            [this] { m_tray->setAutostartChecked(autostart().status().enabled); });
    connect(m_tray, &TrayIcon::autostartToggled, this, &TrayComposition::setAutostart);
    m_tray->setAutostartChecked(autostart().status().enabled);
    connect(m_tray, &TrayIcon::messageClicked, m_notifier, &Notifier::trayMessageClicked);
    connect(m_tray, &TrayIcon::pauseRequested, this, [this](qint64 seconds) {
        const auto paused =
            m_notifier->pause(seconds > 0 ? QDateTime::currentDateTimeUtc().addSecs(seconds) : QDateTime());
        if (!paused)
            m_tray->showError(tr("Pause notifications"), paused.error().message);
    });
    connect(m_tray, &TrayIcon::resumeRequested, this, [this] {
        if (const auto resumed = m_notifier->resume(); !resumed)
            m_tray->showError(tr("Resume notifications"), resumed.error().message);
    });
    // The pause may end, or be changed by `claude-peers notifications`: read it when the menu opens.
    connect(m_tray, &TrayIcon::menuAboutToShow, this, &TrayComposition::showPauseState);
    m_notifier->setTrayAvailable(true);
    showPauseState();
    m_tray->show();
}

void TrayComposition::showFirstRunWizard()
{
    if (m_wizard) {
        m_wizard->raise();
        return;
    }
    const bool enabled = autostart().status().enabled;
    m_wizard = new FirstRunWizard(
        m_client, ConnectSnippets::forInstalledPrograms(QCoreApplication::applicationDirPath()), enabled);
    m_wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_wizard, &QObject::destroyed, this, [this] { m_wizard = nullptr; });
    connect(m_wizard, &FirstRunWizard::autostartChosen, this, [this](bool wanted) {
        if (wanted != autostart().status().enabled)
            setAutostart(wanted);
    });
    connect(m_wizard, &FirstRunWizard::federationRequested, this, [this] {
        m_window->showPage(m_window->page(QStringLiteral("federation")) ? QStringLiteral("federation")
                                                                        : QStringLiteral("settings"));
    });
    m_wizard->show();
}

Autostart TrayComposition::autostart() const
{
    return Autostart::fromEnvironment(QProcessEnvironment::systemEnvironment(),
                                      QCoreApplication::applicationDirPath());
}

void TrayComposition::setAutostart(bool enabled)
{
    const auto result = enabled ? autostart().enable() : autostart().disable();
    m_settingsPage->setAutostartChecked(result ? result->enabled : autostart().status().enabled);
    if (!result) {
        qCWarning(lcUi).noquote() << result.error().message;
        if (m_tray)
            m_tray->showError(tr("Start at login"), result.error().message);
    } else {
        qCInfo(lcUi) << "start at login" << (result->enabled ? "enabled:" : "disabled:") << result->userEntry;
    }
    if (m_tray)
        m_tray->setAutostartChecked(result ? result->enabled : autostart().status().enabled);
}

void TrayComposition::wireNotifications()
{
    // The presenter says what; the notifier decides whether and how.
    connect(m_presenter, &TrayPresenter::notificationRequested, m_notifier, &Notifier::notify);
    // Without a tray a broker failure or a federation warning must reach the user some other way
    // (BrokerHost already logged it on stderr).
    connect(m_presenter, &TrayPresenter::notificationRequested, this, [this](const NotificationEvent &event) {
        if (!m_tray &&
            (event.kind == NotificationKind::BrokerProblem ||
             event.kind == NotificationKind::FederationWarning))
            m_window->showAndRaise();
    });
    connect(m_notifier, &Notifier::trayMessageRequested, this,
            [this](const QString &title, const QString &body, NotificationKind kind) {
                if (m_tray)
                    m_tray->showMessage(title, body,
                                        kind == NotificationKind::NeedsYou ||
                                            kind == NotificationKind::BrokerProblem);
            });
    // OpenCode sessions finishing, failed scheduled runs, pairing requests.
    m_activityNotifications->watchSessions(m_openCode);
    m_activityNotifications->watchFederation(m_federationPage->presenter());
    connect(m_activityNotifications, &ActivityNotifications::notificationRequested, m_notifier,
            &Notifier::notify);
    // A message to the operator: who wrote and a quote; Open shows the thread, Reply answers in it.
    connect(m_operator, &OperatorPeer::messagesReceived, this,
            [this](const QList<Broker::Message> &messages) {
                for (const Broker::Message &message : messages)
                    m_notifier->notify(messageNotification(message));
            });
    connect(m_notifier, &Notifier::openRequested, this, &TrayComposition::openNotification);
    connect(m_notifier, &Notifier::replyRequested, this, &TrayComposition::sendReply);
    connect(m_notifier, &Notifier::preferencesChanged, this, &TrayComposition::showPauseState);
    connect(m_notifier, &Notifier::errorOccurred, this, [this](const QString &message) {
        if (m_tray)
            m_tray->showError(tr("Notifications"), message);
    });
    m_notifier->setCanSendReplies(true);
}

NotificationEvent TrayComposition::messageNotification(const Broker::Message &message) const
{
    constexpr int kQuoteChars = 200;
    const int row = m_model->rowOf(message.fromId);
    const QString name = row >= 0 ? m_model->peerAt(row).displayName() : message.fromId;
    QString quote = message.text.simplified();
    if (quote.size() > kQuoteChars)
        quote = quote.left(kQuoteChars - 1) + QChar(0x2026);
    NotificationEvent event {NotificationKind::MessageReceived, message.fromId, name,
                             tr("%1 wrote to you").arg(name), quote};
    event.messageId = message.id;
    return event;
}

void TrayComposition::openNotification(const NotificationEvent &event)
{
    // The window on exactly what the notification is about (an event about nothing: the window).
    if (event.peerId.isEmpty()) {
        m_window->showAndRaise();
        return;
    }
    switch (event.subject) {
    case NotificationSubject::Peer:
        if (event.kind == NotificationKind::MessageReceived) {
            m_window->showPage(QStringLiteral("messages"));
            m_messagesPage->openPeer(event.peerId);
            return;
        }
        m_window->showPage(QStringLiteral("peers"));
        m_peersPage->selectPeer(event.peerId);
        return;
    case NotificationSubject::OpenCodeSession: {
        const auto session = m_openCode->session(event.peerId);
        m_window->showPage(QStringLiteral("sessions"));
        m_sessionsPage->selectSession(session ? session->directory : event.scope, event.peerId);
        return;
    }
    case NotificationSubject::PairingRequest:
        // Only opens the card: accepting is a decision made there, after comparing the codes.
        m_window->showPage(QStringLiteral("federation"));
        m_federationPage->showPendingRequest(event.peerId);
        return;
    case NotificationSubject::Schedule: {
        m_window->showPage(QStringLiteral("schedules"));
        SchedulesPresenter *schedules = m_schedulesPage->presenter();
        if (schedules->model()->rowOf(event.scope, event.peerId) >= 0) {
            m_schedulesPage->selectTask(event.scope, event.peerId);
            return;
        }
        // Not listed yet (the page lists the tasks as it is shown): once the list is in.
        auto *once = new QObject(this);
        const auto select = [this, once, project = event.scope, task = event.peerId] {
            m_schedulesPage->selectTask(project, task);
            once->deleteLater();
        };
        connect(schedules, &SchedulesPresenter::refreshed, once, select);
        connect(schedules, &SchedulesPresenter::refreshFailed, once, [once] { once->deleteLater(); });
        if (!schedules->isRefreshing())
            schedules->refresh();
        return;
    }
    }
}

void TrayComposition::showPauseState()
{
    if (!m_tray)
        return;
    const NotificationPreferences p = m_notifier->preferences();
    const bool paused = p.isPaused(QDateTime::currentDateTimeUtc());
    m_tray->setNotificationsPaused(paused, paused ? p.pausedUntil : QDateTime());
}

void TrayComposition::sendReply(const QString &peerId, const QString &text, qint64 messageId)
{
    // As the operator peer, so the session can answer the reply (and a failure bounces to it);
    // about a message, as a reply to it (type response, reply_to), as the Messages page sends one.
    auto done = [this, peerId](Broker::Result<qint64> sent) {
        if (sent) {
            qCInfo(lcUi) << "reply sent to" << peerId << "as message" << *sent;
            return;
        }
        qCWarning(lcUi).noquote() << "reply to" << peerId << "not sent:" << sent.error().message;
        m_notifier->notify({NotificationKind::BrokerProblem, peerId, peerId,
                            tr("Reply to %1 not sent").arg(peerId), sent.error().message});
    };
    if (messageId > 0) {
        Broker::Message about;
        about.id = messageId;
        about.fromId = peerId;
        m_operator->reply(about, text, std::move(done));
        return;
    }
    m_operator->send(peerId, text, std::move(done));
}

void TrayComposition::showWindow()
{
    m_window->showAndRaise();
}

void TrayComposition::quit(int exitCode)
{
    m_operator->stop();
    m_host->stop();
    QCoreApplication::exit(exitCode);
}

void TrayComposition::onUnixSignal(int signalNumber)
{
    if (signalNumber == SIGHUP) {
        qCInfo(lcUi) << "SIGHUP: reloading token and config";
        m_host->reload();
        return;
    }
    qCInfo(lcUi) << "signal" << signalNumber << "- stopping the broker and quitting";
    quit(0);
}

} // namespace App
