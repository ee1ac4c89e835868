#pragma once

#include "app/tray/connectsnippets.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace Broker {
class BrokerClient;
}

namespace App {

class NotificationSettings;

// The Settings page: the broker's port (from the environment: shown, with how to change it),
// the federation port and subnets and the OpenCode URL (written to ~/.claude-peers-config.json
// through Broker::ConfigSettings, the writer of `claude-peers config set`, then applied with
// POST /reload where the broker can, with a plain note where a restart is needed), start at
// login, and the lines that connect sessions: `claude mcp add …`, OpenCode's config and the
// Claude Code hooks, each with a copy button; and the notification preferences
// (NotificationSettings, the same object `claude-peers notifications` edits).
class SettingsPage : public QWidget
{
    Q_OBJECT
public:
    SettingsPage(Broker::BrokerClient *client, ConnectSnippets snippets, QWidget *parent = nullptr);

    // Re-reads the config file into the fields (done when the page is shown).
    void load();
    // Checks every changed field, writes them, asks the broker to reload (the result shows in
    // saveStatus(); saved() follows).
    void save();
    // Ticks "Start at login" without emitting autostartToggled (the file system decides).
    void setAutostartChecked(bool checked);

    QLineEdit *federationPortEdit() const { return m_federationPort; }
    QLineEdit *subnetsEdit() const { return m_subnets; }
    QLineEdit *openCodeUrlEdit() const { return m_openCodeUrl; }
    QLabel *brokerPortLabel() const { return m_brokerPort; }
    QPushButton *saveButton() const { return m_save; }
    QLabel *saveStatus() const { return m_saveStatus; }
    QCheckBox *autostartBox() const { return m_autostart; }
    QPlainTextEdit *mcpAddView() const { return m_mcpAdd; }
    QPlainTextEdit *openCodeView() const { return m_openCode; }
    QPlainTextEdit *hooksView() const { return m_hooks; }
    NotificationSettings *notificationSettings() const { return m_notifications; }

Q_SIGNALS:
    void autostartToggled(bool enabled);
    // A save finished: written (and reloaded, or not) or refused; saveStatus() says which.
    void saved(bool ok);

private:
    QPlainTextEdit *snippetView(const QString &name, const QString &text);
    void showEvent(QShowEvent *event) override;

    Broker::BrokerClient *m_client;
    QString m_configPath;
    QLabel *m_brokerPort;
    QLineEdit *m_federationPort;
    QLineEdit *m_subnets;
    QLineEdit *m_openCodeUrl;
    QPushButton *m_save;
    QLabel *m_saveStatus;
    QCheckBox *m_autostart;
    QPlainTextEdit *m_mcpAdd;
    QPlainTextEdit *m_openCode;
    QPlainTextEdit *m_hooks;
    NotificationSettings *m_notifications;
};

} // namespace App
