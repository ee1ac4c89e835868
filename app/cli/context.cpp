#include "app/cli/context.h"

#include "app/cli/command.h"

namespace Cli {

namespace {
constexpr int CliRequestTimeoutMs = 5000;
}

Context::Context(const QProcessEnvironment &environment, QIODevice *out, QIODevice *err,
                 QString workingDirectory, QObject *parent)
    : QObject(parent),
      m_environment(environment),
      m_location(Broker::Location::fromEnvironment(environment)),
      m_client(m_location),
      m_out(out),
      m_err(err),
      m_workingDirectory(std::move(workingDirectory))
{
    m_client.setDefaultTimeoutMs(CliRequestTimeoutMs);
}

Context::~Context() = default;

QString Context::url() const
{
    return m_location.baseUrl().toString();
}

void Context::out(const QString &line)
{
    m_out << line << '\n';
    m_out.flush();
}

void Context::err(const QString &line)
{
    m_err << line << '\n';
    m_err.flush();
}

void Context::outRaw(const QByteArray &data)
{
    m_out << QString::fromUtf8(data);
    m_out.flush();
}

void Context::errRaw(const QString &text)
{
    m_err << text;
    m_err.flush();
}

void Context::interrupt()
{
    if (m_finished)
        return;
    Q_EMIT interrupted();
    finish(ExitInterrupted);
}

void Context::finish(int code)
{
    if (m_finished)
        return;
    m_finished = true;
    m_exitCode = code;
    m_out.flush();
    m_err.flush();
    m_client.abortAll();
    Q_EMIT finished(code);
}

void Context::fail(const Broker::Error &error)
{
    err(QStringLiteral("Error: ") + error.message);
    finish(ExitFailed);
}

void Context::usageError(const Command &command, const QString &message)
{
    if (!message.isEmpty())
        err(message);
    err(usageLine(command));
    err(QStringLiteral("Run 'claude-peers %1 --help' for details.").arg(QLatin1String(command.name)));
    finish(command.usageExitCode);
}

} // namespace Cli
