#pragma once

#include "app/tray/pages/federationmodels.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <optional>

namespace Broker {
class BrokerClient;
}

namespace App {

// What the Federation page shows and does, without widgets (tested without a display). It reads
// and acts only through the broker's routes, the same the CLI uses, so each action has a twin:
//   enable / disable            claude-peers federation enable | disable   (config + /reload)
//   join URL, fingerprint       claude-peers federation token --json
//   one-time code               claude-peers federation pair-code --json
//   accept / ignore a request   claude-peers federation accept <id> --yes --json | reject <id> --json
//   revoke a paired broker      claude-peers federation revoke <host:port> --json
//   un-ignore a machine         claude-peers federation unignore <fingerprint> --json
//   rotate the key (re-key)     claude-peers federation rotate-psk --json
//   lists                       claude-peers federation status|pending|attempts --json
// "Dismiss" only hides a card here; the request stays pending in the broker.
class FederationPresenter : public QObject
{
    Q_OBJECT
public:
    static constexpr int kRefreshMs = 2000; // while the page is shown
    static constexpr int kIdleRefreshMs = 15000; // otherwise: new pairing requests still surface

    struct Overview
    {
        bool reachable = false;
        QString error; // why the broker did not answer
        bool enabled = false;
        QString hostname;
        int port = 0;
        QString fingerprint; // this broker's pin, sha256-…
        QString joinUrl; // cpt://host:port;fp=…/<secret>
        QString pskSource; // "own" | "local-token-copy"
        QStringList warnings; // the broker's sentences, each with the command that fixes it
        bool restartNeeded = false; // the broker did not re-read the config
        bool operator==(const Overview &) const = default;
    };

    struct PairingCode
    {
        QString code; // ABCDE-FGHJK
        QString host; // where the other machine dials us
        int port = 0;
        QDateTime expiresAt;
        // What the other machine runs (and what the QR code holds).
        QString joinCommand() const;
    };

    explicit FederationPresenter(Broker::BrokerClient *client, QObject *parent = nullptr);

    PendingRequestsModel *pending() const { return m_pending; }
    PairedBrokersModel *paired() const { return m_paired; }
    AttemptsModel *attempts() const { return m_attempts; }
    IgnoredMachinesModel *ignored() const { return m_ignored; }
    const Overview &overview() const { return m_overview; }
    const std::optional<PairingCode> &pairingCode() const { return m_code; }
    // Seconds the code is still valid (0: none, or expired).
    int codeSecondsLeft() const;
    // The clock of the countdown (tests set one).
    void setClock(std::function<QDateTime()> clock) { m_clock = std::move(clock); }

    // The `claude-peers …` command a warning names (between backquotes), or the doctor.
    static QString fixCommand(const QString &warning);

public Q_SLOTS:
    // One round: status, then (federation on) token, pending requests and the audit trail.
    void refresh();
    // Refreshes every kRefreshMs while active (the page is shown), and once at once; every
    // kIdleRefreshMs otherwise (from construction on), so pendingRequestArrived comes while the
    // window is closed too.
    void setActive(bool active);

    void setFederationEnabled(bool enabled);
    void createPairingCode();
    // The confirm-the-code step: Accept first shows both codes to compare (beginAccept); only
    // "the codes match" accepts (confirmAccept); "they differ" rejects (codesDiffer).
    void beginAccept(const QString &id);
    void cancelAccept(const QString &id);
    void confirmAccept(const QString &id);
    void codesDiffer(const QString &id);
    void ignore(const QString &id); // reject: the other machine is told no
    void dismiss(const QString &id); // hide the card; nothing is decided
    void revoke(const QString &host, int port);
    void rotateKey();
    // The machine may be offered for pairing again when DNS-SD finds it.
    void unignore(const QString &fingerprint);

Q_SIGNALS:
    void overviewChanged();
    void pairingCodeChanged();
    // A pending request not seen before (traynotify may raise a notification that opens the page).
    void pendingRequestArrived(const QString &id, const QString &hostname);
    // action: "enable", "disable", "pair-code", "accept", "reject", "revoke", "rotate-psk", "unignore".
    void actionFinished(const QString &action, bool ok, const QString &message);
    // A refresh round completed (tests wait for it).
    void refreshed();

private:
    void setOverview(const Overview &overview);
    void roundStep(); // one answer of the round is in
    void fetchDetails();
    void reject(const QString &id, const QString &action);
    void finish(const QString &action, bool ok, const QString &message);

    Broker::BrokerClient *m_client;
    PendingRequestsModel *m_pending;
    PairedBrokersModel *m_paired;
    AttemptsModel *m_attempts;
    IgnoredMachinesModel *m_ignored;
    Overview m_overview;
    std::optional<PairingCode> m_code;
    QSet<QString> m_seenPending;
    QTimer m_timer;
    int m_outstanding = 0; // answers of the current round still to come
    bool m_again = false; // refresh() was asked during a round
    std::function<QDateTime()> m_clock = [] { return QDateTime::currentDateTimeUtc(); };
};

} // namespace App
