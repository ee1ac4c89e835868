// One binary links the broker library, its client library and the helper library: their
// logging categories live in their modules' namespaces, so equal short names (lcDelivery)
// do not clash. A global category in two modules would fail this target's link.
#include <QLoggingCategory>
#include <QTest>

// The declarations of broker/brokerlogging.h, common/clientlogging.h and mcp_stdio/mcplogging.h
// (those headers share a file name, so they cannot all be included here).
namespace Broker {
Q_DECLARE_LOGGING_CATEGORY(lcDelivery)
Q_DECLARE_LOGGING_CATEGORY(lcServer)
Q_DECLARE_LOGGING_CATEGORY(lcClientHttp)
} // namespace Broker
namespace Mcp {
Q_DECLARE_LOGGING_CATEGORY(lcDelivery)
Q_DECLARE_LOGGING_CATEGORY(lcSession)
} // namespace Mcp

class tst_LoggingCategories : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void brokerAndHelperCategoriesLinkIntoOneBinary()
    {
        QCOMPARE(QByteArray(Broker::lcDelivery().categoryName()), QByteArray("peers.broker.delivery"));
        QCOMPARE(QByteArray(Mcp::lcDelivery().categoryName()), QByteArray("peers.mcp.delivery"));
        QCOMPARE(QByteArray(Broker::lcServer().categoryName()), QByteArray("peers.broker.server"));
        QCOMPARE(QByteArray(Broker::lcClientHttp().categoryName()), QByteArray("peers.client.http"));
        QCOMPARE(QByteArray(Mcp::lcSession().categoryName()), QByteArray("peers.mcp.session"));
    }
};

QTEST_GUILESS_MAIN(tst_LoggingCategories)
#include "tst_loggingcategories.moc"
