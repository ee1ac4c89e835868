#pragma once

#include "tests/support/testsupport.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>

#include <csignal>
#include <sys/types.h>

// Environment for a helper under test: the home's port, token and database; no rate limit
// (tests send bursts); optionally the broker's directory on PATH so that the helper can start
// a broker by itself; a fixed TTY (empty = none) so that ids are predictable.
inline QProcessEnvironment helperEnvironment(const TestSupport::TestHome &home, bool brokerOnPath,
                                             const QString &tty = QString())
{
    QProcessEnvironment env = home.environment();
    env.insert(QStringLiteral("CLAUDE_PEERS_RATE_LIMIT"), QStringLiteral("0"));
    QString path = QStringLiteral("/usr/bin:/bin");
    if (brokerOnPath)
        path = QFileInfo(TestSupport::brokerExe()).absolutePath() + QLatin1Char(':') + path;
    else // the build puts claude-peers-broker beside the helper: name a missing one instead
        env.insert(QStringLiteral("CLAUDE_PEERS_BROKER_EXE"), home.path() + QStringLiteral("/no-broker"));
    env.insert(QStringLiteral("PATH"), path);
    env.insert(QStringLiteral("CLAUDE_PEERS_TTY"), tty);
    return env;
}

// The pid a broker wrote beside the database (0 when none).
inline qint64 brokerPidFromFile(const TestSupport::TestHome &home)
{
    QFile f(home.databasePath() + QStringLiteral(".pid"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return f.readAll().trimmed().toLongLong();
}

// Stops a broker that a helper started (it is not our child): by the pid file.
inline void killBrokerFromPidFile(const TestSupport::TestHome &home)
{
    const qint64 pid = brokerPidFromFile(home);
    if (pid > 0)
        ::kill(pid_t(pid), SIGKILL);
}

// Kills, when the test leaves its scope (pass or fail), a broker that a helper started.
struct HelperBrokerGuard
{
    const TestSupport::TestHome &home;
    ~HelperBrokerGuard() { killBrokerFromPidFile(home); }
};

// The peer id a tty gives (docs/spec/peers-api.md §7.9: first 8 hex of SHA-256(tty)).
inline QString peerIdOfTty(const QString &tty)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(tty.toUtf8(), QCryptographicHash::Sha256).toHex().left(8));
}

inline QJsonObject toolArgs(std::initializer_list<QPair<QString, QJsonValue>> list)
{
    QJsonObject o;
    for (const auto &p : list)
        o.insert(p.first, p.second);
    return o;
}

// The id in a send_message result ("Message sent … (msg#42)"), -1 when none.
inline qint64 messageIdFromSendResult(const QString &text)
{
    const qsizetype at = text.indexOf(QLatin1String("(msg#"));
    if (at < 0)
        return -1;
    return text.mid(at + 5, text.indexOf(QLatin1Char(')'), at) - at - 5).toLongLong();
}

// The broker's /list-peers row of the peer a tty gives (empty when it is not listed).
inline QJsonObject peerRowOfTty(const TestSupport::TestHome &home, const QString &tty)
{
    const TestSupport::HttpResult r =
        TestSupport::httpPostJson(home.port(), QStringLiteral("/list-peers"),
                                  QJsonObject {{QStringLiteral("scope"), QStringLiteral("machine")},
                                               {QStringLiteral("cwd"), QStringLiteral("/")},
                                               {QStringLiteral("git_root"), QJsonValue::Null}},
                                  home.token());
    for (const QJsonValue &row : r.json().toArray()) {
        if (row.toObject().value(QLatin1String("id")) == peerIdOfTty(tty))
            return row.toObject();
    }
    return {};
}
