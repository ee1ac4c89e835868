// The Messages page and the operator peer against a real broker process and a real helper
// (claude-peers-mcp, as Claude Code with channels runs it): the operator is listed like any
// peer, a message sent from the page reaches the helper's stdout, the helper's message and its
// ticks appear in the page, Reply carries reply_to, a broadcast reaches the helper, and the
// operator registers again after the broker restarts. Offscreen.
#include "app/tray/operatorpeer.h"
#include "app/tray/pages/messagelog.h"
#include "app/tray/pages/messagelogfeed.h"
#include "app/tray/pages/messagespage.h"
#include "common/brokerclient.h"
#include "tests/mcp_stdio/helperenv.h"
#include "tests/mcp_stdio/mcpclient.h"
#include "tests/support/testsupport.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace TestSupport;

namespace {

const QString HelperTty = QStringLiteral("pts/311");

Broker::Location locationOf(const TestHome &home)
{
    return Broker::Location::fromEnvironment(home.environment());
}

std::unique_ptr<McpClient> startChannelHelper(const TestHome &home)
{
    auto helper = std::make_unique<McpClient>(helperEnvironment(home, false, HelperTty));
    helper->setClientInfo(QStringLiteral("claude-code"), McpClient::channelCapabilities());
    if (!helper->start() || !helper->initialize() ||
        !helper->waitRegistered(peerIdOfTty(HelperTty), scaled(15000)))
        return nullptr;
    return helper;
}

QJsonObject listedPeer(const TestHome &home, const QString &id)
{
    const HttpResult r = httpPostJson(home.port(), QStringLiteral("/list-peers"),
                                      {{QStringLiteral("scope"), QStringLiteral("machine")},
                                       {QStringLiteral("cwd"), QStringLiteral("/")},
                                       {QStringLiteral("git_root"), QJsonValue::Null}},
                                      home.token());
    for (const QJsonValue &v : r.json().toArray()) {
        if (v.toObject().value(QStringLiteral("id")).toString() == id)
            return v.toObject();
    }
    return {};
}

// A broker, a helper as Claude Code with channels runs it, and the operator peer, all online.
struct OperatorAndHelper
{
    bool start()
    {
        if (!broker.start() || !(helper = startChannelHelper(home)))
            return false;
        op = std::make_unique<App::OperatorPeer>(locationOf(home));
        op->start();
        return QTest::qWaitFor([this] { return op->isOnline(); }, scaled(10000));
    }

    TestHome home;
    BrokerProcess broker {home};
    std::unique_ptr<McpClient> helper;
    const QString helperId = peerIdOfTty(HelperTty);
    std::unique_ptr<App::OperatorPeer> op;
};

int rowWithText(const App::MessageLogModel &model, const QString &text)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.entryAt(row).message.text == text)
            return row;
    }
    return -1;
}

} // namespace

class tst_MessagesPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QFileInfo::exists(brokerExe()));
        QVERIFY(QFileInfo::exists(mcpExe()));
    }

    void operatorTalksWithAHelperThroughThePage()
    {
        OperatorAndHelper online;
        QVERIFY(online.start());
        auto &[home, broker, helper, helperId, opOwned] = online;
        App::OperatorPeer &op = *opOwned;
        QCOMPARE(op.id(), QStringLiteral("operator"));

        // A 0.7 client (main token, /list-peers) sees an ordinary peer row.
        const QJsonObject row = listedPeer(home, op.id());
        QCOMPARE(row.value(QStringLiteral("pid")).toInteger(), QCoreApplication::applicationPid());
        QCOMPARE(row.value(QStringLiteral("session_name")).toString(), QStringLiteral("operator"));
        QVERIFY(row.value(QStringLiteral("summary"))
                    .toString()
                    .startsWith(QStringLiteral("the human at the tray")));
        for (const char *key :
             {"cwd", "git_root", "tty", "registered_at", "last_seen", "channel_push", "version"})
            QVERIFY2(row.contains(QLatin1String(key)), key);
        // And so does a session, through its list_peers tool.
        QVERIFY(McpClient::text(helper->callTool(QStringLiteral("list_peers"),
                                                 {{QStringLiteral("scope"), QStringLiteral("machine")}}))
                    .contains(QStringLiteral("operator")));

        Broker::BrokerClient client(locationOf(home));
        App::MessagesPage page(client, &op);
        page.resize(900, 600);
        page.show();
        QVERIFY(page.feed()->isActive());

        // Page → helper: the send box, to the helper.
        QTRY_VERIFY_WITH_TIMEOUT(
            page.targetCombo()->findData(QString(QStringLiteral("peer:") + helperId)) >= 0, scaled(10000));
        QTRY_VERIFY(page.sendButton()->isEnabled());
        page.targetCombo()->setCurrentIndex(
            page.targetCombo()->findData(QString(QStringLiteral("peer:") + helperId)));
        page.textEdit()->setText(QStringLiteral("hello from the operator"));
        QTest::mouseClick(page.sendButton(), Qt::LeftButton);
        QVERIFY(helper->waitForChannelMessages(1, scaled(10000)));
        const QJsonObject push = helper->channelMessages().constFirst();
        QCOMPARE(push.value(QStringLiteral("content")).toString(), QStringLiteral("hello from the operator"));
        QCOMPARE(push.value(QStringLiteral("meta")).toObject().value(QStringLiteral("from_id")).toString(),
                 QStringLiteral("operator"));
        // ...listed with its ticks: stored, pushed to the helper's stream, acknowledged, seen as a channel
        // push.
        App::MessageLogModel &log = *page.logModel();
        QTRY_VERIFY_WITH_TIMEOUT(rowWithText(log, QStringLiteral("hello from the operator")) >= 0,
                                 scaled(10000));
        QTRY_VERIFY_WITH_TIMEOUT(
            log.ticksAt(rowWithText(log, QStringLiteral("hello from the operator"))).acked, scaled(15000));
        App::DeliveryTicks ticks = log.ticksAt(rowWithText(log, QStringLiteral("hello from the operator")));
        QVERIFY(ticks.stored && ticks.pushed);
        QCOMPARE(ticks.pushedBy, QStringLiteral("stream"));
        QTRY_COMPARE_WITH_TIMEOUT(
            int(log.ticksAt(rowWithText(log, QStringLiteral("hello from the operator"))).seenVia),
            int(App::DeliveryTicks::SeenVia::Channel), scaled(10000));

        // Helper → operator: received once, listed, acknowledged by the operator.
        QSignalSpy received(&op, &App::OperatorPeer::messagesReceived);
        const QJsonObject sent =
            helper->callTool(QStringLiteral("send_message"),
                             {{QStringLiteral("to_id"), QStringLiteral("operator")},
                              {QStringLiteral("message"), QStringLiteral("a question for you")}});
        QVERIFY2(!McpClient::isError(sent), qPrintable(McpClient::text(sent)));
        QTRY_COMPARE_WITH_TIMEOUT(received.size(), 1, scaled(10000));
        QTRY_VERIFY_WITH_TIMEOUT(rowWithText(log, QStringLiteral("a question for you")) >= 0, scaled(5000));
        QTRY_VERIFY_WITH_TIMEOUT(log.ticksAt(rowWithText(log, QStringLiteral("a question for you"))).acked,
                                 scaled(15000));
        const qint64 questionId =
            log.entryAt(rowWithText(log, QStringLiteral("a question for you"))).message.id;

        // Reply in the thread: select the question, write, Reply.
        const QModelIndex source = log.index(rowWithText(log, QStringLiteral("a question for you")), 0);
        page.messagesView()->setCurrentIndex(
            static_cast<QSortFilterProxyModel *>(page.messagesView()->model())->mapFromSource(source));
        page.textEdit()->setText(QStringLiteral("my answer"));
        QTest::mouseClick(page.replyButton(), Qt::LeftButton);
        QVERIFY(helper->waitForChannelMessages(2, scaled(10000)));
        const QJsonObject answer = helper->channelMessages().at(1);
        QCOMPARE(answer.value(QStringLiteral("content")).toString(), QStringLiteral("my answer"));
        const QJsonObject meta = answer.value(QStringLiteral("meta")).toObject();
        QCOMPARE(meta.value(QStringLiteral("reply_to")).toString(), QString::number(questionId));
        QCOMPARE(meta.value(QStringLiteral("type")).toString(), QStringLiteral("response"));

        // A broadcast to this machine reaches the helper.
        page.targetCombo()->setCurrentIndex(page.targetCombo()->findData(QStringLiteral("scope:machine")));
        page.textEdit()->setText(QStringLiteral("to everyone here"));
        QTest::mouseClick(page.sendButton(), Qt::LeftButton);
        QVERIFY(helper->waitForChannelMessages(3, scaled(10000)));
        QCOMPARE(helper->channelMessages().at(2).value(QStringLiteral("content")).toString(),
                 QStringLiteral("to everyone here"));
        QVERIFY(page.statusLabel()->text().contains(QStringLiteral("1")));

        // Search goes through the page's filter.
        page.searchEdit()->setText(QStringLiteral("QUESTION"));
        QTRY_COMPARE(page.messagesView()->model()->rowCount(), 1);

        // Hidden: no more rounds.
        page.hide();
        QVERIFY(!page.feed()->isActive());
        helper->kill();
    }

    // A message merged out of band (the operator's own messagesReceived, a search) is newer than
    // one the feed has not fetched yet: the feed still lists the older one (it asks for what
    // comes after the newest message it fetched itself, not after the newest listed).
    void feedListsWhatCameBeforeAMessageMergedOutOfBand()
    {
        TestHome home;
        BrokerProcess broker(home);
        QVERIFY(broker.start());
        const HttpResult registered =
            httpPostJson(home.port(), QStringLiteral("/register"),
                         {{QStringLiteral("pid"), QCoreApplication::applicationPid()},
                          {QStringLiteral("cwd"), home.path()},
                          {QStringLiteral("git_root"), QJsonValue::Null},
                          {QStringLiteral("tty"), QJsonValue::Null},
                          {QStringLiteral("summary"), QString()}},
                         home.token());
        const QString id = registered.object().value(QStringLiteral("id")).toString();
        QVERIFY(!id.isEmpty());
        const auto send = [&](const QString &text) {
            return httpPostJson(home.port(), QStringLiteral("/send-message"),
                                {{QStringLiteral("from_id"), id},
                                 {QStringLiteral("to_id"), id},
                                 {QStringLiteral("text"), text}},
                                home.token())
                .object()
                .value(QStringLiteral("message_id"))
                .toInteger();
        };
        const qint64 first = send(QStringLiteral("first"));
        QVERIFY(first > 0);

        Broker::BrokerClient client(locationOf(home));
        App::PeerDirectory peers(QStringLiteral("here"));
        App::MessageLogModel log(&peers);
        App::MessageLogFeed feed(client, &log, &peers);
        QSignalSpy caughtUp(&feed, &App::MessageLogFeed::caughtUp);
        feed.setActive(true);
        QTRY_VERIFY_WITH_TIMEOUT(log.rowOfId(first) >= 0 && !caughtUp.isEmpty(), scaled(10000));
        feed.setActive(false);

        const qint64 unseen = send(QStringLiteral("not fetched yet"));
        const qint64 newer = send(QStringLiteral("merged by the page"));
        QVERIFY(unseen > first && newer > unseen);
        const HttpResult listed = httpPostJson(home.port(), QStringLiteral("/messages"),
                                               {{QStringLiteral("ids"), QJsonArray {newer}}}, home.token());
        QList<Broker::Message> merged;
        for (const QJsonValue &value : listed.object().value(QStringLiteral("messages")).toArray()) {
            const auto message = Broker::Message::fromJson(value.toObject());
            QVERIFY(message.has_value());
            merged.append(*message);
        }
        QCOMPARE(merged.size(), 1);
        log.merge(merged);

        caughtUp.clear();
        feed.setActive(true);
        QTRY_VERIFY_WITH_TIMEOUT(caughtUp.size() >= 2, scaled(10000)); // two rounds
        QVERIFY2(log.rowOfId(unseen) >= 0, "the feed skipped a message older than one merged by the page");
    }

    // The Schedules page's "Open the message" (a peer task's last run): the operator's thread
    // with that message selected, also when the log holds it only after the page is shown.
    void openMessageSelectsItOnceTheLogHoldsIt()
    {
        OperatorAndHelper online;
        QVERIFY(online.start());
        auto &[home, broker, helper, helperId, opOwned] = online;
        App::OperatorPeer &op = *opOwned;
        // As a scheduled task sends it: from operator, to the peer.
        qint64 scheduled = 0;
        for (const QString &text :
             {QStringLiteral("scheduled: review the diff"), QStringLiteral("a later one")}) {
            const HttpResult sent = httpPostJson(home.port(), QStringLiteral("/send-message"),
                                                 {{QStringLiteral("from_id"), QStringLiteral("operator")},
                                                  {QStringLiteral("to_id"), helperId},
                                                  {QStringLiteral("text"), text}},
                                                 home.token());
            QCOMPARE(sent.status, 200);
            if (!scheduled)
                scheduled = sent.object().value(QStringLiteral("message_id")).toInteger();
        }
        QVERIFY(scheduled > 0);

        Broker::BrokerClient client(locationOf(home));
        App::MessagesPage page(client, &op);
        page.resize(900, 600);
        page.openMessage(helperId, scheduled); // before the log is loaded
        page.show();
        QTRY_COMPARE_WITH_TIMEOUT(
            page.messagesView()->currentIndex().data(App::MessageLogModel::IdRole).toLongLong(), scheduled,
            scaled(10000));
        QCOMPARE(page.targetCombo()->currentData().toString(), QString(QStringLiteral("peer:") + helperId));
    }

    // Restart of the broker (a hand-over looks the same to a client): the operator registers
    // again under its id; and while the tray runs it is not evicted for silence.
    void operatorSurvivesARestartAndIsNotEvicted()
    {
        TestHome home;
        QProcessEnvironment env;
        env.insert(QStringLiteral("CLAUDE_PEERS_HEARTBEAT_TIMEOUT_MS"), QStringLiteral("20000"));
        auto broker = std::make_unique<BrokerProcess>(home, env);
        QVERIFY(broker->start());
        App::OperatorPeer op(locationOf(home));
        QSignalSpy registered(&op, &App::OperatorPeer::registered);
        op.start();
        QTRY_COMPARE_WITH_TIMEOUT(registered.size(), 1, scaled(10000));
        broker->kill();
        QTRY_VERIFY_WITH_TIMEOUT(!op.isOnline(), scaled(10000));
        broker = std::make_unique<BrokerProcess>(home, env);
        QVERIFY(broker->start());
        QTRY_COMPARE_WITH_TIMEOUT(registered.size(), 2, scaled(15000));
        QCOMPARE(op.id(), QStringLiteral("operator"));
        QVERIFY(!listedPeer(home, QStringLiteral("operator")).isEmpty());
        // Longer than the heartbeat timeout, and than a held wait: still listed.
        QTest::qWait(scaled(24000));
        QVERIFY(op.isOnline());
        QVERIFY(!listedPeer(home, QStringLiteral("operator")).isEmpty());
        QCOMPARE(registered.size(), 2);
    }
};

QTEST_MAIN(tst_MessagesPage)
#include "tst_messagespage.moc"
