#pragma once

#include "federation/discoverypolicy.h"

#include <QObject>
#include <QString>

// The seam in front of DNS-SD (docs/spec/federation-security.md §5): announce ourselves and browse for the
// others. DnsSdDiscovery (dns_sd.h: Avahi's compat library, Bonjour) is the real one; tests give
// a fake. A discovery that cannot run says why (unavailable()) and stays off: federation works
// without it.
namespace Federation {

class Discovery : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~Discovery() override = default;

    // Announces `instance` on `port` with `txt` (the wire-form TXT record) and browses for the
    // same service type. Emits unavailable() (maybe at once) when no daemon answers.
    virtual void start(const QString &instance, quint16 port, const QByteArray &txt) = 0;
    virtual void stop() = 0;
    virtual bool isActive() const = 0;

Q_SIGNALS:
    void found(const Federation::DiscoveredService &service);
    void lost(const QString &instance);
    void unavailable(const QString &reason);
};

// Discovery that is off for a reason given at construction (not built with DNS-SD).
class NullDiscovery final : public Discovery
{
    Q_OBJECT
public:
    explicit NullDiscovery(QString reason, QObject *parent = nullptr)
        : Discovery(parent), m_reason(std::move(reason))
    {
    }
    void start(const QString &, quint16, const QByteArray &) override { Q_EMIT unavailable(m_reason); }
    void stop() override { }
    bool isActive() const override { return false; }

private:
    QString m_reason;
};

} // namespace Federation
