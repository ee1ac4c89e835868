// The config file readers on arbitrary file contents: the client's ConfigFile
// (common/config.cpp: every accessor, edit and write back) and the broker's
// Settings::load (broker/settings.cpp), which reads the same file's "broker" object.
#include "tests/fuzz/fuzzsupport.h"

#include "broker/settings.h"
#include "common/config.h"

#include <QFile>
#include <QJsonDocument>

using namespace Broker;

namespace {
QString g_path;
QString g_copy;
} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    g_path = Fuzz::scratchDir() + QStringLiteral("/config.json");
    g_copy = Fuzz::scratchDir() + QStringLiteral("/saved.json");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    {
        QFile file(g_path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            abort();
        file.write(reinterpret_cast<const char *>(data), qint64(size));
    }

    ConfigFile config = ConfigFile::load(g_path);
    (void)config.federationEnabled();
    (void)config.federationPort();
    (void)config.federationSubnet();
    (void)config.mdnsEnabled();
    (void)config.startupTimeoutMs();
    (void)config.heartbeatTimeoutMs();
    (void)config.rateLimitPerMinute();
    (void)config.maxConnections();
    (void)config.idleTimeoutMs();
    const QList<ConfigFile::Remote> remotes = config.remotes();

    // Edits keep the keys we do not know; what we write reads back the same.
    ConfigFile::Remote added {QStringLiteral("fuzz.example"), 7901, QStringLiteral("fuzz")};
    config.upsertRemote(added);
    Q_ASSERT(config.remotes().contains(added));
    config.setBrokerValue(QStringLiteral("max_connections"), 10);
    config.setFederationPort(7902);
    if (!remotes.isEmpty())
        config.removeRemote(remotes.first().host, remotes.first().port);
    const QByteArray written = config.toJson();
    Q_ASSERT(written.endsWith('\n'));
    QJsonParseError error;
    const QJsonDocument reread = QJsonDocument::fromJson(written, &error);
    Q_ASSERT(error.error == QJsonParseError::NoError && reread.isObject());
    Q_ASSERT(reread.object() == config.root());
    const auto saved = config.save(g_copy);
    Q_ASSERT(saved.has_value());

    // The broker's side of the same file.
    Location location;
    location.configPath = g_path;
    const Settings settings = Settings::load(location, QProcessEnvironment());
    Q_ASSERT(settings.maxConnections >= 1);
    Q_ASSERT(settings.maxBodyBytes >= 1024);
    return 0;
}
