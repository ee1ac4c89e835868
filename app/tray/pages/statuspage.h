#pragma once

#include "common/wire.h"

#include <QElapsedTimer>
#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class QTimer;

namespace Broker {
class BrokerClient;
}

namespace App {

// The Status page: what the broker is and does — port, database (path and size), uptime,
// message and request rates, peers, pending messages, federation, where the secrets live — and
// "Copy diagnostics": the same text block `claude-peers status` and `claude-peers metrics` print
// (their formatting code, Cli::Format), plus the database and the tray's own versions. Asks the
// broker (GET /health, GET /metrics, POST /secrets) every few seconds while it is shown.
class StatusPage : public QWidget
{
    Q_OBJECT
public:
    static constexpr int RefreshMs = 2000;

    explicit StatusPage(Broker::BrokerClient *client, QWidget *parent = nullptr);

    // One round of requests now (also what the timer does).
    void refresh();
    // The text "Copy diagnostics" puts on the clipboard.
    QString diagnostics() const;
    // The Secrets row: where the local token lives, in the page's (translated) words.
    static QString secretsText(const Broker::Result<Broker::SecretsAnswer> &secrets,
                               const QString &tokenPath);
    QLabel *field(const QString &name) const; // "port", "database", "uptime", "rates", "peers",
                                              // "pending", "federation", "secrets", "version"
    bool isRefreshing() const { return m_outstanding > 0; }
    QLabel *problemLabel() const { return m_problem; }
    QPushButton *copyButton() const { return m_copy; }

Q_SIGNALS:
    // A refresh round finished (answered or failed): for tests and the composition.
    void refreshed();

private:
    void showAnswers();
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

    Broker::BrokerClient *m_client;
    QTimer *m_timer;
    QLabel *m_problem;
    QPushButton *m_copy;
    QHash<QString, QLabel *> m_fields;
    int m_outstanding = 0;
    std::optional<Broker::Result<Broker::HealthAnswer>> m_health;
    std::optional<Broker::Result<Broker::MetricsAnswer>> m_metrics;
    std::optional<Broker::Result<Broker::SecretsAnswer>> m_secrets;
    // messages/s: the change of the stored-message total between two answers.
    std::optional<qint64> m_lastTotal;
    QElapsedTimer m_sinceLastTotal;
    double m_messagesPerSecond = 0;
};

} // namespace App
