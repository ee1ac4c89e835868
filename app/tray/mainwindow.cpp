#include "app/tray/mainwindow.h"

#include <QHBoxLayout>
#include <QListWidget>
#include <QStackedWidget>

namespace App {

namespace {
constexpr int PageIdRole = Qt::UserRole;
}

MainWindow::MainWindow(QWidget *parent)
    : QWidget(parent), m_list(new QListWidget(this)), m_stack(new QStackedWidget(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("claude-peers"));

    m_list->setObjectName(QStringLiteral("pageList"));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setFixedWidth(170);
    m_stack->setObjectName(QStringLiteral("pages"));

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0)
            return;
        m_stack->setCurrentIndex(row);
        Q_EMIT currentPageChanged(currentPageId());
    });

    auto *layout = new QHBoxLayout(this);
    layout->addWidget(m_list);
    layout->addWidget(m_stack, 1);
    resize(1000, 600);
}

void MainWindow::addPage(const QString &id, const QString &title, QWidget *page, const QIcon &icon)
{
    Q_ASSERT(indexOf(id) < 0);
    page->setObjectName(id + QStringLiteral("Page"));
    auto *item = new QListWidgetItem(icon, title);
    item->setData(PageIdRole, id);
    m_list->addItem(item);
    m_stack->addWidget(page);
    if (m_list->currentRow() < 0)
        m_list->setCurrentRow(0);
}

QWidget *MainWindow::page(const QString &id) const
{
    const int index = indexOf(id);
    return index < 0 ? nullptr : m_stack->widget(index);
}

QString MainWindow::currentPageId() const
{
    const QListWidgetItem *item = m_list->currentItem();
    return item ? item->data(PageIdRole).toString() : QString();
}

QStringList MainWindow::pageIds() const
{
    QStringList ids;
    for (int row = 0; row < m_list->count(); ++row)
        ids << m_list->item(row)->data(PageIdRole).toString();
    return ids;
}

int MainWindow::indexOf(const QString &id) const
{
    for (int row = 0; row < m_list->count(); ++row) {
        if (m_list->item(row)->data(PageIdRole).toString() == id)
            return row;
    }
    return -1;
}

void MainWindow::showAndRaise()
{
    show();
    setWindowState((windowState() & ~Qt::WindowMinimized) | Qt::WindowActive);
    raise();
    activateWindow();
}

void MainWindow::showPage(const QString &id)
{
    if (const int index = indexOf(id); index >= 0)
        m_list->setCurrentRow(index);
    showAndRaise();
}

} // namespace App
