#pragma once

#include "broker/brokerserver.h"
#include "tests/support/testsupport.h"

#include <QJsonObject>

// What the tray tests share: the broker settings of a test home, and a /register body.
namespace TrayTestSupport {

inline Broker::Settings settingsFor(const TestSupport::TestHome &home)
{
    const QProcessEnvironment env = home.environment();
    return Broker::Settings::load(Broker::Location::fromEnvironment(env), env);
}

// A registration for a live pid (the broker prunes peers whose process is gone).
inline QJsonObject registration(qint64 pid, const QString &cwd)
{
    return QJsonObject {{QStringLiteral("pid"), pid},
                        {QStringLiteral("cwd"), cwd},
                        {QStringLiteral("git_root"), QJsonValue::Null},
                        {QStringLiteral("tty"), QJsonValue::Null},
                        {QStringLiteral("summary"), QString()}};
}

} // namespace TrayTestSupport
