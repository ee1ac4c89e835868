#include "app/tray/pages/federationpage.h"

#include "app/tray/pages/federationpresenter.h"
#include "app/tray/pages/listview.h"
#include "app/tray/pages/qrcodeimage.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFontDatabase>
#include <QFormLayout>
#include <QFrame>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QPushButton>
#include <QScrollArea>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace App {

namespace {

QPushButton *copyButton(QWidget *parent, std::function<QString()> text)
{
    auto *button = new QPushButton(FederationPage::tr("Copy"), parent);
    QObject::connect(button, &QPushButton::clicked, parent,
                     [text = std::move(text)] { QGuiApplication::clipboard()->setText(text()); });
    return button;
}

QLineEdit *readOnlyLine(QWidget *parent, const QString &name)
{
    auto *line = new QLineEdit(parent);
    line->setReadOnly(true);
    line->setObjectName(name);
    line->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return line;
}

QTableView *tableOf(QAbstractItemModel *model, QWidget *parent, const QString &name)
{
    auto *view = new QTableView(parent);
    view->setObjectName(name);
    setUpListView(view, model, ModelOrder, LastColumn);
    view->setMinimumHeight(120);
    return view;
}

void clearLayout(QVBoxLayout *layout)
{
    while (QLayoutItem *item = layout->takeAt(0)) {
        if (QWidget *widget = item->widget()) {
            // Out of the page at once (findChild must not see it); deleted once the click that
            // may have led here has returned.
            widget->hide();
            widget->setParent(nullptr);
            widget->deleteLater();
        }
        delete item;
    }
}

} // namespace

FederationPage::FederationPage(FederationPresenter *presenter, QWidget *parent)
    : QWidget(parent), m_presenter(presenter), m_tick(new QTimer(this))
{
    auto *outer = new QVBoxLayout(this);
    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    auto *content = new QWidget(m_scroll);
    auto *layout = new QVBoxLayout(content);
    m_scroll->setWidget(content);
    outer->addWidget(m_scroll);

    // ---- this machine
    auto *own = new QGroupBox(tr("This machine"), content);
    auto *form = new QFormLayout(own);
    m_enabled = new QCheckBox(tr("Federation on (brokers on other machines can pair and relay)"), own);
    m_enabled->setObjectName(QStringLiteral("federationEnabled"));
    form->addRow(m_enabled);
    m_status = new QLabel(own);
    m_status->setObjectName(QStringLiteral("federationStatus"));
    m_status->setWordWrap(true);
    form->addRow(m_status);
    m_hostname = readOnlyLine(own, QStringLiteral("hostname"));
    form->addRow(tr("Name on the network:"), m_hostname);

    auto *urlRow = new QHBoxLayout;
    m_joinUrl = readOnlyLine(own, QStringLiteral("joinUrl"));
    m_joinUrl->setEchoMode(QLineEdit::Password); // it holds the federation key
    m_joinUrl->setToolTip(tr("It contains the federation key: give it only to your own machines."));
    auto *showUrl = new QCheckBox(tr("Show"), own);
    connect(showUrl, &QCheckBox::toggled, this,
            [this](bool shown) { m_joinUrl->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password); });
    urlRow->addWidget(m_joinUrl, 1);
    urlRow->addWidget(showUrl);
    urlRow->addWidget(copyButton(own, [this] { return m_joinUrl->text(); }));
    form->addRow(tr("Join URL:"), urlRow);

    auto *fpRow = new QHBoxLayout;
    m_fingerprint = readOnlyLine(own, QStringLiteral("fingerprint"));
    fpRow->addWidget(m_fingerprint, 1);
    fpRow->addWidget(copyButton(own, [this] { return m_fingerprint->text(); }));
    form->addRow(tr("Certificate fingerprint:"), fpRow);

    m_pairCodeButton = new QPushButton(tr("Create a one-time pairing code"), own);
    m_pairCodeButton->setObjectName(QStringLiteral("pairCodeButton"));
    form->addRow(m_pairCodeButton);
    auto *codeRow = new QHBoxLayout;
    m_code = new QLabel(own);
    m_code->setObjectName(QStringLiteral("pairingCode"));
    m_code->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    big.setPointSizeF(big.pointSizeF() * 1.8);
    big.setBold(true);
    m_code->setFont(big);
    m_countdown = new QLabel(own);
    m_countdown->setObjectName(QStringLiteral("codeCountdown"));
    codeRow->addWidget(m_code);
    codeRow->addWidget(copyButton(own, [this] {
        const auto &code = m_presenter->pairingCode();
        return code ? code->joinCommand() : QString();
    }));
    codeRow->addWidget(m_countdown, 1);
    form->addRow(tr("Pairing code:"), codeRow);
    m_qr = new QLabel(own);
    m_qr->setObjectName(QStringLiteral("pairingQr"));
    m_qr->setToolTip(tr("The command the other machine runs, with this one-time code"));
    form->addRow(m_qr);
    layout->addWidget(own);

    // ---- pairing requests
    auto *requestsGroup = new QGroupBox(tr("Pairing requests"), content);
    auto *requestsOuter = new QVBoxLayout(requestsGroup);
    m_requests = new QWidget(requestsGroup);
    m_requests->setObjectName(QStringLiteral("pairingRequests"));
    m_requestsLayout = new QVBoxLayout(m_requests);
    m_requestsLayout->setContentsMargins(0, 0, 0, 0);
    requestsOuter->addWidget(m_requests);
    layout->addWidget(requestsGroup);

    // ---- warnings
    auto *warningsGroup = new QGroupBox(tr("Warnings"), content);
    auto *warningsOuter = new QVBoxLayout(warningsGroup);
    m_warnings = new QWidget(warningsGroup);
    m_warnings->setObjectName(QStringLiteral("federationWarnings"));
    m_warningsLayout = new QVBoxLayout(m_warnings);
    m_warningsLayout->setContentsMargins(0, 0, 0, 0);
    warningsOuter->addWidget(m_warnings);
    layout->addWidget(warningsGroup);

    // ---- paired machines
    auto *pairedGroup = new QGroupBox(tr("Paired machines"), content);
    auto *pairedLayout = new QVBoxLayout(pairedGroup);
    m_pairedView = tableOf(presenter->paired(), pairedGroup, QStringLiteral("pairedView"));
    pairedLayout->addWidget(m_pairedView);
    auto *pairedButtons = new QHBoxLayout;
    m_revokeButton = new QPushButton(tr("Revoke…"), pairedGroup);
    m_revokeButton->setObjectName(QStringLiteral("revokeButton"));
    m_revokeButton->setEnabled(false);
    m_rotateButton = new QPushButton(tr("Rotate the federation key…"), pairedGroup);
    m_rotateButton->setObjectName(QStringLiteral("rotateKeyButton"));
    pairedButtons->addWidget(m_revokeButton);
    pairedButtons->addStretch(1);
    pairedButtons->addWidget(m_rotateButton);
    pairedLayout->addLayout(pairedButtons);
    layout->addWidget(pairedGroup);

    // ---- audit trail
    auto *attemptsGroup = new QGroupBox(tr("Refused connection attempts and pairing decisions"), content);
    auto *attemptsLayout = new QVBoxLayout(attemptsGroup);
    m_attemptsView = tableOf(presenter->attempts(), attemptsGroup, QStringLiteral("attemptsView"));
    attemptsLayout->addWidget(m_attemptsView);
    layout->addWidget(attemptsGroup);

    // ---- ignored machines (their requests were ignored; DNS-SD does not offer them again)
    auto *ignoredGroup = new QGroupBox(tr("Ignored machines"), content);
    auto *ignoredLayout = new QVBoxLayout(ignoredGroup);
    m_ignoredView = tableOf(presenter->ignored(), ignoredGroup, QStringLiteral("ignoredView"));
    ignoredLayout->addWidget(m_ignoredView);
    m_unignoreButton = new QPushButton(tr("Stop ignoring"), ignoredGroup);
    m_unignoreButton->setObjectName(QStringLiteral("unignoreButton"));
    m_unignoreButton->setEnabled(false);
    auto *ignoredButtons = new QHBoxLayout;
    ignoredButtons->addWidget(m_unignoreButton);
    ignoredButtons->addStretch(1);
    ignoredLayout->addLayout(ignoredButtons);
    layout->addWidget(ignoredGroup);
    layout->addStretch(1);

    // ---- confirmation and messages, always in view under the scroll area
    m_confirmBar = new QFrame(this);
    m_confirmBar->setObjectName(QStringLiteral("confirmBar"));
    m_confirmBar->setFrameShape(QFrame::StyledPanel);
    auto *confirmLayout = new QHBoxLayout(m_confirmBar);
    m_confirmText = new QLabel(m_confirmBar);
    m_confirmText->setWordWrap(true);
    m_confirmYes = new QPushButton(m_confirmBar);
    m_confirmYes->setObjectName(QStringLiteral("confirmYesButton"));
    m_confirmNo = new QPushButton(tr("Cancel"), m_confirmBar);
    m_confirmNo->setObjectName(QStringLiteral("confirmNoButton"));
    confirmLayout->addWidget(m_confirmText, 1);
    confirmLayout->addWidget(m_confirmYes);
    confirmLayout->addWidget(m_confirmNo);
    m_confirmBar->hide();
    outer->addWidget(m_confirmBar);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("federationMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    outer->addWidget(m_message);

    connect(m_confirmYes, &QPushButton::clicked, this, [this] {
        m_confirmBar->hide();
        if (auto action = std::exchange(m_confirmAction, nullptr))
            action();
    });
    connect(m_confirmNo, &QPushButton::clicked, this, [this] {
        m_confirmBar->hide();
        m_confirmAction = nullptr;
    });
    connect(m_enabled, &QCheckBox::clicked, presenter, &FederationPresenter::setFederationEnabled);
    connect(m_pairCodeButton, &QPushButton::clicked, presenter, &FederationPresenter::createPairingCode);
    connect(m_pairedView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_revokeButton->setEnabled(m_pairedView->selectionModel()->hasSelection()); });
    connect(presenter->paired(), &QAbstractItemModel::modelReset, this,
            [this] { m_revokeButton->setEnabled(m_pairedView->selectionModel()->hasSelection()); });
    connect(m_revokeButton, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_pairedView->selectionModel()->selectedRows();
        if (rows.isEmpty())
            return;
        const auto row = m_presenter->paired()->rowAt(rows.first().row());
        const QString name =
            row.hostname.isEmpty() ? QStringLiteral("%1:%2").arg(row.host).arg(row.port) : row.hostname;
        askToConfirm(tr("Revoke %1? It is disconnected, its pin and address are removed, and this machine "
                        "refuses it until you pair it again.")
                         .arg(name),
                     tr("Revoke"),
                     [this, host = row.host, port = row.port] { m_presenter->revoke(host, port); });
    });
    const auto updateUnignore = [this] {
        m_unignoreButton->setEnabled(m_ignoredView->selectionModel()->hasSelection());
    };
    connect(m_ignoredView->selectionModel(), &QItemSelectionModel::selectionChanged, this, updateUnignore);
    connect(presenter->ignored(), &QAbstractItemModel::modelReset, this, updateUnignore);
    connect(m_unignoreButton, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_ignoredView->selectionModel()->selectedRows();
        if (!rows.isEmpty())
            m_presenter->unignore(m_presenter->ignored()->rowAt(rows.first().row()).fingerprint);
    });
    connect(m_rotateButton, &QPushButton::clicked, this, [this] {
        askToConfirm(tr("Make a new federation key? Every paired machine loses its link until it gets the "
                        "new key (pair it again, or join with the new URL)."),
                     tr("Rotate the key"), [this] { m_presenter->rotateKey(); });
    });

    connect(presenter, &FederationPresenter::overviewChanged, this, &FederationPage::updateOverview);
    connect(presenter, &FederationPresenter::pairingCodeChanged, this, &FederationPage::updateCode);
    connect(presenter, &FederationPresenter::actionFinished, this, &FederationPage::showMessage);
    connect(presenter->pending(), &QAbstractItemModel::modelReset, this, &FederationPage::rebuildCards);
    connect(presenter->pending(), &QAbstractItemModel::dataChanged, this, &FederationPage::rebuildCards);
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &FederationPage::updateCode);

    updateOverview();
    updateCode();
    rebuildCards();
}

void FederationPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    m_presenter->setActive(true);
}

void FederationPage::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_presenter->setActive(false);
}

void FederationPage::updateOverview()
{
    const FederationPresenter::Overview &o = m_presenter->overview();
    m_enabled->setChecked(o.enabled);
    m_enabled->setEnabled(o.reachable);
    if (!o.reachable)
        m_status->setText(o.error.isEmpty() ? tr("Asking the broker…") : o.error);
    else if (o.enabled)
        m_status->setText(tr("On: listening on port %1 as %2.").arg(o.port).arg(o.hostname));
    else
        m_status->setText(tr("Off: this broker serves this machine only."));
    if (o.restartNeeded)
        m_status->setText(m_status->text() + QLatin1Char(' ') +
                          tr("The change waits for a broker restart: claude-peers restart"));
    m_hostname->setText(o.hostname);
    m_joinUrl->setText(o.joinUrl);
    m_fingerprint->setText(o.fingerprint);
    m_pairCodeButton->setEnabled(o.enabled);
    m_rotateButton->setEnabled(o.enabled);
    rebuildWarnings();
}

void FederationPage::updateCode()
{
    const auto &code = m_presenter->pairingCode();
    const int left = m_presenter->codeSecondsLeft();
    if (!code || left <= 0) {
        m_tick->stop();
        m_code->setText(code ? tr("%1 (expired)").arg(code->code) : tr("none", "no pairing code"));
        m_countdown->setText(code ? tr("Create a new code to pair another machine.") : QString());
        m_qr->clear();
        m_shownCode.clear();
        return;
    }
    if (!m_tick->isActive())
        m_tick->start();
    m_code->setText(code->code);
    m_countdown->setText(tr("valid for %1:%2 — one use. On the other machine: %3")
                             .arg(left / 60)
                             .arg(left % 60, 2, 10, QLatin1Char('0'))
                             .arg(code->joinCommand()));
    if (m_shownCode != code->code) {
        m_shownCode = code->code;
        if (auto image = qrCodeImage(code->joinCommand(), 4))
            m_qr->setPixmap(QPixmap::fromImage(*image));
        else
            m_qr->setText(image.error());
    }
}

QFrame *FederationPage::cardOf(const QString &id) const
{
    return m_requests->findChild<QFrame *>(QStringLiteral("pendingCard-") + id);
}

QFrame *FederationPage::makeCard(const QString &id)
{
    PendingRequestsModel *model = m_presenter->pending();
    const QModelIndex index = model->index(model->rowOf(id));
    const QString hostname = index.data(PendingRequestsModel::HostnameRole).toString();
    const QString sas = index.data(PendingRequestsModel::SasRole).toString();
    auto *card = new QFrame(m_requests);
    card->setObjectName(QStringLiteral("pendingCard-") + id);
    card->setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(card);
    const bool discovered =
        index.data(PendingRequestsModel::OriginRole).toString() == QLatin1String("discovery");
    auto *title = new QLabel(
        discovered
            ? tr("<b>%1</b> at %2 was found on the network and is not paired.")
                  .arg(hostname.toHtmlEscaped(), index.data(PendingRequestsModel::AddressRole).toString())
            : tr("<b>%1</b> at %2 asks to pair with this machine.")
                  .arg(hostname.toHtmlEscaped(), index.data(PendingRequestsModel::AddressRole).toString()),
        card);
    title->setWordWrap(true);
    layout->addWidget(title);
    auto *fingerprint = new QLabel(
        tr("Its certificate: %1").arg(index.data(PendingRequestsModel::FingerprintRole).toString()), card);
    fingerprint->setTextInteractionFlags(Qt::TextSelectableByMouse);
    fingerprint->setWordWrap(true);
    layout->addWidget(fingerprint);
    auto *sasLabel = new QLabel(card);
    sasLabel->setObjectName(QStringLiteral("sasLabel"));
    QFont big = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    big.setPointSizeF(big.pointSizeF() * 2);
    big.setBold(true);
    sasLabel->setFont(big);
    sasLabel->setText(sas);
    sasLabel->setVisible(!sas.isEmpty());
    layout->addWidget(sasLabel);
    auto *buttons = new QHBoxLayout;
    const auto button = [&](const QString &text, const QString &name, auto slot) {
        auto *b = new QPushButton(text, card);
        b->setObjectName(name);
        connect(b, &QPushButton::clicked, m_presenter,
                [presenter = m_presenter, id, slot] { (presenter->*slot)(id); });
        buttons->addWidget(b);
        return b;
    };
    if (index.data(PendingRequestsModel::ConfirmingRole).toBool()) {
        auto *question = new QLabel(
            sas.isEmpty()
                ? tr("Accept %1? Only if you started this pairing yourself.").arg(hostname.toHtmlEscaped())
                : tr("Does %1 show the same code, %2? Accept only if the two codes match; if they "
                     "differ, someone may sit between the machines.")
                      .arg(hostname.toHtmlEscaped(), sas),
            card);
        question->setWordWrap(true);
        layout->addWidget(question);
        button(sas.isEmpty() ? tr("Accept") : tr("The codes match — accept"),
               QStringLiteral("codesMatchButton"), &FederationPresenter::confirmAccept);
        if (!sas.isEmpty())
            button(tr("They differ — reject"), QStringLiteral("codesDifferButton"),
                   &FederationPresenter::codesDiffer);
        button(tr("Back"), QStringLiteral("backButton"), &FederationPresenter::cancelAccept);
    } else {
        button(tr("Accept…"), QStringLiteral("acceptButton"), &FederationPresenter::beginAccept);
        button(tr("Ignore"), QStringLiteral("ignoreButton"), &FederationPresenter::ignore)
            ->setToolTip(tr("Reject it: the other machine is told no"));
        button(tr("Dismiss"), QStringLiteral("dismissButton"), &FederationPresenter::dismiss)
            ->setToolTip(tr("Hide this card; the request stays open (claude-peers federation pending)"));
    }
    buttons->addStretch(1);
    layout->addLayout(buttons);
    return card;
}

void FederationPage::rebuildCards()
{
    clearLayout(m_requestsLayout);
    const QStringList ids = m_presenter->pending()->visiblePendingIds();
    for (const QString &id : ids)
        m_requestsLayout->addWidget(makeCard(id));
    // Decided requests, kept a while by the broker: one line each.
    PendingRequestsModel *model = m_presenter->pending();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row);
        const QString state = index.data(PendingRequestsModel::StateRole).toString();
        if (state == QLatin1String("pending"))
            continue;
        auto *line = new QLabel(state == QLatin1String("accepted")
                                    ? tr("%1 (%2): accepted")
                                          .arg(index.data(PendingRequestsModel::HostnameRole).toString(),
                                               index.data(PendingRequestsModel::AddressRole).toString())
                                    : tr("%1 (%2): rejected")
                                          .arg(index.data(PendingRequestsModel::HostnameRole).toString(),
                                               index.data(PendingRequestsModel::AddressRole).toString()),
                                m_requests);
        m_requestsLayout->addWidget(line);
    }
    if (m_requestsLayout->count() == 0)
        m_requestsLayout->addWidget(
            new QLabel(tr("No pairing requests. Create a code above, then run the join "
                          "command on the other machine."),
                       m_requests));
}

void FederationPage::rebuildWarnings()
{
    clearLayout(m_warningsLayout);
    const QStringList warnings = m_presenter->overview().warnings;
    for (const QString &warning : warnings) {
        auto *row = new QFrame(m_warnings);
        row->setObjectName(QStringLiteral("warningRow"));
        auto *rowLayout = new QVBoxLayout(row);
        auto *text = new QLabel(warning, row);
        text->setWordWrap(true);
        rowLayout->addWidget(text);
        auto *fix = new QHBoxLayout;
        const QString command = FederationPresenter::fixCommand(warning);
        auto *commandLine = readOnlyLine(row, QStringLiteral("fixCommand"));
        commandLine->setText(command);
        fix->addWidget(new QLabel(tr("Fix:"), row));
        fix->addWidget(commandLine, 1);
        fix->addWidget(copyButton(row, [command] { return command; }));
        if (command == QLatin1String("claude-peers federation rotate-psk")) {
            auto *now = new QPushButton(tr("Rotate now…"), row);
            now->setObjectName(QStringLiteral("rotateNowButton"));
            connect(now, &QPushButton::clicked, m_rotateButton, &QPushButton::click);
            fix->addWidget(now);
        }
        rowLayout->addLayout(fix);
        m_warningsLayout->addWidget(row);
    }
    if (warnings.isEmpty())
        m_warningsLayout->addWidget(new QLabel(tr("None."), m_warnings));
}

void FederationPage::askToConfirm(const QString &question, const QString &yes, std::function<void()> action)
{
    m_confirmText->setText(question);
    m_confirmYes->setText(yes);
    m_confirmAction = std::move(action);
    m_confirmBar->show();
    m_confirmNo->setFocus();
}

void FederationPage::showMessage(const QString &, bool ok, const QString &message)
{
    m_message->setText(ok ? message : tr("Failed: %1").arg(message));
}

void FederationPage::showPendingRequest(const QString &id)
{
    PendingRequestsModel *model = m_presenter->pending();
    if (model->rowOf(id) < 0) {
        m_presenter->refresh(); // a notification may be quicker than our last refresh
        return;
    }
    model->restore(id); // asked for explicitly: a dismissed card comes back
    if (QFrame *card = cardOf(id)) {
        m_scroll->ensureWidgetVisible(card);
        if (auto *accept = card->findChild<QPushButton *>(QStringLiteral("acceptButton")))
            accept->setFocus();
    }
}

} // namespace App
