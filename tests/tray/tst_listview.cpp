// The pages' list set-up (app/tray/pages/listview.h): columns other than the stretch one grow to
// their visible contents as rows arrive, never past a third of the view, and a column the user
// sized stays as the user left it.
#include "app/tray/pages/listview.h"

#include <QApplication>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

using namespace Qt::StringLiterals;

class tst_ListView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void columnsGrowToTheirContents()
    {
        QStandardItemModel model(0, 3);
        QTableView view;
        view.resize(900, 400);
        App::setUpListView(&view, &model, App::ModelOrder, 2);
        view.setColumnHidden(1, true); // a page hiding a column is not the user sizing one
        view.setColumnHidden(1, false);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const int before = view.columnWidth(0);

        const QString name = u"docs-writer (0y44cjsf) · build-box"_s;
        model.appendRow(
            {new QStandardItem(name), new QStandardItem(u"12:00"_s), new QStandardItem(u"text"_s)});
        const int needed = view.fontMetrics().horizontalAdvance(name);
        QVERIFY2(needed > before, "the name must not fit the default width, or this test proves nothing");
        QTRY_VERIFY2(view.columnWidth(0) >= needed,
                     qPrintable(u"%1 < %2"_s.arg(view.columnWidth(0)).arg(needed)));
        QVERIFY(view.columnWidth(0) <= view.viewport()->width() / 3);

        // A very long value is capped at a third of the view: the stretch column keeps its room.
        model.appendRow({new QStandardItem(QString(400, u'x')), new QStandardItem(), new QStandardItem()});
        QTRY_COMPARE(view.columnWidth(0), std::max(120, view.viewport()->width() / 3));
    }

    void aColumnTheUserSizedStays()
    {
        QStandardItemModel model(0, 3);
        QTableView view;
        view.resize(900, 400);
        App::setUpListView(&view, &model, App::ModelOrder, App::LastColumn);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        model.appendRow(
            {new QStandardItem(u"short"_s), new QStandardItem(u"b"_s), new QStandardItem(u"c"_s)});
        QCoreApplication::processEvents();
        view.horizontalHeader()->resizeSection(0, 60); // as a drag does
        model.appendRow({new QStandardItem(u"a much longer name than sixty pixels hold"_s),
                         new QStandardItem(), new QStandardItem()});
        // Give the fitter the event-loop passes it would need to undo the user's width.
        for (int i = 0; i < 5; ++i)
            QCoreApplication::processEvents();
        QTest::qWait(50);
        QCOMPARE(view.columnWidth(0), 60);
    }
};

QTEST_MAIN(tst_ListView)
#include "tst_listview.moc"
