#include "app/tray/pages/statuspage.h"

#include "app/cli/formatting.h"
#include "common/brokerapi.h"

#include <QClipboard>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QLabel>
#include <QLocale>
#include <QPointer>
#include <QPushButton>
#include <QSysInfo>
#include <QTimer>
#include <QVBoxLayout>

namespace App {

namespace {

qint64 fileSize(const QString &path)
{
    const QFileInfo info(path);
    return info.exists() ? info.size() : 0;
}

} // namespace

StatusPage::StatusPage(Broker::BrokerClient *client, QWidget *parent)
    : QWidget(parent),
      m_client(client),
      m_timer(new QTimer(this)),
      m_problem(new QLabel(this)),
      m_copy(new QPushButton(tr("Copy diagnostics"), this))
{
    setObjectName(QStringLiteral("statusPage"));
    auto *form = new QFormLayout;
    const std::pair<const char *, QString> rows[] = {
        {"port", tr("Port")},
        {"database", tr("Database")},
        {"uptime", tr("Uptime")},
        {"rates", tr("Rates")},
        {"peers", tr("Peers")},
        {"pending", tr("Pending messages")},
        {"federation", tr("Federation")},
        {"secrets", tr("Secrets")},
        {"version", tr("Version")},
    };
    for (const auto &[name, label] : rows) {
        auto *value = new QLabel(this);
        value->setObjectName(QLatin1String(name));
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        form->addRow(label, value);
        m_fields.insert(QLatin1String(name), value);
    }
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->hide();
    m_copy->setObjectName(QStringLiteral("copyDiagnostics"));
    m_copy->setToolTip(
        tr("The text of `claude-peers status` and `claude-peers metrics`, with the database and "
           "versions, for a bug report"));
    connect(m_copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(diagnostics()); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_problem);
    layout->addLayout(form);
    layout->addWidget(m_copy, 0, Qt::AlignLeft);
    layout->addStretch(1);

    m_timer->setInterval(RefreshMs);
    m_timer->callOnTimeout(this, &StatusPage::refresh);
    if (m_client) {
        m_fields.value(QStringLiteral("port"))->setText(QString::number(m_client->location().port));
        m_fields.value(QStringLiteral("database"))->setText(m_client->location().databasePath);
    }
}

QLabel *StatusPage::field(const QString &name) const
{
    return m_fields.value(name);
}

void StatusPage::refresh()
{
    if (!m_client || m_outstanding > 0)
        return; // the previous round is still out: never pile requests up
    m_outstanding = 3;
    QPointer<StatusPage> self(this);
    auto arrived = [self] {
        if (self && --self->m_outstanding == 0) {
            self->showAnswers();
            Q_EMIT self->refreshed();
        }
    };
    const Broker::BrokerApi api(*m_client);
    api.health([self, arrived](Broker::Result<Broker::HealthAnswer> health) {
        if (self)
            self->m_health = std::move(health);
        arrived();
    });
    api.metrics(false, [self, arrived](Broker::Result<Broker::MetricsAnswer> metrics) {
        if (self)
            self->m_metrics = std::move(metrics);
        arrived();
    });
    api.call(Broker::SecretsRequest {}, [self, arrived](Broker::Result<Broker::SecretsAnswer> secrets) {
        if (self)
            self->m_secrets = std::move(secrets);
        arrived();
    });
}

void StatusPage::showAnswers()
{
    const Broker::Location &location = m_client->location();
    const qint64 dbBytes =
        fileSize(location.databasePath) + fileSize(location.databasePath + QStringLiteral("-wal"));
    m_fields.value(QStringLiteral("port"))->setText(QString::number(location.port));
    m_fields.value(QStringLiteral("database"))
        ->setText(tr("%1 (%2)").arg(location.databasePath, QLocale().formattedDataSize(dbBytes)));

    const bool up = m_health && *m_health;
    m_problem->setVisible(!up);
    if (!up) {
        m_problem->setText(m_health ? tr("The broker does not answer: %1").arg(m_health->error().message)
                                    : tr("The broker does not answer."));
        for (const char *name : {"uptime", "rates", "peers", "pending", "federation", "secrets"})
            m_fields.value(QLatin1String(name))->setText(tr("unknown"));
        m_lastTotal.reset();
        return;
    }
    const Broker::HealthAnswer &health = **m_health;
    m_fields.value(QStringLiteral("peers"))->setText(QString::number(health.peers));
    m_fields.value(QStringLiteral("version"))
        ->setText(tr("broker %1, pid %2; tray %3, Qt %4")
                      .arg(health.version.isEmpty() ? tr("(not said)") : health.version,
                           health.pid ? QString::number(*health.pid) : tr("(not said)"),
                           QCoreApplication::applicationVersion(), QLatin1String(qVersion())));
    if (health.uptimeMs)
        m_fields.value(QStringLiteral("uptime"))->setText(Cli::Format::uptime(*health.uptimeMs / 1000));
    if (health.pendingMessages)
        m_fields.value(QStringLiteral("pending"))->setText(QString::number(*health.pendingMessages));

    if (m_metrics && *m_metrics) {
        const Broker::MetricsAnswer &metrics = **m_metrics;
        if (m_lastTotal && m_sinceLastTotal.elapsed() > 0)
            m_messagesPerSecond = double(std::max<qint64>(0, metrics.messages.total - *m_lastTotal)) *
                1000.0 / double(m_sinceLastTotal.elapsed());
        m_lastTotal = metrics.messages.total;
        m_sinceLastTotal.restart();
        m_fields.value(QStringLiteral("rates"))
            ->setText(tr("%1 messages/s, %n request(s) in the last minute; %2 messages stored, %3% delivered",
                         nullptr, int(metrics.requestsPerMinute))
                          .arg(QLocale().toString(m_messagesPerSecond, 'f', 1))
                          .arg(metrics.messages.total)
                          .arg(Cli::Format::scalar(metrics.messages.deliveryRatePct)));
        m_fields.value(QStringLiteral("federation"))
            ->setText(
                metrics.federation.enabled
                    //: federation: %1 is "%n machine(s) linked", %2 "%n remote peer(s)"
                    ? tr("on: %1, %2")
                          .arg(tr("%n machine(s) linked", nullptr, int(metrics.federation.remoteCount)),
                               tr("%n remote peer(s)", nullptr, int(metrics.federation.remotePeerCount)))
                    : tr("off (turn it on in the Federation page or with `claude-peers federation init`)"));
    } else if (m_metrics) {
        m_fields.value(QStringLiteral("rates"))->setText(tr("unknown: %1").arg(m_metrics->error().message));
    }
    if (m_secrets)
        m_fields.value(QStringLiteral("secrets"))->setText(secretsText(*m_secrets, location.tokenPath));
}

// The Secrets row in the page's words (the diagnostics keep the CLI's `status` lines).
QString StatusPage::secretsText(const Broker::Result<Broker::SecretsAnswer> &secrets,
                                const QString &tokenPath)
{
    if (!secrets && secrets.error().httpStatus == 404)
        return tr("not reported by this broker (a 0.7 broker keeps the token in the file %1)").arg(tokenPath);
    if (!secrets)
        return tr("unknown: %1").arg(secrets.error().message);
    const Broker::SecretsAnswer::LocalToken &local = secrets->localToken;
    QString text = secrets->inKeychain()
        ? tr("local token in the OS keychain (%1); token file %2").arg(local.where, local.tokenFile)
        : tr("local token in the file %1").arg(local.where);
    if (!local.note.isEmpty())
        text += QLatin1Char('\n') + local.note; // the broker's own sentence
    return text;
}

QString StatusPage::diagnostics() const
{
    QStringList lines;
    const QString url = m_client ? m_client->location().baseUrl().toString() : QString();
    if (m_health && *m_health) {
        lines << Cli::Format::statusHeader(**m_health, url);
        if (m_secrets)
            lines << Cli::Format::statusSecrets(*m_secrets, m_client->location().tokenPath);
    } else {
        lines << QStringLiteral("Broker: not answering (%1)")
                     .arg(m_health ? m_health->error().message : QString())
              << QStringLiteral("URL: ") + url;
    }
    if (m_metrics && *m_metrics)
        lines << Cli::Format::metrics(**m_metrics, false);
    if (m_client) {
        const Broker::Location &location = m_client->location();
        lines << QStringLiteral("Database: %1 (%2 bytes, WAL %3 bytes)")
                     .arg(location.databasePath)
                     .arg(fileSize(location.databasePath))
                     .arg(fileSize(location.databasePath + QStringLiteral("-wal")))
              << QStringLiteral("Config: ") + location.configPath
              << QStringLiteral("Token file: ") + location.tokenPath;
    }
    lines << QStringLiteral("Tray: %1 %2, Qt %3 (built with %4), %5, platform %6")
                 .arg(QCoreApplication::applicationName(), QCoreApplication::applicationVersion(),
                      QLatin1String(qVersion()), QLatin1String(QT_VERSION_STR), QSysInfo::prettyProductName(),
                      QGuiApplication::platformName());
    return lines.join(QLatin1Char('\n'));
}

void StatusPage::showEvent(QShowEvent *event)
{
    refresh();
    m_timer->start();
    QWidget::showEvent(event);
}

void StatusPage::hideEvent(QHideEvent *event)
{
    m_timer->stop();
    QWidget::hideEvent(event);
}

} // namespace App
