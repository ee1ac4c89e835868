#include "app/tray/pages/federationpresenter.h"

#include "app/tray/traylogging.h"
#include "common/brokerapi.h"
#include "common/brokerclient.h"
#include "common/config.h"
#include "common/federationunignore.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace App {

namespace {

// Connecting and pairing calls may wait for a remote's 5 s handshake and a certificate check.
constexpr int kActionTimeoutMs = 20000;

QString detail(const Broker::FederationAnswer &answer, const char *key)
{
    const QJsonValue value = answer.details.value(QLatin1String(key));
    return value.isDouble() ? QString::number(value.toInteger()) : value.toString();
}

// The message of a failed call: the broker's refusal or why it was not reached.
template<typename Answer> QString failure(const Broker::Result<Answer> &answer)
{
    if (!answer)
        return answer.error().message;
    return answer->error;
}

} // namespace

QString FederationPresenter::PairingCode::joinCommand() const
{
    return QStringLiteral("claude-peers federation join %1:%2 %3").arg(host).arg(port).arg(code);
}

FederationPresenter::FederationPresenter(Broker::BrokerClient *client, QObject *parent)
    : QObject(parent),
      m_client(client),
      m_pending(new PendingRequestsModel(this)),
      m_paired(new PairedBrokersModel(this)),
      m_attempts(new AttemptsModel(this)),
      m_ignored(new IgnoredMachinesModel(this))
{
    connect(&m_timer, &QTimer::timeout, this, &FederationPresenter::refresh);
    m_timer.start(kIdleRefreshMs);
}

int FederationPresenter::codeSecondsLeft() const
{
    if (!m_code)
        return 0;
    return int(std::max<qint64>(0, m_clock().secsTo(m_code->expiresAt)));
}

QString FederationPresenter::fixCommand(const QString &warning)
{
    static const QRegularExpression quoted(QStringLiteral("`(claude-peers [^`]+)`"));
    const QRegularExpressionMatch match = quoted.match(warning);
    if (match.hasMatch())
        return match.captured(1);
    if (warning.contains(QLatin1String("legacy"), Qt::CaseInsensitive))
        return QStringLiteral("claude-peers federation status --json");
    return QStringLiteral("claude-peers federation doctor");
}

void FederationPresenter::setActive(bool active)
{
    m_timer.start(active ? kRefreshMs : kIdleRefreshMs);
    if (active)
        refresh();
}

void FederationPresenter::refresh()
{
    if (m_outstanding > 0) {
        m_again = true;
        return;
    }
    m_outstanding = 1;
    Broker::BrokerApi(*m_client).federationStatus(
        [this](Broker::Result<Broker::FederationStatusAnswer> status) {
            Overview next = m_overview;
            next.reachable = bool(status);
            next.error = status ? QString() : status.error().message;
            if (status) {
                next.enabled = status->enabled;
                next.hostname = status->hostname;
                next.port = int(status->port);
                next.fingerprint = status->fingerprint;
                next.pskSource = status->pskSource;
                next.warnings = status->warnings;
                m_paired->setStatus(status->raw);
            }
            if (!next.enabled)
                next.joinUrl.clear();
            setOverview(next);
            if (status && status->enabled)
                fetchDetails();
            roundStep();
        });
}

void FederationPresenter::fetchDetails()
{
    Broker::BrokerApi api(*m_client);
    m_outstanding += 3;
    api.call(Broker::FederationTokenRequest {}, [this](Broker::Result<Broker::FederationTokenAnswer> token) {
        if (token && token->ok) {
            Overview next = m_overview;
            next.joinUrl = token->url;
            setOverview(next);
        }
        roundStep();
    });
    api.call(
        Broker::FederationPendingRequest {}, [this](Broker::Result<Broker::FederationPendingAnswer> list) {
            if (list && list->ok) {
                m_pending->setRequests(list->requests);
                for (const auto &request : list->requests) {
                    const bool waiting = request.state.isEmpty() || request.state == QLatin1String("pending");
                    if (waiting && !m_seenPending.contains(request.id)) {
                        m_seenPending.insert(request.id);
                        Q_EMIT pendingRequestArrived(request.id, request.hostname);
                    }
                }
            }
            roundStep();
        });
    api.call(Broker::FederationAttemptsRequest {}, [this](Broker::Result<Broker::FederationAnswer> answer) {
        if (answer && answer->ok) {
            m_attempts->setAnswer(answer->details);
            m_ignored->setAnswer(answer->details);
        }
        roundStep();
    });
}

void FederationPresenter::roundStep()
{
    if (--m_outstanding > 0)
        return;
    Q_EMIT refreshed();
    if (m_again) {
        m_again = false;
        refresh();
    }
}

void FederationPresenter::setOverview(const Overview &overview)
{
    if (overview == m_overview)
        return;
    m_overview = overview;
    Q_EMIT overviewChanged();
}

void FederationPresenter::finish(const QString &action, bool ok, const QString &message)
{
    if (ok)
        qCInfo(lcUi).noquote() << "federation" << action << ":" << message;
    else
        qCWarning(lcUi).noquote() << "federation" << action << "failed:" << message;
    Q_EMIT actionFinished(action, ok, message);
    refresh();
}

void FederationPresenter::setFederationEnabled(bool enabled)
{
    const QString action = enabled ? QStringLiteral("enable") : QStringLiteral("disable");
    // As `claude-peers federation enable|disable`: the config file, then the broker re-reads it.
    const QString path = m_client->location().configPath;
    const auto saved = Broker::ConfigFile::update(path, [enabled](Broker::ConfigFile &config) {
        config.setFederationEnabled(enabled);
        return true;
    });
    if (!saved) {
        finish(action, false, saved.error().message);
        return;
    }
    Broker::BrokerApi(*m_client).call(
        Broker::ReloadRequest {}, [this, action, enabled](Broker::Result<Broker::ReloadAnswer> reloaded) {
            Overview next = m_overview;
            next.restartNeeded = !reloaded;
            setOverview(next);
            if (!reloaded) {
                finish(action, true,
                       tr("Saved in the config, but the broker did not re-read it (%1). Restart it: "
                          "claude-peers restart")
                           .arg(reloaded.error().message));
                return;
            }
            // The environment (CLAUDE_PEERS_FEDERATION_ENABLED) wins over the config: say so.
            Broker::BrokerApi(*m_client).federationStatus(
                [this, action, enabled](Broker::Result<Broker::FederationStatusAnswer> status) {
                    if (status && status->enabled != enabled) {
                        Overview next = m_overview;
                        next.restartNeeded = true;
                        setOverview(next);
                        // Two sentences, not "%1" with "on"/"off": the state word inflects.
                        finish(action, false,
                               status->enabled
                                   ? tr("Saved in the config, but the broker keeps federation on: "
                                        "CLAUDE_PEERS_FEDERATION_ENABLED in its environment wins over the "
                                        "config. Change it there, then run: claude-peers restart")
                                   : tr("Saved in the config, but the broker keeps federation off: "
                                        "CLAUDE_PEERS_FEDERATION_ENABLED in its environment wins over the "
                                        "config. Change it there, then run: claude-peers restart"));
                        return;
                    }
                    finish(action, true,
                           enabled ? tr("Federation is on: the federation port is open.")
                                   : tr("Federation is off: its port is closed; remotes and pins are kept."));
                });
        });
}

void FederationPresenter::createPairingCode()
{
    Broker::BrokerApi(*m_client).call(
        Broker::FederationPairCodeRequest {}, [this](Broker::Result<Broker::FederationAnswer> answer) {
            if (!answer || !answer->ok) {
                finish(QStringLiteral("pair-code"), false, failure(answer));
                return;
            }
            PairingCode code;
            code.code = detail(*answer, "code");
            code.host = detail(*answer, "host");
            code.port = answer->details.value(QLatin1String("port")).toInt();
            code.expiresAt =
                m_clock().addSecs(answer->details.value(QLatin1String("expires_in_s")).toInteger(600));
            m_code = code;
            Q_EMIT pairingCodeChanged();
            finish(QStringLiteral("pair-code"), true,
                   tr("Pairing code %1: on the other machine run %2").arg(code.code, code.joinCommand()));
        });
}

void FederationPresenter::beginAccept(const QString &id)
{
    m_pending->setConfirming(id, true);
}

void FederationPresenter::cancelAccept(const QString &id)
{
    m_pending->setConfirming(id, false);
}

void FederationPresenter::confirmAccept(const QString &id)
{
    if (!m_pending->isConfirming(id)) {
        // The codes were not compared: accepting without that step is what the card prevents.
        finish(QStringLiteral("accept"), false, tr("Compare the codes first"));
        return;
    }
    Broker::FederationAcceptRequest request;
    request.id = id;
    Broker::BrokerApi(*m_client).call(
        request,
        [this, id](Broker::Result<Broker::FederationAnswer> answer) {
            m_pending->setConfirming(id, false);
            if (!answer || !answer->ok) {
                finish(QStringLiteral("accept"), false, failure(answer));
                return;
            }
            finish(QStringLiteral("accept"), true,
                   tr("Accepted %1: its certificate is pinned; it receives the federation key and connects.")
                       .arg(detail(*answer, "hostname")));
        },
        kActionTimeoutMs);
}

void FederationPresenter::codesDiffer(const QString &id)
{
    reject(id, QStringLiteral("reject"));
}

void FederationPresenter::ignore(const QString &id)
{
    reject(id, QStringLiteral("reject"));
}

void FederationPresenter::reject(const QString &id, const QString &action)
{
    Broker::FederationRejectRequest request;
    request.id = id;
    Broker::BrokerApi(*m_client).call(request,
                                      [this, id, action](Broker::Result<Broker::FederationAnswer> answer) {
                                          m_pending->setConfirming(id, false);
                                          if (!answer || !answer->ok) {
                                              finish(action, false, failure(answer));
                                              return;
                                          }
                                          finish(action, true,
                                                 tr("Rejected the pairing request of %1; nothing was shared.")
                                                     .arg(detail(*answer, "hostname")));
                                      });
}

void FederationPresenter::dismiss(const QString &id)
{
    m_pending->dismiss(id);
}

void FederationPresenter::revoke(const QString &host, int port)
{
    Broker::FederationRevokeRequest request;
    request.host = host;
    request.port = port;
    Broker::BrokerApi(*m_client).call(
        request, [this, host, port](Broker::Result<Broker::FederationAnswer> answer) {
            if (!answer || !answer->ok) {
                finish(QStringLiteral("revoke"), false, failure(answer));
                return;
            }
            finish(
                QStringLiteral("revoke"), true,
                tr("Revoked %1 (%2:%3): disconnected, its pin removed; it is refused until paired again. It "
                   "still knows the federation key: rotate the key if it may misuse it.")
                    .arg(detail(*answer, "hostname"), host)
                    .arg(port));
        });
}

void FederationPresenter::unignore(const QString &fingerprint)
{
    Broker::FederationUnignoreRequest request;
    request.fingerprint = fingerprint;
    Broker::BrokerApi(*m_client).call(request, [this](Broker::Result<Broker::FederationAnswer> answer) {
        if (!answer || !answer->ok) {
            finish(QStringLiteral("unignore"), false, failure(answer));
            return;
        }
        finish(QStringLiteral("unignore"), true,
               tr("No longer ignored: when this machine is found on the network again, it is offered for "
                  "pairing."));
    });
}

void FederationPresenter::rotateKey()
{
    Broker::BrokerApi(*m_client).call(
        Broker::FederationRotatePskRequest {}, [this](Broker::Result<Broker::FederationAnswer> answer) {
            if (!answer || !answer->ok) {
                finish(QStringLiteral("rotate-psk"), false, failure(answer));
                return;
            }
            finish(QStringLiteral("rotate-psk"), true,
                   tr("New federation key, kept in %1. Paired machines need it: pair them again (a new "
                      "code) or give them the new join URL.")
                       .arg(detail(*answer, "location")));
        });
}

} // namespace App
