// MainWindow offscreen: pages in the order they were added, the list switches the page shown,
// showPage() picks a page by id and brings the window up, unknown ids keep the current page.
#include "app/tray/mainwindow.h"

#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTest>

using App::MainWindow;

class tst_MainWindow : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pagesAreListedAndShownById()
    {
        MainWindow window;
        auto *peers = new QLabel(QStringLiteral("peers"));
        auto *messages = new QLabel(QStringLiteral("messages"));
        window.addPage(QStringLiteral("peers"), QStringLiteral("Peers"), peers);
        window.addPage(QStringLiteral("messages"), QStringLiteral("Messages"), messages);

        QCOMPARE(window.pageIds(), (QStringList {QStringLiteral("peers"), QStringLiteral("messages")}));
        QCOMPARE(window.pageList()->count(), 2);
        QCOMPARE(window.pageList()->item(1)->text(), QStringLiteral("Messages"));
        QCOMPARE(window.page(QStringLiteral("messages")), messages);
        QCOMPARE(window.page(QStringLiteral("nowhere")), nullptr);
        QCOMPARE(messages->objectName(), QStringLiteral("messagesPage"));
        QCOMPARE(window.currentPageId(), QStringLiteral("peers")); // the first page added

        QSignalSpy changed(&window, &MainWindow::currentPageChanged);
        window.showPage(QStringLiteral("messages"));
        QVERIFY(window.isVisible());
        QCOMPARE(window.currentPageId(), QStringLiteral("messages"));
        QCOMPARE(window.findChild<QStackedWidget *>(QStringLiteral("pages"))->currentWidget(), messages);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toString(), QStringLiteral("messages"));

        window.showPage(QStringLiteral("nowhere"));
        QCOMPARE(window.currentPageId(), QStringLiteral("messages"));
        QCOMPARE(changed.count(), 1);

        window.pageList()->setCurrentRow(0); // the user clicks "Peers"
        QCOMPARE(window.findChild<QStackedWidget *>(QStringLiteral("pages"))->currentWidget(), peers);
        QCOMPARE(changed.count(), 2);
    }
};

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"
