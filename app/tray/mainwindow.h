#pragma once

#include <QWidget>

class QListWidget;
class QStackedWidget;

namespace App {

// The app's window: the list of pages on the left (Peers, Messages, Federation, Sessions, …),
// the chosen page on the right. The tray menu and a second start of the tray open it on a page;
// on desktops without a tray it is the app. Pages are widgets of their own, added once by the
// composition root; each page is tested on its own, offscreen.
class MainWindow : public QWidget
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);

    // Appends a page; the window takes ownership. id is stable (menus, tests, showPage), title
    // is what the user reads (translated by the caller).
    void addPage(const QString &id, const QString &title, QWidget *page, const QIcon &icon = {});
    QWidget *page(const QString &id) const;
    QString currentPageId() const;
    QStringList pageIds() const;
    QListWidget *pageList() const { return m_list; }

    // Brings the window up, raised and focused, on the page it last showed.
    void showAndRaise();
    // The same, on the page id (unknown ids keep the current page).
    void showPage(const QString &id);

Q_SIGNALS:
    void currentPageChanged(const QString &id);

private:
    int indexOf(const QString &id) const;

    QListWidget *m_list;
    QStackedWidget *m_stack;
};

} // namespace App
