#include "broker/internal/groupcommit.h"
#include "broker/brokerlogging.h"
#include "broker/internal/store.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>

#include <utility>

namespace Broker {

namespace {

class HeldResponder final : public Http::Responder
{
public:
    HeldResponder(Http::ResponderPtr inner, GroupCommit *group)
        : m_inner(std::move(inner)), m_group(group) { }

    void respond(const Http::Response &response) override
    {
        if (m_answered)
            return;
        m_answered = true;
        if (m_group && m_group->isHolding())
            m_group->hold(m_inner, response);
        else
            m_inner->respond(response);
    }
    bool isOpen() const override { return !m_answered && m_inner->isOpen(); }
    void setOnClosed(std::function<void()> callback) override { m_inner->setOnClosed(std::move(callback)); }

private:
    Http::ResponderPtr m_inner;
    QPointer<GroupCommit> m_group;
    bool m_answered = false;
};

} // namespace

GroupCommit::GroupCommit(Store &store, QObject *parent) : QObject(parent), m_store(store) { }

GroupCommit::~GroupCommit()
{
    flush();
}

void GroupCommit::open()
{
    if (!m_store.inBatch()) {
        if (auto begun = m_store.beginBatch(); !begun) {
            // Not fatal: every write then commits on its own.
            qCWarning(lcApi).noquote() << "Cannot open a write batch:" << begun.error().message;
            return;
        }
    }
    if (!m_scheduled) {
        m_scheduled = true;
        QMetaObject::invokeMethod(this, &GroupCommit::flush, Qt::QueuedConnection);
    }
}

bool GroupCommit::isHolding() const
{
    return m_store.inBatch();
}

void GroupCommit::hold(const Http::ResponderPtr &responder, const Http::Response &response)
{
    m_held.append({responder, response});
    m_heldBytes += response.body.size();
}

void GroupCommit::flushIfHeavy()
{
    if (m_heldBytes >= maxHeldBytes)
        flush();
}

Http::ResponderPtr GroupCommit::wrap(const Http::ResponderPtr &responder)
{
    return std::make_shared<HeldResponder>(responder, this);
}

void GroupCommit::flush()
{
    m_scheduled = false;
    auto held = std::exchange(m_held, {});
    m_heldBytes = 0;
    if (m_store.inBatch()) {
        if (auto committed = m_store.commitBatch(); !committed) {
            qCCritical(lcApi).noquote() << "Commit failed; answering" << held.size()
                                        << "request(s) with 500:" << committed.error().message;
            m_store.rollbackBatch();
            Q_EMIT rolledBack();
            const QByteArray body =
                QJsonDocument(QJsonObject {{QStringLiteral("error"), committed.error().message}})
                    .toJson(QJsonDocument::Compact);
            for (auto &entry : held)
                entry.second = Http::Response::json(500, body);
        }
    }
    for (const auto &[responder, response] : std::as_const(held))
        responder->respond(response);
}

} // namespace Broker
