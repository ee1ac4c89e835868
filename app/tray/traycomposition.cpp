#include "traycomposition.h"

#include "autostart.h"
#include "brokerclient.h"
#include "brokercomposition.h"
#include "brokerhost.h"
#include "federationpage.h"
#include "federationpresenter.h"
#include "mainwindow.h"
#include "peersmodel.h"
#include "peerswindow.h"
#include "trayicon.h"
#include "trayicons.h"
#include "traylogging.h"
#include "traypresenter.h"
#include "unixsignalnotifier.h"

#include <QCoreApplication>
#include <QProcessEnvironment>
#include <QSystemTrayIcon>

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
    m_peersPage = new PeersWindow(m_model, m_presenter);
    m_window->addPage(QStringLiteral("peers"), tr("Peers"), m_peersPage);
    connect(m_peersPage, &PeersWindow::retryRequested, m_host, &BrokerHost::start);
    m_window->addPage(QStringLiteral("federation"), tr("Federation"),
                      new FederationPage(new FederationPresenter(m_client, this)));

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
    m_host->stop();
}

void TrayComposition::start()
{
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        m_tray = new TrayIcon(m_presenter, this);
        connect(m_tray, &TrayIcon::peersRequested, this,
                [this] { m_window->showPage(QStringLiteral("peers")); });
        connect(m_tray, &TrayIcon::peerRequested, this, [this](const QString &peerId) {
            m_window->showPage(QStringLiteral("peers"));
            m_peersPage->selectPeer(peerId);
        });
        connect(m_tray, &TrayIcon::retryRequested, m_host, &BrokerHost::start);
        connect(m_tray, &TrayIcon::quitRequested, this, [this] { quit(0); });
        // The entry may change behind our back (claude-peers autostart): read it when the menu opens.
        connect(m_tray, &TrayIcon::menuAboutToShow, this,
                [this] { m_tray->setAutostartChecked(autostart().status().enabled); });
        connect(m_tray, &TrayIcon::autostartToggled, this, &TrayComposition::setAutostart);
        m_tray->setAutostartChecked(autostart().status().enabled);
        m_tray->show();
    } else {
        qCInfo(lcUi) << "no system tray on this desktop; showing the window instead."
                     << "Closing it keeps the broker running (stop it with `claude-peers kill-broker`).";
        m_window->show();
    }
    m_host->start();
}

Autostart TrayComposition::autostart() const
{
    return Autostart::fromEnvironment(QProcessEnvironment::systemEnvironment(),
                                      QCoreApplication::applicationDirPath());
}

void TrayComposition::setAutostart(bool enabled)
{
    const auto result = enabled ? autostart().enable() : autostart().disable();
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
