<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="uk_UA" sourcelanguage="en">
<context>
    <name>App::ActivityNotifications</name>
    <message>
        <source>OpenCode %1</source>
        <translation>OpenCode %1</translation>
    </message>
    <message>
        <source>%1 stopped with an error</source>
        <translation>%1 зупинився з помилкою</translation>
    </message>
    <message>
        <source>%1 finished</source>
        <translation>%1 завершив роботу</translation>
    </message>
    <message>
        <source>Its turn in %1 is over.</source>
        <extracomment>%1 is the session&apos;s folder</extracomment>
        <translation>Його хід у %1 завершено.</translation>
    </message>
    <message>
        <source>A broker asks to pair with this machine</source>
        <translation>Брокер просить з’єднатися з цим комп’ютером</translation>
    </message>
    <message>
        <source>%1 asks to pair with this machine</source>
        <translation>%1 просить з’єднатися з цим комп’ютером</translation>
    </message>
    <message>
        <source>Compare the codes on the Federation page before you accept.</source>
        <translation>Перш ніж прийняти, порівняйте коди на сторінці «Федерація».</translation>
    </message>
    <message>
        <source>From %1. Compare the codes on the Federation page before you accept.</source>
        <translation>Від %1. Перш ніж прийняти, порівняйте коди на сторінці «Федерація».</translation>
    </message>
    <message>
        <source>Scheduled run of %1 failed</source>
        <translation>Запланований запуск %1 не вдався</translation>
    </message>
    <message>
        <source>See the Schedules page for its error.</source>
        <translation>Помилку показано на сторінці «Розклади».</translation>
    </message>
</context>
<context>
    <name>App::AttemptsModel</name>
    <message>
        <source>refused</source>
        <translation>відмовлено</translation>
    </message>
    <message>
        <source>pairing accepted</source>
        <translation>з’єднання прийнято</translation>
    </message>
    <message>
        <source>pairing rejected</source>
        <translation>з’єднання відхилено</translation>
    </message>
    <message>
        <source>revoked</source>
        <translation>відкликано</translation>
    </message>
    <message>
        <source>federation key rotated</source>
        <translation>ключ федерації замінено</translation>
    </message>
    <message>
        <source>%1 answered %2 on %3</source>
        <translation>%1 відповів %2 на %3</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Час</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Що</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Адреса</translation>
    </message>
    <message>
        <source>Machine (as it said)</source>
        <translation>Комп’ютер (за його словами)</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Відбиток</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Причина</translation>
    </message>
    <message>
        <source>Times</source>
        <translation>Разів</translation>
    </message>
    <message>
        <source>joined with a join URL</source>
        <translation>приєднано за URL-адресою приєднання</translation>
    </message>
    <message>
        <source>no longer ignored</source>
        <translation>більше не ігнорується</translation>
    </message>
</context>
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
    <message>
        <source>%1 · %2</source>
        <extracomment>a session&apos;s state · time in that state</extracomment>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>App::ControlCalls</name>
    <message>
        <source>No broker client: the control service cannot be reached.</source>
        <translation>Немає клієнта брокера: служба керування недосяжна.</translation>
    </message>
    <message>
        <source>The forked session %1 remains available in %2.</source>
        <translation>Відгалужений сеанс %1 залишається доступним у %2.</translation>
    </message>
    <message>
        <source>Session %1 in %2 was left as it is.</source>
        <translation>Сеанс %1 у %2 залишено як є.</translation>
    </message>
</context>
<context>
    <name>App::FederationPage</name>
    <message>
        <source>Copy</source>
        <translation>Копіювати</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>Цей комп’ютер</translation>
    </message>
    <message>
        <source>Federation on (brokers on other machines can pair and relay)</source>
        <translation>Федерацію ввімкнено (брокери на інших комп’ютерах можуть з’єднуватися й пересилати)</translation>
    </message>
    <message>
        <source>Name on the network:</source>
        <translation>Назва в мережі:</translation>
    </message>
    <message>
        <source>It contains the federation key: give it only to your own machines.</source>
        <translation>Вона містить ключ федерації: передавайте її лише власним комп’ютерам.</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Показати</translation>
    </message>
    <message>
        <source>Join URL:</source>
        <translation>URL приєднання:</translation>
    </message>
    <message>
        <source>Certificate fingerprint:</source>
        <translation>Відбиток сертифіката:</translation>
    </message>
    <message>
        <source>Create a one-time pairing code</source>
        <translation>Створити одноразовий код з’єднання</translation>
    </message>
    <message>
        <source>Pairing code:</source>
        <translation>Код з’єднання:</translation>
    </message>
    <message>
        <source>The command the other machine runs, with this one-time code</source>
        <translation>Команда, яку виконує інший комп’ютер, з цим одноразовим кодом</translation>
    </message>
    <message>
        <source>Pairing requests</source>
        <translation>Запити на з’єднання</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>Попередження</translation>
    </message>
    <message>
        <source>Paired machines</source>
        <translation>З’єднані комп’ютери</translation>
    </message>
    <message>
        <source>Revoke…</source>
        <translation>Відкликати…</translation>
    </message>
    <message>
        <source>Rotate the federation key…</source>
        <translation>Замінити ключ федерації…</translation>
    </message>
    <message>
        <source>Refused connection attempts and pairing decisions</source>
        <translation>Відхилені спроби з’єднання та рішення щодо з’єднань</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Скасувати</translation>
    </message>
    <message>
        <source>Revoke %1? It is disconnected, its pin and address are removed, and this machine refuses it until you pair it again.</source>
        <translation>Відкликати %1? Його буде від’єднано, закріплення й адресу вилучено, і цей комп’ютер відмовлятиме йому, доки ви не з’єднаєте його знову.</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Відкликати</translation>
    </message>
    <message>
        <source>Make a new federation key? Every paired machine loses its link until it gets the new key (pair it again, or join with the new URL).</source>
        <translation>Створити новий ключ федерації? Кожен з’єднаний комп’ютер втратить зв’язок, доки не отримає новий ключ (з’єднайте його знову або приєднайтеся за новим URL).</translation>
    </message>
    <message>
        <source>Rotate the key</source>
        <translation>Замінити ключ</translation>
    </message>
    <message>
        <source>Asking the broker…</source>
        <translation>Запит до брокера…</translation>
    </message>
    <message>
        <source>On: listening on port %1 as %2.</source>
        <translation>Увімкнено: слухає порт %1 як %2.</translation>
    </message>
    <message>
        <source>Off: this broker serves this machine only.</source>
        <translation>Вимкнено: цей брокер обслуговує лише цей комп’ютер.</translation>
    </message>
    <message>
        <source>The change waits for a broker restart: claude-peers restart</source>
        <translation>Зміна набуде чинності після перезапуску брокера: claude-peers restart</translation>
    </message>
    <message>
        <source>%1 (expired)</source>
        <translation>%1 (прострочено)</translation>
    </message>
    <message>
        <source>Create a new code to pair another machine.</source>
        <translation>Створіть новий код, щоб з’єднати ще один комп’ютер.</translation>
    </message>
    <message>
        <source>valid for %1:%2 — one use. On the other machine: %3</source>
        <translation>дійсний %1:%2 — одноразово. На іншому комп’ютері: %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; at %2 was found on the network and is not paired.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; за адресою %2 знайдено в мережі, але не з’єднано.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; at %2 asks to pair with this machine.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; за адресою %2 просить з’єднатися з цим комп’ютером.</translation>
    </message>
    <message>
        <source>Its certificate: %1</source>
        <translation>Його сертифікат: %1</translation>
    </message>
    <message>
        <source>Accept %1? Only if you started this pairing yourself.</source>
        <translation>Прийняти %1? Лише якщо ви самі почали це з’єднання.</translation>
    </message>
    <message>
        <source>Does %1 show the same code, %2? Accept only if the two codes match; if they differ, someone may sit between the machines.</source>
        <translation>Чи показує %1 той самий код, %2? Приймайте, лише якщо коди збігаються; якщо вони різні, хтось може бути між комп’ютерами.</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>Прийняти</translation>
    </message>
    <message>
        <source>The codes match — accept</source>
        <translation>Коди збігаються — прийняти</translation>
    </message>
    <message>
        <source>They differ — reject</source>
        <translation>Вони різні — відхилити</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Назад</translation>
    </message>
    <message>
        <source>Accept…</source>
        <translation>Прийняти…</translation>
    </message>
    <message>
        <source>Ignore</source>
        <translation>Ігнорувати</translation>
    </message>
    <message>
        <source>Reject it: the other machine is told no</source>
        <translation>Відхилити: інший комп’ютер отримає відмову</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Приховати</translation>
    </message>
    <message>
        <source>Hide this card; the request stays open (claude-peers federation pending)</source>
        <translation>Приховати цю картку; запит лишається відкритим (claude-peers federation pending)</translation>
    </message>
    <message>
        <source>%1 (%2): accepted</source>
        <translation>%1 (%2): прийнято</translation>
    </message>
    <message>
        <source>%1 (%2): rejected</source>
        <translation>%1 (%2): відхилено</translation>
    </message>
    <message>
        <source>No pairing requests. Create a code above, then run the join command on the other machine.</source>
        <translation>Запитів на з’єднання немає. Створіть код вище, а потім виконайте команду приєднання на іншому комп’ютері.</translation>
    </message>
    <message>
        <source>Fix:</source>
        <translation>Виправлення:</translation>
    </message>
    <message>
        <source>Rotate now…</source>
        <translation>Замінити зараз…</translation>
    </message>
    <message>
        <source>None.</source>
        <translation>Немає.</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Помилка: %1</translation>
    </message>
    <message>
        <source>none</source>
        <comment>no pairing code</comment>
        <translation>немає</translation>
    </message>
    <message>
        <source>Ignored machines</source>
        <translation>Ігноровані комп’ютери</translation>
    </message>
    <message>
        <source>Stop ignoring</source>
        <translation>Не ігнорувати</translation>
    </message>
</context>
<context>
    <name>App::FederationPresenter</name>
    <message>
        <source>Saved in the config, but the broker did not re-read it (%1). Restart it: claude-peers restart</source>
        <translation>Збережено в конфігурації, але брокер її не перечитав (%1). Перезапустіть його: claude-peers restart</translation>
    </message>
    <message>
        <source>Federation is on: the federation port is open.</source>
        <translation>Федерацію ввімкнено: порт федерації відкрито.</translation>
    </message>
    <message>
        <source>Federation is off: its port is closed; remotes and pins are kept.</source>
        <translation>Федерацію вимкнено: її порт закрито; віддалені брокери й закріплення збережено.</translation>
    </message>
    <message>
        <source>Pairing code %1: on the other machine run %2</source>
        <translation>Код з’єднання %1: на іншому комп’ютері виконайте %2</translation>
    </message>
    <message>
        <source>Compare the codes first</source>
        <translation>Спершу порівняйте коди</translation>
    </message>
    <message>
        <source>Accepted %1: its certificate is pinned; it receives the federation key and connects.</source>
        <translation>%1 прийнято: його сертифікат закріплено; він отримує ключ федерації та з’єднується.</translation>
    </message>
    <message>
        <source>Rejected the pairing request of %1; nothing was shared.</source>
        <translation>Запит на з’єднання від %1 відхилено; нічого не передано.</translation>
    </message>
    <message>
        <source>Revoked %1 (%2:%3): disconnected, its pin removed; it is refused until paired again. It still knows the federation key: rotate the key if it may misuse it.</source>
        <translation>%1 (%2:%3) відкликано: від’єднано, закріплення вилучено; йому відмовлятимуть, доки його не з’єднають знову. Він досі знає ключ федерації: замініть ключ, якщо він може ним зловжити.</translation>
    </message>
    <message>
        <source>New federation key, kept in %1. Paired machines need it: pair them again (a new code) or give them the new join URL.</source>
        <translation>Новий ключ федерації збережено в %1. Він потрібен з’єднаним комп’ютерам: з’єднайте їх знову (новий код) або дайте їм новий URL приєднання.</translation>
    </message>
    <message>
        <source>Saved in the config, but the broker keeps federation on: CLAUDE_PEERS_FEDERATION_ENABLED in its environment wins over the config. Change it there, then run: claude-peers restart</source>
        <translation>Збережено в конфігурації, але брокер залишає федерацію ввімкненою: CLAUDE_PEERS_FEDERATION_ENABLED у його середовищі має перевагу над конфігурацією. Змініть її там, а потім виконайте: claude-peers restart</translation>
    </message>
    <message>
        <source>Saved in the config, but the broker keeps federation off: CLAUDE_PEERS_FEDERATION_ENABLED in its environment wins over the config. Change it there, then run: claude-peers restart</source>
        <translation>Збережено в конфігурації, але брокер залишає федерацію вимкненою: CLAUDE_PEERS_FEDERATION_ENABLED у його середовищі має перевагу над конфігурацією. Змініть її там, а потім виконайте: claude-peers restart</translation>
    </message>
    <message>
        <source>No longer ignored: when this machine is found on the network again, it is offered for pairing.</source>
        <translation>Більше не ігнорується: коли цей комп’ютер знову знайдеться в мережі, його буде запропоновано для з’єднання.</translation>
    </message>
</context>
<context>
    <name>App::FirstRunWizard</name>
    <message>
        <source>Copy</source>
        <translation>Копіювати</translation>
    </message>
    <message>
        <source>Welcome to claude-peers</source>
        <translation>Ласкаво просимо до claude-peers</translation>
    </message>
    <message>
        <source>Where your secrets live</source>
        <translation>Де зберігаються ваші секрети</translation>
    </message>
    <message>
        <source>The broker&apos;s token lets sessions on this machine talk to it. It belongs in the OS keychain; where none answers, a file only you can read holds it.</source>
        <translation>Токен брокера дає змогу сеансам на цьому комп’ютері спілкуватися з ним. Його місце — у сховищі ключів системи; якщо жодне не відповідає, його зберігає файл, який можете читати лише ви.</translation>
    </message>
    <message>
        <source>Asking the broker…</source>
        <translation>Запит до брокера…</translation>
    </message>
    <message>
        <source>Ask the keychain again</source>
        <translation>Знову звернутися до сховища ключів</translation>
    </message>
    <message>
        <source>The broker moves the token into the keychain as soon as one answers (for example after you unlocked it); this has it re-read its secrets now.</source>
        <translation>Брокер переносить токен у сховище ключів, щойно воно відповість (наприклад, після того як ви його розблокували); ця кнопка змушує його перечитати секрети зараз.</translation>
    </message>
    <message>
        <source>Start at login</source>
        <translation>Запускати під час входу</translation>
    </message>
    <message>
        <source>The tray hosts the broker. Started at login, it is there before your first session asks for it. (Also in Settings, and `claude-peers autostart`.)</source>
        <translation>Програма в лотку запускає брокер. Якщо вона стартує під час входу, брокер уже працює, коли ваш перший сеанс до нього звернеться. (Також у налаштуваннях і через `claude-peers autostart`.)</translation>
    </message>
    <message>
        <source>Start claude-peers at login</source>
        <translation>Запускати claude-peers під час входу</translation>
    </message>
    <message>
        <source>Start claude-peers at login (it does already)</source>
        <translation>Запускати claude-peers під час входу (уже запускається)</translation>
    </message>
    <message>
        <source>Connect your sessions</source>
        <translation>Під’єднайте свої сеанси</translation>
    </message>
    <message>
        <source>Run the first line once in a terminal; add the others to the files they name. New sessions then find each other. (All three are in Settings too.)</source>
        <translation>Виконайте перший рядок один раз у терміналі; решту додайте до названих файлів. Після цього нові сеанси знаходитимуть одне одного. (Усі три є й у налаштуваннях.)</translation>
    </message>
    <message>
        <source>Claude Code: register the MCP helper</source>
        <translation>Claude Code: зареєструйте помічника MCP</translation>
    </message>
    <message>
        <source>Claude Code hooks (needs-you / busy / idle): merge into ~/.claude/settings.json</source>
        <translation>Хуки Claude Code (чекає на вас / працює / простоює): додайте до ~/.claude/settings.json</translation>
    </message>
    <message>
        <source>OpenCode: add to opencode.json</source>
        <translation>OpenCode: додайте до opencode.json</translation>
    </message>
    <message>
        <source>Other machines (optional)</source>
        <translation>Інші комп’ютери (необов’язково)</translation>
    </message>
    <message>
        <source>Brokers on other machines of your network can link, so sessions there appear here too. Each link is confirmed on both machines with a short code.</source>
        <translation>Брокери на інших комп’ютерах вашої мережі можуть з’єднуватися, тож тамтешні сеанси теж з’являться тут. Кожне з’єднання підтверджується на обох комп’ютерах коротким кодом.</translation>
    </message>
    <message>
        <source>Open the Federation page to link a machine</source>
        <translation>Відкрити сторінку «Федерація», щоб з’єднати комп’ютер</translation>
    </message>
    <message>
        <source>No broker to ask.</source>
        <translation>Немає брокера, до якого звернутися.</translation>
    </message>
</context>
<context>
    <name>App::IgnoredMachinesModel</name>
    <message>
        <source>Machine</source>
        <translation>Комп’ютер</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Адреса</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Відбиток</translation>
    </message>
    <message>
        <source>Ignored since</source>
        <translation>Ігнорується з</translation>
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
    <name>App::MessageLogModel</name>
    <message>
        <source>⚠ bounced</source>
        <translation>⚠ повернуто</translation>
    </message>
    <message>
        <source>⚠ not delivered</source>
        <translation>⚠ не доставлено</translation>
    </message>
    <message>
        <source>channel</source>
        <extracomment>after the delivery ticks: the session saw the message as a channel push</extracomment>
        <translation>канал</translation>
    </message>
    <message>
        <source>banner</source>
        <extracomment>after the delivery ticks: the session saw the message in a tool result (banner)</extracomment>
        <translation>банер</translation>
    </message>
    <message>
        <source>✓ stored by the broker</source>
        <translation>✓ збережено брокером</translation>
    </message>
    <message>
        <source>✓ pushed to the recipient&apos;s stream</source>
        <translation>✓ надіслано в потік одержувача</translation>
    </message>
    <message>
        <source>✓ fetched by the recipient&apos;s poll</source>
        <translation>✓ отримано опитуванням одержувача</translation>
    </message>
    <message>
        <source>✓ handed to the recipient</source>
        <translation>✓ передано одержувачу</translation>
    </message>
    <message>
        <source>waiting for the recipient</source>
        <translation>очікує на одержувача</translation>
    </message>
    <message>
        <source>✓ acknowledged: the recipient&apos;s session saw it</source>
        <translation>✓ підтверджено: сеанс одержувача його побачив</translation>
    </message>
    <message>
        <source>shown as a channel push</source>
        <translation>показано як push у каналі</translation>
    </message>
    <message>
        <source>shown in a tool result (banner or check_messages)</source>
        <translation>показано в результаті інструмента (банер або check_messages)</translation>
    </message>
    <message>
        <source>⚠ bounced: the recipient disconnected before reading it</source>
        <translation>⚠ повернуто: одержувач від’єднався, не прочитавши його</translation>
    </message>
    <message>
        <source>⚠ not delivered: gone from the log unread</source>
        <translation>⚠ не доставлено: зникло з журналу непрочитаним</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Час</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Від</translation>
    </message>
    <message>
        <source>To</source>
        <translation>Кому</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Повідомлення</translation>
    </message>
    <message>
        <source>Delivery</source>
        <translation>Доставка</translation>
    </message>
    <message>
        <source>re #%1: %2</source>
        <extracomment>a reply: the id of the message it answers, then its text</extracomment>
        <translation>відповідь на #%1: %2</translation>
    </message>
</context>
<context>
    <name>App::MessageThreadsModel</name>
    <message numerus="yes">
        <source>All messages (%n)</source>
        <translation>
            <numerusform>Усі повідомлення (%n)</numerusform>
            <numerusform>Усі повідомлення (%n)</numerusform>
            <numerusform>Усі повідомлення (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n message(s)</source>
        <translation>
            <numerusform>%1 — %n повідомлення</numerusform>
            <numerusform>%1 — %n повідомлення</numerusform>
            <numerusform>%1 — %n повідомлень</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::MessagesPage</name>
    <message>
        <source>Older messages</source>
        <translation>Старіші повідомлення</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Надіслати</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>Відповісти</translation>
    </message>
    <message>
        <source>Search messages</source>
        <translation>Пошук у повідомленнях</translation>
    </message>
    <message>
        <source>Write a message as the operator</source>
        <translation>Напишіть повідомлення як оператор</translation>
    </message>
    <message>
        <source>To:</source>
        <translation>Кому:</translation>
    </message>
    <message numerus="yes">
        <source>%n older message(s) loaded.</source>
        <translation>
            <numerusform>Завантажено %n старіше повідомлення.</numerusform>
            <numerusform>Завантажено %n старіші повідомлення.</numerusform>
            <numerusform>Завантажено %n старіших повідомлень.</numerusform>
        </translation>
    </message>
    <message>
        <source>Sending is off: no operator peer.</source>
        <translation>Надсилання вимкнено: немає піра-оператора.</translation>
    </message>
    <message>
        <source>You write as the peer &quot;%1&quot; (%2).</source>
        <translation>Ви пишете як пір «%1» (%2).</translation>
    </message>
    <message>
        <source>Connecting the operator to the broker…</source>
        <translation>Під’єднання оператора до брокера…</translation>
    </message>
    <message>
        <source>Any peer</source>
        <translation>Будь-який пір</translation>
    </message>
    <message>
        <source>Any scope</source>
        <translation>Будь-яка область</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>Цей комп’ютер</translation>
    </message>
    <message>
        <source>Directory %1</source>
        <translation>Каталог %1</translation>
    </message>
    <message>
        <source>Repository %1</source>
        <translation>Репозиторій %1</translation>
    </message>
    <message>
        <source>Everyone on this machine</source>
        <translation>Усі на цьому комп’ютері</translation>
    </message>
    <message>
        <source>Everyone in %1</source>
        <translation>Усі в %1</translation>
    </message>
    <message>
        <source>Everyone in the repository %1</source>
        <translation>Усі в репозиторії %1</translation>
    </message>
    <message>
        <source>Everyone (broadcast, all machines)</source>
        <translation>Усі (розсилка на всі комп’ютери)</translation>
    </message>
    <message>
        <source>Relayed to %1.</source>
        <translation>Переслано до %1.</translation>
    </message>
    <message>
        <source>Sent as message #%1.</source>
        <translation>Надіслано як повідомлення #%1.</translation>
    </message>
    <message numerus="yes">
        <source>Broadcast to %n peer(s).</source>
        <translation>
            <numerusform>Розіслано %n піру.</numerusform>
            <numerusform>Розіслано %n пірам.</numerusform>
            <numerusform>Розіслано %n пірам.</numerusform>
        </translation>
    </message>
    <message>
        <source>Select the message to reply to.</source>
        <translation>Виберіть повідомлення, на яке треба відповісти.</translation>
    </message>
    <message>
        <source>Replied as message #%1.</source>
        <translation>Відповідь надіслано як повідомлення #%1.</translation>
    </message>
</context>
<context>
    <name>App::NotificationSettings</name>
    <message>
        <source>A session needs you</source>
        <translation>Сесія потребує вас</translation>
    </message>
    <message>
        <source>A message for you</source>
        <translation>Повідомлення для вас</translation>
    </message>
    <message>
        <source>A peer joined</source>
        <translation>Під’єднався пір</translation>
    </message>
    <message>
        <source>A peer left</source>
        <translation>Пір пішов</translation>
    </message>
    <message>
        <source>Federation warnings</source>
        <translation>Попередження федерації</translation>
    </message>
    <message>
        <source>A broker asks to pair</source>
        <translation>Брокер просить з’єднатися</translation>
    </message>
    <message>
        <source>An OpenCode session finished</source>
        <translation>Сесія OpenCode завершила роботу</translation>
    </message>
    <message>
        <source>A scheduled run failed</source>
        <translation>Запланований запуск не вдався</translation>
    </message>
    <message>
        <source>Broker problems</source>
        <translation>Проблеми брокера</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>Сповіщення</translation>
    </message>
    <message>
        <source>Show notifications</source>
        <translation>Показувати сповіщення</translation>
    </message>
    <message>
        <source>Only when something waits for me (a session needs me, a pairing request)</source>
        <translation>Лише коли щось чекає на мене (сесія потребує мене, запит на з’єднання)</translation>
    </message>
    <message>
        <source>Quiet hours</source>
        <translation>Тихі години</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Призупинено</translation>
    </message>
    <message>
        <source>Unmute</source>
        <translation>Зняти заглушення</translation>
    </message>
    <message>
        <source>from</source>
        <extracomment>between the start and end of quiet hours</extracomment>
        <translation>з</translation>
    </message>
    <message>
        <source>to</source>
        <extracomment>between the start and end of quiet hours</extracomment>
        <translation>до</translation>
    </message>
    <message>
        <source>Kinds</source>
        <translation>Види</translation>
    </message>
    <message>
        <source>Muted peers</source>
        <translation>Заглушені піри</translation>
    </message>
    <message>
        <source>Paused until %1</source>
        <translation>Призупинено до %1</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Не збережено: %1</translation>
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
    <message>
        <source>Mute session</source>
        <translation>Заглушити сесію</translation>
    </message>
    <message>
        <source>Mute schedule</source>
        <translation>Заглушити розклад</translation>
    </message>
</context>
<context>
    <name>App::OpenCodeActivity</name>
    <message>
        <source>OpenCode %1</source>
        <translation>OpenCode %1</translation>
    </message>
</context>
<context>
    <name>App::OpenCodeRowsModel</name>
    <message>
        <source>(none)</source>
        <translation>(немає)</translation>
    </message>
    <message>
        <source>Name: %1</source>
        <translation>Назва: %1</translation>
    </message>
    <message>
        <source>Kind: OpenCode session, driven by the control service</source>
        <translation>Вид: сеанс OpenCode, яким керує служба керування</translation>
    </message>
    <message>
        <source>ID: %1</source>
        <translation>ID: %1</translation>
    </message>
    <message>
        <source>Machine: this machine</source>
        <translation>Комп’ютер: цей комп’ютер</translation>
    </message>
    <message>
        <source>Directory: %1</source>
        <translation>Каталог: %1</translation>
    </message>
    <message>
        <source>Git root: %1</source>
        <translation>Корінь git: %1</translation>
    </message>
    <message>
        <source>State: %1 (OpenCode status: %2)</source>
        <translation>Стан: %1 (статус OpenCode: %2)</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>невідомо</translation>
    </message>
    <message>
        <source>In state for: %1</source>
        <translation>У цьому стані: %1</translation>
    </message>
    <message>
        <source>What it needs: %1</source>
        <translation>Чого потребує: %1</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>Остання помилка: %1</translation>
    </message>
    <message>
        <source>claude-peers peer of OpenCode in this folder: %1</source>
        <translation>Пір claude-peers від OpenCode у цій теці: %1</translation>
    </message>
    <message>
        <source>(A message to that peer reaches whichever OpenCode chat in this folder uses a claude-peers tool next, not necessarily this session.)</source>
        <translation>(Повідомлення цьому піру отримає той чат OpenCode у цій теці, який наступним скористається інструментом claude-peers, — не обов’язково цей сеанс.)</translation>
    </message>
    <message>
        <source>OpenCode %1</source>
        <translation>OpenCode %1</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>цей комп’ютер</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Помилка: %1</translation>
    </message>
    <message>
        <source>OpenCode</source>
        <extracomment>in the peers&apos; reachability column: the row is an OpenCode session (prompted, not messaged)</extracomment>
        <translation>OpenCode</translation>
    </message>
    <message>
        <source>OpenCode session %1 in %2
Send it a prompt, fork it or wait for it on the Sessions page.</source>
        <translation>Сеанс OpenCode %1 у %2
Надіслати йому запит, відгалузити його або дочекатися його можна на сторінці «Сеанси».</translation>
    </message>
    <message>
        <source>Waiting for your answer to a %1: %2</source>
        <translation>Чекає на вашу відповідь (%1): %2</translation>
    </message>
    <message>
        <source>An OpenCode session driven by the control service: it gets prompts (send, fork), not claude-peers messages.</source>
        <translation>Сеанс OpenCode, яким керує служба керування: він отримує запити (надіслати, відгалузити), а не повідомлення claude-peers.</translation>
    </message>
</context>
<context>
    <name>App::OperatorPeer</name>
    <message>
        <source>The operator is not registered with the broker yet; try again when the broker is running.</source>
        <translation>Оператор ще не зареєстрований у брокері; спробуйте ще раз, коли брокер працюватиме.</translation>
    </message>
    <message>
        <source>Message #%1 came from &quot;%2&quot;, which cannot receive a reply.</source>
        <translation>Повідомлення #%1 надійшло від «%2», який не може отримати відповідь.</translation>
    </message>
</context>
<context>
    <name>App::PairedBrokersModel</name>
    <message>
        <source>connected</source>
        <translation>з’єднано</translation>
    </message>
    <message>
        <source>evicted (no answer for 90 s), reconnecting</source>
        <translation>від’єднано (немає відповіді 90 с), повторне з’єднання</translation>
    </message>
    <message>
        <source>reconnecting</source>
        <translation>повторне з’єднання</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation>з’єднання</translation>
    </message>
    <message>
        <source>(not answered yet)</source>
        <translation>(ще не відповів)</translation>
    </message>
    <message>
        <source>not pinned</source>
        <translation>не закріплено</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>Комп’ютер</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>Зв’язок</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Адреса</translation>
    </message>
    <message>
        <source>Fingerprint</source>
        <translation>Відбиток</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>Остання активність</translation>
    </message>
    <message>
        <source>Peers</source>
        <translation>Піри</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 мс</translation>
    </message>
    <message numerus="yes">
        <source>Round trip of its peer sync: last %1, smoothed %2 (%n sample(s))</source>
        <translation>
            <numerusform>Час обміну синхронізації пірів: останній %1, згладжений %2 (%n вимірювання)</numerusform>
            <numerusform>Час обміну синхронізації пірів: останній %1, згладжений %2 (%n вимірювання)</numerusform>
            <numerusform>Час обміну синхронізації пірів: останній %1, згладжений %2 (%n вимірювань)</numerusform>
        </translation>
    </message>
    <message>
        <source>Round trip</source>
        <translation>Час обміну</translation>
    </message>
</context>
<context>
    <name>App::PeerFacts</name>
    <message>
        <source>push</source>
        <translation>push</translation>
    </message>
    <message>
        <source>poll only</source>
        <translation>лише опитування</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>застарілий</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>недосяжний</translation>
    </message>
    <message>
        <source>Its channel push works: a message shows in the session within milliseconds.</source>
        <translation>Push через канал працює: повідомлення з’являється в сеансі за мілісекунди.</translation>
    </message>
    <message>
        <source>Push is not confirmed for this session: it reads messages when it next checks.</source>
        <translation>Push для цього сеансу не підтверджено: він прочитає повідомлення під час наступної перевірки.</translation>
    </message>
    <message numerus="yes">
        <source>No heartbeat for over %n seconds: the session may be suspended or stuck.</source>
        <translation>
            <numerusform>Немає сигналу життя понад %n секунду: сеанс, можливо, призупинено або він завис.</numerusform>
            <numerusform>Немає сигналу життя понад %n секунди: сеанс, можливо, призупинено або він завис.</numerusform>
            <numerusform>Немає сигналу життя понад %n секунд: сеанс, можливо, призупинено або він завис.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Silent for over %n seconds: a message would wait until it comes back, if ever.</source>
        <translation>
            <numerusform>Мовчить понад %n секунду: повідомлення чекатиме, доки він повернеться, якщо взагалі повернеться.</numerusform>
            <numerusform>Мовчить понад %n секунди: повідомлення чекатиме, доки він повернеться, якщо взагалі повернеться.</numerusform>
            <numerusform>Мовчить понад %n секунд: повідомлення чекатиме, доки він повернеться, якщо взагалі повернеться.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 [%2]</source>
        <translation>%1 [%2]</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(немає)</translation>
    </message>
    <message>
        <source>Name: %1</source>
        <translation>Назва: %1</translation>
    </message>
    <message>
        <source>ID: %1</source>
        <translation>ID: %1</translation>
    </message>
    <message>
        <source>Machine: %1</source>
        <translation>Комп’ютер: %1</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>цей комп’ютер</translation>
    </message>
    <message>
        <source>Project: %1</source>
        <translation>Проєкт: %1</translation>
    </message>
    <message>
        <source>Directory: %1</source>
        <translation>Каталог: %1</translation>
    </message>
    <message>
        <source>Git root: %1</source>
        <translation>Корінь git: %1</translation>
    </message>
    <message>
        <source>Summary: %1</source>
        <translation>Опис: %1</translation>
    </message>
    <message>
        <source>State: %1</source>
        <translation>Стан: %1</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>невідомо</translation>
    </message>
    <message>
        <source>In state since: %1</source>
        <translation>У цьому стані з: %1</translation>
    </message>
    <message>
        <source>What it needs: %1</source>
        <translation>Чого потребує: %1</translation>
    </message>
    <message>
        <source>Reachability: %1 (channel push: %2)</source>
        <translation>Досяжність: %1 (push через канал: %2)</translation>
    </message>
    <message>
        <source>Last seen: %1</source>
        <translation>Остання активність: %1</translation>
    </message>
    <message>
        <source>Registered: %1</source>
        <translation>Зареєстровано: %1</translation>
    </message>
    <message>
        <source>PID: %1</source>
        <translation>PID: %1</translation>
    </message>
    <message>
        <source>TTY: %1</source>
        <translation>TTY: %1</translation>
    </message>
    <message>
        <source>Client: %1</source>
        <translation>Клієнт: %1</translation>
    </message>
    <message>
        <source>Helper version: %1</source>
        <translation>Версія помічника: %1</translation>
    </message>
    <message>
        <source>Repository %1: the sessions working anywhere in it share this scope.</source>
        <translation>Репозиторій %1: сеанси, що працюють будь-де в ньому, мають спільну область.</translation>
    </message>
    <message>
        <source>Folder %1 (not in a git repository): the sessions working in this folder share this scope.</source>
        <translation>Тека %1 (не в репозиторії git): сеанси, що працюють у цій теці, мають спільну область.</translation>
    </message>
</context>
<context>
    <name>App::PeerScope</name>
    <message>
        <source>All scopes</source>
        <translation>Усі області</translation>
    </message>
    <message>
        <source>Machine: this machine</source>
        <translation>Комп’ютер: цей комп’ютер</translation>
    </message>
    <message>
        <source>Machine: %1</source>
        <translation>Комп’ютер: %1</translation>
    </message>
    <message>
        <source>Repo: %1</source>
        <extracomment>a git repository&apos;s folder, and the machine it is on</extracomment>
        <translation>Репозиторій: %1</translation>
    </message>
    <message>
        <source>Repo: %1 (%2)</source>
        <translation>Репозиторій: %1 (%2)</translation>
    </message>
    <message>
        <source>Folder: %1</source>
        <extracomment>a working folder, and the machine it is on</extracomment>
        <translation>Тека: %1</translation>
    </message>
    <message>
        <source>Folder: %1 (%2)</source>
        <translation>Тека: %1 (%2)</translation>
    </message>
</context>
<context>
    <name>App::PeersByMachineModel</name>
    <message numerus="yes">
        <source>This machine (%n peer(s))</source>
        <translation>
            <numerusform>Цей комп’ютер (%n пір)</numerusform>
            <numerusform>Цей комп’ютер (%n піри)</numerusform>
            <numerusform>Цей комп’ютер (%n пірів)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n peer(s))</source>
        <translation>
            <numerusform>%1 (%n пір)</numerusform>
            <numerusform>%1 (%n піри)</numerusform>
            <numerusform>%1 (%n пірів)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This machine (%n OpenCode session(s))</source>
        <translation>
            <numerusform>Цей комп’ютер (%n сеанс OpenCode)</numerusform>
            <numerusform>Цей комп’ютер (%n сеанси OpenCode)</numerusform>
            <numerusform>Цей комп’ютер (%n сеансів OpenCode)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This machine (%n peer(s), %1)</source>
        <extracomment>%1 is &quot;%n OpenCode session(s)&quot;</extracomment>
        <translation>
            <numerusform>Цей комп’ютер (%n пір, %1)</numerusform>
            <numerusform>Цей комп’ютер (%n піри, %1)</numerusform>
            <numerusform>Цей комп’ютер (%n пірів, %1)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n OpenCode session(s)</source>
        <translation>
            <numerusform>%n сеанс OpenCode</numerusform>
            <numerusform>%n сеанси OpenCode</numerusform>
            <numerusform>%n сеансів OpenCode</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <extracomment>a remote machine&apos;s row on the Peers page: %1 its name and count, %2 its link&apos;s health</extracomment>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Certificate fingerprint: %1</source>
        <translation>Відбиток сертифіката: %1</translation>
    </message>
</context>
<context>
    <name>App::PeersModel</name>
    <message>
        <source>this machine</source>
        <translation>цей комп’ютер</translation>
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
        <source>Last seen</source>
        <translation>Остання активність</translation>
    </message>
    <message>
        <source>Also working in %1: %2.
Two sessions editing one folder overwrite each other&apos;s changes.</source>
        <translation>Також працює в %1: %2.
Два сеанси, що редагують одну теку, перезаписують зміни одне одного.</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Проєкт</translation>
    </message>
    <message>
        <source>Reachability</source>
        <translation>Досяжність</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Область</translation>
    </message>
</context>
<context>
    <name>App::PeersPage</name>
    <message>
        <source>Copy details</source>
        <translation>Копіювати подробиці</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Перейменувати</translation>
    </message>
    <message>
        <source>Retry broker start</source>
        <translation>Повторити запуск брокера</translation>
    </message>
    <message>
        <source>Filter by name, machine, ID, project, directory or summary</source>
        <translation>Фільтр за назвою, комп’ютером, ID, проєктом, каталогом або описом</translation>
    </message>
    <message>
        <source>Select a peer to see every field of its record.</source>
        <translation>Виберіть піра, щоб побачити всі поля його запису.</translation>
    </message>
    <message>
        <source>New session name</source>
        <translation>Нова назва сеансу</translation>
    </message>
    <message>
        <source>A remote peer is renamed on its own machine.</source>
        <translation>Віддалений пір перейменовують на його власному комп’ютері.</translation>
    </message>
    <message>
        <source>Type a name first.</source>
        <translation>Спершу введіть назву.</translation>
    </message>
    <message>
        <source>Renaming…</source>
        <translation>Перейменування…</translation>
    </message>
    <message>
        <source>Could not rename %1: %2</source>
        <translation>Не вдалося перейменувати %1: %2</translation>
    </message>
    <message>
        <source>The broker did not rename %1 (is it still registered?).</source>
        <translation>Брокер не перейменував %1 (чи він ще зареєстрований?).</translation>
    </message>
    <message>
        <source>Renamed %1 to &quot;%2&quot;.</source>
        <translation>%1 перейменовано на «%2».</translation>
    </message>
    <message>
        <source>Message…</source>
        <translation>Повідомлення…</translation>
    </message>
    <message>
        <source>Send, fork or wait…</source>
        <translation>Надіслати, відгалузити або чекати…</translation>
    </message>
    <message>
        <source>Show one machine, one repository or one folder (the scopes of list_peers and broadcast)</source>
        <translation>Показати один комп’ютер, один репозиторій або одну теку (області list_peers і broadcast)</translation>
    </message>
    <message>
        <source>Write to this peer as the operator, on the Messages page</source>
        <translation>Написати цьому піру як оператор, на сторінці «Повідомлення»</translation>
    </message>
    <message>
        <source>Send this OpenCode session a prompt, fork it or wait for it, on the Sessions page</source>
        <translation>Надіслати цьому сеансу OpenCode запит, відгалузити його або дочекатися його, на сторінці «Сеанси»</translation>
    </message>
    <message>
        <source>An OpenCode session&apos;s title is set in OpenCode.</source>
        <translation>Назву сеансу OpenCode задають в OpenCode.</translation>
    </message>
</context>
<context>
    <name>App::PendingRequestsModel</name>
    <message>
        <source>%1 (%2:%3) — code %4</source>
        <translation>%1 (%2:%3) — код %4</translation>
    </message>
</context>
<context>
    <name>App::QrCode</name>
    <message>
        <source>Nothing to encode</source>
        <translation>Нічого кодувати</translation>
    </message>
    <message numerus="yes">
        <source>The text does not fit in a QR code (%n bytes)</source>
        <translation>
            <numerusform>Текст не вміщується в QR-код (%n байт)</numerusform>
            <numerusform>Текст не вміщується в QR-код (%n байти)</numerusform>
            <numerusform>Текст не вміщується в QR-код (%n байтів)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::SchedulesModel</name>
    <message>
        <source>Daily at %1</source>
        <translation>Щодня о %1</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 о %2</translation>
    </message>
    <message>
        <source>Once on %1 at %2</source>
        <translation>Один раз %1 о %2</translation>
    </message>
    <message>
        <source>Cron %1</source>
        <translation>Cron %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>running</source>
        <translation>виконується</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>успішно</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>помилка</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>помилка: %1</translation>
    </message>
    <message>
        <source>not run yet</source>
        <translation>ще не запускалося</translation>
    </message>
    <message>
        <source>Session %1</source>
        <translation>Сеанс %1</translation>
    </message>
    <message>
        <source>enabled</source>
        <translation>увімкнено</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>вимкнено</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Завдання</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Розклад</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Увімкнено</translation>
    </message>
    <message>
        <source>Next run</source>
        <translation>Наступний запуск</translation>
    </message>
    <message>
        <source>Last run</source>
        <translation>Останній запуск</translation>
    </message>
    <message>
        <source>Last status</source>
        <translation>Останній стан</translation>
    </message>
    <message>
        <source>sent message #%1</source>
        <translation>надіслано повідомлення #%1</translation>
    </message>
    <message>
        <source>Message #%1 to %2</source>
        <translation>Повідомлення #%1 до %2</translation>
    </message>
    <message>
        <source>peer %1</source>
        <translation>пір %1</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ціль</translation>
    </message>
</context>
<context>
    <name>App::SchedulesPage</name>
    <message>
        <source>Refresh</source>
        <translation>Оновити</translation>
    </message>
    <message>
        <source>Disable</source>
        <translation>Вимкнути</translation>
    </message>
    <message>
        <source>Run now</source>
        <translation>Запустити зараз</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Видалити…</translation>
    </message>
    <message>
        <source>Open the session</source>
        <translation>Відкрити сеанс</translation>
    </message>
    <message>
        <source>Create it disabled</source>
        <translation>Створити вимкненим</translation>
    </message>
    <message>
        <source>Create task</source>
        <translation>Створити завдання</translation>
    </message>
    <message>
        <source>Delete the scheduled task</source>
        <translation>Видалити заплановане завдання</translation>
    </message>
    <message>
        <source>provider/model</source>
        <translation>постачальник/модель</translation>
    </message>
    <message>
        <source>default agent</source>
        <translation>типовий агент</translation>
    </message>
    <message>
        <source>default variant</source>
        <translation>типовий варіант</translation>
    </message>
    <message>
        <source>Daily</source>
        <translation>Щодня</translation>
    </message>
    <message>
        <source>Weekly</source>
        <translation>Щотижня</translation>
    </message>
    <message>
        <source>Once</source>
        <translation>Один раз</translation>
    </message>
    <message>
        <source>Cron</source>
        <translation>Cron</translation>
    </message>
    <message>
        <source>minute hour day month weekday, e.g. 0 9 * * 1-5</source>
        <translation>хвилина година день місяць день_тижня, напр. 0 9 * * 1-5</translation>
    </message>
    <message>
        <source>Project:</source>
        <translation>Проєкт:</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>Назва:</translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation>Запит:</translation>
    </message>
    <message>
        <source>Agent:</source>
        <translation>Агент:</translation>
    </message>
    <message>
        <source>Variant:</source>
        <translation>Варіант:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Модель:</translation>
    </message>
    <message>
        <source>When:</source>
        <translation>Коли:</translation>
    </message>
    <message>
        <source>Weekdays:</source>
        <translation>Дні тижня:</translation>
    </message>
    <message>
        <source>Time zone:</source>
        <translation>Часовий пояс:</translation>
    </message>
    <message>
        <source>New scheduled task</source>
        <translation>Нове заплановане завдання</translation>
    </message>
    <message>
        <source>Delete the scheduled task “%1”? Its runs&apos; sessions stay in OpenCode.</source>
        <translation>Видалити заплановане завдання «%1»? Сеанси його запусків залишаться в OpenCode.</translation>
    </message>
    <message>
        <source>Could not list the scheduled tasks: %1</source>
        <translation>Не вдалося отримати заплановані завдання: %1</translation>
    </message>
    <message>
        <source>No projects configured: add them under &quot;openchamber&quot; → &quot;projects&quot; in ~/.claude-peers-config.json.</source>
        <translation>Проєктів не налаштовано: додайте їх у &quot;openchamber&quot; → &quot;projects&quot; у ~/.claude-peers-config.json.</translation>
    </message>
    <message numerus="yes">
        <source>%n scheduled task(s)</source>
        <translation>
            <numerusform>%n заплановане завдання</numerusform>
            <numerusform>%n заплановані завдання</numerusform>
            <numerusform>%n запланованих завдань</numerusform>
        </translation>
    </message>
    <message>
        <source>The task ran: session %1.</source>
        <translation>Завдання виконано: сеанс %1.</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 — помилка: %2</translation>
    </message>
    <message>
        <source>Enable</source>
        <translation>Увімкнути</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>A new OpenCode session in a project</source>
        <translation>Новий сеанс OpenCode у проєкті</translation>
    </message>
    <message>
        <source>A message to a peer</source>
        <translation>Повідомлення піру</translation>
    </message>
    <message>
        <source>the peer&apos;s session name (or id)</source>
        <translation>назва сеансу піра (або id)</translation>
    </message>
    <message>
        <source>At the task&apos;s time the prompt goes to the connected peer of this session name (else id) as a message from you. It need not be connected now.</source>
        <translation>У час завдання запит надійде як повідомлення від вас підключеному піру з цією назвою сеансу (інакше з цим id). Зараз він може бути не підключений.</translation>
    </message>
    <message>
        <source>Target:</source>
        <translation>Ціль:</translation>
    </message>
    <message>
        <source>Delete the scheduled task “%1”? The messages it sent stay.</source>
        <translation>Видалити заплановане завдання «%1»? Надіслані ним повідомлення залишаться.</translation>
    </message>
    <message>
        <source>The task ran: message #%1 to %2.</source>
        <translation>Завдання виконано: повідомлення #%1 до %2.</translation>
    </message>
    <message>
        <source>Open the message</source>
        <translation>Відкрити повідомлення</translation>
    </message>
    <message>
        <source>%1 (id %2) in %3</source>
        <translation>%1 (id %2) у %3</translation>
    </message>
    <message>
        <source>Choose the peer to message, or type its session name.</source>
        <translation>Виберіть піра для повідомлення або введіть назву його сеансу.</translation>
    </message>
</context>
<context>
    <name>App::SessionsModel</name>
    <message>
        <source>needs you (permission)</source>
        <translation>чекає на вас (дозвіл)</translation>
    </message>
    <message>
        <source>needs you (permission: %1)</source>
        <translation>чекає на вас (дозвіл: %1)</translation>
    </message>
    <message>
        <source>needs you (question)</source>
        <translation>чекає на вас (питання)</translation>
    </message>
    <message>
        <source>needs you (question: %1)</source>
        <translation>чекає на вас (питання: %1)</translation>
    </message>
    <message>
        <source>needs you</source>
        <translation>чекає на вас</translation>
    </message>
    <message>
        <source>busy</source>
        <translation>працює</translation>
    </message>
    <message>
        <source>retrying</source>
        <translation>повторна спроба</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>простоює</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>невідомо</translation>
    </message>
    <message>
        <source>%1 — error: %2</source>
        <translation>%1 — помилка: %2</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>Сеанс</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Стан</translation>
    </message>
    <message>
        <source>In state</source>
        <translation>У стані</translation>
    </message>
    <message>
        <source>Directory</source>
        <translation>Каталог</translation>
    </message>
    <message>
        <source>Last answer</source>
        <translation>Остання відповідь</translation>
    </message>
</context>
<context>
    <name>App::SessionsPage</name>
    <message>
        <source>Refresh</source>
        <translation>Оновити</translation>
    </message>
    <message>
        <source>Wait for the answer</source>
        <translation>Чекати на відповідь</translation>
    </message>
    <message>
        <source>Create session</source>
        <translation>Створити сеанс</translation>
    </message>
    <message>
        <source>Send to selected</source>
        <translation>Надіслати вибраному</translation>
    </message>
    <message>
        <source>Fork selected</source>
        <translation>Відгалузити вибраний</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Скасувати</translation>
    </message>
    <message>
        <source>The selected session&apos;s last answer</source>
        <translation>Остання відповідь вибраного сеансу</translation>
    </message>
    <message>
        <source>A configured project, or a directory to create the session in</source>
        <translation>Налаштований проєкт або каталог, у якому створити сеанс</translation>
    </message>
    <message>
        <source>Title (optional)</source>
        <translation>Заголовок (необов’язково)</translation>
    </message>
    <message>
        <source>Prompt (optional for a new session)</source>
        <translation>Запит (для нового сеансу необов’язковий)</translation>
    </message>
    <message>
        <source>provider/model; empty: the configured default</source>
        <translation>постачальник/модель; порожньо — налаштована типова</translation>
    </message>
    <message>
        <source>OpenCode agent; empty: the default. The service checks it against OpenCode.</source>
        <translation>Агент OpenCode; порожньо — типовий. Служба перевіряє його в OpenCode.</translation>
    </message>
    <message>
        <source>default (600 s)</source>
        <translation>типово (600 с)</translation>
    </message>
    <message>
        <source> s</source>
        <translation> с</translation>
    </message>
    <message>
        <source>Project or directory:</source>
        <translation>Проєкт або каталог:</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>Заголовок:</translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation>Запит:</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>Модель:</translation>
    </message>
    <message>
        <source>Agent:</source>
        <translation>Агент:</translation>
    </message>
    <message>
        <source>Variant:</source>
        <translation>Варіант:</translation>
    </message>
    <message>
        <source>Timeout:</source>
        <translation>Час очікування:</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>Запит</translation>
    </message>
    <message numerus="yes">
        <source>%n OpenCode session(s)</source>
        <translation>
            <numerusform>%n сеанс OpenCode</numerusform>
            <numerusform>%n сеанси OpenCode</numerusform>
            <numerusform>%n сеансів OpenCode</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not list the sessions: %1</source>
        <translation>Не вдалося отримати сеанси: %1</translation>
    </message>
    <message>
        <source>The prompt did not reach the session: %1</source>
        <translation>Запит не дійшов до сеансу: %1</translation>
    </message>
    <message>
        <source>Cancelled: %1 no longer waits (the broker stopped it).</source>
        <translation>Скасовано: %1 більше не чекає (брокер його зупинив).</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>provider/model</source>
        <translation>постачальник/модель</translation>
    </message>
    <message>
        <source>default: %1</source>
        <translation>типово: %1</translation>
    </message>
    <message>
        <source>default agent</source>
        <translation>типовий агент</translation>
    </message>
    <message>
        <source>default variant</source>
        <translation>типовий варіант</translation>
    </message>
    <message numerus="yes">
        <source>Waiting for the session&apos;s answer… %n s</source>
        <translation>
            <numerusform>Очікування відповіді сеансу… %n с</numerusform>
            <numerusform>Очікування відповіді сеансу… %n с</numerusform>
            <numerusform>Очікування відповіді сеансу… %n с</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 running… %n s</source>
        <translation>
            <numerusform>%1 виконується… %n с</numerusform>
            <numerusform>%1 виконується… %n с</numerusform>
            <numerusform>%1 виконується… %n с</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App::SessionsPresenter</name>
    <message>
        <source>Choose a project or a directory for the new session.</source>
        <translation>Виберіть проєкт або каталог для нового сеансу.</translation>
    </message>
    <message>
        <source>Choose the session to send the prompt to.</source>
        <translation>Виберіть сеанс, якому надіслати запит.</translation>
    </message>
    <message>
        <source>Write the prompt to send.</source>
        <translation>Напишіть запит для надсилання.</translation>
    </message>
    <message>
        <source>The model must be written provider/model, e.g. openai/gpt-5.</source>
        <translation>Модель слід вказувати як постачальник/модель, напр. openai/gpt-5.</translation>
    </message>
    <message>
        <source>Wait for %1 to finish, or cancel it.</source>
        <translation>Зачекайте, доки %1 завершиться, або скасуйте.</translation>
    </message>
</context>
<context>
    <name>App::SettingsPage</name>
    <message>
        <source>Save</source>
        <translation>Зберегти</translation>
    </message>
    <message>
        <source>Start claude-peers at login</source>
        <translation>Запускати claude-peers під час входу</translation>
    </message>
    <message>
        <source>%1 — set by CLAUDE_PEERS_PORT in the environment of the tray and of every session (as claude-peers 0.7 does); changing it needs a restart of the tray and the sessions.</source>
        <translation>%1 — задано змінною CLAUDE_PEERS_PORT у середовищі програми в лотку та кожного сеансу (як у claude-peers 0.7); зміна потребує перезапуску програми в лотку та сеансів.</translation>
    </message>
    <message>
        <source>7900 (default)</source>
        <translation>7900 (типово)</translation>
    </message>
    <message>
        <source>detected local networks (default), e.g. 192.168.1.0/24, fd00::/64</source>
        <translation>виявлені локальні мережі (типово), напр. 192.168.1.0/24, fd00::/64</translation>
    </message>
    <message>
        <source>http://127.0.0.1:4096 (default)</source>
        <translation>http://127.0.0.1:4096 (типово)</translation>
    </message>
    <message>
        <source>Broker and federation</source>
        <translation>Брокер і федерація</translation>
    </message>
    <message>
        <source>Broker port</source>
        <translation>Порт брокера</translation>
    </message>
    <message>
        <source>Federation port</source>
        <translation>Порт федерації</translation>
    </message>
    <message>
        <source>Allowed subnets</source>
        <translation>Дозволені підмережі</translation>
    </message>
    <message>
        <source>OpenCode URL</source>
        <translation>URL OpenCode</translation>
    </message>
    <message>
        <source>Login</source>
        <translation>Вхід</translation>
    </message>
    <message>
        <source>Connect sessions</source>
        <translation>Під’єднання сеансів</translation>
    </message>
    <message>
        <source>Claude Code: register the MCP helper (run once in a terminal)</source>
        <translation>Claude Code: зареєструйте помічника MCP (виконайте один раз у терміналі)</translation>
    </message>
    <message>
        <source>OpenCode: add to opencode.json (project) or ~/.config/opencode/opencode.json</source>
        <translation>OpenCode: додайте до opencode.json (проєкт) або ~/.config/opencode/opencode.json</translation>
    </message>
    <message>
        <source>Claude Code hooks (needs-you / busy / idle): merge into ~/.claude/settings.json</source>
        <translation>Хуки Claude Code (чекає на вас / працює / простоює): додайте до ~/.claude/settings.json</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Копіювати</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Не збережено: %1</translation>
    </message>
    <message>
        <source>Nothing changed.</source>
        <translation>Нічого не змінено.</translation>
    </message>
    <message>
        <source> The OpenCode URL applies when the broker starts again: quit and start the tray, or run `claude-peers restart`.</source>
        <translation> URL OpenCode набуде чинності після наступного запуску брокера: закрийте й запустіть програму в лотку або виконайте `claude-peers restart`.</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>Збережено.</translation>
    </message>
    <message>
        <source>Saved; asking the broker to apply it…</source>
        <translation>Збережено; просимо брокер застосувати…</translation>
    </message>
    <message>
        <source>Saved; the broker applied it.</source>
        <translation>Збережено; брокер застосував зміни.</translation>
    </message>
    <message>
        <source>Saved; the broker did not take it now (%1), it reads the file when it starts.</source>
        <translation>Збережено; брокер не застосував зміни зараз (%1), він прочитає файл під час запуску.</translation>
    </message>
</context>
<context>
    <name>App::StatusPage</name>
    <message>
        <source>Copy diagnostics</source>
        <translation>Копіювати діагностику</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Порт</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>База даних</translation>
    </message>
    <message>
        <source>Uptime</source>
        <translation>Час роботи</translation>
    </message>
    <message>
        <source>Rates</source>
        <translation>Швидкість</translation>
    </message>
    <message>
        <source>Peers</source>
        <translation>Піри</translation>
    </message>
    <message>
        <source>Pending messages</source>
        <translation>Повідомлення в черзі</translation>
    </message>
    <message>
        <source>Federation</source>
        <translation>Федерація</translation>
    </message>
    <message>
        <source>Secrets</source>
        <translation>Секрети</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Версія</translation>
    </message>
    <message>
        <source>The text of `claude-peers status` and `claude-peers metrics`, with the database and versions, for a bug report</source>
        <translation>Виведення `claude-peers status` і `claude-peers metrics` разом із базою даних і версіями — для звіту про ваду</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>The broker does not answer: %1</source>
        <translation>Брокер не відповідає: %1</translation>
    </message>
    <message>
        <source>The broker does not answer.</source>
        <translation>Брокер не відповідає.</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>невідомо</translation>
    </message>
    <message>
        <source>broker %1, pid %2; tray %3, Qt %4</source>
        <translation>брокер %1, PID %2; лоток %3, Qt %4</translation>
    </message>
    <message>
        <source>(not said)</source>
        <translation>(не вказано)</translation>
    </message>
    <message numerus="yes">
        <source>%1 messages/s, %n request(s) in the last minute; %2 messages stored, %3% delivered</source>
        <translation>
            <numerusform>%1 повідомл./с, %n запит за останню хвилину; збережено повідомлень: %2, доставлено %3%</numerusform>
            <numerusform>%1 повідомл./с, %n запити за останню хвилину; збережено повідомлень: %2, доставлено %3%</numerusform>
            <numerusform>%1 повідомл./с, %n запитів за останню хвилину; збережено повідомлень: %2, доставлено %3%</numerusform>
        </translation>
    </message>
    <message>
        <source>off (turn it on in the Federation page or with `claude-peers federation init`)</source>
        <translation>вимкнено (увімкніть на сторінці «Федерація» або командою `claude-peers federation init`)</translation>
    </message>
    <message>
        <source>unknown: %1</source>
        <translation>невідомо: %1</translation>
    </message>
    <message>
        <source>on: %1, %2</source>
        <translation>увімкнено: %1, %2</translation>
    </message>
    <message numerus="yes">
        <source>%n machine(s) linked</source>
        <translation>
            <numerusform>з’єднано %n комп’ютер</numerusform>
            <numerusform>з’єднано %n комп’ютери</numerusform>
            <numerusform>з’єднано %n комп’ютерів</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n remote peer(s)</source>
        <translation>
            <numerusform>%n віддалений пір</numerusform>
            <numerusform>%n віддалені піри</numerusform>
            <numerusform>%n віддалених пірів</numerusform>
        </translation>
    </message>
    <message>
        <source>not reported by this broker (a 0.7 broker keeps the token in the file %1)</source>
        <translation>цей брокер не повідомляє (брокер 0.7 тримає токен у файлі %1)</translation>
    </message>
    <message>
        <source>local token in the OS keychain (%1); token file %2</source>
        <translation>локальний токен у сховищі ключів системи (%1); файл токена %2</translation>
    </message>
    <message>
        <source>local token in the file %1</source>
        <translation>локальний токен у файлі %1</translation>
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
    <message>
        <source>Messages</source>
        <translation>Повідомлення</translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation>Сеанси</translation>
    </message>
    <message>
        <source>Schedules</source>
        <translation>Розклади</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Стан</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Налаштування</translation>
    </message>
    <message>
        <source>Federation</source>
        <translation>Федерація</translation>
    </message>
    <message>
        <source>%1 wrote to you</source>
        <translation>%1 написав вам</translation>
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
    <message>
        <source>Send…</source>
        <translation>Надіслати…</translation>
    </message>
    <message>
        <source>New OpenCode session…</source>
        <translation>Новий сеанс OpenCode…</translation>
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
    <message>
        <source>Broker running in another process (pid %1) on port %2 — %3, %4</source>
        <extracomment>%1 is a process id; %3 is &quot;%n peer(s)&quot;, %4 is &quot;%n pending&quot;</extracomment>
        <translation>Брокер працює в іншому процесі (PID %1) на порту %2 — %3, %4</translation>
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
    <message>
        <source>No tray icon: the window is the app.</source>
        <translation>Без значка в лотку: програмою є вікно.</translation>
    </message>
    <message>
        <source>Host the broker without any window or icon (a headless broker).</source>
        <translation>Запускати брокер без вікна та значка (брокер без інтерфейсу).</translation>
    </message>
    <message>
        <source>Show the first-run wizard again.</source>
        <translation>Знову показати майстер першого запуску.</translation>
    </message>
    <message>
        <source>When no system tray is there at start, wait for one to appear (e.g. a panel that starts after the app at login) instead of showing the window. The broker runs meanwhile.</source>
        <translation>Якщо під час запуску системного лотка немає, чекати на його появу (напр. панель, що запускається після програми під час входу) замість показу вікна. Брокер тим часом працює.</translation>
    </message>
</context>
</TS>
