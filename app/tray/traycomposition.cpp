#include "traycomposition.h"

#include "autostart.h"
#include "brokerclient.h"
#include "brokercomposition.h"
#include "brokerhost.h"
#include "connectsnippets.h"
#include "firstrunwizard.h"
#include "mainwindow.h"
#include "peersmodel.h"
#include "peerspage.h"
#include "settingspage.h"
#include "statuspage.h"
#include "trayicon.h"
#include "trayicons.h"
#include "traylogging.h"
#include "traypresenter.h"
#include "unixsignalnotifier.h"

#include <QApplication>
#include <QCoreApplication>
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
      m_client(new Broker::BrokerClient(settings.location, this))
{
    // The tray hosts the broker: keychain and modules as in the headless broker. Set on the
    // broker thread before any start() (jobs run in order): the keychain's jobs and answers and
    // the modules' objects then live on the broker's event loop.
    m_host->runOnBrokerThread([](Broker::BrokerServer &server) { composeBroker(server); });
    m_model->attach(m_host);
    m_window = std::make_unique<MainWindow>();
    m_window->setWindowIcon(applicationIcon());
    m_peersPage = new PeersPage(m_model, m_presenter, m_client);
    m_window->addPage(QStringLiteral("peers"), tr("Peers"), m_peersPage);
    connect(m_peersPage, &PeersPage::retryRequested, m_host, &BrokerHost::start);
    m_window->addPage(QStringLiteral("status"), tr("Status"), new StatusPage(m_client));
    m_settingsPage = new SettingsPage(
        m_client, ConnectSnippets::forInstalledPrograms(QCoreApplication::applicationDirPath()));
    m_window->addPage(QStringLiteral("settings"), tr("Settings"), m_settingsPage);
    connect(m_settingsPage, &SettingsPage::autostartToggled, this, &TrayComposition::setAutostart);
    m_settingsPage->setAutostartChecked(autostart().status().enabled);

    // `claude-peers kill-broker` (or another tray taking over) asked us to go: the answer is
    // already sent, so stop and leave.
    connect(m_host, &BrokerHost::shutdownRequested, this, [this] {
        qCInfo(lcUi) << "shutdown requested over HTTP; quitting";
        quit(0);
    });
    // Without a tray the failure must reach the user some other way (BrokerHost already
    // logged it on stderr).
    connect(m_presenter, &TrayPresenter::notificationRequested, this, [this] {
        if (!m_tray)
            m_window->showAndRaise();
    });

    m_signals = new Broker::UnixSignalNotifier({SIGTERM, SIGINT, SIGHUP}, this);
    connect(m_signals, &Broker::UnixSignalNotifier::signalReceived, this, &TrayComposition::onUnixSignal);
}

TrayComposition::~TrayComposition()
{
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
    } else {
        qCInfo(lcUi) << "no system tray on this desktop (yet); showing the window instead."
                     << "Closing it keeps the broker running (stop it with `claude-peers kill-broker`).";
        m_window->show();
        // At login the panel may come up after us: watch for it for a while (KeePassXC retries too).
        if (m_trayPollAttemptsLeft > 0)
            QTimer::singleShot(m_trayPollMs, this, &TrayComposition::pollForTray);
    }
    m_host->start();
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
    if (--m_trayPollAttemptsLeft > 0)
        QTimer::singleShot(m_trayPollMs, this, &TrayComposition::pollForTray);
    else
        qCInfo(lcUi) << "no system tray appeared; the window stays the app";
}

void TrayComposition::createTrayIcon()
{
    m_tray = new TrayIcon(m_presenter, this);
    connect(m_tray, &TrayIcon::peersRequested, this, [this] { m_window->showPage(QStringLiteral("peers")); });
    connect(m_tray, &TrayIcon::peerRequested, this, [this](const QString &peerId) {
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

void TrayComposition::showWindow()
{
    m_window->showAndRaise();
}

void TrayComposition::quit(int exitCode)
{
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
