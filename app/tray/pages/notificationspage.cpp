#include "app/tray/pages/notificationspage.h"

#include "app/tray/notifications/notifier.h"

#include <QCoreApplication>
#include <QFont>
#include <QHBoxLayout>
#include <QIdentityProxyModel>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListView>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace App {

namespace {

// How the list reads: the time first, unread in bold, and why one did not pop up.
class ListPresentation : public QIdentityProxyModel
{
    Q_DECLARE_TR_FUNCTIONS(App::NotificationsPage)
public:
    using QIdentityProxyModel::QIdentityProxyModel;

    static QString why(Suppression s)
    {
        switch (s) {
        case Suppression::Shown:
            return {};
        case Suppression::AllOff:
            return tr("notifications off");
        case Suppression::Paused:
            return tr("paused");
        case Suppression::KindOff:
            return tr("this kind is off");
        case Suppression::PeerMuted:
            return tr("peer muted");
        case Suppression::NotWaitingForYou:
            return tr("not waiting for you");
        case Suppression::QuietHours:
            return tr("quiet hours");
        }
        return {};
    }

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::FontRole) {
            QFont font;
            font.setBold(!index.data(NotificationListModel::ReadRole).toBool());
            return font;
        }
        if (role != Qt::DisplayRole)
            return QIdentityProxyModel::data(index, role);
        const QDateTime time = index.data(NotificationListModel::TimeRole).toDateTime().toLocalTime();
        QString text = QLocale().toString(time.time(), QLocale::ShortFormat) + QStringLiteral("  ") +
            QIdentityProxyModel::data(index, role).toString();
        const QString reason = why(index.data(NotificationListModel::SuppressionRole).value<Suppression>());
        if (!reason.isEmpty())
            text += QStringLiteral("  ") + tr("(not shown: %1)").arg(reason);
        return text;
    }
};

} // namespace

NotificationsPage::NotificationsPage(Notifier *notifier, QWidget *parent)
    : QWidget(parent),
      m_notifier(notifier),
      m_status(new QLabel(this)),
      m_view(new QListView(this)),
      m_mute(new QPushButton(tr("Mute peer"), this)),
      m_markAllRead(new QPushButton(tr("Mark all read"), this)),
      m_clear(new QPushButton(tr("Clear"), this))
{
    m_status->setWordWrap(true);
    m_view->setModel(new ListPresentation(this));
    static_cast<QIdentityProxyModel *>(m_view->model())->setSourceModel(notifier->list());
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setWordWrap(true);
    m_view->setUniformItemSizes(false);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_mute);
    buttons->addStretch();
    buttons->addWidget(m_markAllRead);
    buttons->addWidget(m_clear);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);
    layout->addLayout(buttons);

    NotificationListModel *list = notifier->list();
    connect(m_view, &QListView::activated, this, [this](const QModelIndex &index) {
        m_notifier->open(index.data(NotificationListModel::IdRole).toULongLong());
    });
    // The presentation is an identity proxy: its rows are the list's rows.
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this, list](const QModelIndex &current) {
                if (current.isValid())
                    list->markRead(current.row());
                updateButtons();
            });
    connect(m_mute, &QPushButton::clicked, this, [this] { m_notifier->mutePeer(selectedEntry()); });
    connect(m_markAllRead, &QPushButton::clicked, list, &NotificationListModel::markAllRead);
    connect(m_clear, &QPushButton::clicked, list, &NotificationListModel::clear);
    connect(list, &NotificationListModel::unreadCountChanged, this, &NotificationsPage::updateButtons);
    connect(list, &QAbstractItemModel::modelReset, this, &NotificationsPage::updateButtons);
    connect(notifier, &Notifier::preferencesChanged, this, &NotificationsPage::refreshStatus);
    refreshStatus();
    updateButtons();
}

void NotificationsPage::showEvent(QShowEvent *event)
{
    refreshStatus(); // a pause may have ended, or the CLI changed the preferences
    QWidget::showEvent(event);
}

quint64 NotificationsPage::selectedEntry() const
{
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? current.data(NotificationListModel::IdRole).toULongLong() : 0;
}

void NotificationsPage::updateButtons()
{
    const QModelIndex current = m_view->currentIndex();
    const QString peer =
        current.isValid() ? current.data(NotificationListModel::PeerIdRole).toString() : QString();
    const NotificationListModel::Entry *entry = m_notifier->list()->entry(selectedEntry());
    const bool canMute = entry && entry->event.subject != NotificationSubject::PairingRequest;
    m_mute->setEnabled(canMute && !peer.isEmpty() && !m_notifier->preferences().isMuted(peer));
    m_markAllRead->setEnabled(m_notifier->list()->unreadCount() > 0);
    m_clear->setEnabled(m_notifier->list()->rowCount() > 0);
}

void NotificationsPage::refreshStatus()
{
    const NotificationPreferences p = m_notifier->preferences();
    const QDateTime now = m_notifier->now();
    QStringList lines;
    if (!p.enabled)
        lines << tr("Notifications are off: they are only listed here.");
    else if (p.isPaused(now) && !p.pausedUntil.isValid())
        lines << tr("Notifications are paused until you resume them: they are only listed here.");
    else if (p.isPaused(now))
        lines << tr("Notifications are paused until %1: they are only listed here.")
                     .arg(QLocale().toString(p.pausedUntil.toLocalTime(), QLocale::ShortFormat));
    if (p.quietHours)
        lines << tr("Quiet hours: %1.").arg(p.quietHours->toText());
    if (p.onlyWaitingForYou)
        lines << tr("Only what waits for you pops up.");
    if (!p.mutedPeers.isEmpty())
        lines << tr("Muted peers: %1.").arg(p.mutedPeers.join(QStringLiteral(", ")));
    m_status->setText(lines.join(QLatin1Char(' ')));
    m_status->setVisible(!lines.isEmpty());
    updateButtons();
}

} // namespace App
