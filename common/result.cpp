#include "common/result.h"

namespace Broker {

QString errorKindName(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::Unreachable:
        return QStringLiteral("unreachable");
    case ErrorKind::Http:
        return QStringLiteral("http");
    case ErrorKind::BadJson:
        return QStringLiteral("bad_json");
    case ErrorKind::Token:
        return QStringLiteral("token");
    case ErrorKind::TooLarge:
        return QStringLiteral("too_large");
    case ErrorKind::BadRequest:
        return QStringLiteral("bad_request");
    case ErrorKind::Rejected:
        return QStringLiteral("rejected");
    case ErrorKind::NotFound:
        return QStringLiteral("not_found");
    case ErrorKind::Gone:
        return QStringLiteral("gone");
    case ErrorKind::FederationDisabled:
        return QStringLiteral("federation_disabled");
    case ErrorKind::BadField:
        return QStringLiteral("bad_field");
    case ErrorKind::Missing:
        return QStringLiteral("missing");
    case ErrorKind::Unreadable:
        return QStringLiteral("unreadable");
    case ErrorKind::Unwritable:
        return QStringLiteral("unwritable");
    case ErrorKind::TokenMissing:
        return QStringLiteral("token_missing");
    case ErrorKind::TokenEmpty:
        return QStringLiteral("token_empty");
    case ErrorKind::TokenUnreadable:
        return QStringLiteral("token_unreadable");
    case ErrorKind::TokenUnwritable:
        return QStringLiteral("token_unwritable");
    case ErrorKind::ConfigUnwritable:
        return QStringLiteral("config_unwritable");
    case ErrorKind::Keychain:
        return QStringLiteral("keychain");
    case ErrorKind::NoPid:
        return QStringLiteral("no_pid");
    case ErrorKind::BadPid:
        return QStringLiteral("bad_pid");
    case ErrorKind::SignalFailed:
        return QStringLiteral("signal_failed");
    case ErrorKind::StartFailed:
        return QStringLiteral("start_failed");
    case ErrorKind::Database:
        return QStringLiteral("database");
    case ErrorKind::Invalid:
        return QStringLiteral("invalid");
    case ErrorKind::Lock:
        return QStringLiteral("lock");
    case ErrorKind::Locked:
        return QStringLiteral("locked");
    case ErrorKind::PortInUse:
        return QStringLiteral("port_in_use");
    case ErrorKind::PortBusy:
        return QStringLiteral("port_busy");
    case ErrorKind::Listen:
        return QStringLiteral("listen");
    case ErrorKind::Stopped:
        return QStringLiteral("stopped");
    case ErrorKind::Route:
        return QStringLiteral("route");
    case ErrorKind::Module:
        return QStringLiteral("module");
    case ErrorKind::ModuleSchema:
        return QStringLiteral("module_schema");
    case ErrorKind::ModuleJob:
        return QStringLiteral("module_job");
    case ErrorKind::HandoverRefused:
        return QStringLiteral("handover_refused");
    case ErrorKind::HandoverTimeout:
        return QStringLiteral("handover_timeout");
    case ErrorKind::NotABroker:
        return QStringLiteral("not_a_broker");
    case ErrorKind::BrokerNotFound:
        return QStringLiteral("broker_not_found");
    case ErrorKind::BrokerExited:
        return QStringLiteral("broker_exited");
    case ErrorKind::StartTimeout:
        return QStringLiteral("start_timeout");
    case ErrorKind::ShutdownRefused:
        return QStringLiteral("shutdown_refused");
    case ErrorKind::StopTimeout:
        return QStringLiteral("stop_timeout");
    case ErrorKind::Usage:
        return QStringLiteral("usage");
    }
    Q_UNREACHABLE();
}

} // namespace Broker
