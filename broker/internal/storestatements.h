#pragma once

#include "broker/internal/privateheader.h"

#include "common/dto.h"
#include "common/result.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

// The SQL of Store: its prepared statements, row conversions and transaction guard.
namespace Broker::StoreSql {

// QSQLITE binds a null QString as NULL, which NOT NULL columns refuse: strings are bound
// through text(), which keeps them non-null.
QVariant text(const QString &value);
// Empty = NULL for the nullable text columns (git_root, tty), as the reference stores them.
QVariant nullIfEmpty(const QString &value);
// Rows selected with the column lists of the peer and message statements below.
Peer peerFromRow(const QSqlQuery &q);
Message messageFromRow(const QSqlQuery &q);
// LIKE pattern matching `text` literally anywhere; '\' is the ESCAPE character.
QString containsPattern(const QString &text);
// Any ISO-8601 form ("2026-03-27", "…T12:00:00Z", "…+02:00") → our fixed-width stored form
// "YYYY-MM-DDTHH:MM:SS.mmmZ". A time without offset counts as UTC.
Result<QString> normalizedTimestamp(const QString &iso, const QString &field);
Error notOpen();

// Every statement of the store, prepared once at open and reused (sqlite3_reset + rebind
// per call is far cheaper than parsing SQL per call).
struct Statements
{
    explicit Statements(const QSqlDatabase &db)
        : begin(db),
          commit(db),
          rollback(db),
          savepoint(db),
          release(db),
          rollbackTo(db),
          peerById(db),
          allPeers(db),
          peerBySecret(db),
          touchPeer(db),
          setSummary(db),
          setSessionName(db),
          setChannelPush(db),
          setDelivery(db),
          setAttention(db),
          deletePeer(db),
          samePid(db),
          sameTty(db),
          insertPeer(db),
          insertMessage(db),
          messageExists(db),
          messageById(db),
          undelivered(db),
          acknowledge(db),
          orphans(db),
          deleteMessage(db),
          deleteUndeliveredFor(db),
          purge(db),
          counts(db),
          keyedAnswer(db),
          rememberKeyedAnswer(db),
          forgetKeyedAnswers(db)
    {
    }

    QSqlQuery begin, commit, rollback, savepoint, release, rollbackTo;
    bool batch = false; // Store::beginBatch() opened the transaction
    QSqlQuery peerById, allPeers, peerBySecret, touchPeer, setSummary, setSessionName, setChannelPush,
        setDelivery, setAttention, deletePeer, samePid, sameTty, insertPeer;
    QSqlQuery insertMessage, messageExists, messageById, undelivered, acknowledge, orphans, deleteMessage,
        deleteUndeliveredFor, purge, counts;
    QSqlQuery keyedAnswer, rememberKeyedAnswer, forgetKeyedAnswers; // claude_peers_request_keys

    Result<void> prepareAll();
};

// Executes a prepared statement; a failure becomes Error{"database"} at once.
Result<void> run(QSqlQuery &query, const char *what);

// One atomic step: its own transaction, or a savepoint inside an open batch (so a failed
// insertMessages() still leaves nothing behind while the batch goes on). Rolls back unless
// committed; a failed COMMIT (SQLITE_BUSY) leaves the transaction open, so the destructor
// still ends it.
class Transaction
{
public:
    explicit Transaction(Statements &s) : m_s(s) { }
    ~Transaction();
    Result<void> begin();
    Result<void> commit(); // no-op when begin() was not called

private:
    Statements &m_s;
    bool m_active = false;
    bool m_savepoint = false;
};

} // namespace Broker::StoreSql
