#pragma once

#include "app/cli/command.h"
#include "common/brokerapi.h"
#include "common/brokerclient.h"
#include "common/location.h"

#include <QObject>
#include <QProcessEnvironment>
#include <QTextStream>

class QIODevice;

namespace Cli {

struct Command;

// What a command runs with: where the broker is, one client, the two output streams and the
// working directory. Commands are asynchronous: they end by calling finish() exactly once,
// which flushes the streams and emits finished(code). Tests pass QBuffers for the streams.
class Context : public QObject
{
    Q_OBJECT
public:
    Context(const QProcessEnvironment &environment, QIODevice *out, QIODevice *err, QString workingDirectory,
            QObject *parent = nullptr);
    ~Context() override;

    const Broker::Location &location() const { return m_location; }
    const QProcessEnvironment &environment() const { return m_environment; }
    Broker::BrokerClient &client() { return m_client; }
    Broker::BrokerApi api() { return Broker::BrokerApi(m_client); } // typed calls (wire.h)
    QString workingDirectory() const { return m_workingDirectory; }
    QString url() const; // http://127.0.0.1:<port>

    void out(const QString &line); // line + '\n' on stdout
    void err(const QString &line); // line + '\n' on stderr
    void outRaw(const QByteArray &data);
    void errRaw(const QString &text); // as is, no newline (a progress line)
    // Whether stderr is a terminal (main() says): progress is shown only there.
    void setErrIsTerminal(bool terminal) { m_errIsTerminal = terminal; }
    bool errIsTerminal() const { return m_errIsTerminal; }

    // Ctrl-C or SIGTERM: interrupted() lets the running command say what it stopped, then the
    // command ends with ExitInterrupted; its requests are dropped and their connections closed
    // (the broker cancels what it was doing for them).
    void interrupt();

    void finish(int code);
    bool isFinished() const { return m_finished; }
    int exitCode() const { return m_exitCode; }

    // Common endings.
    void fail(const Broker::Error &error); // "Error: <msg>", exit 2
    void usageError(const Command &command, const QString &message = {}); // usage on stderr, exit 1

Q_SIGNALS:
    void finished(int code);
    void interrupted();

private:
    QProcessEnvironment m_environment;
    Broker::Location m_location;
    Broker::BrokerClient m_client;
    QTextStream m_out;
    QTextStream m_err;
    QString m_workingDirectory;
    bool m_finished = false;
    bool m_errIsTerminal = false;
    int m_exitCode = -1;
};

// Ends the command when the request failed, or the broker refused it by a rule
// ({"ok":false,"error"} → "Failed: <why>", exit 2). True when it ended the command.
template<typename Answer> bool failedOrRefused(Context &ctx, const Broker::Result<Answer> &answer)
{
    if (!answer) {
        ctx.fail(answer.error());
        return true;
    }
    if (!answer->ok) {
        ctx.err(QStringLiteral("Failed: ") + answer->error);
        ctx.finish(ExitFailed);
        return true;
    }
    return false;
}

} // namespace Cli
