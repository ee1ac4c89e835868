#include "app/tray/pages/schedulespage.h"
#include "app/tray/pages/listview.h"

#include "app/tray/pages/schedulesmodel.h"
#include "app/tray/pages/schedulespresenter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimeEdit>
#include <QTimeZone>
#include <QVBoxLayout>

namespace App {

using Kind = SchedulesPresenter::Kind;

SchedulesPage::SchedulesPage(SchedulesPresenter *presenter, QWidget *parent)
    : QWidget(parent),
      m_presenter(presenter),
      m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTableView(this)),
      m_status(new QLabel(this)),
      m_refresh(new QPushButton(tr("Refresh"), this)),
      m_toggle(new QPushButton(tr("Disable"), this)),
      m_run(new QPushButton(tr("Run now"), this)),
      m_delete(new QPushButton(tr("Delete…"), this)),
      m_openSession(new QPushButton(tr("Open the session"), this)),
      m_target(new QComboBox(this)),
      m_peer(new QComboBox(this)),
      m_project(new QComboBox(this)),
      m_name(new QLineEdit(this)),
      m_prompt(new QPlainTextEdit(this)),
      m_model(new QComboBox(this)),
      m_agent(new QLineEdit(this)),
      m_variant(new QLineEdit(this)),
      m_kind(new QComboBox(this)),
      m_time(new QTimeEdit(QTime(9, 0), this)),
      m_date(new QDateEdit(QDate::currentDate().addDays(1), this)),
      m_cron(new QLineEdit(this)),
      m_weekdayRow(new QWidget(this)),
      m_zone(new QComboBox(this)),
      m_disabled(new QCheckBox(tr("Create it disabled"), this)),
      m_create(new QPushButton(tr("Create task"), this)),
      m_createError(new QLabel(this))
{
    setObjectName(QStringLiteral("schedulesPage"));
    if (!presenter->parent())
        presenter->setParent(this);
    m_confirm = [this](const QString &question) {
        return QMessageBox::question(this, tr("Delete the scheduled task"), question) == QMessageBox::Yes;
    };
    m_proxy->setSourceModel(presenter->model());
    m_proxy->setSortRole(SchedulesModel::SortRole);
    m_view->setObjectName(QStringLiteral("schedulesView"));
    setUpListView(m_view, m_proxy, SchedulesModel::NextRunColumn, SchedulesModel::LastStatusColumn);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_toggle->setObjectName(QStringLiteral("toggle"));
    m_run->setObjectName(QStringLiteral("run"));
    m_delete->setObjectName(QStringLiteral("delete"));
    m_openSession->setObjectName(QStringLiteral("openSession"));

    m_target->setObjectName(QStringLiteral("target"));
    m_target->addItem(tr("A new OpenCode session in a project"));
    m_target->addItem(tr("A message to a peer"));
    m_peer->setObjectName(QStringLiteral("peer"));
    m_peer->setEditable(true);
    m_peer->setInsertPolicy(QComboBox::NoInsert);
    m_peer->lineEdit()->setPlaceholderText(tr("the peer's session name (or id)"));
    m_peer->setToolTip(tr("At the task's time the prompt goes to the connected peer of this session name "
                          "(else id) as a message from you. It need not be connected now."));
    m_project->setObjectName(QStringLiteral("project"));
    m_name->setObjectName(QStringLiteral("name"));
    m_name->setMaxLength(80);
    m_prompt->setObjectName(QStringLiteral("prompt"));
    m_prompt->setMaximumHeight(80);
    m_model->setObjectName(QStringLiteral("model"));
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->lineEdit()->setPlaceholderText(tr("provider/model"));
    m_agent->setObjectName(QStringLiteral("agent"));
    m_agent->setPlaceholderText(tr("default agent"));
    m_variant->setObjectName(QStringLiteral("variant"));
    m_variant->setPlaceholderText(tr("default variant"));
    m_kind->setObjectName(QStringLiteral("kind"));
    m_kind->addItem(tr("Daily"), int(Kind::Daily));
    m_kind->addItem(tr("Weekly"), int(Kind::Weekly));
    m_kind->addItem(tr("Once"), int(Kind::Once));
    m_kind->addItem(tr("Cron"), int(Kind::Cron));
    m_time->setObjectName(QStringLiteral("time"));
    m_time->setDisplayFormat(QStringLiteral("HH:mm"));
    m_date->setObjectName(QStringLiteral("date"));
    m_date->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    m_date->setCalendarPopup(true);
    m_cron->setObjectName(QStringLiteral("cron"));
    m_cron->setPlaceholderText(tr("minute hour day month weekday, e.g. 0 9 * * 1-5"));
    auto *weekdays = new QHBoxLayout(m_weekdayRow);
    weekdays->setContentsMargins(0, 0, 0, 0);
    const QLocale locale;
    for (int day = 0; day < 7; ++day) { // 0 = Sunday, as the service counts
        auto *box = new QCheckBox(locale.dayName(day == 0 ? 7 : day, QLocale::ShortFormat), m_weekdayRow);
        box->setObjectName(QStringLiteral("weekday%1").arg(day));
        weekdays->addWidget(box);
        m_weekdays.append(box);
    }
    m_zone->setObjectName(QStringLiteral("timezone"));
    m_zone->setEditable(true);
    m_zone->setInsertPolicy(QComboBox::NoInsert);
    for (const QByteArray &id : QTimeZone::availableTimeZoneIds())
        m_zone->addItem(QString::fromUtf8(id));
    m_zone->setCurrentText(QString::fromUtf8(QTimeZone::systemTimeZoneId()));
    m_disabled->setObjectName(QStringLiteral("disabled"));
    m_create->setObjectName(QStringLiteral("create"));
    m_createError->setObjectName(QStringLiteral("createError"));
    m_createError->setWordWrap(true);
    m_createError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_createError->setStyleSheet(QStringLiteral("color: #b00020;"));

    auto *top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_refresh);
    auto *actions = new QHBoxLayout;
    for (QPushButton *button : {m_toggle, m_run, m_delete, m_openSession})
        actions->addWidget(button);
    actions->addStretch(1);

    auto *form = new QFormLayout;
    auto *target = new QHBoxLayout;
    target->addWidget(m_target);
    target->addWidget(m_peer, 1);
    form->addRow(tr("Target:"), target);
    form->addRow(tr("Project:"), m_project);
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Prompt:"), m_prompt);
    auto *pickers = new QHBoxLayout;
    pickers->addWidget(m_model, 2);
    pickers->addWidget(new QLabel(tr("Agent:"), this));
    pickers->addWidget(m_agent, 1);
    pickers->addWidget(new QLabel(tr("Variant:"), this));
    pickers->addWidget(m_variant, 1);
    form->addRow(tr("Model:"), pickers);
    auto *when = new QHBoxLayout;
    when->addWidget(m_kind);
    when->addWidget(m_date);
    when->addWidget(m_time);
    when->addWidget(m_cron, 1);
    form->addRow(tr("When:"), when);
    form->addRow(tr("Weekdays:"), m_weekdayRow);
    form->addRow(tr("Time zone:"), m_zone);
    auto *createRow = new QHBoxLayout;
    createRow->addWidget(m_disabled);
    createRow->addStretch(1);
    createRow->addWidget(m_create);
    form->addRow(createRow);
    form->addRow(m_createError);
    auto *box = new QGroupBox(tr("New scheduled task"), this);
    box->setLayout(form);

    auto *upper = new QWidget(this);
    auto *upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->addWidget(m_view, 1);
    upperLayout->addLayout(actions);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(upper);
    splitter->addWidget(box);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(m_refresh, &QPushButton::clicked, presenter, &SchedulesPresenter::refresh);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &SchedulesPage::kindChanged);
    connect(m_target, &QComboBox::currentIndexChanged, this, &SchedulesPage::targetChanged);
    connect(presenter, &SchedulesPresenter::livePeersChanged, this, &SchedulesPage::fillPeers);
    connect(m_create, &QPushButton::clicked, this, &SchedulesPage::create);
    connect(m_toggle, &QPushButton::clicked, this, [this] {
        const int row = selectedRow();
        if (row < 0)
            return;
        const SchedulesModel::Row &r = m_presenter->model()->rowAt(row);
        m_presenter->setEnabled(r.projectId, r.id(), !r.task.value(QLatin1String("enabled")).toBool());
    });
    connect(m_run, &QPushButton::clicked, this, [this] {
        const int row = selectedRow();
        if (row >= 0)
            m_presenter->runNow(m_presenter->model()->rowAt(row).projectId,
                                m_presenter->model()->rowAt(row).id());
    });
    connect(m_delete, &QPushButton::clicked, this, [this] {
        const int row = selectedRow();
        if (row < 0)
            return;
        const SchedulesModel::Row r = m_presenter->model()->rowAt(row);
        const QString name = r.task.value(QLatin1String("name")).toString();
        const bool toPeer = r.projectId.isEmpty();
        if (m_confirm(
                toPeer
                    ? tr("Delete the scheduled task “%1”? The messages it sent stay.").arg(name)
                    : tr("Delete the scheduled task “%1”? Its runs' sessions stay in OpenCode.").arg(name)))
            m_presenter->remove(r.projectId, r.id());
    });
    connect(m_openSession, &QPushButton::clicked, this, [this] {
        const int row = selectedRow();
        if (row < 0)
            return;
        const QModelIndex index = m_presenter->model()->index(row, 0);
        if (const qint64 message = index.data(SchedulesModel::LastMessageRole).toLongLong(); message > 0) {
            Q_EMIT openMessageRequested(index.data(SchedulesModel::LastPeerIdRole).toString(), message);
            return;
        }
        const QString session = index.data(SchedulesModel::LastSessionRole).toString();
        if (!session.isEmpty())
            Q_EMIT openSessionRequested(index.data(SchedulesModel::ProjectPathRole).toString(), session);
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &SchedulesPage::updateActions);
    connect(presenter->model(), &QAbstractItemModel::dataChanged, this, &SchedulesPage::updateActions);
    connect(presenter->model(), &QAbstractItemModel::rowsRemoved, this, &SchedulesPage::updateActions);
    connect(presenter, &SchedulesPresenter::projectsChanged, this, &SchedulesPage::fillProjects);
    connect(presenter, &SchedulesPresenter::modelsChanged, this, &SchedulesPage::fillModels);
    connect(presenter, &SchedulesPresenter::refreshed, this, [this] {
        const QString error = m_presenter->lastRefreshError();
        if (!error.isEmpty())
            m_status->setText(tr("Could not list the scheduled tasks: %1").arg(error));
        else
            m_status->setText(
                m_presenter->projects().isEmpty() && m_presenter->model()->rowCount() == 0
                    ? tr("No projects configured: add them under \"openchamber\" → \"projects\" in "
                         "~/.claude-peers-config.json.")
                    : tr("%n scheduled task(s)", nullptr, m_presenter->model()->rowCount()));
    });
    connect(presenter, &SchedulesPresenter::createRefused, m_createError, &QLabel::setText);
    connect(presenter, &SchedulesPresenter::created, this,
            [this](const QString &projectId, const QString &taskId) {
                m_createError->clear();
                m_name->clear();
                m_prompt->clear();
                selectTask(projectId, taskId);
            });
    connect(presenter, &SchedulesPresenter::ran, this,
            [this](const QString &, const QString &, const QString &session) {
                m_status->setText(tr("The task ran: session %1.").arg(session));
            });
    connect(presenter, &SchedulesPresenter::messageSent, this,
            [this](const QString &, const QString &peerId, qint64 messageId) {
                m_status->setText(tr("The task ran: message #%1 to %2.").arg(messageId).arg(peerId));
            });
    connect(presenter, &SchedulesPresenter::actionFailed, this,
            [this](const QString &action, int status, const QString &message) {
                if (action == QLatin1String("schedule.create") && (status == 400 || status == 404))
                    return; // shown under the form
                m_status->setText(tr("%1 failed: %2").arg(action, message));
            });
    kindChanged();
    fillProjects();
    fillModels();
    fillPeers();
    targetChanged();
    updateActions();
}

int SchedulesPage::selectedRow() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : m_proxy->mapToSource(rows.first()).row();
}

void SchedulesPage::selectTask(const QString &projectId, const QString &taskId)
{
    const int row = m_presenter->model()->rowOf(projectId, taskId);
    if (row < 0)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_presenter->model()->index(row, 0));
    m_view->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
}

void SchedulesPage::updateActions()
{
    const int row = selectedRow();
    const bool selected = row >= 0;
    m_toggle->setEnabled(selected);
    m_run->setEnabled(selected);
    m_delete->setEnabled(selected);
    const QModelIndex index = selected ? m_presenter->model()->index(row, 0) : QModelIndex();
    m_toggle->setText(selected && !index.data(SchedulesModel::EnabledRole).toBool() ? tr("Enable")
                                                                                    : tr("Disable"));
    const bool peerTask = selected && !index.data(SchedulesModel::PeerRole).toString().isEmpty();
    m_openSession->setText(peerTask ? tr("Open the message") : tr("Open the session"));
    m_openSession->setEnabled(peerTask ? index.data(SchedulesModel::LastMessageRole).toLongLong() > 0
                                       : selected &&
                                      !index.data(SchedulesModel::LastSessionRole).toString().isEmpty());
}

void SchedulesPage::fillProjects()
{
    const QString current = m_project->currentData().toString();
    m_project->clear();
    for (const SchedulesPresenter::Project &p : m_presenter->projects())
        m_project->addItem(tr("%1 — %2").arg(p.label, p.path), p.id);
    const int index = m_project->findData(current);
    if (index >= 0)
        m_project->setCurrentIndex(index);
    targetChanged();
}

bool SchedulesPage::targetsPeer() const
{
    return m_target->currentIndex() == 1;
}

void SchedulesPage::targetChanged()
{
    const bool toPeer = targetsPeer();
    m_peer->setEnabled(toPeer);
    m_project->setEnabled(!toPeer);
    for (QWidget *w : {static_cast<QWidget *>(m_model), static_cast<QWidget *>(m_agent),
                       static_cast<QWidget *>(m_variant)})
        w->setEnabled(!toPeer);
    m_create->setEnabled(toPeer || m_project->count() > 0);
}

void SchedulesPage::fillPeers()
{
    const QString typed = m_peer->currentText();
    m_peer->clear();
    for (const Broker::Peer &peer : m_presenter->livePeers()) {
        if (peer.id == QLatin1String("operator"))
            continue; // the tasks' messages come from the operator: not a target
        m_peer->addItem(peer.displayName());
        m_peer->setItemData(m_peer->count() - 1,
                            tr("%1 (id %2) in %3").arg(peer.displayName(), peer.id, peer.cwd),
                            Qt::ToolTipRole);
    }
    m_peer->setCurrentText(typed);
}

void SchedulesPage::fillModels()
{
    const QString typed = m_model->currentText();
    m_model->clear();
    m_model->addItems(m_presenter->models());
    m_model->setCurrentText(typed.isEmpty() ? m_presenter->models().value(0) : typed);
}

void SchedulesPage::kindChanged()
{
    const Kind kind = Kind(m_kind->currentData().toInt());
    m_time->setVisible(kind != Kind::Cron);
    m_date->setVisible(kind == Kind::Once);
    m_cron->setVisible(kind == Kind::Cron);
    m_weekdayRow->setEnabled(kind == Kind::Weekly);
}

void SchedulesPage::create()
{
    SchedulesPresenter::ScheduleRequest r;
    if (targetsPeer()) {
        r.peer = m_peer->currentText().trimmed();
        if (r.peer.isEmpty()) {
            m_createError->setText(tr("Choose the peer to message, or type its session name."));
            return;
        }
    }
    r.projectId = m_project->currentData().toString();
    r.name = m_name->text();
    r.prompt = m_prompt->toPlainText();
    r.model = m_model->currentText();
    r.agent = m_agent->text();
    r.variant = m_variant->text();
    r.kind = Kind(m_kind->currentData().toInt());
    r.time = m_time->time().toString(QStringLiteral("HH:mm"));
    for (int day = 0; day < m_weekdays.size(); ++day)
        if (m_weekdays.at(day)->isChecked())
            r.weekdays.append(day);
    r.date = m_date->date().toString(QStringLiteral("yyyy-MM-dd"));
    r.cron = m_cron->text();
    r.timezone = m_zone->currentText();
    r.disabled = m_disabled->isChecked();
    m_createError->clear();
    m_presenter->create(r);
}

void SchedulesPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_presenter->refresh();
}

} // namespace App
