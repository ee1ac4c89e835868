#pragma once

#include "tests/support/testsupport.h"

#include <QProcess>

// The real claude-peers-tray binary, offscreen, for end-to-end tray tests: its log (stderr) is
// collected, and it is killed on scope exit whatever the test's outcome.
namespace TrayTestSupport {

class TrayProcess
{
public:
    explicit TrayProcess(QProcessEnvironment env)
    {
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        m_process.setProcessEnvironment(env);
        m_process.setProgram(TestSupport::trayExe());
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
    }
    explicit TrayProcess(const TestSupport::TestHome &home) : TrayProcess(home.environment()) { }
    ~TrayProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(TestSupport::scaled(5000));
        }
    }
    bool start()
    {
        m_process.start();
        return m_process.waitForStarted(TestSupport::scaled(5000));
    }
    // Everything it wrote on stderr so far.
    QByteArray log()
    {
        m_log += m_process.readAllStandardError();
        return m_log;
    }
    QProcess &process() { return m_process; }

private:
    QProcess m_process;
    QByteArray m_log;
};

// The pid GET /health reports on the port, 0 when nothing answers.
inline qint64 healthPid(quint16 port)
{
    const auto health = TestSupport::httpGet(port, QStringLiteral("/health"), 1000);
    return health.status == 200 ? health.object().value(QStringLiteral("pid")).toInteger() : 0;
}

} // namespace TrayTestSupport
