#include "app/tray/pages/notificationsettings.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTimeEdit>
#include <QVBoxLayout>

namespace App {

QString NotificationSettings::kindLabel(NotificationKind kind)
{
    switch (kind) {
    case NotificationKind::NeedsYou:
        return tr("A session needs you");
    case NotificationKind::MessageReceived:
        return tr("A message for you");
    case NotificationKind::PeerJoined:
        return tr("A peer joined");
    case NotificationKind::PeerLeft:
        return tr("A peer left");
    case NotificationKind::FederationWarning:
        return tr("Federation warnings");
    case NotificationKind::PairingRequest:
        return tr("A broker asks to pair");
    case NotificationKind::SessionDone:
        return tr("An OpenCode session finished");
    case NotificationKind::ScheduleFailed:
        return tr("A scheduled run failed");
    case NotificationKind::BrokerProblem:
        return tr("Broker problems");
    }
    return notificationKindKey(kind);
}

NotificationSettings::NotificationSettings(const QString &configPath, QWidget *parent)
    : QGroupBox(tr("Notifications"), parent),
      m_configPath(configPath),
      m_enabled(new QCheckBox(tr("Show notifications"), this)),
      m_onlyWaiting(new QCheckBox(
          tr("Only when something waits for me (a session needs me, a pairing request)"), this)),
      m_quiet(new QCheckBox(tr("Quiet hours"), this)),
      m_quietFrom(new QTimeEdit(QTime(22, 0), this)),
      m_quietTo(new QTimeEdit(QTime(7, 0), this)),
      m_paused(new QCheckBox(tr("Paused"), this)),
      m_muted(new QListWidget(this)),
      m_unmute(new QPushButton(tr("Unmute"), this)),
      m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("notificationSettings"));
    m_enabled->setObjectName(QStringLiteral("notificationsEnabled"));
    m_onlyWaiting->setObjectName(QStringLiteral("onlyWaiting"));
    m_quiet->setObjectName(QStringLiteral("quietHours"));
    m_quietFrom->setObjectName(QStringLiteral("quietFrom"));
    m_quietTo->setObjectName(QStringLiteral("quietTo"));
    m_quietFrom->setDisplayFormat(QStringLiteral("HH:mm"));
    m_quietTo->setDisplayFormat(QStringLiteral("HH:mm"));
    m_paused->setObjectName(QStringLiteral("paused"));
    m_muted->setObjectName(QStringLiteral("mutedPeers"));
    m_muted->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_muted->setMaximumHeight(m_muted->fontMetrics().lineSpacing() * 6 + 8);
    m_unmute->setObjectName(QStringLiteral("unmute"));
    m_status->setObjectName(QStringLiteral("notificationStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *kinds = new QGridLayout;
    const QList<NotificationKind> all = allNotificationKinds();
    for (qsizetype i = 0; i < all.size(); ++i) {
        const NotificationKind kind = all.at(i);
        auto *box = new QCheckBox(kindLabel(kind), this);
        box->setObjectName(QStringLiteral("kind_") + notificationKindKey(kind));
        m_kinds.insert(kind, box);
        kinds->addWidget(box, int(i / 2), int(i % 2));
        connect(box, &QCheckBox::toggled, this, [this, kind](bool on) {
            change([kind, on](NotificationPreferences &p) { p.setKindEnabled(kind, on); });
        });
    }

    auto *quietRow = new QHBoxLayout;
    quietRow->addWidget(m_quiet);
    //: between the start and end of quiet hours
    quietRow->addWidget(new QLabel(tr("from"), this));
    quietRow->addWidget(m_quietFrom);
    //: between the start and end of quiet hours
    quietRow->addWidget(new QLabel(tr("to"), this));
    quietRow->addWidget(m_quietTo);
    quietRow->addStretch(1);

    auto *mutedRow = new QHBoxLayout;
    mutedRow->addWidget(m_muted, 1);
    mutedRow->addWidget(m_unmute, 0, Qt::AlignTop);

    auto *form = new QFormLayout;
    form->addRow(m_enabled);
    form->addRow(tr("Kinds"), kinds);
    form->addRow(m_onlyWaiting);
    form->addRow(quietRow);
    form->addRow(m_paused);
    form->addRow(tr("Muted peers"), mutedRow);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);

    connect(m_enabled, &QCheckBox::toggled, this,
            [this](bool on) { change([on](NotificationPreferences &p) { p.enabled = on; }); });
    connect(m_onlyWaiting, &QCheckBox::toggled, this,
            [this](bool on) { change([on](NotificationPreferences &p) { p.onlyWaitingForYou = on; }); });
    const auto quietChanged = [this] {
        const bool on = m_quiet->isChecked();
        const QuietHours hours {m_quietFrom->time(), m_quietTo->time()};
        change([on, hours](NotificationPreferences &p) {
            p.quietHours = on ? std::optional<QuietHours>(hours) : std::nullopt;
        });
    };
    connect(m_quiet, &QCheckBox::toggled, this, quietChanged);
    connect(m_quietFrom, &QTimeEdit::timeChanged, this, [this, quietChanged] {
        if (m_quiet->isChecked())
            quietChanged();
    });
    connect(m_quietTo, &QTimeEdit::timeChanged, this, [this, quietChanged] {
        if (m_quiet->isChecked())
            quietChanged();
    });
    connect(m_paused, &QCheckBox::toggled, this, [this](bool on) {
        change([on](NotificationPreferences &p) {
            if (on)
                p.pause(); // until turned back on; the tray menu pauses for a time
            else
                p.resume();
        });
    });
    connect(m_muted, &QListWidget::itemSelectionChanged, this, &NotificationSettings::updateEnabledState);
    connect(m_unmute, &QPushButton::clicked, this, [this] {
        QStringList ids;
        for (const QListWidgetItem *item : m_muted->selectedItems())
            ids << item->text();
        change([ids](NotificationPreferences &p) {
            for (const QString &id : ids)
                p.unmute(id);
        });
    });
    // `claude-peers notifications …` (or the tray's menu and notifications) changed the file.
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, [this] {
        load();
        watchFile(); // a file replaced by a rename is no longer watched
    });
    watchFile();
    load();
}

void NotificationSettings::watchFile()
{
    if (m_configPath.isEmpty() || m_watcher.files().contains(m_configPath) ||
        !QFileInfo::exists(m_configPath))
        return;
    m_watcher.addPath(m_configPath);
}

void NotificationSettings::load()
{
    watchFile();
    NotificationPreferences p;
    if (!m_configPath.isEmpty()) {
        auto loaded = NotificationPreferences::load(m_configPath);
        if (!loaded) {
            m_status->setText(loaded.error().message);
            setEnabled(false); // nothing can be saved into a file that cannot be read
            return;
        }
        p = *loaded;
    }
    setEnabled(true);
    m_loading = true;
    m_enabled->setChecked(p.enabled);
    for (auto it = m_kinds.cbegin(); it != m_kinds.cend(); ++it)
        it.value()->setChecked(p.kindEnabled(it.key()));
    m_onlyWaiting->setChecked(p.onlyWaitingForYou);
    m_quiet->setChecked(p.quietHours.has_value());
    if (p.quietHours) {
        m_quietFrom->setTime(p.quietHours->start);
        m_quietTo->setTime(p.quietHours->end);
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const bool paused = p.isPaused(now);
    m_paused->setChecked(paused);
    m_paused->setText(paused && p.pausedUntil.isValid()
                          ? tr("Paused until %1")
                                .arg(p.pausedUntil.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")))
                          : tr("Paused"));
    const QStringList selected = [this] {
        QStringList ids;
        for (const QListWidgetItem *item : m_muted->selectedItems())
            ids << item->text();
        return ids;
    }();
    m_muted->clear();
    m_muted->addItems(p.mutedPeers);
    for (int row = 0; row < m_muted->count(); ++row)
        m_muted->item(row)->setSelected(selected.contains(m_muted->item(row)->text()));
    m_loading = false;
    updateEnabledState();
}

void NotificationSettings::updateEnabledState()
{
    for (QCheckBox *box : std::as_const(m_kinds))
        box->setEnabled(m_enabled->isChecked());
    m_unmute->setEnabled(!m_muted->selectedItems().isEmpty());
}

void NotificationSettings::change(const std::function<void(NotificationPreferences &)> &edit)
{
    if (m_loading)
        return;
    updateEnabledState();
    if (m_configPath.isEmpty())
        return;
    // Under the file's lock, on what the file says now: a mute the CLI wrote meanwhile stays.
    const auto saved = NotificationPreferences::update(m_configPath, [&edit](NotificationPreferences &p) {
        edit(p);
        return true;
    });
    if (!saved) {
        m_status->setText(tr("Not saved: %1").arg(saved.error().message));
        load();
        Q_EMIT changed(false);
        return;
    }
    m_status->clear();
    load(); // the boxes show what the file now says (and the watcher follows a new file)
    Q_EMIT changed(true);
}

} // namespace App
