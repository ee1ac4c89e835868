#include "broker/internal/store.h"

#include <QFile>
#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using namespace Broker;

namespace {

const QString fixturePath = QStringLiteral(PEERS_SOURCE_DIR "/tests/broker/fixtures/reference-0.7.0.sql");
const QString now = QStringLiteral("2026-03-27T12:00:00.000Z");

// A second, independent connection to the same file: plays the reference broker, the CLI,
// or simply looks at what Store wrote.
class RawDb
{
public:
    explicit RawDb(const QString &path) : m_name(QStringLiteral("tst_store.raw.%1").arg(++s_counter))
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
        db.setDatabaseName(path);
        db.open();
        exec(QStringLiteral("PRAGMA busy_timeout = 3000"));
    }
    ~RawDb()
    {
        {
            QSqlDatabase db = QSqlDatabase::database(m_name, false);
            db.close();
        }
        QSqlDatabase::removeDatabase(m_name);
    }
    QSqlDatabase db() const { return QSqlDatabase::database(m_name, false); }
    bool exec(const QString &sql)
    {
        QSqlQuery q(db());
        if (!q.exec(sql)) {
            qWarning() << sql << q.lastError().text();
            return false;
        }
        return true;
    }
    QVariant scalar(const QString &sql)
    {
        QSqlQuery q(db());
        if (!q.exec(sql) || !q.next())
            return {};
        return q.value(0);
    }
    QStringList column(const QString &sql, int index = 0)
    {
        QSqlQuery q(db());
        QStringList values;
        if (q.exec(sql)) {
            while (q.next())
                values << q.value(index).toString();
        }
        return values;
    }
    // Runs a whole SQL script the way the sqlite3 shell does, through QSQLITE's own handle.
    QString execScript(const QString &script)
    {
        const QVariant handle = db().driver()->handle();
        if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
            return QStringLiteral("no sqlite3 handle");
        sqlite3 *h = *static_cast<sqlite3 *const *>(handle.constData());
        char *error = nullptr;
        if (sqlite3_exec(h, script.toUtf8().constData(), nullptr, nullptr, &error) != SQLITE_OK) {
            const QString text = QString::fromUtf8(error);
            sqlite3_free(error);
            return text;
        }
        return {};
    }

private:
    static inline int s_counter = 0;
    QString m_name;
};

QStringList strings(std::initializer_list<const char *> items)
{
    QStringList list;
    for (const char *item : items)
        list << QString::fromUtf8(item);
    return list;
}

// QVERIFY2 evaluates its message even on success: never call error() on a value.
template<typename T> QString errorOf(const Result<T> &result)
{
    return result ? QString() : result.error().message;
}

// "true", "false", a number, or "error: <message>": readable in a failed QCOMPARE.
template<typename T> QString show(const Result<T> &result)
{
    if (!result)
        return QStringLiteral("error: ") + result.error().message;
    if constexpr (std::is_same_v<T, bool>)
        return *result ? QStringLiteral("true") : QStringLiteral("false");
    else
        return QString::number(*result);
}

QString readFixture()
{
    QFile file(fixturePath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

NewPeer newPeer(const QString &id, qint64 pid, const QString &tty = {}, const QString &name = {},
                const QString &summary = {})
{
    NewPeer p;
    p.id = id;
    p.pid = pid;
    p.cwd = QStringLiteral("/home/dev/project");
    p.tty = tty;
    p.sessionName = name;
    p.summary = summary;
    p.version = QStringLiteral("0.8.0");
    return p;
}

NewMessage newMessage(const QString &from, const QString &to, const QString &text)
{
    NewMessage m;
    m.fromId = from;
    m.toId = to;
    m.text = text;
    return m;
}

QString daysBefore(const QString &iso, double days)
{
    return QDateTime::fromString(iso, Qt::ISODateWithMs)
        .addMSecs(qint64(-days * 24 * 3600 * 1000))
        .toString(Qt::ISODateWithMs);
}

QList<qint64> idsOf(const QList<Message> &messages)
{
    QList<qint64> ids;
    for (const Message &m : messages)
        ids << m.id;
    return ids;
}

// A row of historyFilters(): the filter (an empty string is not set) and the ids it finds.
struct HistoryFilterRow
{
    const char *from = "";
    const char *to = "";
    const char *since = "";
    const char *search = "";
    int limit = 20;
};

void historyRow(const char *name, const HistoryFilterRow &filter, const QList<qint64> &expected)
{
    QTest::newRow(name) << QString::fromUtf8(filter.from) << QString::fromUtf8(filter.to)
                        << QString::fromUtf8(filter.since) << QString::fromUtf8(filter.search) << filter.limit
                        << expected;
}

QStringList idsOf(const QList<Peer> &peers)
{
    QStringList ids;
    for (const Peer &p : peers)
        ids << p.id;
    return ids;
}

} // namespace

class tst_Store : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void createsSchemaOnEmptyFile();
    void reopensWithDataIntact();
    void upgradesVersion3Indexes();
    void upgradesReferenceDatabase_data();
    void upgradesReferenceDatabase();
    void upgradesFirstReleaseDatabase();
    void refusesNewerSchema();
    void refusesForeignTables();
    void failsOnUnopenableFiles_data();
    void failsOnUnopenableFiles();
    void closedStoreGivesErrors();
    void lockedDatabaseGivesError();

    void registerSemantics_data();
    void registerSemantics();
    void registerStoresRowAndDefaults();
    void secretHashLookup();
    void peerUpdates();

    void messagesRoundTrip();
    void acknowledgeOnlyOwnRows();
    void insertMessagesIsAtomic();
    void historyFilters_data();
    void historyFilters();
    void historyLimitClamp();
    void historyRejectsBadSince();
    void orphans();
    void deleteMessages();
    void purgeBoundary();
    void counts();
    void batchCommitsOnce();

private:
    QString dbPath() const { return m_dir->filePath(QStringLiteral("peers.db")); }
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<Store> m_store;
};

void tst_Store::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<Store>();
}

void tst_Store::cleanup()
{
    m_store.reset();
    m_dir.reset();
}

void tst_Store::createsSchemaOnEmptyFile()
{
    auto opened = m_store->open(dbPath());
    QVERIFY2(opened, qPrintable(errorOf(opened)));
    QCOMPARE(m_store->schemaVersion(), 6);
    QCOMPARE(int(QFile::permissions(dbPath()) & 0x7077), 0x6000); // rw owner, nothing for group/other
    QVERIFY(m_store->registerPeer(newPeer(QStringLiteral("aaaa1111"), 10), now)); // creates the WAL
    QCOMPARE(int(QFile::permissions(dbPath() + QStringLiteral("-wal")) & 0x7077), 0x6000);

    RawDb raw(dbPath());
    QCOMPARE(raw.scalar(QStringLiteral("PRAGMA user_version")).toInt(), 6);
    QCOMPARE(raw.scalar(QStringLiteral("PRAGMA journal_mode")).toString(), QStringLiteral("wal"));
    QCOMPARE(raw.column(QStringLiteral("PRAGMA table_info(peers)"), 1),
             strings({"id", "pid", "cwd", "git_root", "tty", "summary", "registered_at", "last_seen",
                      "session_name", "channel_push", "version", "secret_hash", "client", "attention",
                      "attention_since", "attention_message", "delivery"}));
    QCOMPARE(
        raw.column(QStringLiteral("PRAGMA table_info(messages)"), 1),
        strings({"id", "from_id", "to_id", "text", "type", "metadata", "reply_to", "sent_at", "delivered"}));
    const QStringList indexes = raw.column(QStringLiteral(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'idx_%' ORDER BY name"));
    QCOMPARE(
        indexes,
        strings({"idx_messages_delivered_at", "idx_messages_undelivered", "idx_peers_pid", "idx_peers_tty"}));
    // Only undelivered rows in the delivery index, only delivered ones in the purge index.
    QCOMPARE(
        raw.scalar(QStringLiteral("SELECT sql FROM sqlite_master WHERE name = 'idx_messages_undelivered'"))
            .toString(),
        QStringLiteral("CREATE INDEX idx_messages_undelivered ON messages(to_id) WHERE delivered = 0"));
    QCOMPARE(
        raw.scalar(QStringLiteral("SELECT sql FROM sqlite_master WHERE name = 'idx_messages_delivered_at'"))
            .toString(),
        QStringLiteral("CREATE INDEX idx_messages_delivered_at ON messages(sent_at) WHERE delivered = 1"));
    // The hot and the periodic queries use these indexes rather than scanning the table.
    const auto plan = [&raw](const char *sql) {
        return raw.column(QStringLiteral("EXPLAIN QUERY PLAN ") + QLatin1String(sql), 3)
            .join(QLatin1Char(' '));
    };
    const std::pair<const char *, const char *> uses[] = {
        {"SELECT id FROM messages WHERE to_id = 'x' AND delivered = 0 AND id > 0 ORDER BY id",
         "idx_messages_undelivered"},
        {"UPDATE messages SET delivered = 1 WHERE to_id = 'x' AND delivered = 0 "
         "AND id IN (SELECT value FROM json_each('[1,2]'))",
         "idx_messages_undelivered"},
        {"DELETE FROM messages WHERE delivered = 1 AND sent_at < '2026'", "idx_messages_delivered_at"},
        {"SELECT m.id FROM messages m WHERE m.delivered = 0 AND m.from_id != 'system' AND NOT EXISTS "
         "(SELECT 1 FROM peers p WHERE p.id = m.to_id) ORDER BY m.to_id, m.id",
         "idx_messages_undelivered"},
    };
    for (const auto &[sql, index] : uses)
        QVERIFY2(plan(sql).contains(QLatin1String(index)),
                 qPrintable(QLatin1String(sql) + u" -> " + plan(sql)));
}

void tst_Store::reopensWithDataIntact()
{
    QVERIFY(m_store->open(dbPath()));
    QVERIFY(m_store->registerPeer(newPeer(QStringLiteral("aaaa1111"), 10, QStringLiteral("pts/1")), now));
    auto id = m_store->insertMessage(
        newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("hi")), now);
    QVERIFY(id);
    m_store->close();
    QCOMPARE(m_store->schemaVersion(), 0);

    QVERIFY(m_store->open(dbPath()));
    QCOMPARE(m_store->schemaVersion(), 6);
    auto peer = m_store->peer(QStringLiteral("aaaa1111"));
    QVERIFY(peer && peer->has_value());
    auto pending = m_store->undelivered(QStringLiteral("aaaa1111"));
    QVERIFY(pending);
    QCOMPARE(idsOf(*pending), QList<qint64> {*id});

    // Two stores on one file (the broker and, say, a CLI) get separate connections.
    Store second;
    QVERIFY(second.open(dbPath()));
    auto counted = second.counts();
    QVERIFY(counted);
    QCOMPARE(counted->messages, 1);
}

// A database of schema 3 (full indexes holding `delivered`) gets the partial indexes of
// schema 4, and its pending and delivered rows are found through them.
void tst_Store::upgradesVersion3Indexes()
{
    QVERIFY(m_store->open(dbPath()));
    QVERIFY(m_store->registerPeer(newPeer(QStringLiteral("aaaa1111"), 10), now));
    auto ids = m_store->insertMessages(
        {newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("1")),
         newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("2"))},
        now);
    QVERIFY(ids);
    QCOMPARE(show(m_store->acknowledge(QStringLiteral("aaaa1111"), {ids->at(0)})), QStringLiteral("1"));
    m_store->close();
    {
        RawDb raw(dbPath());
        QCOMPARE(raw.execScript(QStringLiteral(
                     "DROP INDEX idx_messages_undelivered; DROP INDEX idx_messages_delivered_at;"
                     "CREATE INDEX idx_messages_to_delivered ON messages(to_id, delivered);"
                     "CREATE INDEX idx_messages_delivered_sent ON messages(delivered, sent_at);"
                     "PRAGMA user_version = 3;")),
                 QString());
    }

    QVERIFY(m_store->open(dbPath()));
    QCOMPARE(m_store->schemaVersion(), 6);
    RawDb raw(dbPath());
    QCOMPARE(raw.column(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE "
                                       "'idx_messages%' ORDER BY name")),
             strings({"idx_messages_delivered_at", "idx_messages_undelivered"}));
    auto pending = m_store->undelivered(QStringLiteral("aaaa1111"));
    QVERIFY(pending);
    QCOMPARE(idsOf(*pending), QList<qint64> {ids->at(1)});
    QCOMPARE(show(m_store->purgeDeliveredBefore(QStringLiteral("2999-01-01T00:00:00.000Z"))),
             QStringLiteral("1"));
    QCOMPARE(m_store->counts()->messages, 1);
}

void tst_Store::upgradesReferenceDatabase_data()
{
    QTest::addColumn<QString>("mode");
    QTest::newRow("closed cleanly") << QStringLiteral("clean");
    QTest::newRow("rollback journal") << QStringLiteral("delete");
    QTest::newRow("crashed with a WAL file") << QStringLiteral("crash");
    QTest::newRow("reference still running") << QStringLiteral("running");
}

void tst_Store::upgradesReferenceDatabase()
{
    QFETCH(QString, mode);
    const QString script = readFixture();
    QVERIFY(!script.isEmpty());
    const QString buildPath = m_dir->filePath(QStringLiteral("reference.db"));
    QString path = buildPath;
    auto reference = std::make_unique<RawDb>(buildPath);
    QCOMPARE(reference->execScript(QStringLiteral("PRAGMA wal_autocheckpoint = 0;") + script), QString());
    if (mode == QLatin1String("delete"))
        QVERIFY(reference->exec(QStringLiteral("PRAGMA journal_mode = DELETE")));
    if (mode == QLatin1String("crash")) {
        // Copy the files as a killed reference leaves them: the rows live only in the WAL.
        path = m_dir->filePath(QStringLiteral("crashed.db"));
        QVERIFY(QFile::exists(buildPath + QStringLiteral("-wal")));
        QVERIFY(QFile::copy(buildPath, path));
        QVERIFY(QFile::copy(buildPath + QStringLiteral("-wal"), path + QStringLiteral("-wal")));
    }
    if (mode != QLatin1String("running"))
        reference.reset();

    auto opened = m_store->open(path);
    QVERIFY2(opened, qPrintable(errorOf(opened)));
    QCOMPARE(m_store->schemaVersion(), 6);

    auto peers = m_store->peers();
    QVERIFY(peers);
    QCOMPARE(idsOf(*peers), strings({"d92a5e28", "7c1f09ab", "k3m9x2qa"}));
    const Peer &auth = peers->at(0);
    QCOMPARE(auth.pid, 41001);
    QCOMPARE(auth.sessionName, QStringLiteral("AUTH_WORKER"));
    QCOMPARE(auth.summary, QStringLiteral("Refactoring the token refresh"));
    QCOMPARE(auth.gitRoot, QStringLiteral("/home/dev/auth"));
    QCOMPARE(auth.tty, QStringLiteral("pts/4"));
    QCOMPARE(auth.channelPush, QStringLiteral("unknown"));
    QCOMPARE(auth.registeredAt, QStringLiteral("2026-03-20T09:00:00.000Z"));
    QCOMPARE(peers->at(1).channelPush, QStringLiteral("working"));
    QCOMPARE(peers->at(1).lastSeen, QStringLiteral("2026-03-27T11:59:45.456Z"));
    QVERIFY(peers->at(1).gitRoot.isEmpty());
    QCOMPARE(peers->at(2).sessionName, QStringLiteral("scratch; 50% done_"));
    QCOMPARE(peers->at(2).summary, QStringLiteral("it's \"quoted\""));
    QVERIFY(peers->at(2).tty.isEmpty());

    auto response = m_store->message(3);
    QVERIFY(response && response->has_value());
    const Message &m = **response;
    QCOMPARE(m.type, QStringLiteral("response"));
    QCOMPARE(m.replyTo, std::optional<qint64>(2));
    QVERIFY(m.metadata);
    QCOMPARE(m.metadata->value(QLatin1String("branch")).toString(), QStringLiteral("fix/refresh-race"));
    QCOMPARE(m.metadata->value(QLatin1String("files")).toArray().size(), 1);
    QCOMPARE(m.sentAt, QStringLiteral("2026-03-27T11:05:00.000Z"));
    QVERIFY(!m.delivered);

    auto counted = m_store->counts();
    QVERIFY(counted);
    QCOMPARE(counted->peers, 3);
    QCOMPARE(counted->messages, 6);
    QCOMPARE(counted->delivered, 2);
    QCOMPARE(counted->pending, 4);
    auto pending = m_store->undelivered(QStringLiteral("d92a5e28"));
    QVERIFY(pending);
    QCOMPARE(idsOf(*pending), QList<qint64> {4});
    auto orphaned = m_store->orphans();
    QVERIFY(orphaned);
    QCOMPARE(idsOf(*orphaned), QList<qint64> {5});

    // AUTOINCREMENT continues after the reference's ids; the new columns work on old rows.
    auto next = m_store->insertMessage(
        newMessage(QStringLiteral("cli"), QStringLiteral("7c1f09ab"), QStringLiteral("x")), now);
    QVERIFY(next);
    QCOMPARE(*next, 7);
    auto registered =
        m_store->registerPeer(newPeer(QStringLiteral("d92a5e28"), 50000, QStringLiteral("pts/4")), now);
    QVERIFY(registered);
    QCOMPARE(registered->peer.sessionName, QStringLiteral("AUTH_WORKER"));

    // Purged with a real 7-day cutoff: only the 9-day-old delivered message.
    auto purged = m_store->purgeDeliveredBefore(daysBefore(now, 7));
    QVERIFY(purged);
    QCOMPARE(*purged, 1);

    RawDb check(path);
    QCOMPARE(check.scalar(QStringLiteral("PRAGMA user_version")).toInt(), 6);
    QVERIFY(
        check.column(QStringLiteral("PRAGMA table_info(peers)"), 1).contains(QStringLiteral("secret_hash")));
    QCOMPARE(check.scalar(QStringLiteral("SELECT COUNT(*) FROM peers WHERE secret_hash = ''")).toInt(), 3);
    // The reference can still insert into the upgraded tables with its own statements.
    if (reference) {
        QVERIFY(reference->exec(QStringLiteral(
            "INSERT INTO peers (id, pid, cwd, git_root, tty, session_name, summary, version, registered_at, "
            "last_seen) VALUES ('ref00001', 1, '/', NULL, NULL, '', '', '0.7.0', '2026-03-27T12:00:00.000Z', "
            "'2026-03-27T12:00:00.000Z')")));
        auto seen = m_store->peer(QStringLiteral("ref00001"));
        QVERIFY(seen && seen->has_value());
    }
}

void tst_Store::upgradesFirstReleaseDatabase()
{
    // Tables of the reference's first release, before any ALTER: Store adds the columns.
    {
        RawDb raw(dbPath());
        const QString script = QStringLiteral(
            "CREATE TABLE peers (id TEXT PRIMARY KEY, pid INTEGER NOT NULL, cwd TEXT NOT NULL, git_root "
            "TEXT, "
            "tty TEXT, summary TEXT NOT NULL DEFAULT '', registered_at TEXT NOT NULL, last_seen TEXT NOT "
            "NULL);"
            "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, from_id TEXT NOT NULL, to_id TEXT "
            "NOT "
            "NULL, text TEXT NOT NULL, sent_at TEXT NOT NULL, delivered INTEGER NOT NULL DEFAULT 0);"
            "INSERT INTO peers VALUES ('old00001', 1, '/src', NULL, 'pts/1', 'old summary', "
            "'2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');"
            "INSERT INTO messages (from_id, to_id, text, sent_at) VALUES ('cli', 'old00001', 'hello', "
            "'2026-01-01T00:00:01.000Z');");
        QCOMPARE(raw.execScript(script), QString());
    }
    auto opened = m_store->open(dbPath());
    QVERIFY2(opened, qPrintable(errorOf(opened)));
    QCOMPARE(m_store->schemaVersion(), 6);

    RawDb raw(dbPath());
    QCOMPARE(raw.column(QStringLiteral("PRAGMA table_info(peers)"), 1),
             strings({"id", "pid", "cwd", "git_root", "tty", "summary", "registered_at", "last_seen",
                      "session_name", "channel_push", "version", "secret_hash", "client", "attention",
                      "attention_since", "attention_message", "delivery"}));
    QCOMPARE(
        raw.column(QStringLiteral("PRAGMA table_info(messages)"), 1),
        strings({"id", "from_id", "to_id", "text", "sent_at", "delivered", "type", "metadata", "reply_to"}));

    auto peer = m_store->peer(QStringLiteral("old00001"));
    QVERIFY(peer && peer->has_value());
    QCOMPARE((*peer)->summary, QStringLiteral("old summary"));
    QCOMPARE((*peer)->channelPush, QStringLiteral("unknown"));
    QVERIFY((*peer)->sessionName.isEmpty());
    auto pending = m_store->undelivered(QStringLiteral("old00001"));
    QVERIFY(pending);
    QCOMPARE(pending->size(), 1);
    QCOMPARE(pending->first().type, QStringLiteral("text"));
    QCOMPARE(pending->first().text, QStringLiteral("hello"));
    QVERIFY(!pending->first().metadata);
    QVERIFY(!pending->first().replyTo);

    // Explicit column lists everywhere: the other column order works for new rows too.
    NewMessage m = newMessage(QStringLiteral("cli"), QStringLiteral("old00001"), QStringLiteral("again"));
    m.type = QStringLiteral("query");
    m.replyTo = 1;
    auto id = m_store->insertMessage(m, now);
    QVERIFY(id);
    auto stored = m_store->message(*id);
    QVERIFY(stored && stored->has_value());
    QCOMPARE((*stored)->type, QStringLiteral("query"));
    QCOMPARE((*stored)->replyTo, std::optional<qint64>(1));
    QCOMPARE((*stored)->sentAt, now);
}

void tst_Store::refusesNewerSchema()
{
    {
        RawDb raw(dbPath());
        QVERIFY(raw.exec(QStringLiteral("CREATE TABLE future (x)")));
        QVERIFY(raw.exec(QStringLiteral("PRAGMA user_version = 7")));
    }
    auto opened = m_store->open(dbPath());
    QVERIFY(!opened);
    QCOMPARE(opened.error().kind, Broker::ErrorKind::Database);
    QVERIFY2(opened.error().message.contains(QLatin1String("version 7")), qPrintable(errorOf(opened)));
    QVERIFY2(opened.error().message.contains(QLatin1String("upgrade claude-peers")),
             qPrintable(errorOf(opened)));
    QCOMPARE(m_store->schemaVersion(), 0);
    auto counted = m_store->counts();
    QVERIFY(!counted);

    RawDb raw(dbPath());
    QCOMPARE(raw.scalar(QStringLiteral("PRAGMA user_version")).toInt(), 7);
    QCOMPARE(raw.scalar(QStringLiteral("PRAGMA journal_mode")).toString(), QStringLiteral("delete"));
    QVERIFY(raw.column(QStringLiteral("SELECT name FROM sqlite_master WHERE name = 'peers'")).isEmpty());
}

void tst_Store::refusesForeignTables()
{
    {
        RawDb raw(dbPath());
        QVERIFY(raw.exec(QStringLiteral("CREATE TABLE peers (name TEXT, address TEXT)")));
    }
    auto opened = m_store->open(dbPath());
    QVERIFY(!opened);
    QCOMPARE(opened.error().kind, Broker::ErrorKind::Database);
    QVERIFY2(opened.error().message.contains(QLatin1String("not made by claude-peers")),
             qPrintable(errorOf(opened)));
    RawDb raw(dbPath());
    QCOMPARE(raw.scalar(QStringLiteral("PRAGMA user_version")).toInt(), 0); // rolled back
    QCOMPARE(raw.column(QStringLiteral("PRAGMA table_info(peers)"), 1), strings({"name", "address"}));
}

void tst_Store::failsOnUnopenableFiles_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("garbage file") << QStringLiteral("garbage");
    QTest::newRow("missing directory") << QStringLiteral("missing");
    QTest::newRow("a directory") << QStringLiteral("directory");
}

void tst_Store::failsOnUnopenableFiles()
{
    QFETCH(QString, kind);
    QString path = dbPath();
    if (kind == QLatin1String("garbage")) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
    } else if (kind == QLatin1String("missing")) {
        path = m_dir->filePath(QStringLiteral("no/such/dir/peers.db"));
    } else {
        path = m_dir->path();
    }
    auto opened = m_store->open(path);
    QVERIFY(!opened);
    QCOMPARE(opened.error().kind, Broker::ErrorKind::Database);
    QVERIFY(!opened.error().message.isEmpty());
    QVERIFY(!m_store->peers());
    // The store stays usable: a good file opens afterwards.
    auto good = m_store->open(m_dir->filePath(QStringLiteral("good.db")));
    QVERIFY2(good, qPrintable(errorOf(good)));
}

void tst_Store::closedStoreGivesErrors()
{
    QVERIFY(!m_store->peers()); // never opened
    QVERIFY(m_store->open(dbPath()));
    m_store->close();
    m_store->close(); // twice is fine
    const auto check = [](const auto &result) {
        QVERIFY(!result);
        QCOMPARE(result.error().kind, Broker::ErrorKind::Database);
    };
    check(m_store->registerPeer(newPeer(QStringLiteral("a"), 1), now));
    check(m_store->peer(QStringLiteral("a")));
    check(m_store->peerIdForSecretHash("abc"));
    check(m_store->touchPeer(QStringLiteral("a"), now));
    check(m_store->insertMessage(newMessage(QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("t")),
                                 now));
    check(m_store->insertMessages({newMessage(QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("t"))},
                                  now));
    check(m_store->undelivered(QStringLiteral("a")));
    check(m_store->acknowledge(QStringLiteral("a"), {1}));
    check(m_store->history({}));
    check(m_store->orphans());
    check(m_store->purgeDeliveredBefore(now));
    check(m_store->counts());
}

void tst_Store::lockedDatabaseGivesError()
{
    QVERIFY(m_store->open(dbPath()));
    QVERIFY(m_store->registerPeer(newPeer(QStringLiteral("aaaa1111"), 10), now));
    RawDb other(dbPath());
    QVERIFY(other.exec(QStringLiteral("PRAGMA busy_timeout = 0")));
    QVERIFY(other.exec(QStringLiteral("BEGIN IMMEDIATE"))); // holds the write lock

    // Writes wait busy_timeout (3 s), then fail cleanly; reads still work under WAL.
    auto inserted = m_store->insertMessage(
        newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("x")), now);
    QVERIFY(!inserted);
    QCOMPARE(inserted.error().kind, Broker::ErrorKind::Database);
    QVERIFY2(inserted.error().message.contains(QLatin1String("locked")), qPrintable(errorOf(inserted)));
    auto registered = m_store->registerPeer(newPeer(QStringLiteral("bbbb2222"), 11), now);
    QVERIFY(!registered);
    QVERIFY(m_store->peers());

    QVERIFY(other.exec(QStringLiteral("ROLLBACK")));
    inserted = m_store->insertMessage(
        newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("x")), now);
    QVERIFY2(inserted, qPrintable(errorOf(inserted)));
    registered = m_store->registerPeer(newPeer(QStringLiteral("bbbb2222"), 11), now);
    QVERIFY2(registered, qPrintable(errorOf(registered)));
}

// Rows are "id|pid|tty|session_name|summary" (empty tty = NULL).
void tst_Store::registerSemantics_data()
{
    QTest::addColumn<QStringList>("existing");
    QTest::addColumn<QString>("request");
    QTest::addColumn<QStringList>("evicted");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("summary");
    QTest::addColumn<QStringList>("remaining");

    QTest::newRow("first registration")
        << QStringList() << "aaaa|100|pts/1|NAME|sum" << QStringList() << "NAME"
        << "sum" << strings({"aaaa"});
    QTest::newRow("same id inherits name and summary")
        << strings({"aaaa|100|pts/1|OLD|old summary"}) << "aaaa|200|pts/1||" << QStringList() << "OLD"
        << "old summary" << strings({"aaaa"});
    QTest::newRow("same id: the request's non-empty name wins")
        << strings({"aaaa|100|pts/1|OLD|old summary"}) << "aaaa|200|pts/1|NEW|" << QStringList() << "NEW"
        << "old summary" << strings({"aaaa"});
    QTest::newRow("same id, same pid: no eviction listed")
        << strings({"aaaa|100|pts/1|A|S"}) << "aaaa|100|pts/1||" << QStringList() << "A"
        << "S" << strings({"aaaa"});
    QTest::newRow("same pid without tty gets a new id")
        << strings({"r1r1|100||N|S"}) << "r2r2|100|||" << strings({"r1r1"}) << "N"
        << "S" << strings({"r2r2"});
    QTest::newRow("same pid, different tty")
        << strings({"aaaa|100|pts/1|A|"}) << "bbbb|100|pts/2||" << strings({"aaaa"}) << "A"
        << "" << strings({"bbbb"});
    QTest::newRow("same tty, other pids: zombies evicted, first non-empty wins")
        << strings({"z1z1|100|pts/3||", "z2z2|101|pts/3|Z2|s2", "z3z3|102|pts/3|Z3|s3"}) << "cccc|200|pts/3||"
        << strings({"z1z1", "z2z2", "z3z3"}) << "Z2"
        << "s2" << strings({"cccc"});
    QTest::newRow("inherit order: same id, then same pid, then same tty")
        << strings(
               {"t1t1|300|pts/3|fromTty|ttySum", "cccc|50|pts/3||fromId", "p1p1|200|pts/9|fromPid|pidSum"})
        << "cccc|200|pts/3||" << strings({"p1p1", "t1t1"}) << "fromPid"
        << "fromId" << strings({"cccc"});
    QTest::newRow("empty values never override") << strings({"aaaa|100|pts/1||", "bbbb|101|pts/1|B|"})
                                                 << "aaaa|102|pts/1||" << strings({"bbbb"}) << "B"
                                                 << "" << strings({"aaaa"});
    QTest::newRow("other terminals untouched")
        << strings({"xxxx|999|pts/8|X|x"}) << "yyyy|1|pts/1||" << QStringList() << ""
        << "" << strings({"xxxx", "yyyy"});
    QTest::newRow("tty-less sessions of other pids untouched")
        << strings({"r1r1|100|||"}) << "r2r2|200|||" << QStringList() << ""
        << "" << strings({"r1r1", "r2r2"});
    QTest::newRow("tty-less request does not evict by tty")
        << strings({"aaaa|100|pts/1|A|"}) << "bbbb|200|||" << QStringList() << ""
        << "" << strings({"aaaa", "bbbb"});
}

void tst_Store::registerSemantics()
{
    QFETCH(QStringList, existing);
    QFETCH(QString, request);
    QFETCH(QStringList, evicted);
    QFETCH(QString, name);
    QFETCH(QString, summary);
    QFETCH(QStringList, remaining);

    QVERIFY(m_store->open(dbPath()));
    {
        RawDb raw(dbPath());
        for (const QString &row : existing) {
            const QStringList f = row.split(QLatin1Char('|'));
            QSqlQuery q(raw.db());
            q.prepare(
                QStringLiteral("INSERT INTO peers (id, pid, cwd, tty, session_name, summary, registered_at, "
                               "last_seen) VALUES (?, ?, '/x', ?, ?, ?, '2026-01-01T00:00:00.000Z', "
                               "'2026-01-01T00:00:00.000Z')"));
            q.addBindValue(f[0]);
            q.addBindValue(f[1].toLongLong());
            q.addBindValue(f[2].isEmpty() ? QVariant() : QVariant(f[2]));
            q.addBindValue(f[3]);
            q.addBindValue(f[4]);
            QVERIFY2(q.exec(), qPrintable(q.lastError().text()));
        }
    }
    const QStringList r = request.split(QLatin1Char('|'));
    auto registered = m_store->registerPeer(newPeer(r[0], r[1].toLongLong(), r[2], r[3], r[4]), now);
    QVERIFY2(registered, qPrintable(errorOf(registered)));
    QCOMPARE(registered->evictedIds, evicted);
    QCOMPARE(registered->peer.id, r[0]);
    QCOMPARE(registered->peer.sessionName, name);
    QCOMPARE(registered->peer.summary, summary);

    auto stored = m_store->peer(r[0]);
    QVERIFY(stored && stored->has_value());
    QCOMPARE((*stored)->sessionName, name);
    QCOMPARE((*stored)->summary, summary);
    QCOMPARE((*stored)->pid, r[1].toLongLong());
    auto all = m_store->peers();
    QVERIFY(all);
    QStringList ids = idsOf(*all);
    ids.sort();
    QCOMPARE(ids, remaining);
}

void tst_Store::registerStoresRowAndDefaults()
{
    QVERIFY(m_store->open(dbPath()));
    NewPeer p = newPeer(QStringLiteral("d92a5e28"), 4242);
    p.secretHash = QByteArray(64, 'a');
    auto registered = m_store->registerPeer(p, now);
    QVERIFY(registered);
    const Peer &peer = registered->peer;
    QCOMPARE(peer.channelPush, QStringLiteral("unknown"));
    QCOMPARE(peer.registeredAt, now);
    QCOMPARE(peer.lastSeen, now);
    QCOMPARE(peer.version, QStringLiteral("0.8.0"));
    QCOMPARE(peer.cwd, QStringLiteral("/home/dev/project"));

    auto stored = m_store->peer(peer.id);
    QVERIFY(stored && stored->has_value());
    QCOMPARE((*stored)->channelPush, QStringLiteral("unknown"));
    QCOMPARE((*stored)->registeredAt, now);
    QCOMPARE((*stored)->version, QStringLiteral("0.8.0"));

    RawDb raw(dbPath());
    // Empty git_root / tty are NULL like the reference's; empty strings stay '' where NOT NULL.
    QCOMPARE(raw.scalar(QStringLiteral("SELECT git_root IS NULL AND tty IS NULL FROM peers")).toInt(), 1);
    QCOMPARE(raw.scalar(QStringLiteral("SELECT summary = '' AND session_name = '' FROM peers")).toInt(), 1);
    QCOMPARE(raw.scalar(QStringLiteral("SELECT typeof(secret_hash) FROM peers")).toString(),
             QStringLiteral("text"));

    // Re-registering keeps registered_at fresh (docs/spec/peers-api.md §13.1 #11 behaviour kept).
    const QString later = QStringLiteral("2026-03-27T13:00:00.000Z");
    auto again = m_store->registerPeer(newPeer(peer.id, 4243), later);
    QVERIFY(again);
    QCOMPARE(again->peer.registeredAt, later);
}

void tst_Store::secretHashLookup()
{
    QVERIFY(m_store->open(dbPath()));
    const QByteArray first = QByteArray(64, 'a');
    const QByteArray second = QByteArray(64, 'b');
    NewPeer p = newPeer(QStringLiteral("aaaa1111"), 10, QStringLiteral("pts/1"));
    p.secretHash = first;
    QVERIFY(m_store->registerPeer(p, now));
    NewPeer noSecret = newPeer(QStringLiteral("nosecret"), 11);
    QVERIFY(m_store->registerPeer(noSecret, now)); // stored with ''

    auto found = m_store->peerIdForSecretHash(first);
    QVERIFY(found);
    QCOMPARE(*found, std::optional<QString>(QStringLiteral("aaaa1111")));
    auto none = m_store->peerIdForSecretHash(QByteArray());
    QVERIFY(none);
    QVERIFY(!none->has_value()); // an empty hash never matches the '' of secret-less rows
    auto unknown = m_store->peerIdForSecretHash(QByteArray(64, 'c'));
    QVERIFY(unknown && !unknown->has_value());

    // Re-registration issues a new secret and voids the old one.
    p.secretHash = second;
    QVERIFY(m_store->registerPeer(p, now));
    auto old = m_store->peerIdForSecretHash(first);
    QVERIFY(old && !old->has_value());
    auto current = m_store->peerIdForSecretHash(second);
    QVERIFY(current && current->has_value());

    QVERIFY(m_store->removePeer(QStringLiteral("aaaa1111")));
    auto gone = m_store->peerIdForSecretHash(second);
    QVERIFY(gone && !gone->has_value());
}

void tst_Store::peerUpdates()
{
    QVERIFY(m_store->open(dbPath()));
    QVERIFY(m_store->registerPeer(newPeer(QStringLiteral("aaaa1111"), 10), now));
    const QString id = QStringLiteral("aaaa1111");
    const QString unknown = QStringLiteral("nobody");
    const QString later = QStringLiteral("2026-03-27T12:00:30.000Z");

    QCOMPARE(show(m_store->touchPeer(id, later)), QStringLiteral("true"));
    QCOMPARE(show(m_store->touchPeer(unknown, later)), QStringLiteral("false"));
    QCOMPARE(show(m_store->setSummary(id, QStringLiteral("working on %_"))), QStringLiteral("true"));
    QCOMPARE(show(m_store->setSummary(unknown, QStringLiteral("x"))), QStringLiteral("false"));
    QCOMPARE(show(m_store->setSessionName(id, QStringLiteral("AUTH"))), QStringLiteral("true"));
    QCOMPARE(show(m_store->setSessionName(unknown, QStringLiteral("x"))), QStringLiteral("false"));
    QCOMPARE(show(m_store->setChannelPush(id, QStringLiteral("working"))), QStringLiteral("true"));
    QCOMPARE(show(m_store->setChannelPush(unknown, QStringLiteral("working"))), QStringLiteral("false"));

    auto p = m_store->peer(id);
    QVERIFY(p && p->has_value());
    QCOMPARE((*p)->lastSeen, later);
    QCOMPARE((*p)->registeredAt, now);
    QCOMPARE((*p)->summary, QStringLiteral("working on %_"));
    QCOMPARE((*p)->sessionName, QStringLiteral("AUTH"));
    QCOMPARE((*p)->channelPush, QStringLiteral("working"));

    QCOMPARE(show(m_store->setSummary(id, QString())), QStringLiteral("true")); // null string stored as ''
    QCOMPARE(show(m_store->removePeer(id)), QStringLiteral("true"));
    QCOMPARE(show(m_store->removePeer(id)), QStringLiteral("false"));
    auto missing = m_store->peer(id);
    QVERIFY(missing && !missing->has_value());
}

void tst_Store::messagesRoundTrip()
{
    QVERIFY(m_store->open(dbPath()));
    NewMessage first =
        newMessage(QStringLiteral("aaaa1111"), QStringLiteral("bbbb2222"), QStringLiteral("question?"));
    first.type = QStringLiteral("query");
    first.metadata = QJsonObject {{QStringLiteral("task"), QStringLiteral("x")}, {QStringLiteral("n"), 3}};
    auto id1 = m_store->insertMessage(first, now);
    QVERIFY(id1);
    NewMessage second =
        newMessage(QStringLiteral("system"), QStringLiteral("bbbb2222"), QStringLiteral("ünïcødé ✓"));
    second.replyTo = *id1;
    auto id2 = m_store->insertMessage(second, QStringLiteral("2026-03-27T11:00:00.000Z")); // older sent_at
    QVERIFY(id2);
    QVERIFY(*id2 > *id1);
    QVERIFY(m_store->insertMessage(
        newMessage(QStringLiteral("cli"), QStringLiteral("other"), QStringLiteral("z")), now));

    QCOMPARE(show(m_store->messageExists(*id1)), QStringLiteral("true"));
    QCOMPARE(show(m_store->messageExists(9999)), QStringLiteral("false"));
    auto missing = m_store->message(9999);
    QVERIFY(missing && !missing->has_value());

    auto m1 = m_store->message(*id1);
    QVERIFY(m1 && m1->has_value());
    QCOMPARE((*m1)->type, QStringLiteral("query"));
    QCOMPARE((*m1)->metadata, first.metadata);
    QVERIFY(!(*m1)->replyTo);
    QCOMPARE((*m1)->sentAt, now);
    QVERIFY(!(*m1)->delivered);
    auto m2 = m_store->message(*id2);
    QVERIFY(m2 && m2->has_value());
    QCOMPARE((*m2)->text, QStringLiteral("ünïcødé ✓"));
    QCOMPARE((*m2)->replyTo, std::optional<qint64>(*id1));
    QVERIFY(!(*m2)->metadata);
    QCOMPARE((*m2)->type, QStringLiteral("text"));

    RawDb raw(dbPath());
    QCOMPARE(raw.scalar(QStringLiteral("SELECT metadata FROM messages WHERE id = %1").arg(*id1)).toString(),
             QStringLiteral("{\"n\":3,\"task\":\"x\"}")); // compact JSON text
    QCOMPARE(raw.scalar(QStringLiteral(
                            "SELECT metadata IS NULL AND reply_to IS NOT NULL FROM messages WHERE id = %1")
                            .arg(*id2))
                 .toInt(),
             1);

    auto pending = m_store->undelivered(QStringLiteral("bbbb2222"));
    QVERIFY(pending);
    QCOMPARE(idsOf(*pending), QList<qint64>({*id1, *id2})); // by id, not sent_at
    auto limited = m_store->undelivered(QStringLiteral("bbbb2222"), 1);
    QVERIFY(limited);
    QCOMPARE(idsOf(*limited), QList<qint64>({*id1}));
    auto none = m_store->undelivered(QStringLiteral("bbbb2222"), 0);
    QVERIFY(none && none->isEmpty());
}

void tst_Store::acknowledgeOnlyOwnRows()
{
    QVERIFY(m_store->open(dbPath()));
    auto mine =
        m_store->insertMessages({newMessage(QStringLiteral("x"), QStringLiteral("me"), QStringLiteral("1")),
                                 newMessage(QStringLiteral("x"), QStringLiteral("me"), QStringLiteral("2")),
                                 newMessage(QStringLiteral("x"), QStringLiteral("me"), QStringLiteral("3"))},
                                now);
    QVERIFY(mine);
    auto theirs = m_store->insertMessage(
        newMessage(QStringLiteral("x"), QStringLiteral("you"), QStringLiteral("4")), now);
    QVERIFY(theirs);

    // Another peer's id and unknown ids are ignored.
    QCOMPARE(show(m_store->acknowledge(QStringLiteral("me"), {mine->at(0), mine->at(2), *theirs, 12345})),
             QStringLiteral("2"));
    QCOMPARE(show(m_store->acknowledge(QStringLiteral("me"), {mine->at(0)})),
             QStringLiteral("0")); // already delivered
    QCOMPARE(show(m_store->acknowledge(QStringLiteral("me"), {})), QStringLiteral("0"));
    auto pending = m_store->undelivered(QStringLiteral("me"));
    QVERIFY(pending);
    QCOMPARE(idsOf(*pending), QList<qint64>({mine->at(1)}));
    auto other = m_store->message(*theirs);
    QVERIFY(other && other->has_value() && !(*other)->delivered);
    auto acked = m_store->message(mine->at(0));
    QVERIFY(acked && acked->has_value() && (*acked)->delivered);
}

void tst_Store::insertMessagesIsAtomic()
{
    QVERIFY(m_store->open(dbPath()));
    QVERIFY(m_store->insertMessage(
        newMessage(QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("before")), now));
    {
        RawDb raw(dbPath());
        QVERIFY(raw.exec(
            QStringLiteral("CREATE TRIGGER fail_boom BEFORE INSERT ON messages WHEN NEW.text = 'boom' "
                           "BEGIN SELECT RAISE(ABORT, 'boom refused'); END")));
    }
    auto inserted = m_store->insertMessages(
        {newMessage(QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("ok 1")),
         newMessage(QStringLiteral("a"), QStringLiteral("c"), QStringLiteral("boom")),
         newMessage(QStringLiteral("a"), QStringLiteral("d"), QStringLiteral("ok 2"))},
        now);
    QVERIFY(!inserted);
    QCOMPARE(inserted.error().kind, Broker::ErrorKind::Database);
    QVERIFY2(inserted.error().message.contains(QLatin1String("boom refused")), qPrintable(errorOf(inserted)));
    auto counted = m_store->counts();
    QVERIFY(counted);
    QCOMPARE(counted->messages, 1); // nothing of the batch

    // The store is not left inside a transaction.
    auto batch = m_store->insertMessages(
        {newMessage(QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("ok 1")),
         newMessage(QStringLiteral("a"), QStringLiteral("c"), QStringLiteral("ok 2"))},
        now);
    QVERIFY2(batch, qPrintable(errorOf(batch)));
    QCOMPARE(batch->size(), 2);
    QCOMPARE(batch->at(1), batch->at(0) + 1);
    Store other;
    QVERIFY(other.open(dbPath()));
    QCOMPARE(other.counts()->messages, 3);
    auto empty = m_store->insertMessages({}, now);
    QVERIFY(empty && empty->isEmpty());
}

void tst_Store::historyFilters_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("since");
    QTest::addColumn<QString>("search");
    QTest::addColumn<int>("limit");
    QTest::addColumn<QList<qint64>>("expected");

    // Rows (id: from → to, text, sent_at offset): see historyFilters().
    historyRow("everything, newest first", {}, {6, 5, 4, 3, 2, 1});
    historyRow("limit", {.limit = 2}, {6, 5});
    historyRow("from substring", {.from = "alpha"}, {3, 1});
    historyRow("to substring", {.to = "beta"}, {4, 1});
    historyRow("from and to", {.from = "alpha", .to = "beta"}, {1});
    historyRow("search substring", {.search = "deploy"}, {2, 1});
    historyRow("search is case-insensitive (ASCII)", {.search = "DEPLOY"}, {2, 1});
    historyRow("percent is literal", {.search = "50%"}, {3});
    historyRow("underscore is literal", {.search = "a_b"}, {4});
    historyRow("backslash is literal", {.search = "C:\\"}, {5});
    historyRow("percent alone matches only percent", {.search = "%"}, {3});
    historyRow("since is inclusive", {.since = "2026-03-27T11:04:00.000Z"}, {6, 5});
    historyRow("since without ms", {.since = "2026-03-27T11:04:00Z"}, {6, 5});
    historyRow("since with offset", {.since = "2026-03-27T13:04:00+02:00"}, {6, 5});
    historyRow("since a date", {.since = "2026-03-27"}, {6, 5, 4, 3, 2});
    historyRow("remote sender", {.from = "macbook:"}, {6});
    historyRow("nothing matches", {.from = "zzz"}, {});
}

void tst_Store::historyFilters()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, since);
    QFETCH(QString, search);
    QFETCH(int, limit);
    QFETCH(QList<qint64>, expected);

    QVERIFY(m_store->open(dbPath()));
    struct Row
    {
        const char *from, *to, *text, *sentAt;
    };
    const Row rows[] = {
        {"alpha111", "beta2222", "deploy now", "2026-03-26T23:00:00.000Z"},
        {"cli", "gamma333", "Deploy later", "2026-03-27T11:01:00.000Z"},
        {"alpha111", "gamma333", "50% done", "2026-03-27T11:02:00.000Z"},
        {"gamma333", "beta2222", "fix a_b now", "2026-03-27T11:03:00.000Z"},
        {"cli", "gamma333", "path C:\\temp and 50 percent and aXb", "2026-03-27T11:04:00.000Z"},
        {"macbook:a1b2c3d4", "gamma333", "remote", "2026-03-27T11:05:00.000Z"},
    };
    for (const Row &row : rows) {
        QVERIFY(m_store->insertMessage(
            newMessage(QString::fromUtf8(row.from), QString::fromUtf8(row.to), QString::fromUtf8(row.text)),
            QString::fromUtf8(row.sentAt)));
    }
    QVERIFY(m_store->acknowledge(QStringLiteral("beta2222"), {1}));

    HistoryFilter filter;
    filter.from = from;
    filter.to = to;
    filter.since = since;
    filter.search = search;
    filter.limit = limit;
    auto found = m_store->history(filter);
    QVERIFY2(found, qPrintable(errorOf(found)));
    QCOMPARE(idsOf(*found), expected);
    for (const Message &m : *found)
        QCOMPARE(m.delivered, m.id == 1);
}

void tst_Store::historyLimitClamp()
{
    QVERIFY(m_store->open(dbPath()));
    QList<NewMessage> batch;
    for (int i = 0; i < 1005; ++i)
        batch << newMessage(QStringLiteral("a"), QStringLiteral("b"), QString::number(i));
    QVERIFY(m_store->insertMessages(batch, now));
    HistoryFilter filter;
    filter.limit = 0;
    QCOMPARE(m_store->history(filter)->size(), 1);
    filter.limit = -5;
    QCOMPARE(m_store->history(filter)->size(), 1);
    filter.limit = 5000;
    auto all = m_store->history(filter);
    QCOMPARE(all->size(), 1000);
    QCOMPARE(all->first().id, 1005);
}

void tst_Store::historyRejectsBadSince()
{
    QVERIFY(m_store->open(dbPath()));
    HistoryFilter filter;
    filter.since = QStringLiteral("yesterday");
    auto found = m_store->history(filter);
    QVERIFY(!found);
    QCOMPARE(found.error().kind, Broker::ErrorKind::Invalid);
    QVERIFY(found.error().message.contains(QLatin1String("since")));
}

void tst_Store::orphans()
{
    QVERIFY(m_store->open(dbPath()));
    QVERIFY(m_store->registerPeer(newPeer(QStringLiteral("alive111"), 10), now));
    const QString alive = QStringLiteral("alive111");
    const QString gone = QStringLiteral("gone2222");
    auto ids =
        m_store->insertMessages({newMessage(alive, gone, QStringLiteral("1 orphan")),
                                 newMessage(QStringLiteral("system"), gone, QStringLiteral("2 bounce")),
                                 newMessage(gone, alive, QStringLiteral("3 to a live peer")),
                                 newMessage(QStringLiteral("cli"), gone, QStringLiteral("4 orphan from cli")),
                                 newMessage(alive, gone, QStringLiteral("5 delivered"))},
                                now);
    QVERIFY(ids);
    QCOMPARE(show(m_store->acknowledge(gone, {ids->at(4)})), QStringLiteral("1"));
    // A later message to another gone peer whose id sorts first: the list is still by message id.
    auto later =
        m_store->insertMessage(newMessage(alive, QStringLiteral("early000"), QStringLiteral("6")), now);
    QVERIFY(later);
    auto found = m_store->orphans();
    QVERIFY(found);
    QCOMPARE(idsOf(*found), QList<qint64>({ids->at(0), ids->at(3), *later}));
    QCOMPARE(found->first().text, QStringLiteral("1 orphan"));

    QCOMPARE(show(m_store->deleteUndeliveredFor(gone)), QStringLiteral("3")); // incl. the system bounce
    QCOMPARE(show(m_store->deleteUndeliveredFor(QStringLiteral("early000"))), QStringLiteral("1"));
    auto left = m_store->orphans();
    QVERIFY(left && left->isEmpty());
    QCOMPARE(m_store->counts()->messages, 2); // the delivered one and the one to the live peer
}

void tst_Store::deleteMessages()
{
    QVERIFY(m_store->open(dbPath()));
    auto ids =
        m_store->insertMessages({newMessage(QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("1")),
                                 newMessage(QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("2")),
                                 newMessage(QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("3"))},
                                now);
    QVERIFY(ids);
    QCOMPARE(show(m_store->deleteMessages({ids->at(0), ids->at(2), 999})), QStringLiteral("2"));
    QCOMPARE(show(m_store->deleteMessages({})), QStringLiteral("0"));
    auto left = m_store->undelivered(QStringLiteral("b"));
    QCOMPARE(idsOf(*left), QList<qint64>({ids->at(1)}));
}

void tst_Store::purgeBoundary()
{
    QVERIFY(m_store->open(dbPath()));
    struct Row
    {
        double ageDays;
        bool delivered;
    };
    const Row rows[] = {
        {6, true}, // kept
        {6.99, true}, // kept
        {7.01, true}, // purged (the reference's string compare would keep it until day 8)
        {8, true}, // purged
        {8, false}, // undelivered: never purged by age
        {30, false}, // same
    };
    QList<qint64> ids;
    for (const Row &row : rows) {
        auto id =
            m_store->insertMessage(newMessage(QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("m")),
                                   daysBefore(now, row.ageDays));
        QVERIFY(id);
        ids << *id;
        if (row.delivered)
            QCOMPARE(show(m_store->acknowledge(QStringLiteral("b"), {*id})), QStringLiteral("1"));
    }
    auto purged = m_store->purgeDeliveredBefore(daysBefore(now, 7));
    QVERIFY2(purged, qPrintable(errorOf(purged)));
    QCOMPARE(*purged, 2);
    for (int i = 0; i < ids.size(); ++i)
        QCOMPARE(*m_store->messageExists(ids[i]), i != 2 && i != 3);

    // Exactly at the cutoff is kept (strictly older is purged); an offset cutoff is converted.
    auto boundary =
        m_store->insertMessage(newMessage(QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("m")),
                               QStringLiteral("2026-03-20T12:00:00.000Z"));
    QVERIFY(boundary);
    QVERIFY(m_store->acknowledge(QStringLiteral("b"), {*boundary}));
    QCOMPARE(show(m_store->purgeDeliveredBefore(QStringLiteral("2026-03-20T14:00:00.000+02:00"))),
             QStringLiteral("0"));
    QCOMPARE(show(m_store->purgeDeliveredBefore(QStringLiteral("2026-03-20T12:00:00.001Z"))),
             QStringLiteral("1"));

    auto bad = m_store->purgeDeliveredBefore(QStringLiteral("2026-13-45"));
    QVERIFY(!bad);
    QCOMPARE(bad.error().kind, Broker::ErrorKind::Invalid);
}

void tst_Store::counts()
{
    QVERIFY(m_store->open(dbPath()));
    auto empty = m_store->counts();
    QVERIFY(empty);
    QCOMPARE(empty->peers, 0);
    QCOMPARE(empty->messages, 0);
    QVERIFY(m_store->registerPeer(newPeer(QStringLiteral("aaaa1111"), 10), now));
    QVERIFY(m_store->registerPeer(newPeer(QStringLiteral("bbbb2222"), 11), now));
    auto ids = m_store->insertMessages(
        {newMessage(QStringLiteral("a"), QStringLiteral("aaaa1111"), QStringLiteral("1")),
         newMessage(QStringLiteral("a"), QStringLiteral("aaaa1111"), QStringLiteral("2")),
         newMessage(QStringLiteral("a"), QStringLiteral("bbbb2222"), QStringLiteral("3"))},
        now);
    QVERIFY(ids);
    QVERIFY(m_store->acknowledge(QStringLiteral("aaaa1111"), {ids->at(0)}));
    auto c = m_store->counts();
    QVERIFY(c);
    QCOMPARE(c->peers, 2);
    QCOMPARE(c->messages, 3);
    QCOMPARE(c->delivered, 1);
    QCOMPARE(c->pending, 2);
}

void tst_Store::batchCommitsOnce()
{
    QVERIFY(m_store->open(dbPath()));
    Store reader;
    QVERIFY(reader.open(dbPath()));
    QVERIFY(!m_store->inBatch());
    QVERIFY(m_store->commitBatch()); // none open: nothing to do

    QVERIFY(m_store->beginBatch());
    QVERIFY(m_store->inBatch());
    auto again = m_store->beginBatch();
    QVERIFY(!again);
    QVERIFY(m_store->registerPeer(newPeer(QStringLiteral("aaaa1111"), 10, QStringLiteral("pts/1")), now));
    auto first = m_store->insertMessage(
        newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("1")), now);
    QVERIFY(first);
    auto more = m_store->insertMessages(
        {newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("2")),
         newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("3"))},
        now);
    QVERIFY(more);
    QCOMPARE(show(m_store->acknowledge(QStringLiteral("aaaa1111"), {*first, more->at(0)})),
             QStringLiteral("2"));
    // The writer sees its own batch; nobody else does before the commit.
    QCOMPARE(m_store->counts()->messages, 3);
    QCOMPARE(reader.counts()->messages, 0);
    QCOMPARE(reader.counts()->peers, 0);
    auto committed = m_store->commitBatch();
    QVERIFY2(committed, qPrintable(errorOf(committed)));
    QVERIFY(!m_store->inBatch());
    QCOMPARE(reader.counts()->messages, 3);
    QCOMPARE(reader.counts()->delivered, 2);

    // A failing insertMessages() inside a batch leaves nothing of itself; the batch goes on.
    {
        RawDb raw(dbPath());
        QVERIFY(raw.exec(
            QStringLiteral("CREATE TRIGGER fail_boom BEFORE INSERT ON messages WHEN NEW.text = 'boom' "
                           "BEGIN SELECT RAISE(ABORT, 'boom refused'); END")));
    }
    QVERIFY(m_store->beginBatch());
    QVERIFY(m_store->insertMessage(
        newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("kept")), now));
    auto failed = m_store->insertMessages(
        {newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("x")),
         newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("boom"))},
        now);
    QVERIFY(!failed);
    QVERIFY(m_store->inBatch());
    QVERIFY(m_store->commitBatch());
    QCOMPARE(reader.counts()->messages, 4);

    // rollbackBatch() and close() discard an open batch.
    QVERIFY(m_store->beginBatch());
    QVERIFY(m_store->insertMessage(
        newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("gone")), now));
    m_store->rollbackBatch();
    QVERIFY(!m_store->inBatch());
    QCOMPARE(reader.counts()->messages, 4);
    QVERIFY(m_store->beginBatch());
    QVERIFY(m_store->insertMessage(
        newMessage(QStringLiteral("cli"), QStringLiteral("aaaa1111"), QStringLiteral("gone")), now));
    m_store->close();
    QVERIFY(!m_store->inBatch());
    QCOMPARE(reader.counts()->messages, 4);
    QVERIFY(!m_store->beginBatch()); // closed
}

QTEST_GUILESS_MAIN(tst_Store)
#include "tst_store.moc"
