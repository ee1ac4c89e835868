<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="uk_UA" sourcelanguage="en">
<context>
    <name>App::AttentionText</name>
    <message>
        <source>needs you</source>
        <extracomment>a session&apos;s state: it waits for the user (a permission, a question)</extracomment>
        <translation>чекає на вас</translation>
    </message>
    <message>
        <source>busy</source>
        <extracomment>a session&apos;s state: it is working on a prompt</extracomment>
        <translation>працює</translation>
    </message>
    <message>
        <source>idle</source>
        <extracomment>a session&apos;s state: it waits for the next prompt</extracomment>
        <translation>простоює</translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <extracomment>time in a state, abbreviated: seconds</extracomment>
        <translation>
            <numerusform>%n с</numerusform>
            <numerusform>%n с</numerusform>
            <numerusform>%n с</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n min</source>
        <extracomment>time in a state, abbreviated: minutes</extracomment>
        <translation>
            <numerusform>%n хв</numerusform>
            <numerusform>%n хв</numerusform>
            <numerusform>%n хв</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h</source>
        <extracomment>time in a state, abbreviated: hours</extracomment>
        <translation>
            <numerusform>%n год</numerusform>
            <numerusform>%n год</numerusform>
            <numerusform>%n год</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <extracomment>time in a state, abbreviated: hours and minutes</extracomment>
        <translation>%1 год %2 хв</translation>
    </message>
    <message numerus="yes">
        <source>%n d</source>
        <extracomment>time in a state, abbreviated: days</extracomment>
        <translation>
            <numerusform>%n дн.</numerusform>
            <numerusform>%n дн.</numerusform>
            <numerusform>%n дн.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <extracomment>a tray menu entry: session name — state · time in state</extracomment>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1 — %2 · %3</source>
        <translation>%1 — %2 · %3</translation>
    </message>
</context>
<context>
    <name>App::MainWindow</name>
    <message>
        <source>claude-peers</source>
        <translation>claude-peers</translation>
    </message>
</context>
<context>
    <name>App::NotificationsPage</name>
    <message>
        <source>notifications off</source>
        <translation>сповіщення вимкнено</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>призупинено</translation>
    </message>
    <message>
        <source>this kind is off</source>
        <translation>цей тип вимкнено</translation>
    </message>
    <message>
        <source>peer muted</source>
        <translation>пір заглушено</translation>
    </message>
    <message>
        <source>not waiting for you</source>
        <translation>не чекає на вас</translation>
    </message>
    <message>
        <source>quiet hours</source>
        <translation>тихі години</translation>
    </message>
    <message>
        <source>(not shown: %1)</source>
        <translation>(не показано: %1)</translation>
    </message>
    <message>
        <source>Mute peer</source>
        <translation>Заглушити піра</translation>
    </message>
    <message>
        <source>Mark all read</source>
        <translation>Позначити всі прочитаними</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Очистити</translation>
    </message>
    <message>
        <source>Notifications are off: they are only listed here.</source>
        <translation>Сповіщення вимкнено: їх лише перелічено тут.</translation>
    </message>
    <message>
        <source>Notifications are paused until you resume them: they are only listed here.</source>
        <translation>Сповіщення призупинено, доки ви їх не відновите: їх лише перелічено тут.</translation>
    </message>
    <message>
        <source>Notifications are paused until %1: they are only listed here.</source>
        <translation>Сповіщення призупинено до %1: їх лише перелічено тут.</translation>
    </message>
    <message>
        <source>Quiet hours: %1.</source>
        <translation>Тихі години: %1.</translation>
    </message>
    <message>
        <source>Only what waits for you pops up.</source>
        <translation>Спливає лише те, що чекає на вас.</translation>
    </message>
    <message>
        <source>Muted peers: %1.</source>
        <translation>Заглушені піри: %1.</translation>
    </message>
</context>
<context>
    <name>App::Notifier</name>
    <message>
        <source>Open</source>
        <translation>Відкрити</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>Відповісти</translation>
    </message>
    <message>
        <source>Reply…</source>
        <translation>Відповісти…</translation>
    </message>
    <message>
        <source>Mute peer</source>
        <translation>Заглушити піра</translation>
    </message>
    <message>
        <source>Reply to %1</source>
        <translation>Відповідь для %1</translation>
    </message>
</context>
<context>
    <name>App::PeersModel</name>
    <message>
        <source>this machine</source>
        <translation>цей комп’ютер</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <extracomment>a session&apos;s state · time in that state</extracomment>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>working</source>
        <comment>push channel</comment>
        <translation>працює</translation>
    </message>
    <message>
        <source>unverified</source>
        <comment>push channel</comment>
        <translation>не перевірено</translation>
    </message>
    <message>
        <source>unknown</source>
        <comment>push channel</comment>
        <translation>невідомо</translation>
    </message>
    <message>
        <source>Peer %1
pid %2, tty %3, version %4
client %5
registered %6</source>
        <translation>Пір %1
PID %2, TTY %3, версія %4
клієнт %5
зареєстровано %6</translation>
    </message>
    <message>
        <source>none</source>
        <comment>tty</comment>
        <translation>немає</translation>
    </message>
    <message>
        <source>unknown</source>
        <comment>version</comment>
        <translation>невідома</translation>
    </message>
    <message>
        <source>not said</source>
        <comment>client</comment>
        <translation>не вказано</translation>
    </message>
    <message>
        <source>%1
git root: %2</source>
        <translation>%1
корінь git: %2</translation>
    </message>
    <message>
        <source>since %1</source>
        <translation>з %1</translation>
    </message>
    <message>
        <source>%1
since %2</source>
        <translation>%1
з %2</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Назва</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>Комп’ютер</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Стан</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Directory</source>
        <translation>Каталог</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Опис</translation>
    </message>
    <message>
        <source>Push</source>
        <extracomment>column: whether the broker can push messages into the session</extracomment>
        <translation>Push</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>Остання активність</translation>
    </message>
</context>
<context>
    <name>App::PeersWindow</name>
    <message>
        <source>Retry broker start</source>
        <translation>Повторити запуск брокера</translation>
    </message>
    <message>
        <source>Filter by name, ID, directory or summary</source>
        <translation>Фільтр за назвою, ID, каталогом або описом</translation>
    </message>
</context>
<context>
    <name>App::TrayComposition</name>
    <message>
        <source>Peers</source>
        <translation>Піри</translation>
    </message>
    <message>
        <source>Start at login</source>
        <translation>Запускати під час входу</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>Сповіщення</translation>
    </message>
    <message>
        <source>Pause notifications</source>
        <translation>Призупинити сповіщення</translation>
    </message>
    <message>
        <source>Resume notifications</source>
        <translation>Відновити сповіщення</translation>
    </message>
    <message>
        <source>Reply to %1 not sent</source>
        <translation>Відповідь для %1 не надіслано</translation>
    </message>
</context>
<context>
    <name>App::TrayIcon</name>
    <message>
        <source>Peers…</source>
        <translation>Піри…</translation>
    </message>
    <message>
        <source>Retry broker start</source>
        <translation>Повторити запуск брокера</translation>
    </message>
    <message>
        <source>Start at login</source>
        <translation>Запускати під час входу</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Вийти</translation>
    </message>
    <message>
        <source>Pause notifications</source>
        <translation>Призупинити сповіщення</translation>
    </message>
    <message>
        <source>For 1 hour</source>
        <translation>На 1 годину</translation>
    </message>
    <message>
        <source>For 8 hours</source>
        <translation>На 8 годин</translation>
    </message>
    <message>
        <source>Until I turn them back on</source>
        <translation>Доки я їх знову не ввімкну</translation>
    </message>
    <message>
        <source>Resume notifications</source>
        <translation>Відновити сповіщення</translation>
    </message>
    <message>
        <source>Notifications paused</source>
        <translation>Сповіщення призупинено</translation>
    </message>
    <message>
        <source>Notifications paused until %1</source>
        <translation>Сповіщення призупинено до %1</translation>
    </message>
</context>
<context>
    <name>App::TrayPresenter</name>
    <message>
        <source>claude-peers: broker not running</source>
        <translation>claude-peers: брокер не працює</translation>
    </message>
    <message>
        <source>Broker running on port %1 — %2, %3</source>
        <extracomment>%2 is &quot;%n peer(s)&quot;, %3 is &quot;%n pending&quot; (messages not yet delivered)</extracomment>
        <translation>Брокер працює на порту %1 — %2, %3</translation>
    </message>
    <message numerus="yes">
        <source>%n peer(s)</source>
        <translation>
            <numerusform>%n пір</numerusform>
            <numerusform>%n піри</numerusform>
            <numerusform>%n пірів</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pending</source>
        <extracomment>messages waiting for delivery</extracomment>
        <translation>
            <numerusform>%n очікує</numerusform>
            <numerusform>%n очікують</numerusform>
            <numerusform>%n очікують</numerusform>
        </translation>
    </message>
    <message>
        <source>Starting the broker on port %1…</source>
        <translation>Запуск брокера на порту %1…</translation>
    </message>
    <message>
        <source>Taking port %1 over from the running broker…</source>
        <translation>Переймаємо порт %1 від запущеного брокера…</translation>
    </message>
    <message>
        <source>Broker not running: %1</source>
        <translation>Брокер не працює: %1</translation>
    </message>
    <message>
        <source>Broker not running: stopped</source>
        <translation>Брокер не працює: зупинено</translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) need(s) you: %1</source>
        <extracomment>%1 lists the sessions&apos; names</extracomment>
        <translation>
            <numerusform>%n сеанс чекає на вас: %1</numerusform>
            <numerusform>%n сеанси чекають на вас: %1</numerusform>
            <numerusform>%n сеансів чекають на вас: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 busy, %2 idle</source>
        <extracomment>numbers of sessions working and waiting for a prompt</extracomment>
        <translation>працюють: %1, простоюють: %2</translation>
    </message>
    <message>
        <source>claude-peers: federation</source>
        <translation>claude-peers: федерація</translation>
    </message>
    <message>
        <source>%1 needs you</source>
        <translation>%1 чекає на вас</translation>
    </message>
    <message>
        <source>%1 joined</source>
        <translation>%1 приєднався</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>%1 вийшов</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Tray app of claude-peers: hosts the local broker and shows its peers.
Environment: CLAUDE_PEERS_PORT, CLAUDE_PEERS_DB, CLAUDE_PEERS_TOKEN.</source>
        <translation>Програма claude-peers у системному лотку: запускає локальний брокер і показує його пірів.
Змінні середовища: CLAUDE_PEERS_PORT, CLAUDE_PEERS_DB, CLAUDE_PEERS_TOKEN.</translation>
    </message>
</context>
</TS>
