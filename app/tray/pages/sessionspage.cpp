#include "app/tray/pages/sessionspage.h"
#include "app/tray/pages/listview.h"

#include "app/tray/pages/sessionsmodel.h"
#include "app/tray/pages/sessionspresenter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace App {

namespace {

using Kind = SessionsPresenter::Kind;

// Keeps what the user typed while the items are replaced.
void setItems(QComboBox *box, const QStringList &items, const QString &preferred)
{
    const QString typed = box->currentText();
    box->clear();
    box->addItem(QString());
    box->addItems(items);
    box->setCurrentText(typed.isEmpty() ? preferred : typed);
}

} // namespace

SessionsPage::SessionsPage(SessionsPresenter *presenter, QWidget *parent)
    : QWidget(parent),
      m_presenter(presenter),
      m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTableView(this)),
      m_status(new QLabel(this)),
      m_refresh(new QPushButton(tr("Refresh"), this)),
      m_answer(new QPlainTextEdit(this)),
      m_where(new QComboBox(this)),
      m_title(new QLineEdit(this)),
      m_prompt(new QPlainTextEdit(this)),
      m_model(new QComboBox(this)),
      m_agent(new QComboBox(this)),
      m_variant(new QComboBox(this)),
      m_wait(new QCheckBox(tr("Wait for the answer"), this)),
      m_timeout(new QSpinBox(this)),
      m_create(new QPushButton(tr("Create session"), this)),
      m_send(new QPushButton(tr("Send to selected"), this)),
      m_fork(new QPushButton(tr("Fork selected"), this)),
      m_progress(new QProgressBar(this)),
      m_waitLabel(new QLabel(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)),
      m_error(new QLabel(this)),
      m_ticker(new QTimer(this))
{
    setObjectName(QStringLiteral("sessionsPage"));
    if (!presenter->parent())
        presenter->setParent(this);
    m_proxy->setSourceModel(presenter->model());
    m_proxy->setSortRole(SessionsModel::SortRole);
    m_view->setObjectName(QStringLiteral("sessionsView"));
    setUpListView(m_view, m_proxy, SessionsModel::StateColumn, SessionsModel::AnswerColumn);

    m_status->setObjectName(QStringLiteral("status"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_answer->setObjectName(QStringLiteral("answer"));
    m_answer->setReadOnly(true);
    m_answer->setPlaceholderText(tr("The selected session's last answer"));

    m_where->setObjectName(QStringLiteral("where"));
    m_where->setEditable(true);
    m_where->setToolTip(tr("A configured project, or a directory to create the session in"));
    m_title->setObjectName(QStringLiteral("title"));
    m_title->setPlaceholderText(tr("Title (optional)"));
    m_prompt->setObjectName(QStringLiteral("prompt"));
    m_prompt->setPlaceholderText(tr("Prompt (optional for a new session)"));
    m_prompt->setMaximumHeight(90);
    for (QComboBox *box : {m_model, m_agent, m_variant}) {
        box->setEditable(true);
        box->setInsertPolicy(QComboBox::NoInsert);
    }
    m_model->setObjectName(QStringLiteral("model"));
    m_model->setToolTip(tr("provider/model; empty: the configured default"));
    m_agent->setObjectName(QStringLiteral("agent"));
    m_agent->setToolTip(tr("OpenCode agent; empty: the default. The service checks it against OpenCode."));
    m_variant->setObjectName(QStringLiteral("variant"));
    m_wait->setObjectName(QStringLiteral("wait"));
    m_wait->setChecked(true);
    m_timeout->setObjectName(QStringLiteral("timeout"));
    m_timeout->setRange(0, 86400);
    m_timeout->setSpecialValueText(tr("default (600 s)"));
    m_timeout->setSuffix(tr(" s"));
    m_create->setObjectName(QStringLiteral("create"));
    m_send->setObjectName(QStringLiteral("send"));
    m_fork->setObjectName(QStringLiteral("fork"));
    m_progress->setObjectName(QStringLiteral("waitIndicator"));
    m_progress->setRange(0, 0); // busy
    m_progress->setTextVisible(false);
    m_waitLabel->setObjectName(QStringLiteral("waitLabel"));
    m_cancel->setObjectName(QStringLiteral("cancel"));
    m_error->setObjectName(QStringLiteral("error"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));

    auto *top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_refresh);

    auto *form = new QFormLayout;
    form->addRow(tr("Project or directory:"), m_where);
    form->addRow(tr("Title:"), m_title);
    form->addRow(tr("Prompt:"), m_prompt);
    auto *pickers = new QHBoxLayout;
    pickers->addWidget(new QLabel(tr("Model:"), this));
    pickers->addWidget(m_model, 2);
    pickers->addWidget(new QLabel(tr("Agent:"), this));
    pickers->addWidget(m_agent, 1);
    pickers->addWidget(new QLabel(tr("Variant:"), this));
    pickers->addWidget(m_variant, 1);
    form->addRow(pickers);
    auto *waitRow = new QHBoxLayout;
    waitRow->addWidget(m_wait);
    waitRow->addWidget(new QLabel(tr("Timeout:"), this));
    waitRow->addWidget(m_timeout);
    waitRow->addStretch(1);
    waitRow->addWidget(m_create);
    waitRow->addWidget(m_send);
    waitRow->addWidget(m_fork);
    form->addRow(waitRow);
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_waitLabel, 2);
    progressRow->addWidget(m_cancel);
    form->addRow(progressRow);
    form->addRow(m_error);
    auto *box = new QGroupBox(tr("Prompt"), this);
    box->setLayout(form);

    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QHBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_answer, 1);
    bottomLayout->addWidget(box, 2);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_view);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(m_refresh, &QPushButton::clicked, presenter, &SessionsPresenter::refresh);
    connect(m_create, &QPushButton::clicked, this, [this] { startPrompt(int(Kind::Create)); });
    connect(m_send, &QPushButton::clicked, this, [this] { startPrompt(int(Kind::Send)); });
    connect(m_fork, &QPushButton::clicked, this, [this] { startPrompt(int(Kind::Fork)); });
    connect(m_cancel, &QPushButton::clicked, presenter, &SessionsPresenter::cancel);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        updateActions();
        updateAnswer();
    });
    connect(presenter->model(), &QAbstractItemModel::dataChanged, this, &SessionsPage::updateAnswer);
    connect(presenter->model(), &QAbstractItemModel::rowsInserted, this, &SessionsPage::selectPending);
    connect(presenter, &SessionsPresenter::projectsChanged, this, &SessionsPage::fillWhere);
    connect(presenter, &SessionsPresenter::choicesChanged, this, &SessionsPage::fillChoices);
    connect(presenter, &SessionsPresenter::refreshed, this, [this] {
        const QString error = m_presenter->lastRefreshError();
        m_status->setText(error.isEmpty()
                              ? tr("%n OpenCode session(s)", nullptr, m_presenter->model()->rowCount())
                              : tr("Could not list the sessions: %1").arg(error));
        selectPending();
    });
    connect(presenter, &SessionsPresenter::actionStarted, this, [this] {
        m_error->clear();
        updateActions();
        tick();
    });
    connect(presenter, &SessionsPresenter::actionFinished, this,
            [this](const QString &action, const QJsonObject &result) {
                const QString id = result.value(QLatin1String("sessionId")).toString();
                if (action == QLatin1String("session.create") || action == QLatin1String("session.fork"))
                    m_pendingSelection = id;
                if (!result.value(QLatin1String("promptDispatched")).toBool() &&
                    result.contains(QLatin1String("promptError")))
                    m_error->setText(tr("The prompt did not reach the session: %1")
                                         .arg(result.value(QLatin1String("promptError")).toString()));
                m_prompt->clear();
                selectPending();
                updateActions();
                updateAnswer();
            });
    connect(presenter, &SessionsPresenter::actionFailed, this,
            [this](const QString &, int, const QString &message) {
                m_error->setText(message);
                updateActions();
            });
    connect(presenter, &SessionsPresenter::actionCancelled, this, [this](const QString &action) {
        m_error->setText(tr("Cancelled: %1 no longer waits (the broker stopped it).").arg(action));
        updateActions();
    });
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, this, &SessionsPage::tick);

    fillWhere();
    fillChoices();
    updateActions();
}

QString SessionsPage::selectedSessionId() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? QString() : rows.first().data(SessionsModel::SessionIdRole).toString();
}

void SessionsPage::selectSession(const QString &directory, const QString &sessionId)
{
    m_pendingSelection = sessionId;
    m_presenter->showSession(directory, sessionId);
    selectPending();
}

void SessionsPage::selectPending()
{
    if (m_pendingSelection.isEmpty())
        return;
    const int row = m_presenter->model()->rowOf(m_pendingSelection);
    if (row < 0)
        return;
    const QModelIndex index = m_proxy->mapFromSource(m_presenter->model()->index(row, 0));
    m_view->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(index);
    m_pendingSelection.clear();
}

void SessionsPage::fillWhere()
{
    const QString typed = m_where->currentText();
    m_where->clear();
    for (const SessionsPresenter::Project &p : m_presenter->projects())
        m_where->addItem(tr("%1 — %2").arg(p.label, p.path), p.id);
    for (const QString &d : m_presenter->directories()) {
        const bool isProject = std::any_of(m_presenter->projects().cbegin(), m_presenter->projects().cend(),
                                           [&d](const SessionsPresenter::Project &p) { return p.path == d; });
        if (!isProject && m_where->findText(d) < 0)
            m_where->addItem(d);
    }
    if (!typed.isEmpty())
        m_where->setCurrentText(typed);
}

void SessionsPage::fillChoices()
{
    const SessionsPresenter::Choices &c = m_presenter->choices();
    setItems(m_model, c.models, {});
    setItems(m_agent, c.agents, {});
    setItems(m_variant, c.variants, {});
    m_model->lineEdit()->setPlaceholderText(c.defaultModel.isEmpty() ? tr("provider/model")
                                                                     : tr("default: %1").arg(c.defaultModel));
    m_agent->lineEdit()->setPlaceholderText(c.defaultAgent.isEmpty() ? tr("default agent")
                                                                     : tr("default: %1").arg(c.defaultAgent));
    m_variant->lineEdit()->setPlaceholderText(
        c.defaultVariant.isEmpty() ? tr("default variant") : tr("default: %1").arg(c.defaultVariant));
}

void SessionsPage::startPrompt(int kind)
{
    SessionsPresenter::PromptRequest r;
    r.kind = Kind(kind);
    if (r.kind == Kind::Create) {
        const int index = m_where->currentIndex();
        const bool project = index >= 0 && m_where->itemText(index) == m_where->currentText() &&
            !m_where->itemData(index).toString().isEmpty();
        if (project)
            r.projectId = m_where->itemData(index).toString();
        else
            r.directory = m_where->currentText().trimmed();
        r.title = m_title->text();
    } else {
        const QModelIndexList rows = m_view->selectionModel()->selectedRows();
        if (!rows.isEmpty()) {
            r.sessionId = rows.first().data(SessionsModel::SessionIdRole).toString();
            r.directory = rows.first().data(SessionsModel::DirectoryRole).toString();
        }
    }
    r.prompt = m_prompt->toPlainText();
    r.model = m_model->currentText();
    r.agent = m_agent->currentText();
    r.variant = m_variant->currentText();
    r.wait = m_wait->isChecked();
    r.timeoutSeconds = m_timeout->value();
    m_presenter->start(r);
}

void SessionsPage::updateActions()
{
    const bool running = m_presenter->isRunning();
    const bool selected = !selectedSessionId().isEmpty();
    m_create->setEnabled(!running);
    m_send->setEnabled(!running && selected);
    m_fork->setEnabled(!running && selected);
    m_progress->setVisible(running);
    m_waitLabel->setVisible(running);
    m_cancel->setVisible(running);
    if (!running)
        m_waitLabel->clear();
}

void SessionsPage::updateAnswer()
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    const QString text =
        rows.isEmpty() ? QString() : rows.first().data(SessionsModel::LastAssistantRole).toString();
    if (m_answer->toPlainText() != text)
        m_answer->setPlainText(text);
}

void SessionsPage::tick()
{
    m_presenter->model()->refreshTimes();
    if (!m_presenter->isRunning())
        return;
    const int seconds = int(m_presenter->runningMs() / 1000);
    m_waitLabel->setText(m_presenter->isWaiting()
                             ? tr("Waiting for the session's answer… %n s", nullptr, seconds)
                             : tr("%1 running… %n s", nullptr, seconds).arg(m_presenter->runningAction()));
}

void SessionsPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_presenter->setActive(true);
    m_ticker->start();
}

void SessionsPage::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_presenter->setActive(false);
    m_ticker->stop();
}

} // namespace App
