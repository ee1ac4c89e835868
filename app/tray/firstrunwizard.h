#pragma once

#include "app/tray/connectsnippets.h"

#include <QWizard>

class QCheckBox;
class QLabel;

namespace Broker {
class BrokerClient;
}

namespace App {

// The first-run wizard: where the local token lives (the OS keychain or a 0600 file, as POST
// /secrets says; the broker moves the token into a keychain as soon as one answers, and "Ask
// again" has it re-read its secrets with POST /reload), start at login, the lines that connect
// Claude Code and OpenCode (copy buttons), and federation as an option that opens its page.
// Shown once per user (a marker file), or with `claude-peers-tray --first-run`.
class FirstRunWizard : public QWizard
{
    Q_OBJECT
public:
    enum PageId { KeychainPage, AutostartPage, ConnectPage, FederationPage };

    FirstRunWizard(Broker::BrokerClient *client, ConnectSnippets snippets, bool autostartEnabled,
                   QWidget *parent = nullptr);

    // ~/.config/claude-peers-tray/first-run-done (QStandardPaths::AppConfigLocation).
    static QString markerPath();
    static bool hasRun();
    static void markDone();

    // Asks the broker where the secrets live (again); the keychain page shows it.
    void refreshSecrets();
    QLabel *secretsLabel() const { return m_secrets; }
    QCheckBox *autostartBox() const { return m_autostart; }
    QCheckBox *federationBox() const { return m_federation; }

Q_SIGNALS:
    // On Finish: what the person chose.
    void autostartChosen(bool enabled);
    void federationRequested();
    void secretsShown(); // the keychain page has the broker's answer (tests)

private:
    void done(int result) override;

    Broker::BrokerClient *m_client;
    QLabel *m_secrets;
    QCheckBox *m_autostart;
    QCheckBox *m_federation;
};

} // namespace App
