// A screenshot of every page of the main window with realistic data, taken under Xvfb (ctest
// runs this test through xvfb-run when it is installed): the real TrayComposition hosts the
// broker in a temp HOME, with four sessions on this machine, their names and summaries, and a
// conversation between them. The images go to $PEERS_SCREENSHOT_DIR, else to screenshots/ in
// the test's working directory. To refresh the ones the README and the AppStream file show:
//   PEERS_SCREENSHOT_DIR=$PWD/docs/screenshots ctest --test-dir build-test -R tst_screenshots
#include "brokerhost.h"
#include "mainwindow.h"
#include "operatorpeer.h"
#include "peersmodel.h"
#include "testsupport.h"
#include "traycomposition.h"
#include "traytestsupport.h"
#include "wire.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QPixmap>
#include <QProcess>
#include <QSet>
#include <QTest>

#include <memory>
#include <vector>

using App::BrokerHost;
using App::TrayComposition;
using TestSupport::scaled;

namespace {

struct Session
{
    const char *project; // under $HOME/src
    const char *name;
    const char *summary;
    bool push;
    Broker::Attention state;
    const char *stateMessage;
};

// What a user's machine looks like on a working day.
const Session kSessions[] = {
    {"shop-api", "api-refactor", "[shop-api:auth-tokens] Moving token checks into middleware; tests green",
     true, Broker::Attention::Busy, ""},
    {"shop-api", "reviewer", "[shop-api:main] Reviewing PR #212 (rate limits)", true,
     Broker::Attention::NeedsYou, "Claude needs your permission to use Bash"},
    {"shop-web", "checkout-ui", "[shop-web:checkout] Checkout form validation and error states", true,
     Broker::Attention::Idle, ""},
    {"infra", "db-migrations", "[infra:main] Postgres 16 upgrade plan, dry run on staging", false,
     Broker::Attention::Unknown, ""},
};

struct Registered
{
    QString id;
    QByteArray secret;
};

// The number of distinct colours in a sample of the image: a blank or one-colour page has 1-2.
int distinctColours(const QImage &image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3) {
        for (int x = 0; x < image.width(); x += 3)
            colours.insert(image.pixel(x, y));
    }
    return int(colours.size());
}

} // namespace

class tst_Screenshots : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyPageWithRealisticData()
    {
        TestSupport::TestHome home;
        const QProcessEnvironment env = home.environment();
        for (const QString &key : env.keys())
            qputenv(key.toLocal8Bit(), env.value(key).toLocal8Bit()); // the GUI-thread client reads them
        TrayComposition tray(TrayTestSupport::settingsFor(home));
        tray.start();
        QTRY_COMPARE_WITH_TIMEOUT(tray.host()->state(), BrokerHost::State::Running, scaled(10000));

        // Live processes to stand for the sessions (the broker prunes peers whose pid is gone).
        std::vector<std::unique_ptr<QProcess>> processes;
        QList<Registered> peers;
        const QByteArray token = home.token();
        for (const Session &session : kSessions) {
            auto process = std::make_unique<QProcess>();
            process->start(QStringLiteral("sleep"), {QStringLiteral("600")});
            QVERIFY(process->waitForStarted());
            const QString cwd = home.path() + QStringLiteral("/src/") + QLatin1String(session.project);
            QVERIFY(QDir().mkpath(cwd));
            Broker::RegisterRequest request;
            request.pid = process->processId();
            request.cwd = cwd;
            request.gitRoot = cwd;
            request.sessionName = QLatin1String(session.name);
            request.summary = QLatin1String(session.summary);
            request.client = QStringLiteral("claude-code");
            const auto answer =
                TestSupport::httpPostJson(home.port(), QLatin1String(request.path), request.toJson(), token);
            QCOMPARE(answer.status, 200);
            const auto registered = Broker::RegisterAnswer::fromJson(answer.object());
            QVERIFY(registered.has_value());
            peers.append({registered->id, registered->sessionSecret.toUtf8()});
            if (session.push) {
                Broker::SetChannelPushRequest push;
                push.id = registered->id;
                push.status = QStringLiteral("working");
                QCOMPARE(TestSupport::httpPostJson(home.port(), QLatin1String(push.path), push.toJson(),
                                                   peers.last().secret)
                             .status,
                         200);
            }
            if (session.state != Broker::Attention::Unknown) {
                Broker::SetAttentionRequest attention;
                attention.id = registered->id;
                attention.state = session.state;
                attention.message = QLatin1String(session.stateMessage);
                QCOMPARE(TestSupport::httpPostJson(home.port(), QLatin1String(attention.path),
                                                   attention.toJson(), peers.last().secret)
                             .status,
                         200);
            }
            processes.push_back(std::move(process));
        }

        const struct
        {
            int from, to;
            const char *text;
        } conversation[] = {
            {0, 1, "Token checks now live in AuthMiddleware. Can you look at the rate-limit PR against it?"},
            {1, 0, "On it. The limiter reads the user id from the token: I'll rebase onto your branch."},
            {2, 0, "Does /checkout still accept the old session cookie, or only bearer tokens now?"},
            {0, 2, "Both until Friday; the cookie path logs a deprecation warning."},
            {3, 1, "Staging dry run done: 14 min downtime. Migration notes are in infra/PG16.md."},
        };
        for (const auto &line : conversation) {
            Broker::SendMessageRequest send;
            send.fromId = peers.at(line.from).id;
            send.toId = peers.at(line.to).id;
            send.text = QLatin1String(line.text);
            QCOMPARE(TestSupport::httpPostJson(home.port(), QLatin1String(send.path), send.toJson(),
                                               peers.at(line.from).secret)
                         .status,
                     200);
        }

        // The operator (the tray itself, a peer like the sessions) gets a question, so that the
        // Messages page shows a thread with the operator and its ticks.
        QTRY_VERIFY_WITH_TIMEOUT(tray.operatorPeer()->isOnline(), scaled(10000));
        Broker::SendMessageRequest question;
        question.fromId = peers.at(2).id;
        question.toId = tray.operatorPeer()->id();
        question.text = QStringLiteral("Can I merge the checkout change before Friday's release?");
        question.type = QStringLiteral("query");
        QCOMPARE(TestSupport::httpPostJson(home.port(), QLatin1String(question.path), question.toJson(),
                                           peers.at(2).secret)
                     .status,
                 200);
        QTRY_COMPARE_WITH_TIMEOUT(tray.peersModel()->rowCount(), int(std::size(kSessions)) + 1, scaled(5000));

        const QString dir = qEnvironmentVariableIsSet("PEERS_SCREENSHOT_DIR")
            ? qEnvironmentVariable("PEERS_SCREENSHOT_DIR")
            : QDir::currentPath() + QStringLiteral("/screenshots");
        QVERIFY(QDir().mkpath(dir));
        App::MainWindow *window = tray.mainWindow();
        window->resize(1100, 560);
        const QStringList pages = window->pageIds();
        QVERIFY(pages.contains(QStringLiteral("peers")));
        for (const QString &page : pages) {
            window->showPage(page);
            QVERIFY(QTest::qWaitForWindowExposed(window));
            // Not a check that something happened (the colours are): time for a page's first
            // answers from the broker to arrive and be painted before the picture.
            QTest::qWait(scaled(300));
            const QImage image = window->grab().toImage();
            QVERIFY2(distinctColours(image) > 16,
                     qPrintable(page + QStringLiteral(": the page looks blank")));
            const QString file = dir + QStringLiteral("/") + page + QStringLiteral(".png");
            QVERIFY2(image.save(file), qPrintable(file));
            qInfo().noquote() << "wrote" << file;
        }
    }
};

QTEST_MAIN(tst_Screenshots)
#include "tst_screenshots.moc"
