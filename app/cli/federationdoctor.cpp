// `claude-peers federation doctor`: every prerequisite of federation, one line each as it is
// checked (with a fix line when it is not OK), then 0.7's summary. What only the broker knows
// (its port, certificate, PSK, clock skew against the remotes) comes from its routes.
#include "app/cli/context.h"
#include "app/cli/federationcommands.h"
#include "app/cli/federationformat.h"
#include "app/cli/formatting.h"
#include "common/config.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QStandardPaths>

#include <cerrno>
#include <memory>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace Cli::Handlers {

namespace {

using FederationFormat::Check;
using Level = Check::Level;

// Whether something else listens on the port: binding it is the question the broker will ask.
// Plain POSIX (the CLI links no Qt Network).
bool portFree(int port, int *error)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        *error = errno;
        return false;
    }
    const int on = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(quint16(port));
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    const bool bound = ::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) == 0;
    *error = bound ? 0 : errno;
    ::close(fd);
    return bound;
}

class Doctor
{
public:
    Doctor(Context &ctx, bool json) : m_ctx(ctx), m_json(json) { }

    void run(const std::shared_ptr<Doctor> &self)
    {
        if (!m_json)
            m_ctx.out(QStringLiteral("[Federation Doctor]"));
        localChecks();
        m_ctx.api().health(
            [self](Broker::Result<Broker::HealthAnswer> health) { self->brokerChecks(self, health); });
    }

private:
    void add(Level level, const QString &text, const QString &fix = {})
    {
        const Check check {level, text, fix};
        m_checks << check;
        if (!m_json)
            m_ctx.out(FederationFormat::checkLines(check).join(QLatin1Char('\n')));
    }

    QString env(const char *name) const { return m_ctx.environment().value(QLatin1String(name)); }

    void localChecks()
    {
        const QString path = m_ctx.location().configPath;
        m_config = Broker::ConfigFile::load(path);
        if (!m_config.warning().isEmpty())
            add(Level::Fail, m_config.warning(), QStringLiteral("fix or remove %1").arg(path));
        else if (!QFileInfo::exists(path))
            add(Level::Warn, QStringLiteral("No config file at %1").arg(path),
                QStringLiteral("claude-peers federation init"));
        else
            add(Level::Ok, QStringLiteral("Config: %1").arg(path));

        const QString envEnabled = env("CLAUDE_PEERS_FEDERATION_ENABLED");
        if (envEnabled == QLatin1String("true") || envEnabled == QLatin1String("1"))
            add(Level::Ok, QStringLiteral("Federation enabled (CLAUDE_PEERS_FEDERATION_ENABLED)"));
        else if (envEnabled == QLatin1String("false") || envEnabled == QLatin1String("0"))
            add(Level::Fail,
                QStringLiteral("Federation disabled by CLAUDE_PEERS_FEDERATION_ENABLED=%1").arg(envEnabled),
                QStringLiteral("unset CLAUDE_PEERS_FEDERATION_ENABLED where the broker starts"));
        else if (m_config.federationEnabled().value_or(false))
            add(Level::Ok, QStringLiteral("Federation enabled in the config"));
        else
            add(Level::Fail, QStringLiteral("Federation is not enabled"),
                QStringLiteral("claude-peers federation init"));

        m_port = env("CLAUDE_PEERS_FEDERATION_PORT").toInt();
        if (m_port < 1 || m_port > 65535)
            m_port = m_config.federationPort().value_or(7900);

        const QString envSubnet = env("CLAUDE_PEERS_FEDERATION_SUBNET");
        const QStringList subnets =
            envSubnet.isEmpty() ? m_config.federationSubnets() : QStringList {envSubnet};
        if (subnets.isEmpty())
            add(Level::Ok, QStringLiteral("Subnet: detected by the broker from its network"));
        for (const QString &subnet : subnets) {
            if (!FederationFormat::isCidr(subnet))
                add(Level::Fail, QStringLiteral("Subnet \"%1\" is not a CIDR").arg(subnet),
                    QStringLiteral("claude-peers federation enable %1 <your LAN, e.g. 192.168.1.0/24>")
                        .arg(m_port));
            else if (subnet.endsWith(QLatin1String("/0")))
                add(Level::Warn,
                    QStringLiteral("Subnet %1 lets every address reach the federation port").arg(subnet),
                    QStringLiteral("claude-peers federation enable %1 <your LAN, e.g. 192.168.1.0/24>")
                        .arg(m_port));
            else
                add(Level::Ok, QStringLiteral("Subnet: %1").arg(subnet));
        }

        const QString cert = env("CLAUDE_PEERS_FEDERATION_CERT");
        const QString key = env("CLAUDE_PEERS_FEDERATION_KEY");
        if (cert.isEmpty() && key.isEmpty()) {
            add(Level::Ok, QStringLiteral("Certificate: made and renewed by the broker"));
        } else if (!QFileInfo::exists(cert) || !QFileInfo::exists(key)) {
            add(Level::Fail,
                QStringLiteral("Certificate or key not found (CLAUDE_PEERS_FEDERATION_CERT=%1, "
                               "CLAUDE_PEERS_FEDERATION_KEY=%2)")
                    .arg(cert, key),
                QStringLiteral("point both at existing PEM files, or unset both to let the broker make one"));
        } else if (QFile::permissions(key) &
                   (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther)) {
            add(Level::Warn, QStringLiteral("The key %1 can be read by other users").arg(key),
                QStringLiteral("chmod 600 %1").arg(key));
        } else {
            add(Level::Ok, QStringLiteral("Certificate: %1").arg(cert));
        }

        if (QFileInfo::exists(QStringLiteral("/run/avahi-daemon/socket")))
            add(Level::Ok, QStringLiteral("mDNS daemon: avahi-daemon is running"));
        else
            add(Level::Warn,
                QStringLiteral("No mDNS daemon (avahi): machines are not discovered, pair them by URL"),
                QStringLiteral("sudo apt install avahi-daemon && sudo systemctl enable --now avahi-daemon"));

        for (const char *firewall : {"ufw", "firewall-cmd"}) {
            if (!QStandardPaths::findExecutable(QLatin1String(firewall),
                                                {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")})
                     .isEmpty()) {
                const bool ufw = QLatin1String(firewall) == QLatin1String("ufw");
                add(Level::Warn,
                    QStringLiteral("A firewall (%1) may block TCP port %2")
                        .arg(QLatin1String(firewall))
                        .arg(m_port),
                    ufw ? QStringLiteral("sudo ufw allow %1/tcp").arg(m_port)
                        : QStringLiteral(
                              "sudo firewall-cmd --add-port=%1/tcp --permanent && sudo firewall-cmd "
                              "--reload")
                              .arg(m_port));
            }
        }
    }

    void brokerChecks(const std::shared_ptr<Doctor> &self, const Broker::Result<Broker::HealthAnswer> &health)
    {
        if (!health) {
            add(Level::Fail, QStringLiteral("Broker: not reachable at %1").arg(m_ctx.url()),
                QStringLiteral("claude-peers restart"));
            int error = 0;
            if (portFree(m_port, &error))
                add(Level::Ok, QStringLiteral("Port %1 is free for the broker").arg(m_port));
            else
                add(Level::Fail,
                    QStringLiteral("Port %1 is taken by another program (%2)")
                        .arg(m_port)
                        .arg(qt_error_string(error)),
                    QStringLiteral("choose another port: claude-peers federation enable <port>"));
            finish();
            return;
        }
        add(Level::Ok, QStringLiteral("Broker: running at %1").arg(m_ctx.url()));
        m_ctx.api().federationStatus([self](Broker::Result<Broker::FederationStatusAnswer> status) {
            self->statusChecks(self, status);
        });
    }

    void statusChecks(const std::shared_ptr<Doctor> &self,
                      const Broker::Result<Broker::FederationStatusAnswer> &status)
    {
        if (!status) {
            add(Level::Fail,
                QStringLiteral("Broker: /federation/status failed (%1)").arg(status.error().message),
                QStringLiteral("claude-peers restart"));
            finish();
            return;
        }
        if (!status->enabled) {
            add(Level::Fail, QStringLiteral("The broker runs without federation"),
                QStringLiteral(
                    "claude-peers federation enable (it re-reads the config), or claude-peers restart"));
            finish();
            return;
        }
        add(Level::Ok, QStringLiteral("The broker federates on port %1").arg(status->port));
        for (const auto &r : status->remotes) {
            const bool connected = r.state.isEmpty() || r.state == QLatin1String("connected");
            add(connected ? Level::Ok : Level::Warn,
                QStringLiteral("Remote: %1 (%2:%3) — %4 peer(s)%5")
                    .arg(r.hostname, r.host)
                    .arg(r.port)
                    .arg(r.peerCount)
                    .arg(connected ? QString() : QStringLiteral(", ") + r.state),
                connected ? QString()
                          : QStringLiteral("run claude-peers federation doctor on %1").arg(r.hostname));
        }
        for (const auto &remote : m_config.remotes()) {
            bool linked = false;
            for (const auto &r : status->remotes)
                linked = linked || (r.host == remote.host && r.port == remote.port);
            if (!linked)
                add(Level::Warn,
                    QStringLiteral("Remote %1:%2 from the config is not connected")
                        .arg(remote.host)
                        .arg(remote.port),
                    QStringLiteral("claude-peers federation connect %1:%2, and doctor on that machine")
                        .arg(remote.host)
                        .arg(remote.port));
        }
        if (status->pskIsTokenCopy())
            add(Level::Warn,
                QStringLiteral("The federation secret is still a copy of the local token (as in 0.7)"),
                QStringLiteral("claude-peers federation rotate-psk, then join the other machines again"));
        else if (!status->pskSource.isEmpty())
            add(Level::Ok, QStringLiteral("Federation secret: its own"));
        m_ctx.api().call(
            Broker::FederationDoctorRequest {},
            [self](Broker::Result<Broker::FederationDoctorAnswer> answer) { self->brokerDoctor(answer); },
            20000);
    }

    void brokerDoctor(const Broker::Result<Broker::FederationDoctorAnswer> &answer)
    {
        if (!answer && answer.error().httpStatus == 404) {
            add(Level::Warn,
                QStringLiteral("The broker cannot check its port, certificate and clock skew itself (no "
                               "/federation/doctor)"),
                QStringLiteral("update claude-peers-broker, then claude-peers restart"));
        } else if (!answer || !answer->ok) {
            add(Level::Fail,
                QStringLiteral("The broker's own checks failed: %1")
                    .arg(answer ? answer->error : answer.error().message),
                QStringLiteral("claude-peers restart"));
        } else {
            for (const auto &c : answer->checks) {
                const Level level = c.status == QLatin1String("ok")
                    ? Level::Ok
                    : (c.status == QLatin1String("warn") ? Level::Warn : Level::Fail);
                add(level, c.detail.isEmpty() ? c.name : QStringLiteral("%1: %2").arg(c.name, c.detail),
                    c.fix);
            }
        }
        finish();
    }

    void finish()
    {
        bool anyFailed = false;
        QJsonArray list;
        for (const Check &c : m_checks) {
            anyFailed = anyFailed || c.level == Level::Fail;
            static const char *const names[] = {"ok", "warn", "fail"};
            list.append(QJsonObject {{QStringLiteral("status"), QLatin1String(names[int(c.level)])},
                                     {QStringLiteral("check"), c.text},
                                     {QStringLiteral("fix"), c.fix}});
        }
        if (m_json) {
            m_ctx.outRaw(Format::prettyJson(list));
        } else {
            m_ctx.out(QString());
            m_ctx.out(FederationFormat::doctorSummary(m_checks));
        }
        m_ctx.finish(anyFailed ? ExitFailed : ExitOk);
    }

    Context &m_ctx;
    bool m_json;
    Broker::ConfigFile m_config;
    int m_port = 7900;
    QList<Check> m_checks;
};

} // namespace

void federationDoctor(Context &ctx, const Invocation &inv, const QStringList &)
{
    auto doctor = std::make_shared<Doctor>(ctx, inv.flag("json"));
    doctor->run(doctor);
}

} // namespace Cli::Handlers
