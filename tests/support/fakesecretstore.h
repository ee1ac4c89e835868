#pragma once

#include "broker/secretstore.h"

#include <QHash>
#include <QList>

#include <optional>

namespace TestSupport {

// An in-memory SecretStore for unit tests. Answers through the event loop like a keychain;
// queued failures are given to the next calls, in order, before it answers normally.
class FakeSecretStore : public Broker::SecretStore
{
public:
    QHash<QString, QByteArray> secrets;
    QList<Broker::SecretError::Kind> failures;
    bool silent = false; // calls are counted but never answered (a keyring waiting on a prompt)
    int reads = 0;
    int writes = 0;
    int removes = 0;

    static Broker::SecretLocation location();

    void read(const QString &key, QObject *context, ReadDone done) override;
    void write(const QString &key, const QByteArray &secret, QObject *context, WriteDone done) override;
    void remove(const QString &key, QObject *context, WriteDone done) override;

private:
    std::optional<Broker::SecretError> nextFailure();
    void answer(QObject *context, std::function<void()> call);
};

} // namespace TestSupport
